//===- Options.cpp - Option words of the embedded API ---------------------===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//

#include "loom/Loom.h"

using namespace loom;

template <typename E, size_t N>
static Result<E> parseWord(const std::string &word, const char *what,
                           const std::pair<const char *, E> (&table)[N]) {
  std::string known;
  for (const auto &[name, value] : table) {
    if (word == name)
      return value;
    known += known.empty() ? "" : ", ";
    known += name;
  }
  return Status::error("unknown " + std::string(what) + " '" + word +
                       "' (expected one of: " + known + ")");
}

Result<Backend> loom::parseBackend(const std::string &word) {
  static const std::pair<const char *, Backend> table[] = {
      {"cpu", Backend::CPU}, {"gpu", Backend::GPU}, {"mpi", Backend::MPI}};
  return parseWord(word, "backend", table);
}

Result<Divergent> loom::parseDivergent(const std::string &word) {
  static const std::pair<const char *, Divergent> table[] = {
      {"auto", Divergent::Auto},
      {"masked", Divergent::Masked},
      {"per-lane", Divergent::PerLane}};
  return parseWord(word, "divergent strategy", table);
}

Result<LoopSync> loom::parseLoopSync(const std::string &word) {
  static const std::pair<const char *, LoopSync> table[] = {
      {"auto", LoopSync::Auto},
      {"global", LoopSync::Global},
      {"local", LoopSync::Local}};
  return parseWord(word, "loop-sync mode", table);
}
