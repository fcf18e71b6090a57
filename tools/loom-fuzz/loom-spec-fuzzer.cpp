//===- loom-spec-fuzzer.cpp - libFuzzer target: input specs ---------------===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//
//
// The `fill:VALUE:SHAPExDTYPE` parser on arbitrary text. A malformed spec
// must be an error, never a crash or a huge allocation; an accepted one must
// have a type that prints back to the SHAPExDTYPE it was given (modulo
// spelling), which is checked by parsing that type again.
//
//===----------------------------------------------------------------------===//

#include "loom/Runtime/Npy.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string spec(reinterpret_cast<const char *>(data), size);
  if (spec.rfind("fill:", 0) != 0)
    spec = "fill:" + spec;
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
