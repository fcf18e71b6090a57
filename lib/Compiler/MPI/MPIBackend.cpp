//===- MPIBackend.cpp - One MPI rank per shard ----------------------------===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//
//
// The MPI backend compiles exactly what the CPU backend does: the shards'
// collectives are calls into the runtime either way, and only the mesh
// behind them differs (loom/Runtime/MPIMesh.h). Each rank compiles (or
// loads) the same program and runs one shard of it.
//
//===----------------------------------------------------------------------===//

#include "CPU/CPUBackend.h"

#include "loom/Runtime/MPIMesh.h"

#include <string>

using namespace loom;
using namespace loom::detail;

namespace {

class MPIBackend final : public CPUBackend {
public:
  explicit MPIBackend(std::optional<int32_t> communicator)
      : communicator_(communicator) {}

  Result<std::unique_ptr<Mesh>> createMesh(int64_t numShards) const override {
    return createMPIMesh(numShards, communicator_);
  }

  /// The job's size, when the code runs here: one shard per rank. A library
  /// is compiled for the rank count it is given (its loader checks it).
  Result<int> shardCount(const CompileOptions &options,
                         bool aheadOfTime) const override {
    if (aheadOfTime)
      return options.shards;
    Result<int32_t> ranks = mpiJobSize(communicator_);
    if (!ranks)
      return ranks.status();
    if (options.shards != 0 && options.shards != *ranks)
      return Status::error(
          "--shards " + std::to_string(options.shards) +
          " does not match the MPI job's " + std::to_string(*ranks) + " rank" +
          (*ranks == 1 ? "" : "s") +
          " (the MPI backend runs one shard per rank; leave --shards out)");
    return static_cast<int>(*ranks);
  }

protected:
  const char *descriptorName() const override { return "mpi"; }

private:
  std::optional<int32_t> communicator_;
};

} // namespace

Result<std::unique_ptr<TargetBackend>>
loom::detail::createMPIBackend(const CompileOptions &options) {
  if (!mpiAvailable())
    return createMPIMesh(1).status();
  return std::unique_ptr<TargetBackend>(
      std::make_unique<MPIBackend>(options.mpiCommunicator));
}
