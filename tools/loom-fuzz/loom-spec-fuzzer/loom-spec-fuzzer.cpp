//===- loom-spec-fuzzer.cpp - libFuzzer target: input specs ---------------===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//
//
// The `fill:VALUE:SHAPExDTYPE` parser on arbitrary text. A malformed spec
// must be an error, never a crash; an accepted one must have a type that
// parses back to itself.
//
// A spec asks for a buffer of its shape, and gets it: specs that name a real
// but large one (64 MiB to 1 TiB) are skipped, as filling one is right and
// merely slow. Larger ones must be refused (the shape overflows) or fail to
// allocate (scripts/fuzz.sh sets ASan's allocator_may_return_null=1, so
// calloc returns null as glibc's would), and both must be errors.
//
//===----------------------------------------------------------------------===//

#include "loom/Runtime/Npy.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

/// Whether the dimensions of the spec's type (after its last ':', split at
/// 'x') multiply to between 64 MiB and 1 TiB of 8-byte elements: roughly,
/// as the parser's own checks are what is under test.
static bool namesLargeBuffer(std::string_view spec) {
  std::string_view type = spec.substr(spec.rfind(':') + 1);
  long double bytes = 8;
  for (size_t x; (x = type.find('x')) != std::string_view::npos;
       type.remove_prefix(x + 1)) {
    long double dim = 0;
    for (char c : type.substr(0, x))
      dim = c >= '0' && c <= '9' ? dim * 10 + (c - '0') : 0;
    bytes *= dim;
  }
  return bytes >= (1ULL << 26) && bytes < (1ULL << 40);
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string spec(reinterpret_cast<const char *>(data), size);
  if (spec.rfind("fill:", 0) != 0)
    spec = "fill:" + spec;
  if (namesLargeBuffer(spec))
    return 0;
  loom::Result<loom::HostBuffer> buffer = loom::parseFillSpec(spec);
  if (!buffer)
    return 0;
  std::string again = "fill:0:" + buffer->typeString();
  loom::Result<loom::HostBuffer> reparsed = loom::parseFillSpec(again);
  if (!reparsed || reparsed->typeString() != buffer->typeString()) {
    std::fprintf(stderr, "loom-spec-fuzzer: '%s' accepted as %s, which does "
                 "not parse back\n", spec.c_str(),
                 buffer->typeString().c_str());
    std::abort();
  }
  return 0;
}
