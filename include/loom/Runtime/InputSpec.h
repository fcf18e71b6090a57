//===- InputSpec.h - Generated inputs: fill and jax-split -------*- C++ -*-===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//
//
// The SPECs of `loom-run --input NAME=SPEC`, parsed in one place: a
// constant (`fill:`), JAX keys (`jax-split:`, `jax-split-partitionable:`)
// or, for anything else, a .npy path. Every failure is a one-line error
// that quotes the spec; none throws, however large the buffer it names.
//
//===----------------------------------------------------------------------===//

#ifndef LOOM_RUNTIME_INPUTSPEC_H
#define LOOM_RUNTIME_INPUTSPEC_H

#include "loom/Runtime/HostBuffer.h"
#include "loom/Support/Status.h"

#include <cstdint>
#include <string>
#include <string_view>

namespace loom {

/// The most keys a `jax-split:` spec may draw, with or without INDEX (so a
/// lane runs with exactly the specs its batch takes). 2^30 keys are 8 GiB;
/// JAX's non-partitionable split counts them in uint32, which 2^31 would
/// already fill.
inline constexpr int64_t kMaxSplitCount = int64_t(1) << 30;

/// Builds a buffer from `fill:VALUE:TYPE`, where TYPE is a dtype name
/// optionally preceded by dimensions: `fill:0.1:30x1xf32`, `fill:3:4xi32`,
/// `fill:0.5:f64` (a scalar), `fill:true:2xi1`.
Result<HostBuffer> parseFillSpec(const std::string &spec);

/// `jax-split:SEED:COUNT` is jax.random.split(jax.random.PRNGKey(SEED),
/// COUNT) with x64 off, as COUNTx2 u32; `:INDEX` appended gives that one key
/// (shape 2), computed without the others. `jax-split-partitionable:` is the
/// same with jax_threefry_partitionable. SEED is an int32, COUNT 1 to
/// kMaxSplitCount, INDEX below COUNT; all decimal, an optional leading '+'.
Result<HostBuffer> parseSplitSpec(const std::string &spec);

/// Whether `spec` is generated (it starts with `fill:`, `jax-split:` or
/// `jax-split-partitionable:`) rather than a file's path.
bool isGeneratedSpec(std::string_view spec);

/// Any SPEC: a generated one, or else the .npy file at that path (readNpy).
Result<HostBuffer> parseInputSpec(const std::string &spec);

} // namespace loom

#endif // LOOM_RUNTIME_INPUTSPEC_H
