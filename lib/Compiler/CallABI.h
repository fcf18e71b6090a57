//===- CallABI.h - Calling a JIT-compiled entry -----------------*- C++ -*-===//
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
// entry's signature (recorded before lowering) is needed.
//
//===----------------------------------------------------------------------===//

#ifndef LOOM_LIB_COMPILER_CALLABI_H
#define LOOM_LIB_COMPILER_CALLABI_H

#include "loom/Loom.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace loom::detail {

/// Byte layout of the struct an entry returns.
struct ResultLayout {
  std::vector<size_t> offsets;
  size_t size = 0;
};

/// Computes the C layout (natural alignment) of the lowered result struct.
ResultLayout layoutResults(const std::vector<ValueInfo> &results);

/// The unpacked descriptor of one rank-r memref argument.
struct Descriptor {
  void *allocated;
  void *aligned;
  int64_t offset;
  std::vector<int64_t> sizesAndStrides;
};

/// Storage for the packed arguments of one call; pointers into it are valid
/// while it lives and is not resized.
struct PackedCall {
  std::vector<Descriptor> descriptors;
  std::vector<void *> pointers;
  std::vector<uint8_t> results;
};

/// Fills `call` with pointers to `inputs` (already checked against the
/// signature), then to `*context` when the entry takes a shard context, and
/// room for the results.
void packArguments(const std::vector<ValueInfo> &signature,
                   const std::vector<const HostBuffer *> &inputs,
                   const ResultLayout &layout, PackedCall &call,
                   int64_t *context = nullptr);

/// Copies the results out of the returned struct into owned buffers and
/// frees the memory the compiled code allocated for them.
Result<std::vector<HostBuffer>>
unpackResults(const std::vector<ValueInfo> &results, const ResultLayout &layout,
              PackedCall &call,
              const std::vector<const HostBuffer *> &inputs);

} // namespace loom::detail

#endif // LOOM_LIB_COMPILER_CALLABI_H
