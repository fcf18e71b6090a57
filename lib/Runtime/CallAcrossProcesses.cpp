//===- CallAcrossProcesses.cpp - A call whose shards are processes --------===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//
//
// The MPI backend's call, on every rank at once: rank 0 checks the inputs
// and tells every rank their types, scatters the split inputs' rows and
// broadcasts the others; each rank runs its shard; rank 0 gathers the split
// outputs. Every step that can fail on one rank is followed by an agreement
// (MeshTransport::agree), so a failure anywhere becomes the same error on
// every rank and none is left in a collective the others gave up on.
//
//===----------------------------------------------------------------------===//

#include "CallInternal.h"

#include <functional>
#include <numeric>

using namespace loom;
using namespace loom::detail;

namespace {

/// What rank 0 tells the others before any data moves: the batch, then per
/// input its dtype, rank and sizes.
std::vector<int64_t>
describeInputs(int64_t batch,
               const std::pmr::vector<const HostBuffer *> &inputs) {
  std::vector<int64_t> header = {batch};
  for (const HostBuffer *input : inputs) {
    header.push_back(static_cast<int64_t>(input->dtype()));
    header.push_back(static_cast<int64_t>(input->rank()));
    header.insert(header.end(), input->shape().begin(), input->shape().end());
  }
  return header;
}

/// The bytes of one row of axis 0 of `shape` (the whole array for a scalar).
int64_t rowBytes(DType dtype, const std::vector<int64_t> &shape) {
  int64_t elements = 1;
  for (size_t k = 1; k < shape.size(); ++k)
    elements *= shape[k];
  return elements * static_cast<int64_t>(elementSize(dtype));
}

/// Per rank, its lanes' share of an array whose rows are `bytesPerRow`.
std::vector<int64_t> rowCounts(int64_t batch, int32_t ranks,
                               int64_t bytesPerRow) {
  std::vector<int64_t> counts(ranks);
  for (int32_t r = 0; r < ranks; ++r)
    counts[r] = splitLanes(batch, ranks, r).size() * bytesPerRow;
  return counts;
}

} // namespace

Result<std::vector<HostBuffer>> loom::detail::callAcrossProcesses(
    const Executable::Impl &impl,
    std::pmr::vector<const HostBuffer *> &inputs) {
  Mesh &mesh = *impl.mesh;
  MeshTransport &transport = *mesh.transport();
  const int32_t ranks = mesh.numShards(), rank = transport.rank();
  const bool root = rank == 0;

  // Rank 0's inputs, checked; the others' are not read.
  int64_t batch = 0;
  Status checked = Status::success();
  if (root) {
    checked = checkCallInputs(impl, inputs);
    if (checked.ok()) {
      Result<int64_t> split = splitBatch(impl, inputs);
      checked = split.status();
      if (split)
        batch = *split;
    }
  }
  if (Status s = transport.agree(checked); !s.ok())
    return s;

  std::vector<int64_t> header;
  if (root)
    header = describeInputs(batch, inputs);
  int64_t headerSize = static_cast<int64_t>(header.size());
  if (Status s = transport.broadcast(&headerSize, sizeof(headerSize)); !s.ok())
    return s;
  header.resize(static_cast<size_t>(headerSize));
  if (Status s =
          transport.broadcast(header.data(), headerSize * sizeof(int64_t));
      !s.ok())
    return s;
  batch = header[0];
  LaneRange mine = splitLanes(batch, ranks, rank);

  // The other ranks' buffers: their own rows of the split inputs, all of
  // the others.
  std::vector<HostBuffer> received;
  received.reserve(impl.inputs.size());
  Status allocated = Status::success();
  if (!root) {
    size_t at = 1;
    for (size_t i = 0; i < impl.inputs.size() && allocated.ok(); ++i) {
      auto dtype = static_cast<DType>(header[at]);
      std::vector<int64_t> shape(header.begin() + at + 2,
                                 header.begin() + at + 2 + header[at + 1]);
      at += 2 + shape.size();
      if (impl.inputSplit[i] && !shape.empty())
        shape[0] = mine.size();
      Result<HostBuffer> buffer = HostBuffer::zeros(dtype, std::move(shape));
      allocated = buffer.status();
      if (buffer)
        received.push_back(buffer.take());
    }
    if (!allocated.ok())
      allocated = Status::error("rank " + std::to_string(rank) + ": " +
                                allocated.message());
    for (size_t i = 0; i < received.size(); ++i)
      inputs[i] = &received[i];
  }
  if (Status s = transport.agree(allocated); !s.ok())
    return s;

  for (size_t i = 0; i < impl.inputs.size(); ++i) {
    const HostBuffer &input = *inputs[i];
    Status moved =
        impl.inputSplit[i] && input.rank() > 0
            ? transport.scatter(
                  input.data(),
                  rowCounts(batch, ranks,
                            rowBytes(input.dtype(), input.shape())),
                  const_cast<void *>(input.data()))
            : transport.broadcast(const_cast<void *>(input.data()),
                                  static_cast<int64_t>(input.byteSize()));
    if (!moved.ok())
      return moved;
  }

  // Rank 0 reads its own rows in place; the others hold only theirs.
  std::vector<HostBuffer> outputs;
  outputs.reserve(impl.outputs.size());
  Status ran = mesh.run(batch, [&](ShardContext &shard) -> Status {
    return callShard(impl, inputs, shard, root ? mine.begin : 0,
                     root ? mine.end : mine.size(), [&](HostBuffer output) {
                       outputs.push_back(std::move(output));
                     });
  });
  if (!ran.ok())
    return ran;

  std::vector<HostBuffer> joined;
  Status ready = Status::success();
  for (size_t r = 0; r < impl.outputs.size() && ready.ok(); ++r) {
    if (!root || !impl.outputSplit[r] || ranks == 1)
      continue;
    std::vector<int64_t> shape = outputs[r].shape();
    shape[0] = batch;
    Result<HostBuffer> whole =
        HostBuffer::zeros(impl.outputs[r].dtype, std::move(shape));
    ready = whole.status();
    if (whole)
      joined.push_back(whole.take());
  }
  if (Status s = transport.agree(ready); !s.ok())
    return s;
  if (ranks == 1)
    return outputs;

  size_t next = 0;
  for (size_t r = 0; r < impl.outputs.size(); ++r) {
    if (!impl.outputSplit[r])
      continue;
    const HostBuffer &part = outputs[r];
    std::vector<int64_t> counts =
        rowCounts(batch, ranks, rowBytes(part.dtype(), part.shape()));
    void *into = root ? joined[next].data() : nullptr;
    if (Status s = transport.gather(part.data(), counts, into); !s.ok())
      return s;
    if (root)
      outputs[r] = std::move(joined[next++]);
  }
  return outputs;
}
