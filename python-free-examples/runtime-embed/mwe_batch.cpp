//===- mwe_batch.cpp - An AOT-compiled MWE through Loom::Runtime alone ----===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//
//
//   mwe_batch MWE.so [LANES]
//
// Loads the library that `loom-compile while_of_while.mlir` wrote and calls
// its vmapped @main once on the seed's batch: inits 0.1 and the keys of
// jax.random.split(jax.random.PRNGKey(0), LANES) (30 by default). Prints
// one line per lane and exits non-zero unless lane 0 is
// shared/reference/golden.md's. Links only Loom::Runtime: no LLVM, no MLIR,
// nothing but glibc, libstdc++, libm and libgcc_s.
//
//===----------------------------------------------------------------------===//

#include "loom/Loom.h"
#include "loom/Runtime/HostBuffer.h"
#include "loom/Support/Threefry.h"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

static int fail(const std::string &message) {
  std::fprintf(stderr, "mwe_batch: %s\n", message.c_str());
  return 1;
}

int main(int argc, char **argv) {
  if (argc < 2 || argc > 3) {
    std::fprintf(stderr, "usage: %s MWE.so [LANES]\n", argv[0]);
    return 2;
  }
  int64_t lanes = argc == 3 ? std::atoll(argv[2]) : 30;
  if (lanes < 1)
    return fail(std::string("bad lane count '") + argv[2] + "'");

  loom::Result<loom::Executable> exe = loom::Executable::load(argv[1]);
  if (!exe)
    return fail(exe.message());
  std::printf("loaded %s in %.1f ms\n", argv[1],
              1e3 * exe->compileTimes().total());

  std::vector<float> inits(lanes, 0.1f);
  std::vector<uint32_t> keys = loom::threefry::split(
      loom::threefry::prngKey(0), lanes, /*partitionable=*/false);
  // Views of this program's memory: the call reads them in place.
  auto initsView =
      loom::HostBuffer::view(loom::DType::F32, {lanes, 1}, inits.data());
  auto keysView =
      loom::HostBuffer::view(loom::DType::U32, {lanes, 2}, keys.data());
  if (!initsView)
    return fail(initsView.message());
  if (!keysView)
    return fail(keysView.message());
  auto outputs = exe->callNamed({{"inits", *initsView}, {"keys", *keysView}});
  if (!outputs)
    return fail(outputs.message());

  const loom::HostBuffer &ys = (*outputs)[0];
  std::printf("lane  y\n");
  for (int64_t lane = 0; lane < lanes; ++lane)
    std::printf("%4lld  %.9g\n", static_cast<long long>(lane),
                ys.dataAs<float>()[lane]);

  // golden.md, "The pure-JAX MWE": lane 0 ends at y = 13.51270866394043,
  // within 1e-6 relative, as golden.md asks of values that go through sin.
  const double golden = 13.51270866394043;
  float y0 = ys.dataAs<float>()[0];
  if (std::abs(y0 - golden) > 1e-6 * golden) {
    std::fprintf(stderr, "mwe_batch: lane 0 gave %.9g, golden.md has %.9g\n",
                 y0, golden);
    return 1;
  }
  std::printf("lane 0 matches golden.md\n");
  return 0;
}
