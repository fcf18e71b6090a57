//===- Options.cpp - Option words of the embedded API ---------------------===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//

#include "loom/Loom.h"

#include <iterator>

using namespace loom;

Result<Backend> loom::parseBackend(const std::string &word) {
  // Indexed by the enumerators' values.
  static const char *const words[] = {"cpu", "gpu", "mpi"};
  Result<size_t> i = detail::findWord(word, "backend", words, std::size(words));
  if (!i)
    return i.status();
  return static_cast<Backend>(*i);
}

Result<EmitStage> loom::parseEmitStage(const std::string &word) {
  // Indexed by the enumerators' values.
  static const char *const words[] = {"mlir", "llvm", "obj", "so", "ptx"};
  Result<size_t> i = detail::findWord(word, "emit", words, std::size(words));
  if (!i)
    return i.status();
  return static_cast<EmitStage>(*i);
}
