//===- HostBuffer.cpp - Dense n-d arrays in host memory -------------------===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//

#include "loom/Runtime/HostBuffer.h"

#include <fmt/format.h>

#include <cstring>
#include <new>
#include <utility>

namespace loom {

const char *dtypeName(DType dtype) {
  switch (dtype) {
  case DType::F32:
    return "f32";
  case DType::F64:
    return "f64";
  case DType::I32:
    return "i32";
  case DType::I64:
    return "i64";
  case DType::U32:
    return "u32";
  case DType::I1:
    return "i1";
  }
  return "?";
}

Result<DType> parseDType(std::string_view name) {
  for (DType dtype :
       {DType::F32, DType::F64, DType::I32, DType::I64, DType::U32, DType::I1})
    if (name == dtypeName(dtype))
      return dtype;
  // MLIR spells the unsigned type "ui32" and users think of i1 as "bool".
  if (name == "ui32")
    return DType::U32;
  if (name == "bool")
    return DType::I1;
  return Status::error(fmt::format(
      "unknown element type '{}' (expected f32, f64, i32, i64, u32 or i1)",
      name));
}

size_t elementSize(DType dtype) {
  switch (dtype) {
  case DType::F32:
  case DType::I32:
  case DType::U32:
    return 4;
  case DType::F64:
  case DType::I64:
    return 8;
  case DType::I1:
    return 1;
  }
  return 1;
}

Result<int64_t> checkedNumElements(DType dtype,
                                   const std::vector<int64_t> &shape) {
  // Bounding the byte size, not just the element count, lets callers compute
  // byte offsets and allocation sizes without checking again.
  int64_t bytes = static_cast<int64_t>(elementSize(dtype));
  int64_t count = 1;
  for (int64_t dim : shape) {
    if (dim < 0)
      return Status::error(fmt::format("negative dimension {} in shape {}", dim,
                                       typeString(dtype, shape)));
    if (__builtin_mul_overflow(count, dim, &count) ||
        __builtin_mul_overflow(bytes, dim, &bytes))
      return Status::error(
          fmt::format("shape {} is too large", typeString(dtype, shape)));
  }
  return count;
}

std::string typeString(DType dtype, const std::vector<int64_t> &shape) {
  std::string s;
  for (int64_t dim : shape)
    s += fmt::format("{}x", dim);
  return s + dtypeName(dtype);
}

HostBuffer::HostBuffer(DType dtype, std::vector<int64_t> shape,
                       int64_t numElements, bool owned, void *allocated,
                       void *data)
    : dtype_(dtype), shape_(std::move(shape)), numElements_(numElements),
      owned_(owned), allocated_(allocated), data_(data) {}

HostBuffer::HostBuffer(const HostBuffer &other)
    : dtype_(other.dtype_), shape_(other.shape_),
      numElements_(other.numElements_), owned_(other.owned_),
      data_(other.data_) {
  if (!other.allocated_)
    return;
  // Nothing to copy; malloc(0) may return null, which is no failure here.
  if (byteSize() == 0) {
    data_ = nullptr;
    return;
  }
  // A copy has no way to report failure, so it fails as a std::vector copy
  // would have.
  allocated_.reset(std::malloc(byteSize()));
  if (!allocated_)
    throw std::bad_alloc();
  std::memcpy(allocated_.get(), other.data_, byteSize());
  data_ = allocated_.get();
}

HostBuffer::HostBuffer(HostBuffer &&other) noexcept
    : dtype_(other.dtype_), shape_(std::move(other.shape_)),
      numElements_(std::exchange(other.numElements_, 0)), owned_(other.owned_),
      allocated_(std::move(other.allocated_)),
      data_(std::exchange(other.data_, nullptr)) {}

HostBuffer &HostBuffer::operator=(const HostBuffer &other) {
  if (this != &other)
    *this = HostBuffer(other);
  return *this;
}

HostBuffer &HostBuffer::operator=(HostBuffer &&other) noexcept {
  dtype_ = other.dtype_;
  shape_ = std::move(other.shape_);
  numElements_ = std::exchange(other.numElements_, 0);
  owned_ = other.owned_;
  allocated_ = std::move(other.allocated_);
  data_ = std::exchange(other.data_, nullptr);
  return *this;
}

Result<HostBuffer> HostBuffer::zeros(DType dtype, std::vector<int64_t> shape) {
  Result<int64_t> count = checkedNumElements(dtype, shape);
  if (!count)
    return count.status();
  size_t bytes = *count * elementSize(dtype);
  void *block = nullptr;
  // A size that passed the overflow check can still exceed memory; report it
  // rather than fail later.
  if (bytes && !(block = std::calloc(bytes, 1)))
    return Status::error(fmt::format("out of memory allocating {} ({} bytes)",
                                     loom::typeString(dtype, shape), bytes));
  return HostBuffer(dtype, std::move(shape), *count, /*owned=*/true, block,
                    block);
}

Result<HostBuffer> HostBuffer::view(DType dtype, std::vector<int64_t> shape,
                                    void *data) {
  Result<int64_t> count = checkedNumElements(dtype, shape);
  if (!count)
    return count.status();
  if (!data && *count != 0)
    return Status::error(
        fmt::format("null data for a {} view", loom::typeString(dtype, shape)));
  return HostBuffer(dtype, std::move(shape), *count, /*owned=*/false,
                    /*allocated=*/nullptr, data);
}

Result<HostBuffer> HostBuffer::adopt(DType dtype, std::vector<int64_t> shape,
                                     void *allocated, void *data) {
  Result<int64_t> count = checkedNumElements(dtype, shape);
  if (!count)
    return count.status();
  if (!allocated || !data)
    return Status::error(fmt::format("null memory to adopt for a {}",
                                     loom::typeString(dtype, shape)));
  // An array of no bytes keeps no block, as from zeros(): a copy of it then
  // need not allocate either.
  if (*count == 0) {
    std::free(allocated);
    allocated = data = nullptr;
  }
  return HostBuffer(dtype, std::move(shape), *count, /*owned=*/true, allocated,
                    data);
}

} // namespace loom
