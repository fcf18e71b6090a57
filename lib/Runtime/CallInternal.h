//===- CallInternal.h - What the call paths share ---------------*- C++ -*-===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//
//
// A call in one process (Call.cpp: one entry call, or one per shard of a
// thread mesh) and a call across processes (CallAcrossProcesses.cpp: the
// MPI backend's ranks) check their inputs and call the entry on a shard the
// same way.
//
//===----------------------------------------------------------------------===//

#ifndef LOOM_LIB_RUNTIME_CALLINTERNAL_H
#define LOOM_LIB_RUNTIME_CALLINTERNAL_H

#include "loom/Runtime/ExecutableImpl.h"

#include <functional>
#include <memory_resource>

namespace loom::detail {

/// One pointer per input, in an arena on the caller's stack: most entries
/// take a handful of inputs.
struct InputList {
  explicit InputList(size_t n) : inputs(n, nullptr, &resource) {}
  alignas(16) std::byte arena[16 * sizeof(void *)];
  std::pmr::monotonic_buffer_resource resource{arena, sizeof(arena)};
  std::pmr::vector<const HostBuffer *> inputs;
};

/// Checks the inputs against the signature (dtypes, shapes, ranges, the
/// batch sizes that must agree) and points the missing ones at their
/// defaults.
Status checkCallInputs(const Executable::Impl &impl,
                       std::pmr::vector<const HostBuffer *> &inputs);

/// The lanes of the split inputs' axis 0, which must agree.
Result<int64_t> splitBatch(const Executable::Impl &impl,
                           const std::pmr::vector<const HostBuffer *> &inputs);

/// Calls the entry on `shard` with rows [laneBegin, laneEnd) of the split
/// inputs and passes its results to `emit`.
Status callShard(const Executable::Impl &impl,
                 const std::pmr::vector<const HostBuffer *> &inputs,
                 ShardContext &shard, int64_t laneBegin, int64_t laneEnd,
                 const std::function<void(HostBuffer)> &emit);

/// A call on a mesh whose shards are processes (Mesh::transport()): rank 0
/// checks its inputs and scatters them, every rank runs its shard, and the
/// outputs are gathered on rank 0. The other ranks' inputs are not read;
/// they receive the outputs of their own lanes (and the unsplit outputs).
Result<std::vector<HostBuffer>>
callAcrossProcesses(const Executable::Impl &impl,
                    std::pmr::vector<const HostBuffer *> &inputs);

} // namespace loom::detail

#endif // LOOM_LIB_RUNTIME_CALLINTERNAL_H
