//===- CallABI.cpp - Calling a JIT-compiled entry -------------------------===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//

#include "CallABI.h"

#include <cstdlib>
#include <cstring>
#include <set>

using namespace loom;
using namespace loom::detail;

/// Size and alignment of a lowered value: a scalar, or a memref descriptor
/// {ptr, ptr, i64, [r x i64], [r x i64]}.
static std::pair<size_t, size_t> sizeAndAlign(const ValueInfo &info) {
  if (!info.shape.empty())
    return {24 + 16 * info.shape.size(), 8};
  size_t size = elementSize(info.dtype);
  return {size, size};
}

ResultLayout loom::detail::layoutResults(const std::vector<ValueInfo> &results) {
  ResultLayout layout;
  size_t maxAlign = 1;
  for (const ValueInfo &info : results) {
    auto [size, align] = sizeAndAlign(info);
    layout.size = (layout.size + align - 1) / align * align;
    layout.offsets.push_back(layout.size);
    layout.size += size;
    maxAlign = std::max(maxAlign, align);
  }
  layout.size = (layout.size + maxAlign - 1) / maxAlign * maxAlign;
  return layout;
}

void loom::detail::packArguments(const std::vector<ValueInfo> &signature,
                                 const std::vector<const HostBuffer *> &inputs,
                                 const ResultLayout &layout,
                                 PackedCall &call, int64_t *context) {
  call.descriptors.clear();
  call.pointers.clear();
  // Reserve first: pointers into the descriptors must stay valid.
  call.descriptors.reserve(inputs.size());
  for (size_t i = 0; i < inputs.size(); ++i) {
    const HostBuffer &buffer = *inputs[i];
    void *data = const_cast<void *>(buffer.data());
    if (signature[i].shape.empty()) {
      call.pointers.push_back(data);
      continue;
    }
    size_t rank = buffer.rank();
    Descriptor &d = call.descriptors.emplace_back();
    d.allocated = data;
    d.aligned = data;
    d.offset = 0;
    d.sizesAndStrides.resize(2 * rank);
    int64_t stride = 1;
    for (size_t k = rank; k-- > 0;) {
      d.sizesAndStrides[k] = buffer.shape()[k];
      d.sizesAndStrides[rank + k] = stride;
      stride *= buffer.shape()[k];
    }
    call.pointers.push_back(&d.allocated);
    call.pointers.push_back(&d.aligned);
    call.pointers.push_back(&d.offset);
    for (int64_t &v : d.sizesAndStrides)
      call.pointers.push_back(&v);
  }
  if (context)
    call.pointers.push_back(context);
  call.results.assign(layout.size, 0);
  if (layout.size)
    call.pointers.push_back(call.results.data());
}

/// What memref.get_global stores as the allocated pointer of a constant: a
/// buffer nobody may free.
static void *const kGlobalSentinel = reinterpret_cast<void *>(0xdeadbeef);

Result<std::vector<HostBuffer>>
loom::detail::unpackResults(const std::vector<ValueInfo> &results,
                            const ResultLayout &layout, PackedCall &call,
                            const std::vector<const HostBuffer *> &inputs) {
  std::vector<HostBuffer> outputs;
  outputs.reserve(results.size());
  std::set<void *> toFree;
  std::set<const void *> inputData;
  for (const HostBuffer *in : inputs)
    inputData.insert(in->data());
  Status failure = Status::success();
  for (size_t i = 0; i < results.size(); ++i) {
    const uint8_t *field = call.results.data() + layout.offsets[i];
    const ValueInfo &info = results[i];
    std::vector<int64_t> shape;
    const uint8_t *src = field;
    std::vector<int64_t> strides;
    if (!info.shape.empty()) {
      size_t rank = info.shape.size();
      void *allocated, *aligned;
      int64_t offset;
      std::memcpy(&allocated, field, 8);
      std::memcpy(&aligned, field + 8, 8);
      std::memcpy(&offset, field + 16, 8);
      shape.resize(rank);
      strides.resize(rank);
      std::memcpy(shape.data(), field + 24, 8 * rank);
      std::memcpy(strides.data(), field + 24 + 8 * rank, 8 * rank);
      src = static_cast<const uint8_t *>(aligned) +
            offset * elementSize(info.dtype);
      if (allocated && allocated != kGlobalSentinel &&
          !inputData.count(allocated))
        toFree.insert(allocated);
    }
    Result<HostBuffer> out = HostBuffer::zeros(info.dtype, shape);
    if (!out) {
      failure = out.status();
      continue;
    }
    // Results are row-major unless bufferization chose a strided view; copy
    // element by element in that case.
    size_t esize = elementSize(info.dtype);
    bool contiguous = true;
    int64_t expect = 1;
    for (size_t k = shape.size(); k-- > 0;) {
      if (shape[k] != 1 && strides[k] != expect)
        contiguous = false;
      expect *= shape[k];
    }
    uint8_t *dst = static_cast<uint8_t *>(out->data());
    if (contiguous) {
      std::memcpy(dst, src, out->byteSize());
    } else {
      std::vector<int64_t> index(shape.size(), 0);
      for (int64_t n = 0; n < out->numElements(); ++n) {
        int64_t off = 0;
        for (size_t k = 0; k < shape.size(); ++k)
          off += index[k] * strides[k];
        std::memcpy(dst + n * esize, src + off * esize, esize);
        for (size_t k = shape.size(); k-- > 0;) {
          if (++index[k] < shape[k])
            break;
          index[k] = 0;
        }
      }
    }
    outputs.push_back(out.take());
  }
  for (void *p : toFree)
    std::free(p);
  if (!failure.ok())
    return failure;
  return outputs;
}
