//===- Policies.cpp - The words of the loop-lowering requests -------------===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//

#include "loom/Support/Policies.h"

#include <iterator>

using namespace loom;

// Indexed by the enumerators' values.
static const char *const kDivergentWords[] = {"auto", "masked", "per-lane",
                                              "gang"};
static const char *const kLoopSyncWords[] = {"auto", "global", "local"};

const char *loom::toString(DivergentPolicy policy) {
  return kDivergentWords[static_cast<size_t>(policy)];
}

const char *loom::toString(LoopSyncPolicy policy) {
  return kLoopSyncWords[static_cast<size_t>(policy)];
}

Result<size_t> loom::detail::findWord(const std::string &word, const char *what,
                                      const char *const *words, size_t count) {
  std::string known;
  for (size_t i = 0; i < count; ++i) {
    if (word == words[i])
      return i;
    known += i == 0 ? "" : ", ";
    known += words[i];
  }
  return Status::error("unknown " + std::string(what) + " '" + word +
                       "' (expected one of: " + known + ")");
}

Result<DivergentPolicy> loom::parseDivergentPolicy(const std::string &word) {
  Result<size_t> i = detail::findWord(
      word, "divergent strategy", kDivergentWords, std::size(kDivergentWords));
  if (!i)
    return i.status();
  return static_cast<DivergentPolicy>(*i);
}

Result<LoopSyncPolicy> loom::parseLoopSyncPolicy(const std::string &word) {
  Result<size_t> i = detail::findWord(word, "loop-sync mode", kLoopSyncWords,
                                      std::size(kLoopSyncWords));
  if (!i)
    return i.status();
  return static_cast<LoopSyncPolicy>(*i);
}
