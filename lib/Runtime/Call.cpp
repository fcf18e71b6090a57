//===- Call.cpp - Calling a compiled entry --------------------------------===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//
//
// A call checks its inputs against the signature (dtypes, shapes, ranges,
// the batch sizes that must agree), fills in defaults, then runs the entry
// once, or on every shard of its mesh, and reads the results back through
// CallABI.h. It also reads the mesh's counters.
//
//===----------------------------------------------------------------------===//

#include "CallInternal.h"

#include <cstring>
#include <memory_resource>

using namespace loom;
using namespace loom::detail;

static std::string shapeString(const std::vector<int64_t> &shape, DType dtype) {
  std::string s;
  for (int64_t d : shape)
    s += (d < 0 ? std::string("?") : std::to_string(d)) + "x";
  return s + dtypeName(dtype);
}

/// Checks one input against its argument: dtype (u32 passes for i32 since
/// keys are unsigned words in signless tensors), rank and static sizes.
static Status checkInput(const ValueInfo &info, size_t index,
                         const HostBuffer &buffer) {
  bool dtypeOk = buffer.dtype() == info.dtype ||
                 (info.dtype == DType::I32 && buffer.dtype() == DType::U32);
  bool shapeOk = buffer.rank() == info.shape.size();
  for (size_t k = 0; shapeOk && k < info.shape.size(); ++k)
    shapeOk = info.shape[k] < 0 || info.shape[k] == buffer.shape()[k];
  if (dtypeOk && shapeOk)
    return Status::success();
  return Status::error("input '" + info.name + "' (#" + std::to_string(index) +
                       ") must be " + shapeString(info.shape, info.dtype) +
                       ", got " + buffer.typeString());
}

/// Checks a scalar integer input against its `loom.range`. A u32 buffer
/// for an i32 argument is read as the unsigned value the caller wrote.
static Status checkRange(const ValueInfo &info, size_t index,
                         const HostBuffer &buffer) {
  int64_t value = 0;
  switch (buffer.dtype()) {
  case DType::I32:
    value = *buffer.dataAs<int32_t>();
    break;
  case DType::U32:
    value = *buffer.dataAs<uint32_t>();
    break;
  case DType::I64:
    value = *buffer.dataAs<int64_t>();
    break;
  default:
    // checkInput took it for the argument's integer dtype.
    return Status::success();
  }
  auto [lo, hi] = *info.range;
  if (value >= lo && value <= hi)
    return Status::success();
  return Status::error("input '" + info.name + "' (#" + std::to_string(index) +
                       ") is " + std::to_string(value) +
                       ", outside its loom.range [" + std::to_string(lo) +
                       ", " + std::to_string(hi) + "]");
}

Result<int64_t>
loom::detail::splitBatch(const Executable::Impl &impl,
                         const std::pmr::vector<const HostBuffer *> &inputs) {
  int64_t batch = -1;
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (!impl.inputSplit[i])
      continue;
    int64_t rowsHere = inputs[i]->rank() ? inputs[i]->shape()[0] : 0;
    if (batch >= 0 && rowsHere != batch)
      return Status::error("input '" + impl.inputs[i].name + "' has " +
                           std::to_string(rowsHere) +
                           " lanes, but the other batched inputs have " +
                           std::to_string(batch));
    batch = rowsHere;
  }
  return batch < 0 ? 0 : batch;
}

Status
loom::detail::callShard(const Executable::Impl &impl,
                        const std::pmr::vector<const HostBuffer *> &inputs,
                        ShardContext &shard, int64_t laneBegin, int64_t laneEnd,
                        const std::function<void(HostBuffer)> &emit) {
  ShardArguments slice{impl.inputSplit, laneBegin, laneEnd, shard.abiHandle()};
  PackedCall packed;
  packArguments(impl.inputs, inputs, impl.resultLayout, packed, &slice);
  impl.entry(packed.pointers.data());
  return unpackResults(impl.outputs, impl.resultLayout, packed, emit);
}

