//===- CallABI.h - Calling a compiled entry ---------------------*- C++ -*-===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//
//
// After `loom-to-llvm`, an entry function takes each tensor as an unpacked
// memref descriptor (allocated pointer, aligned pointer, offset, sizes,
// strides) and each scalar by value, and returns its results as one LLVM
// struct. The ExecutionEngine's packed wrapper takes a pointer to every
// such argument, then a pointer to the result struct. This file builds those
// pointers from HostBuffers and reads results back, so that nothing but the
// entry's signature (recorded before lowering) is needed: the JIT's entry
// and an AOT-compiled library's (ProgramABI.h) are called the same way.
//
// Plain C++ (LoomRuntime): the call path needs no LLVM. Its vectors take
// their first blocks from an arena inside PackedCall, as LLVM's SmallVector
// would from its inline storage, so that packing a call allocates nothing.
//
//===----------------------------------------------------------------------===//

#ifndef LOOM_RUNTIME_CALLABI_H
#define LOOM_RUNTIME_CALLABI_H

#include "loom/Loom.h"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory_resource>
#include <vector>

namespace loom::detail {

/// Byte layout of the struct an entry returns.
struct ResultLayout {
  std::vector<size_t> offsets;
  size_t size = 0;
};

/// Computes the C layout (natural alignment) of the lowered result struct.
ResultLayout layoutResults(const std::vector<ValueInfo> &results);

/// The pointers and offset of one memref argument's unpacked descriptor;
/// its sizes and strides are in PackedCall::sizesAndStrides.
struct Descriptor {
  void *allocated;
  void *aligned;
  int64_t offset;
};

/// Storage for the packed arguments of one call, kept on the caller's stack:
/// the inline capacities hold the seed programs' calls, so packing them
/// allocates nothing. Pointers into it are valid while it lives and is not
/// packed again.
struct PackedCall {
  PackedCall() = default;
  PackedCall(const PackedCall &) = delete;
  PackedCall &operator=(const PackedCall &) = delete;

  /// 8 descriptors, 32 sizes and strides, 64 pointers and 32 result words,
  /// with room for the vectors' rounding.
  alignas(16) std::byte arena[2048];
  std::pmr::monotonic_buffer_resource resource{arena, sizeof(arena)};
  std::pmr::vector<Descriptor> descriptors =
      std::pmr::vector<Descriptor>(&resource);
  /// The sizes, then the strides, of each descriptor in turn.
  std::pmr::vector<int64_t> sizesAndStrides =
      std::pmr::vector<int64_t>(&resource);
  std::pmr::vector<void *> pointers = std::pmr::vector<void *>(&resource);
  /// The returned struct, in words: none of its fields is aligned beyond 8.
  std::pmr::vector<uint64_t> results = std::pmr::vector<uint64_t>(&resource);
};

/// What one shard of a mesh passes besides the inputs: only its own rows
/// [laneBegin, laneEnd) of axis 0 of the split inputs, and its context.
struct ShardArguments {
  /// Per input, whether axis 0 is split across shards.
  const std::vector<bool> &split;
  int64_t laneBegin, laneEnd;
  /// The shard's ABI handle, the entry's last argument.
  int64_t context;
};

/// Fills `call` with pointers to `inputs` (already checked against the
/// signature), then to the shard's context when there is a shard, and room
/// for the results.
void packArguments(const std::vector<ValueInfo> &signature,
                   const std::pmr::vector<const HostBuffer *> &inputs,
                   const ResultLayout &layout, PackedCall &call,
                   ShardArguments *shard = nullptr);

/// Reads the results of a call into owned buffers and passes them to `emit`
/// in order (leaving out any that fail). A tensor result in a contiguous
/// block the compiled code allocated is adopted as it is; every other result
/// (a scalar, a constant, a view of an input or of another result, a strided
/// view) is copied into a buffer of its own. The blocks no output adopted
/// are freed.
Status unpackResults(const std::vector<ValueInfo> &results,
                     const ResultLayout &layout, const PackedCall &call,
                     const std::function<void(HostBuffer)> &emit);

} // namespace loom::detail

#endif // LOOM_RUNTIME_CALLABI_H
