//===- SplitSpec.cpp - JAX keys from `jax-split:SEED:COUNT[:INDEX]` -------===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//
//
// Lets `loom-run` take the keys a JAX program would split from one seed,
// for a batch or for one lane of it. The buffer is the only allocation of
// COUNT's size, and it is made with HostBuffer::zeros, so a COUNT too large
// for memory is an error like any other, never std::bad_alloc.
//
//===----------------------------------------------------------------------===//

#include "loom/Runtime/InputSpec.h"
#include "loom/Support/Threefry.h"

#include <fmt/format.h>

#include <charconv>
#include <cstring>
#include <system_error>
#include <vector>

namespace loom {
namespace {

/// Parses all of `text` as a decimal integer, with an optional leading '+'
/// as fill: takes; no whitespace. Out of int64's range counts as above `hi`.
enum class Parsed { Ok, Bad, TooLarge };
Parsed parseInt(std::string_view text, int64_t lo, int64_t hi, int64_t &out) {
  if (text.size() > 1 && text[0] == '+' && text[1] != '-')
    text.remove_prefix(1);
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
  if (text.empty() || end != text.data() + text.size())
    return Parsed::Bad;
  if (ec == std::errc::result_out_of_range)
    return text[0] == '-' ? Parsed::Bad : Parsed::TooLarge;
  if (ec != std::errc() || out < lo)
    return Parsed::Bad;
  return out > hi ? Parsed::TooLarge : Parsed::Ok;
}

} // namespace

Result<HostBuffer> parseSplitSpec(const std::string &spec) {
  std::vector<std::string_view> fields;
  std::string_view rest(spec);
  for (size_t colon; (colon = rest.find(':')) != std::string_view::npos;
       rest.remove_prefix(colon + 1))
    fields.push_back(rest.substr(0, colon));
  fields.push_back(rest);
  bool partitionable = fields[0] == "jax-split-partitionable";
  std::string_view prefix =
      partitionable ? "jax-split-partitionable" : "jax-split";
  auto bad = [&] {
    return Status::error(fmt::format(
        "bad key spec '{}' (expected {}:SEED:COUNT[:INDEX] with an int32 "
        "seed, a positive count and an index below it)",
        spec, prefix));
  };
  if (fields[0] != prefix || (fields.size() != 3 && fields.size() != 4))
    return bad();
  int64_t seed = 0, count = 0, index = -1;
  if (parseInt(fields[1], INT32_MIN, INT32_MAX, seed) != Parsed::Ok)
    return bad();
  switch (parseInt(fields[2], 1, kMaxSplitCount, count)) {
  case Parsed::Ok:
    break;
  case Parsed::Bad:
    return bad();
  case Parsed::TooLarge:
    return Status::error(fmt::format("bad key spec '{}' (COUNT is at most {})",
                                     spec, kMaxSplitCount));
  }
  if (fields.size() == 4 &&
      parseInt(fields[3], 0, count - 1, index) != Parsed::Ok)
    return bad();

  threefry::Key key = threefry::prngKey(static_cast<int32_t>(seed));
  Result<HostBuffer> buffer = index >= 0
                                  ? HostBuffer::zeros(DType::U32, {2})
                                  : HostBuffer::zeros(DType::U32, {count, 2});
  if (!buffer)
    return Status::error(
        fmt::format("key spec '{}': {}", spec, buffer.message()));
  auto *words = buffer->dataAs<uint32_t>();
  if (index >= 0) {
    threefry::Key one = threefry::splitKey(key, count, index, partitionable);
    std::memcpy(words, one.data(), sizeof(one));
  } else {
    threefry::splitInto(key, count, partitionable, words);
  }
  return buffer;
}

} // namespace loom
