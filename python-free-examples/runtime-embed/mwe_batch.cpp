//===- mwe_batch.cpp - The MWE's batch through Loom::Runtime alone --------===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//
//
//   mwe_batch inputs DIR [LANES]   writes DIR/inits.npy and DIR/keys.npy
//   mwe_batch check YS.npy         checks the batch's results
//
// The two ends of a batched MWE run, in a program that links only
// Loom::Runtime (no LLVM, no MLIR): `inputs` writes the seed's batch, inits
// 0.1 and the keys of jax.random.split(jax.random.PRNGKey(0), LANES) (30 by
// default); `check` reads the `ys` that loom-run computed from them, prints
// one line per lane and exits non-zero unless lane 0 is
// shared/reference/golden.md's. In between, loom-run compiles and runs the
// MWE's vmapped @main:
//
//   loom-run while_of_while.mlir --input inits=DIR/inits.npy \
//     --input keys=DIR/keys.npy --output-dir DIR
//
// Once loom-compile writes a shared library, this program will load it with
// Loom::Runtime and make that call itself.
//
//===----------------------------------------------------------------------===//

#include "loom/Runtime/HostBuffer.h"
#include "loom/Runtime/Npy.h"
#include "loom/Support/Threefry.h"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

int fail(const std::string &message) {
  std::fprintf(stderr, "mwe_batch: %s\n", message.c_str());
  return 1;
}

int writeInputs(const std::string &dir, int64_t lanes) {
  auto inits = loom::HostBuffer::zeros(loom::DType::F32, {lanes, 1});
  auto keys = loom::HostBuffer::zeros(loom::DType::U32, {lanes, 2});
  if (!inits)
    return fail(inits.message());
  if (!keys)
    return fail(keys.message());
  for (int64_t lane = 0; lane < lanes; ++lane)
    inits->dataAs<float>()[lane] = 0.1f;
  loom::threefry::splitInto(loom::threefry::prngKey(0), lanes,
                            /*partitionable=*/false, keys->dataAs<uint32_t>());
  for (auto [name, buffer] : {std::pair{"inits", &*inits}, {"keys", &*keys}})
    if (loom::Status status =
            loom::writeNpy(dir + "/" + name + ".npy", *buffer);
        !status)
      return fail(status.message());
  std::printf("wrote %lld lanes to %s/inits.npy and %s/keys.npy\n",
              static_cast<long long>(lanes), dir.c_str(), dir.c_str());
  return 0;
}

int checkOutputs(const std::string &path) {
  loom::Result<loom::HostBuffer> ys = loom::readNpy(path);
  if (!ys)
    return fail(ys.message());
  if (ys->dtype() != loom::DType::F32 || ys->rank() != 2 ||
      ys->shape()[1] != 1 || ys->shape()[0] < 1)
    return fail(path + " is " + ys->typeString() + ", not Bx1xf32");
  std::printf("lane  y\n");
  for (int64_t lane = 0; lane < ys->shape()[0]; ++lane)
    std::printf("%4lld  %.9g\n", static_cast<long long>(lane),
                ys->dataAs<float>()[lane]);

  // golden.md, "The pure-JAX MWE": lane 0 ends at y = 13.51270866394043,
  // within 1e-6 relative, as golden.md asks of values that go through sin.
  const double golden = 13.51270866394043;
  float y0 = ys->dataAs<float>()[0];
  if (std::abs(y0 - golden) > 1e-6 * golden) {
    std::fprintf(stderr, "mwe_batch: lane 0 gave %.9g, golden.md has %.9g\n",
                 y0, golden);
    return 1;
  }
  std::printf("lane 0 matches golden.md\n");
  return 0;
}

} // namespace

int main(int argc, char **argv) {
  if (argc >= 3 && argc <= 4 && std::strcmp(argv[1], "inputs") == 0) {
    long long lanes = argc == 4 ? std::atoll(argv[3]) : 30;
    if (lanes < 1)
      return fail(std::string("bad lane count '") + argv[3] + "'");
    return writeInputs(argv[2], lanes);
  }
  if (argc == 3 && std::strcmp(argv[1], "check") == 0)
    return checkOutputs(argv[2]);
  std::fprintf(stderr,
               "usage: %s inputs DIR [LANES]\n"
               "       %s check YS.npy\n",
               argv[0], argv[0]);
  return 2;
}
