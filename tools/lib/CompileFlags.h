//===- CompileFlags.h - The compile options on command lines ----*- C++ -*-===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//
//
// The flags that become a loom::CompileOptions, defined once for every tool
// that compiles (loom-run, loom-compile): an option added here comes to
// both. Also the command-line handling they share: one-line errors, and
// the mistakes llvm::cl lets through.
//
//===----------------------------------------------------------------------===//

#ifndef LOOM_TOOLS_LIB_COMPILEFLAGS_H
#define LOOM_TOOLS_LIB_COMPILEFLAGS_H

#include "loom/Loom.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/CommandLine.h"

#include <string>

namespace loom::tools {

/// The category the compile flags are in.
llvm::cl::OptionCategory &compileCategory();

/// The entry's name (--entry), which the runners use for messages too.
const std::string &entryFlag();

/// The CompileOptions the flags give, with loop counters as asked.
Result<CompileOptions> compileOptionsFromFlags(bool countLoops);

/// Parses the command line of `tool` with only its own and the compile
/// categories shown; every mistake is one line on stderr, "TOOL: ...".
/// False when the tool should exit with 1.
bool parseCommandLine(const char *tool, int argc, char **argv,
                      const std::string &overview,
                      llvm::cl::OptionCategory &own);

/// An error naming the first compile flag given, for a runner handed
/// `library`, which loom-compile compiled with its own options: ignoring
/// the flag would run something other than what was asked for.
Status checkNoCompileFlags(const std::string &library);

/// Mistakes llvm::cl lets through: it lets a later occurrence of an option
/// silently override an earlier one, and takes an empty string as a value.
/// Every option but --input holds one value, so either is a typo in a long
/// command line, and running with whichever value won would hide it.
/// Checks the compile flags and the tool's `single` and `words`.
Status checkOptionUse(llvm::ArrayRef<const llvm::cl::Option *> single,
                      llvm::ArrayRef<const llvm::cl::opt<std::string> *> words);

} // namespace loom::tools

#endif // LOOM_TOOLS_LIB_COMPILEFLAGS_H
