//===- NoMPI.cpp - The MPI runtime of a build without MPI
//------------------===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//
//
// -DLOOM_ENABLE_MPI=OFF: the same functions, each saying why there is no
// MPI, so every caller builds and fails alike with a clear message.
//
//===----------------------------------------------------------------------===//

#include "loom/Runtime/MPIMesh.h"

#include <cstdlib>

namespace loom {

static Status withoutMPI() {
  return Status::error("backend 'mpi': this Loom was built without MPI "
                       "(-DLOOM_ENABLE_MPI=OFF)");
}

bool mpiAvailable() { return false; }

Result<int32_t> mpiJobSize(std::optional<int32_t>) { return withoutMPI(); }

MPIWorld mpiWorld() { return {}; }

Result<std::unique_ptr<Mesh>> createMPIMesh(int64_t, std::optional<int32_t>) {
  return withoutMPI();
}

void abortJob(int code) { std::exit(code); }

} // namespace loom
