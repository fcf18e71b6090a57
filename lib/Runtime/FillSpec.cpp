//===- FillSpec.cpp - Constant inputs from `fill:VALUE:TYPE` --------------===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//
//
// Lets `loom-run` take a constant input without a .npy file. Numbers are
// parsed with std::from_chars, which ignores the C locale, so "0.1" means
// the same thing in every program that embeds the runtime.
//
//===----------------------------------------------------------------------===//

#include "loom/Runtime/InputSpec.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <string_view>
#include <system_error>

namespace loom {
namespace {

/// Parses all of `text` as a T; the error says why not, without context.
template <typename T>
Result<T> parseNumber(std::string_view text, DType dtype) {
  // from_chars rejects a leading '+' that strtod and users accept.
  if (text.size() > 1 && text[0] == '+' && text[1] != '-')
    text.remove_prefix(1);
  T value{};
  auto [end, ec] =
      std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec == std::errc::result_out_of_range)
    return Status::error(fmt::format("value '{}' is out of range for {}", text,
                                     dtypeName(dtype)));
  if (ec != std::errc() || end != text.data() + text.size())
    return Status::error(
        fmt::format("value '{}' is not a valid {}", text, dtypeName(dtype)));
  return value;
}

template <typename T>
Status fillWith(HostBuffer &buffer, std::string_view text) {
  Result<T> value = parseNumber<T>(text, buffer.dtype());
  if (!value)
    return value.status();
  std::fill_n(buffer.dataAs<T>(), buffer.numElements(), *value);
  return Status::success();
}

Status fillBool(HostBuffer &buffer, std::string_view text) {
  uint8_t value;
  if (text == "1" || text == "true" || text == "True")
    value = 1;
  else if (text == "0" || text == "false" || text == "False")
    value = 0;
  else
    return Status::error(fmt::format(
        "value '{}' is not a valid i1 (expected 0, 1, true or false)", text));
  std::fill_n(buffer.dataAs<uint8_t>(), buffer.numElements(), value);
  return Status::success();
}

Status fill(HostBuffer &buffer, std::string_view text) {
  switch (buffer.dtype()) {
  case DType::F32:
    return fillWith<float>(buffer, text);
  case DType::F64:
    return fillWith<double>(buffer, text);
  case DType::I32:
    return fillWith<int32_t>(buffer, text);
  case DType::I64:
    return fillWith<int64_t>(buffer, text);
  case DType::U32:
    return fillWith<uint32_t>(buffer, text);
  case DType::I1:
    return fillBool(buffer, text);
  }
  return Status::error("unknown element type");
}

/// Parses "30x1xf32" or "f32" into a shape and an element type.
Status parseType(std::string_view text, std::vector<int64_t> &shape,
                 DType &dtype) {
  size_t start = 0;
  for (size_t x; (x = text.find('x', start)) != std::string_view::npos;
       start = x + 1) {
    std::string_view dim = text.substr(start, x - start);
    int64_t value = -1;
    auto [end, ec] =
        std::from_chars(dim.data(), dim.data() + dim.size(), value);
    if (ec != std::errc() || end != dim.data() + dim.size() || value < 0)
      return Status::error(fmt::format(
          "bad dimension '{}' (expected a non-negative integer)", dim));
    shape.push_back(value);
  }
  Result<DType> parsed = parseDType(text.substr(start));
  if (!parsed)
    return parsed.status();
  dtype = *parsed;
  return Status::success();
}

} // namespace

Result<HostBuffer> parseFillSpec(const std::string &spec) {
  auto fail = [&](const std::string &message) {
    return Status::error(fmt::format("fill spec '{}': {}", spec, message));
  };
  std::string_view rest(spec);
  constexpr std::string_view kPrefix = "fill:";
  if (rest.substr(0, kPrefix.size()) != kPrefix)
    return fail("expected fill:VALUE:TYPE, e.g. fill:0.1:30x1xf32");
  rest.remove_prefix(kPrefix.size());
  size_t colon = rest.find(':');
  if (colon == std::string_view::npos)
    return fail("expected fill:VALUE:TYPE, e.g. fill:0.1:30x1xf32");
  std::string_view value = rest.substr(0, colon);
  if (value.empty())
    return fail("missing value");

  std::vector<int64_t> shape;
  DType dtype = DType::F32;
  if (Status s = parseType(rest.substr(colon + 1), shape, dtype); !s)
    return fail(s.message());
  Result<HostBuffer> buffer = HostBuffer::zeros(dtype, std::move(shape));
  if (!buffer)
    return fail(buffer.message());
  if (Status s = fill(*buffer, value); !s)
    return fail(s.message());
  return buffer;
}

} // namespace loom
