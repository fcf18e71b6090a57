//===- Executable.cpp - What every Executable answers ---------------------===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//
//
// The parts of an Executable that do not depend on how its code was made
// (JIT-compiled, or loaded from an AOT-compiled library): its signature and
// defaults. Calls are in Call.cpp.
//
//===----------------------------------------------------------------------===//

#include "loom/Runtime/ExecutableImpl.h"

using namespace loom;
using namespace loom::detail;

LoadedProgram::~LoadedProgram() = default;

Executable::Executable(std::shared_ptr<const Impl> impl)
    : impl(std::move(impl)) {}

const CompileTimes &Executable::compileTimes() const { return impl->times; }

bool Executable::countsLoops() const { return impl->countsLoops; }

int32_t Executable::rank() const {
  MeshTransport *transport = impl->mesh ? impl->mesh->transport() : nullptr;
  return transport ? transport->rank() : 0;
}

const std::vector<ValueInfo> &Executable::inputs() const {
  return impl->inputs;
}
const std::vector<ValueInfo> &Executable::outputs() const {
  return impl->outputs;
}

Result<size_t> Executable::inputIndex(const std::string &name) const {
  for (size_t i = 0; i < impl->inputs.size(); ++i)
    if (impl->inputs[i].name == name)
      return i;
  // At most 9 digits: std::stoul throws (and so aborts) past its range, and
  // no entry has a billion inputs.
  if (!name.empty() && name.size() <= 9 &&
      name.find_first_not_of("0123456789") == std::string::npos) {
    size_t i = std::stoul(name);
    if (i < impl->inputs.size())
      return i;
  }
  std::string known;
  for (const ValueInfo &info : impl->inputs)
    known += (known.empty() ? "" : ", ") + info.name;
  return Status::error("the entry has no input '" + name +
                       "' (inputs: " + known + ")");
}

/// The `loom.default` of a scalar argument, as a buffer.
static Result<HostBuffer> defaultBuffer(const ValueInfo &info) {
  Result<HostBuffer> buffer = HostBuffer::zeros(info.dtype, {});
  if (!buffer)
    return buffer;
  double v = *info.defaultValue;
  switch (info.dtype) {
  case DType::F32:
    *buffer->dataAs<float>() = static_cast<float>(v);
    break;
  case DType::F64:
    *buffer->dataAs<double>() = v;
    break;
  case DType::I32:
  case DType::U32:
    *buffer->dataAs<int32_t>() = static_cast<int32_t>(v);
    break;
  case DType::I64:
    *buffer->dataAs<int64_t>() = static_cast<int64_t>(v);
    break;
  case DType::I1:
    *buffer->dataAs<uint8_t>() = v != 0;
    break;
  }
  return buffer;
}

Status Executable::Impl::buildDefaults() {
  defaults.clear();
  for (const ValueInfo &info : inputs) {
    std::optional<HostBuffer> &def = defaults.emplace_back();
    if (!info.defaultValue)
      continue;
    Result<HostBuffer> buffer = defaultBuffer(info);
    if (!buffer)
      return buffer.status();
    def = buffer.take();
  }
  return Status::success();
}
