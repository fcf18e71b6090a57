//===- InputSpec.cpp - Which reader a `--input` SPEC goes to --------------===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//

#include "loom/Runtime/InputSpec.h"
#include "loom/Runtime/Npy.h"

namespace loom {

static bool startsWith(std::string_view text, std::string_view prefix) {
  return text.substr(0, prefix.size()) == prefix;
}

bool isGeneratedSpec(std::string_view spec) {
  return startsWith(spec, "fill:") || startsWith(spec, "jax-split:") ||
         startsWith(spec, "jax-split-partitionable:");
}

Result<HostBuffer> parseInputSpec(const std::string &spec) {
  if (startsWith(spec, "fill:"))
    return parseFillSpec(spec);
  if (isGeneratedSpec(spec))
    return parseSplitSpec(spec);
  return readNpy(spec);
}

} // namespace loom
