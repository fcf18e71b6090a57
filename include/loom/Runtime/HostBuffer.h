//===- HostBuffer.h - Dense n-d arrays in host memory -----------*- C++ -*-===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//
//
// The one array type the runtime, `loom-run` and the embedded C++ API pass
// around: a dense, row-major (C order) array of one of the element types a
// Loom entry function can take or return. It either owns its bytes or views
// caller memory, so inputs can be handed to compiled code without a copy;
// an owned block may also be one the compiled code allocated for a result,
// so outputs need no copy either.
// It names element types with its own enum rather than MLIR types because
// the runtime must not depend on MLIR.
//
//===----------------------------------------------------------------------===//

#ifndef LOOM_RUNTIME_HOSTBUFFER_H
#define LOOM_RUNTIME_HOSTBUFFER_H

#include "loom/Support/Status.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace loom {

/// Element types of host buffers. `I1` is a boolean stored as one byte
/// holding 0 or 1, as NumPy stores `bool`.
enum class DType : uint8_t { F32, F64, I32, I64, U32, I1 };

/// The name used in type specs and messages: "f32", "f64", "i32", "i64",
/// "u32", "i1".
const char *dtypeName(DType dtype);

/// Parses a name printed by dtypeName; "bool" and "ui32" are accepted too.
Result<DType> parseDType(std::string_view name);

/// Bytes per element (1 for I1).
size_t elementSize(DType dtype);

/// The number of elements of `shape`, or an error if a dimension is negative
/// or the byte size of the array would not fit in an int64_t.
Result<int64_t> checkedNumElements(DType dtype,
                                   const std::vector<int64_t> &shape);

/// "2x3xf32" for shape {2, 3}, "f32" for a scalar: the form fill specs use.
std::string typeString(DType dtype, const std::vector<int64_t> &shape);

/// A dense row-major n-d array in host memory, owned or viewed.
///
/// Copying an owning buffer copies its bytes; copying a view copies the
/// pointer, and the caller keeps the viewed memory alive and in place.
/// Moving never allocates; a moved-from buffer may only be assigned to or
/// destroyed.
class HostBuffer {
public:
  /// An empty 1-d f32 array (shape {0}); only useful as a placeholder.
  HostBuffer() = default;
  HostBuffer(const HostBuffer &other);
  HostBuffer(HostBuffer &&other) noexcept;
  HostBuffer &operator=(const HostBuffer &other);
  HostBuffer &operator=(HostBuffer &&other) noexcept;

  /// An owned buffer of zeros.
  static Result<HostBuffer> zeros(DType dtype, std::vector<int64_t> shape);

  /// A buffer that views `data`, which must hold the whole array in C order
  /// and outlive the buffer; null is accepted only for an empty array. Nothing
  /// is copied; compiled code writes through the view when the buffer is an
  /// output.
  static Result<HostBuffer> view(DType dtype, std::vector<int64_t> shape,
                                 void *data);

  /// An owned buffer that takes over `allocated`, a block from malloc (or
  /// calloc, realloc, aligned_alloc, posix_memalign) that holds the whole
  /// array in C order from `data` on; `data` may lie past the start of the
  /// block (an alignment gap, an offset). The buffer frees the block with
  /// std::free. On failure (a bad shape, a null pointer) nothing is taken
  /// over and the caller still owns the block.
  static Result<HostBuffer> adopt(DType dtype, std::vector<int64_t> shape,
                                  void *allocated, void *data);

  DType dtype() const { return dtype_; }
  const std::vector<int64_t> &shape() const { return shape_; }
  size_t rank() const { return shape_.size(); }
  int64_t numElements() const { return numElements_; }
  size_t byteSize() const { return numElements_ * elementSize(dtype_); }
  bool isView() const { return !owned_; }
  /// "2x3xf32", as typeString().
  std::string typeString() const { return loom::typeString(dtype_, shape_); }

  /// Null for an owned array of no bytes.
  void *data() { return data_; }
  const void *data() const { return data_; }

  /// The elements as T; the caller picks the T that matches dtype().
  template <typename T>
  T *dataAs() {
    return static_cast<T *>(data());
  }
  template <typename T>
  const T *dataAs() const {
    return static_cast<const T *>(data());
  }

private:
  struct Free {
    void operator()(void *block) const { std::free(block); }
  };

  // Initializes every member, so that the factories do not allocate the
  // placeholder's shape only to replace it.
  HostBuffer(DType dtype, std::vector<int64_t> shape, int64_t numElements,
             bool owned, void *allocated, void *data);

  DType dtype_ = DType::F32;
  std::vector<int64_t> shape_ = {0};
  int64_t numElements_ = 0;
  bool owned_ = false;
  /// The block an owning buffer frees: its own, or one it adopted. Null for
  /// a view, and for an owned array of no bytes.
  std::unique_ptr<void, Free> allocated_;
  /// The first element: in the viewed memory, or inside `allocated_`.
  void *data_ = nullptr;
};

} // namespace loom

#endif // LOOM_RUNTIME_HOSTBUFFER_H
