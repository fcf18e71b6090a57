//===- HostBuffer.cpp - Dense n-d arrays in host memory -------------------===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//

#include "loom/Runtime/HostBuffer.h"

#include <fmt/format.h>

#include <stdexcept>

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

Result<HostBuffer> HostBuffer::zeros(DType dtype, std::vector<int64_t> shape) {
  Result<int64_t> count = checkedNumElements(dtype, shape);
  if (!count)
    return count.status();
  HostBuffer buffer;
  buffer.dtype_ = dtype;
  buffer.shape_ = std::move(shape);
  buffer.numElements_ = *count;
  buffer.owned_ = true;
  // A size that passed the overflow check can still exceed memory; report it
  // rather than let bad_alloc escape the API.
  try {
    buffer.storage_.resize(buffer.byteSize());
  } catch (const std::exception &) { // bad_alloc or length_error
    return Status::error(fmt::format("out of memory allocating {} ({} bytes)",
                                     buffer.typeString(), buffer.byteSize()));
  }
  return buffer;
}

Result<HostBuffer> HostBuffer::view(DType dtype, std::vector<int64_t> shape,
                                    void *data) {
  Result<int64_t> count = checkedNumElements(dtype, shape);
  if (!count)
    return count.status();
  if (!data && *count != 0)
    return Status::error(
        fmt::format("null data for a {} view", loom::typeString(dtype, shape)));
  HostBuffer buffer;
  buffer.dtype_ = dtype;
  buffer.shape_ = std::move(shape);
  buffer.numElements_ = *count;
  buffer.view_ = data;
  return buffer;
}

} // namespace loom
