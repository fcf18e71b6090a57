//===- RunTool.h - What loom-run and loom-exec share ------------*- C++ -*-===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//
//
// Everything the two runners do once they have an Executable, whether
// loom-run compiled it or loom-exec loaded it: read the inputs, call,
// raise on error codes, write and print the outputs, the counters and the
// times. Plain C++, no LLVM: loom-exec links only the runtime.
//
//===----------------------------------------------------------------------===//

#ifndef LOOM_TOOLS_LIB_RUNTOOL_H
#define LOOM_TOOLS_LIB_RUNTOOL_H

#include "loom/Loom.h"

#include <string>
#include <vector>

namespace loom::tools {

struct RunOptions {
  /// NAME=SPEC, one per --input.
  std::vector<std::string> inputs;
  std::string outputDir;
  unsigned repeat = 1;
  bool time = false;
  bool stats = false;
  std::string raiseOn;
  /// The program's file, for messages.
  std::string program;
};

/// Prints "TOOL: message" on stderr; returns 1.
int fail(const char *tool, const std::string &message);

/// Checks what can be checked before compiling or loading, so a long run
/// does not end in it: --repeat, and the output directory (created).
Status checkRunOptions(const RunOptions &options);

/// Reads the inputs, calls the entry --repeat times, and reports; the
/// tool's exit code.
int runAndReport(const char *tool, const Executable &exe,
                 const RunOptions &options);

/// One line: name, type, and a few statistics of the values.
std::string summarize(const std::string &name, const HostBuffer &b);

/// The lanes (flat indices) where the error-code result `name` is nonzero,
/// as one error naming the first few of them and their codes, then, for
/// each code among all failed lanes that is one of diffrax's
/// (loom/Support/SolverResults.h), the message diffrax raises.
Status checkErrorCodes(const Executable &exe,
                       const std::vector<HostBuffer> &outputs,
                       const std::string &name);

} // namespace loom::tools

#endif // LOOM_TOOLS_LIB_RUNTOOL_H