/// Runs the entry on every shard of the mesh, each on its own rows of the
/// split inputs, and joins the split outputs in shard order.
static Result<std::vector<HostBuffer>>
callOnMesh(const Executable::Impl &impl,
           const std::pmr::vector<const HostBuffer *> &inputs) {
  Result<int64_t> batchOrError = splitBatch(impl, inputs);
  if (!batchOrError)
    return batchOrError.status();
  int64_t batch = *batchOrError;
  int32_t shards = impl.mesh->numShards();
  // Each shard's outputs, until they are joined: room for 16 shards of 4
  // outputs on the stack. Each reserved before the shards run, since the
  // arena is not thread-safe: a shard only ever pushes into its own room.
  using ShardOutputs = std::pmr::vector<HostBuffer>;
  alignas(16) std::byte
      arena[16 * (sizeof(ShardOutputs) + 4 * sizeof(HostBuffer)) + 64];
  std::pmr::monotonic_buffer_resource resource(arena, sizeof(arena));
  std::pmr::vector<ShardOutputs> perShard(&resource);
  perShard.reserve(shards);
  for (int32_t s = 0; s < shards; ++s)
    perShard.emplace_back().reserve(impl.outputs.size());
  Status status = impl.mesh->run(batch, [&](ShardContext &shard) -> Status {
    ShardOutputs &outputs = perShard[shard.shard];
    return callShard(
        impl, inputs, shard, shard.laneBegin, shard.laneEnd,
        [&](HostBuffer output) { outputs.push_back(std::move(output)); });
  });
  if (!status.ok())
    return status;

  std::vector<HostBuffer> joined;
  joined.reserve(impl.outputs.size());
  for (size_t r = 0; r < impl.outputs.size(); ++r) {
    if (!impl.outputSplit[r] || shards == 1) {
      joined.push_back(std::move(perShard[0][r]));
      continue;
    }
    std::vector<int64_t> shape = perShard[0][r].shape();
    shape[0] = 0;
    for (ShardOutputs &outs : perShard)
      shape[0] += outs[r].shape()[0];
    Result<HostBuffer> whole =
        HostBuffer::zeros(impl.outputs[r].dtype, std::move(shape));
    if (!whole)
      return whole.status();
    auto *dst = static_cast<uint8_t *>(whole->data());
    for (ShardOutputs &outs : perShard) {
      // A shard without lanes holds an empty result with no block (null
      // data), which memcpy must not be given even for zero bytes.
      if (outs[r].byteSize() == 0)
        continue;
      std::memcpy(dst, outs[r].data(), outs[r].byteSize());
      dst += outs[r].byteSize();
    }
    joined.push_back(whole.take());
  }
  return joined;
}

Result<Counters> Executable::counters() const {
  if (!impl->mesh)
    return Status::error("the entry does not run on a mesh: no counters");
  MeshStats stats = impl->mesh->stats();
  Counters out;
  out.calls = stats.runs;
  for (const ShardStats &shard : stats.shards) {
    out.lanes.push_back(shard.lanes);
    out.collectives.push_back(shard.collectives);
  }
  for (size_t id = 0; id < impl->loops.size(); ++id) {
    const Executable::Impl::LoopSite &site = impl->loops[id];
    LoopCounters loop;
    loop.location = site.location;
    loop.masked = site.masked;
    loop.lanes = site.lanes;
    loop.variant = site.variant;
    for (const ShardStats &shard : stats.shards) {
      LoopStats s = id < shard.loops.size() ? shard.loops[id] : LoopStats();
      loop.iterations.push_back(s.iterations);
      loop.activeLaneIterations.push_back(s.activeLaneIterations);
    }
    out.loops.push_back(std::move(loop));
  }
  for (size_t site = 0; site < impl->variants.size(); ++site) {
    const Executable::Impl::VariantSite &names = impl->variants[site];
    VariantCounters variant{names.location, names.primary, names.alternative};
    for (const ShardStats &shard : stats.shards) {
      VariantStats s =
          site < shard.variants.size() ? shard.variants[site] : VariantStats();
      variant.chosen.push_back(s.chosen);
      variant.primaryNanos.push_back(s.best[0]);
      variant.alternativeNanos.push_back(s.best[1]);
    }
    out.variants.push_back(std::move(variant));
  }
  return out;
}

