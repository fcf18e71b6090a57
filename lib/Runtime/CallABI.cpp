//===- CallABI.cpp - Calling a compiled entry -----------------------------===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//

#include "loom/Runtime/CallABI.h"

#include <algorithm>

#include <cstdlib>
#include <cstring>

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

ResultLayout
loom::detail::layoutResults(const std::vector<ValueInfo> &results) {
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

void loom::detail::packArguments(
    const std::vector<ValueInfo> &signature,
    const std::pmr::vector<const HostBuffer *> &inputs,
    const ResultLayout &layout, PackedCall &call, ShardArguments *shard) {
  call.descriptors.clear();
  call.sizesAndStrides.clear();
  call.pointers.clear();
  // Reserve first: pointers into the descriptors and sizes must stay valid.
  // The pointers too: grown a step at a time, they would leave their old
  // blocks in the arena.
  size_t tensors = 0, words = 0, pointers = 2;
  for (const ValueInfo &info : signature) {
    tensors += !info.shape.empty();
    words += 2 * info.shape.size();
    pointers += info.shape.empty() ? 1 : 3 + 2 * info.shape.size();
  }
  call.descriptors.reserve(tensors);
  call.sizesAndStrides.reserve(words);
  call.pointers.reserve(pointers);
  for (size_t i = 0; i < inputs.size(); ++i) {
    const HostBuffer &buffer = *inputs[i];
    auto *data = static_cast<uint8_t *>(const_cast<void *>(buffer.data()));
    if (signature[i].shape.empty()) {
      call.pointers.push_back(data);
      continue;
    }
    size_t rank = buffer.rank();
    size_t first = call.sizesAndStrides.size();
    call.sizesAndStrides.resize(first + 2 * rank);
    int64_t *sizes = &call.sizesAndStrides[first];
    int64_t *strides = sizes + rank;
    int64_t stride = 1;
    for (size_t k = rank; k-- > 0;) {
      sizes[k] = buffer.shape()[k];
      strides[k] = stride;
      stride *= buffer.shape()[k];
    }
    if (shard && shard->split[i]) {
      data += shard->laneBegin * strides[0] * elementSize(buffer.dtype());
      sizes[0] = shard->laneEnd - shard->laneBegin;
    }
    Descriptor &d = call.descriptors.emplace_back();
    d.allocated = data;
    d.aligned = data;
    d.offset = 0;
    call.pointers.push_back(&d.allocated);
    call.pointers.push_back(&d.aligned);
    call.pointers.push_back(&d.offset);
    for (size_t k = 0; k < 2 * rank; ++k)
      call.pointers.push_back(&sizes[k]);
  }
  if (shard)
    call.pointers.push_back(&shard->context);
  call.results.assign((layout.size + 7) / 8, 0);
  if (layout.size)
    call.pointers.push_back(call.results.data());
}

/// What memref.get_global stores as the allocated pointer of a constant: a
/// buffer nobody may free.
static void *const kGlobalSentinel = reinterpret_cast<void *>(0xdeadbeef);

namespace {
/// A block the compiled code allocated for results; several results may
/// share one, which at most one of them adopts.
struct ResultBlock {
  void *allocated;
  bool adopted;
};
} // namespace

/// The block behind a tensor result the caller must free or adopt, or null
/// when the memory is not the call's to give away: a constant, or an input.
static ResultBlock *resultBlock(void *allocated, const PackedCall &call,
                                std::pmr::vector<ResultBlock> &blocks) {
  if (!allocated || allocated == kGlobalSentinel)
    return nullptr;
  for (const Descriptor &d : call.descriptors)
    if (d.allocated == allocated)
      return nullptr;
  for (ResultBlock &block : blocks)
    if (block.allocated == allocated)
      return &block;
  return &blocks.emplace_back(ResultBlock{allocated, false});
}

/// Copies the scalar result at `field` into a buffer of its own.
static Result<HostBuffer> unpackScalar(DType dtype, const uint8_t *field) {
  Result<HostBuffer> out = HostBuffer::zeros(dtype, {});
  if (out)
    std::memcpy(out->data(), field, elementSize(dtype));
  return out;
}

/// Reads the tensor result whose descriptor is at `field`.
static Result<HostBuffer> unpackTensor(const ValueInfo &info,
                                       const uint8_t *field,
                                       const PackedCall &call,
                                       std::pmr::vector<ResultBlock> &blocks) {
  size_t rank = info.shape.size();
  void *allocated, *aligned;
  int64_t offset;
  std::memcpy(&allocated, field, 8);
  std::memcpy(&aligned, field + 8, 8);
  std::memcpy(&offset, field + 16, 8);
  std::vector<int64_t> shape(rank);
  std::memcpy(shape.data(), field + 24, 8 * rank);
  auto stride = [&](size_t k) {
    int64_t s;
    std::memcpy(&s, field + 24 + 8 * (rank + k), 8);
    return s;
  };
  size_t esize = elementSize(info.dtype);
  auto *src = static_cast<uint8_t *>(aligned) + offset * esize;
  // Results are row-major unless bufferization chose a strided view.
  bool contiguous = true;
  int64_t expect = 1;
  for (size_t k = rank; k-- > 0;) {
    if (shape[k] != 1 && stride(k) != expect)
      contiguous = false;
    expect *= shape[k];
  }

  ResultBlock *block = resultBlock(allocated, call, blocks);
  if (block && !block->adopted && contiguous) {
    Result<HostBuffer> out =
        HostBuffer::adopt(info.dtype, std::move(shape), allocated, src);
    block->adopted = out.ok();
    return out;
  }

  Result<HostBuffer> out = HostBuffer::zeros(info.dtype, std::move(shape));
  if (!out)
    return out;
  auto *dst = static_cast<uint8_t *>(out->data());
  if (contiguous) {
    // An empty result has no data pointer, and memcpy may not be given null.
    if (out->byteSize() != 0)
      std::memcpy(dst, src, out->byteSize());
    return out;
  }
  alignas(8) std::byte arena[8 * sizeof(int64_t) + 16];
  std::pmr::monotonic_buffer_resource resource(arena, sizeof(arena));
  std::pmr::vector<int64_t> index(rank, 0, &resource);
  const std::vector<int64_t> &sizes = out->shape();
  for (int64_t n = 0; n < out->numElements(); ++n) {
    int64_t off = 0;
    for (size_t k = 0; k < rank; ++k)
      off += index[k] * stride(k);
    std::memcpy(dst + n * esize, src + off * esize, esize);
    for (size_t k = rank; k-- > 0;) {
      if (++index[k] < sizes[k])
        break;
      index[k] = 0;
    }
  }
  return out;
}

Status
loom::detail::unpackResults(const std::vector<ValueInfo> &results,
                            const ResultLayout &layout, const PackedCall &call,
                            const std::function<void(HostBuffer)> &emit) {
  // The blocks of a handful of results, on the stack.
  alignas(16) std::byte arena[4 * sizeof(ResultBlock) + 64];
  std::pmr::monotonic_buffer_resource resource(arena, sizeof(arena));
  std::pmr::vector<ResultBlock> blocks(&resource);
  blocks.reserve(4);
  Status failure = Status::success();
  const auto *fields = reinterpret_cast<const uint8_t *>(call.results.data());
  for (size_t i = 0; i < results.size(); ++i) {
    const uint8_t *field = fields + layout.offsets[i];
    const ValueInfo &info = results[i];
    Result<HostBuffer> out = info.shape.empty()
                                 ? unpackScalar(info.dtype, field)
                                 : unpackTensor(info, field, call, blocks);
    if (!out) {
      failure = out.status();
      continue;
    }
    emit(out.take());
  }
  for (const ResultBlock &block : blocks)
    if (!block.adopted)
      std::free(block.allocated);
  return failure;
}
