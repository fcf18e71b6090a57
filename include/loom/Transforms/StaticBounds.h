//===- StaticBounds.h - Overflow-safe bounds of static indices --*- C++ -*-===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//
//
// Whether a constant index or a static slice stays inside a tensor's static
// shape. Offsets, sizes and strides come from the IR unchecked (MLIR 19's
// verifiers only require offsets and sizes to be non-negative), so
// `offset + (size - 1) * stride` is computed without signed overflow.
//
//===----------------------------------------------------------------------===//

#ifndef LOOM_TRANSFORMS_STATICBOUNDS_H
#define LOOM_TRANSFORMS_STATICBOUNDS_H

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/Support/CheckedArithmetic.h"

#include <cstdint>
#include <optional>

namespace mlir::loom {

/// Whether `index` lies in [0, dim); a dynamic `dim` only rules out negative
/// indices.
inline bool isIndexInBounds(int64_t index, int64_t dim) {
  return index >= 0 && (ShapedType::isDynamic(dim) || index < dim);
}

/// `(size - 1) * stride`, the distance from a slice's first index to its
/// last, or nullopt where it does not fit in int64.
inline std::optional<int64_t> sliceSpan(int64_t size, int64_t stride) {
  return llvm::checkedMul(size - 1, stride);
}

/// The last index `offset + (size - 1) * stride` of a slice with `size > 0`,
/// or nullopt where it does not fit in int64.
inline std::optional<int64_t> sliceLastIndex(int64_t offset, int64_t size,
                                             int64_t stride) {
  std::optional<int64_t> span = sliceSpan(size, stride);
  return span ? llvm::checkedAdd(offset, *span) : std::nullopt;
}

/// Whether every index `offset + k * stride`, 0 <= k < size, lies in
/// [0, dim). A slice of size 0 touches nothing. All four are static.
inline bool isSliceInBounds(int64_t offset, int64_t size, int64_t stride,
                            int64_t dim) {
  if (size <= 0)
    return true;
  // The indices are monotonic in k: the first and the last bound them all.
  std::optional<int64_t> last = sliceLastIndex(offset, size, stride);
  return last && isIndexInBounds(offset, dim) && isIndexInBounds(*last, dim);
}

} // namespace mlir::loom

#endif // LOOM_TRANSFORMS_STATICBOUNDS_H
