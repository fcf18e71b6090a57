//===- loom-spec-fuzzer.cpp - libFuzzer target: input specs ---------------===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//
//
// The generated-input specs of loom/Runtime/InputSpec.h on arbitrary text:
// `fill:VALUE:SHAPExDTYPE`, `jax-split:SEED:COUNT[:INDEX]` and
// `jax-split-partitionable:...`, through parseInputSpec as loom-run calls
// it. An input without one of those prefixes gets one, chosen by its first
// byte. A malformed spec must be an error, never a crash. An accepted fill
// must have a type that parses back to itself; an accepted key spec must
// have the shape it asks for, and its key at INDEX must be that row of all
// COUNT keys.
//
// A spec asks for a buffer of its shape, and gets it: fill specs that name
// a real but large one (64 MiB to 1 TiB) are skipped, as filling one is
// right and merely slow. Larger ones must be refused (the shape overflows)
// or fail to allocate (scripts/fuzz.sh sets ASan's allocator_may_return_null
// =1, so calloc returns null as glibc's would), and both must be errors.
// Key specs cost a threefry block per key: all COUNT keys are drawn only up
// to kMaxDrawnKeys (a lane's key alone is cheap at any COUNT), and COUNTs
// above kMaxSplitCount must be refused.
//
//===----------------------------------------------------------------------===//

#include "loom/Runtime/InputSpec.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

using namespace loom;

/// The most keys one input draws (512 KiB), to keep inputs fast.
static constexpr long double kMaxDrawnKeys = 1 << 16;

/// `text` read roughly as a decimal number: every digit counts, anything
/// else restarts it, as the parser's own checks are what is under test.
static long double roughNumber(std::string_view text) {
  long double value = 0;
  for (char c : text)
    value = c >= '0' && c <= '9' ? value * 10 + (c - '0') : 0;
  return value;
}

/// Whether the dimensions of the fill spec's type (after its last ':',
/// split at 'x') multiply to between 64 MiB and 1 TiB of 8-byte elements.
static bool namesLargeBuffer(std::string_view spec) {
  std::string_view type = spec.substr(spec.rfind(':') + 1);
  long double bytes = 8;
  for (size_t x; (x = type.find('x')) != std::string_view::npos;
       type.remove_prefix(x + 1))
    bytes *= roughNumber(type.substr(0, x));
  return bytes >= (1ULL << 26) && bytes < (1ULL << 40);
}

/// The fields of a key spec: PREFIX, SEED, COUNT and maybe INDEX.
static std::vector<std::string_view> fieldsOf(std::string_view spec) {
  std::vector<std::string_view> fields;
  for (size_t colon; (colon = spec.find(':')) != std::string_view::npos;
       spec.remove_prefix(colon + 1))
    fields.push_back(spec.substr(0, colon));
  fields.push_back(spec);
  return fields;
}

/// Whether the key spec draws all of more than kMaxDrawnKeys keys that the
/// parser may accept (COUNT within kMaxSplitCount, no INDEX).
static bool drawsManyKeys(std::string_view spec) {
  std::vector<std::string_view> fields = fieldsOf(spec);
  if (fields.size() != 3)
    return false;
  long double count = roughNumber(fields[2]);
  return count > kMaxDrawnKeys && count <= kMaxSplitCount;
}

[[noreturn]] static void fail(const std::string &spec, const char *what) {
  std::fprintf(stderr, "loom-spec-fuzzer: '%s': %s\n", spec.c_str(), what);
  std::abort();
}

static void checkFill(const std::string &spec, const HostBuffer &buffer) {
  Result<HostBuffer> again = parseFillSpec("fill:0:" + buffer.typeString());
  if (!again || again->typeString() != buffer.typeString())
    fail(spec,
         ("accepted as " + buffer.typeString() + ", which does not parse back")
             .c_str());
}

static void checkKeys(const std::string &spec, const HostBuffer &buffer) {
  std::vector<std::string_view> fields = fieldsOf(spec);
  if (buffer.dtype() != DType::U32 || fields.size() < 3)
    fail(spec, "accepted as something other than u32 keys");
  int64_t count = std::strtoll(std::string(fields[2]).c_str(), nullptr, 10);
  if (count < 1 || count > kMaxSplitCount)
    fail(spec, "accepted with a COUNT out of range");
  if (fields.size() == 3) {
    if (buffer.typeString() != std::to_string(count) + "x2xu32")
      fail(spec, ("accepted as " + buffer.typeString()).c_str());
    return;
  }
  if (buffer.typeString() != "2xu32")
    fail(spec, ("accepted as " + buffer.typeString()).c_str());
  if (count > kMaxDrawnKeys)
    return;
  // The same key, drawn with all the others.
  std::string all(spec.substr(0, spec.rfind(':')));
  Result<HostBuffer> keys = parseSplitSpec(all);
  if (!keys)
    fail(spec, "accepted, but its keys without INDEX are not");
  int64_t index = std::strtoll(std::string(fields[3]).c_str(), nullptr, 10);
  if (index < 0 || index >= count ||
      std::memcmp(buffer.data(), keys->dataAs<uint32_t>() + 2 * index, 8))
    fail(spec, "is not that row of all the keys");
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string spec(reinterpret_cast<const char *>(data), size);
  if (!isGeneratedSpec(spec)) {
    static const char *const kPrefixes[] = {
        "fill:", "jax-split:", "jax-split-partitionable:"};
    const char *prefix = kPrefixes[size ? data[0] % 3 : 0];
    spec = prefix + (size ? spec.substr(1) : spec);
  }
  bool fill = spec.rfind("fill:", 0) == 0;
  if (fill ? namesLargeBuffer(spec) : drawsManyKeys(spec))
    return 0;
  Result<HostBuffer> buffer = parseInputSpec(spec);
  if (!buffer)
    return 0;
  if (fill)
    checkFill(spec, *buffer);
  else
    checkKeys(spec, *buffer);
  return 0;
}
