//===- Policies.h - What a caller asks of the loop lowering -----*- C++ -*-===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//
//
// What is requested, `auto` included: the `divergent` and `loop-sync` words
// of loom-vmap, loom-localize-loops, loom-pipeline, loom-run and the embedded
// API. What was decided for one loop is a different concept, recorded in the
// IR as the `loom.strategy` and `loom.loop_sync` attributes (LoomAttrs.td).
//
// Plain C++, so that the public API (Loom.h) can use these without exposing
// MLIR; the words are spelled here once, for parsing and printing alike.
//
//===----------------------------------------------------------------------===//

#ifndef LOOM_SUPPORT_POLICIES_H
#define LOOM_SUPPORT_POLICIES_H

#include "loom/Support/Status.h"

#include <cstddef>
#include <string>

namespace loom {

/// Lowering of while loops whose predicate differs between lanes.
enum class DivergentPolicy { Auto, Masked, PerLane, Gang };

/// Predicate synchronisation of loops once sharded.
enum class LoopSyncPolicy { Auto, Global, Local };

/// The words: "auto", "masked", "per-lane", "gang"; "auto", "global",
/// "local".
const char *toString(DivergentPolicy policy);
const char *toString(LoopSyncPolicy policy);

/// Parses the words toString gives; any other is an error naming them.
Result<DivergentPolicy> parseDivergentPolicy(const std::string &word);
Result<LoopSyncPolicy> parseLoopSyncPolicy(const std::string &word);

namespace detail {
/// The position of `word` in `words`, or the one-line error
/// "unknown <what> '<word>' (expected one of: <words>)".
Result<size_t> findWord(const std::string &word, const char *what,
                        const char *const *words, size_t count);
} // namespace detail

} // namespace loom

#endif // LOOM_SUPPORT_POLICIES_H
