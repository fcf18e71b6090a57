//===- ExamplesFlag.h - The benchmarks' --examples=DIR flag -----*- C++ -*-===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//

#ifndef LOOM_BENCHMARKS_EXAMPLESFLAG_H
#define LOOM_BENCHMARKS_EXAMPLESFLAG_H

#include <cstdio>
#include <cstring>
#include <string>

namespace loom::bench {

/// Reads what benchmark::Initialize left in argv: only `--examples=DIR`,
/// where the example programs are (the source tree's by default). Any other
/// flag is a one-line error naming `tool`, and false.
inline bool parseExamplesFlag(int argc, char **argv, const char *tool,
                              std::string &examplesDir) {
  static const char kFlag[] = "--examples=";
  for (int i = 1; i < argc; ++i) {
    if (std::strncmp(argv[i], kFlag, sizeof(kFlag) - 1) == 0) {
      examplesDir = argv[i] + sizeof(kFlag) - 1;
      continue;
    }
    std::fprintf(stderr, "%s: unknown option '%s'\n", tool, argv[i]);
    return false;
  }
  return true;
}

} // namespace loom::bench

#endif // LOOM_BENCHMARKS_EXAMPLESFLAG_H
