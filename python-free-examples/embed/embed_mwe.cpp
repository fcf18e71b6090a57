//===- embed_mwe.cpp - The MWE through the embedded C++ API ---------------===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//
//
//   embed_mwe PATH/TO/while_of_while.mlir
//
// Compiles the MWE's scalar `solve` once and calls it for 30 lanes, with the
// keys of jax.random.split(jax.random.PRNGKey(0), 30) and inits 0.1, as the
// seed's jax.vmap does; prints one line per lane. Uses nothing but the public
// headers: loom/Loom.h, the runtime's HostBuffer and the host threefry.
// Exits non-zero if anything fails or lane 0 differs from
// shared/reference/golden.md.
//
//===----------------------------------------------------------------------===//

#include "loom/Loom.h"
#include "loom/Runtime/HostBuffer.h"
#include "loom/Support/Threefry.h"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

int main(int argc, char **argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s while_of_while.mlir\n", argv[0]);
    return 2;
  }

  loom::CompileOptions options;
  options.entry = "solve";
  loom::Result<loom::Executable> exe =
      loom::Executable::compileFile(argv[1], options);
  if (!exe) {
    std::fprintf(stderr, "embed_mwe: %s\n", exe.message().c_str());
    return 1;
  }
  std::printf("compiled @solve in %.1f ms\n",
              1e3 * exe->compileTimes().total());

  constexpr size_t kLanes = 30;
  std::vector<uint32_t> keys = loom::threefry::split(
      loom::threefry::prngKey(0), kLanes, /*partitionable=*/false);
  float init = 0.1f;

  std::printf("lane  key                        y\n");
  std::vector<float> ys;
  for (size_t lane = 0; lane < kLanes; ++lane) {
    // Views of this program's memory: the call reads them in place.
    auto initView = loom::HostBuffer::view(loom::DType::F32, {1}, &init);
    auto keyView =
        loom::HostBuffer::view(loom::DType::U32, {2}, &keys[2 * lane]);
    if (!initView || !keyView) {
      std::fprintf(stderr, "embed_mwe: cannot view the inputs\n");
      return 1;
    }
    auto outputs = exe->callNamed({{"init", *initView}, {"key", *keyView}});
    if (!outputs) {
      std::fprintf(stderr, "embed_mwe: lane %zu: %s\n", lane,
                   outputs.message().c_str());
      return 1;
    }
    float y = *(*outputs)[0].dataAs<float>();
    ys.push_back(y);
    std::printf("%4zu  [%10u, %10u]  %.9g\n", lane, keys[2 * lane],
                keys[2 * lane + 1], y);
  }

  // golden.md, "The pure-JAX MWE": lane 0 ends at y = 13.51270866394043.
  // Within 1e-6 relative, as golden.md asks of values that go through sin.
  const double golden = 13.51270866394043;
  if (std::abs(ys[0] - golden) > 1e-6 * golden) {
    std::fprintf(stderr, "embed_mwe: lane 0 gave %.9g, golden.md has %.9g\n",
                 ys[0], golden);
    return 1;
  }
  std::printf("lane 0 matches golden.md\n");
  return 0;
}