void Executable::resetCounters() const {
  if (impl->mesh)
    impl->mesh->resetStats();
}

Status
loom::detail::checkCallInputs(const Executable::Impl &impl,
                              std::pmr::vector<const HostBuffer *> &inputs) {
  const std::vector<ValueInfo> &sig = impl.inputs;
  for (size_t i = 0; i < sig.size(); ++i) {
    if (inputs[i]) {
      if (Status s = checkInput(sig[i], i, *inputs[i]); !s.ok())
        return s;
      if (sig[i].range)
        if (Status s = checkRange(sig[i], i, *inputs[i]); !s.ok())
          return s;
      continue;
    }
    if (!impl.defaults[i])
      return Status::error("input '" + sig[i].name + "' (#" +
                           std::to_string(i) +
                           ") is missing and has no default");
    inputs[i] = &*impl.defaults[i];
  }
  for (const auto &group : impl.batchGroups) {
    auto [first, firstAxis] = group.front();
    int64_t batch = inputs[first]->shape()[firstAxis];
    for (auto [i, axis] : group)
      if (inputs[i]->shape()[axis] != batch)
        return Status::error("inputs '" + sig[first].name + "' and '" +
                             sig[i].name +
                             "' are mapped together but have batch sizes " +
                             std::to_string(batch) + " and " +
                             std::to_string(inputs[i]->shape()[axis]));
  }
  return Status::success();
}

/// Calls the entry with one buffer per input, in order, null where the
/// caller left an input out for its default.
static Result<std::vector<HostBuffer>>
callEntry(const Executable::Impl &impl,
          std::pmr::vector<const HostBuffer *> &inputs) {
  if (impl.mesh && impl.mesh->transport())
    return callAcrossProcesses(impl, inputs);
  if (Status s = checkCallInputs(impl, inputs); !s.ok())
    return s;
  const std::vector<ValueInfo> &sig = impl.inputs;
  if (impl.mesh)
    return callOnMesh(impl, inputs);
  PackedCall packed;
  packArguments(sig, inputs, impl.resultLayout, packed);
  impl.entry(packed.pointers.data());
  std::vector<HostBuffer> outputs;
  outputs.reserve(impl.outputs.size());
  Status status = unpackResults(
      impl.outputs, impl.resultLayout, packed,
      [&](HostBuffer output) { outputs.push_back(std::move(output)); });
  if (!status.ok())
    return status;
  return outputs;
}

/// Whether this process is an MPI rank other than 0, whose inputs are not
/// read: nothing it passes may fail the call on it alone, which would leave
/// the other ranks waiting for it.
static bool readsNoInputs(const Executable::Impl &impl) {
  MeshTransport *transport = impl.mesh ? impl.mesh->transport() : nullptr;
  return transport && transport->rank() != 0;
}

Result<std::vector<HostBuffer>>
Executable::callNamed(const std::map<std::string, HostBuffer> &named) const {
  InputList list(impl->inputs.size());
  std::pmr::vector<const HostBuffer *> &inputs = list.inputs;
  if (readsNoInputs(*impl))
    return callEntry(*impl, inputs);
  for (const auto &[name, buffer] : named) {
    Result<size_t> index = inputIndex(name);
    if (!index)
      return index.status();
    if (inputs[*index])
      return Status::error("input '" + impl->inputs[*index].name +
                           "' is given twice");
    inputs[*index] = &buffer;
  }
  return callEntry(*impl, inputs);
}

Result<std::vector<HostBuffer>>
Executable::call(const std::vector<HostBuffer> &given) const {
  if (readsNoInputs(*impl)) {
    InputList list(impl->inputs.size());
    return callEntry(*impl, list.inputs);
  }
  if (given.size() > impl->inputs.size())
    return Status::error("the entry takes " +
                         std::to_string(impl->inputs.size()) + " inputs, got " +
                         std::to_string(given.size()));
  InputList list(impl->inputs.size());
  std::pmr::vector<const HostBuffer *> &inputs = list.inputs;
  for (size_t i = 0; i < given.size(); ++i)
    inputs[i] = &given[i];
  return callEntry(*impl, inputs);
}
