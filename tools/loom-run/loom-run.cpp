//===- loom-run.cpp - JIT-compile and run a Loom program ------------------===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//
//
//   loom-run FILE [--entry NAME] --input NAME=SPEC ... [--output-dir DIR]
//            [--repeat N] [--time] [--raise-on NAME]
//
// SPEC is a .npy path, `fill:VALUE:SHAPExDTYPE`, `jax-split:SEED:COUNT` or
// `jax-split-partitionable:SEED:COUNT` (with `:INDEX`, one key of those). A
// FILE ending in `.so` is a library `loom-compile` wrote, loaded as loom-exec
// loads it; a compile option is then an error. Every problem is one line on
// stderr and a non-zero exit.
//
//===----------------------------------------------------------------------===//

#include "CompileFlags.h"
#include "RunTool.h"

#include "loom/Loom.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/CommandLine.h"

#include <string>
#include <vector>

using namespace loom;
namespace cl = llvm::cl;

static cl::OptionCategory category("loom-run options");
static cl::opt<std::string> inputFile(cl::Positional,
                                      cl::desc("<program.mlir | program.so>"),
                                      cl::Required, cl::cat(category));
static cl::list<std::string>
    inputSpecs("input",
               cl::desc("NAME=SPEC: an argument (by name or position) from a "
                        ".npy file, fill:VALUE:SHAPExDTYPE, "
                        "jax-split:SEED:COUNT[:INDEX] or "
                        "jax-split-partitionable:SEED:COUNT[:INDEX]"),
               cl::cat(category));
static cl::opt<std::string>
    outputDir("output-dir", cl::desc("Write each result to DIR/NAME.npy"),
              cl::cat(category));
static cl::opt<unsigned> repeat("repeat", cl::desc("Call the entry N times"),
                                cl::init(1), cl::cat(category));
// `--stats` is taken out of argv before llvm::cl sees it: LLVM registers an
// option of that name itself (its statistics), which a second registration
// would abort on.
static constexpr const char *kStatsHelp =
    "  --stats                    - Count loop iterations and active lanes "
    "per shard, and collectives, and print them after the calls\n";
static cl::opt<bool> showTime("time",
                              cl::desc("Print compile time and call times"),
                              cl::cat(category));

// EQX_ON_ERROR=raise. A compiled call cannot throw, and which lanes failed
// is only known after the whole batch ran, so a program returns its per-lane
// error codes (diffrax's `result`) and the caller raises; this is that caller.
static cl::opt<std::string> raiseOn(
    "raise-on",
    cl::desc("Fail, naming the lanes, if the integer result NAME is nonzero "
             "anywhere (EQX_ON_ERROR=raise); nothing is written"),
    cl::value_desc("NAME"), cl::cat(category));

static constexpr const char *kTool = "loom-run";

int main(int argc, char **argv) {
  std::vector<char *> args;
  int statsCount = 0;
  for (int i = 0; i < argc; ++i) {
    llvm::StringRef arg(argv[i]);
    if (i > 0 && (arg == "--stats" || arg == "-stats"))
      ++statsCount;
    else
      args.push_back(argv[i]);
  }
  if (!tools::parseCommandLine(
          kTool, static_cast<int>(args.size()), args.data(),
          std::string("Loom JIT runner: compile a program and run its entry "
                      "on .npy or generated inputs\n\nAlso:\n") +
              kStatsHelp,
          category))
    return 1;

  if (Status s = tools::checkOptionUse(
          {&outputDir, &repeat, &showTime, &raiseOn}, {&outputDir, &raiseOn});
      !s.ok())
    return tools::fail(kTool, s.message());
  if (statsCount > 1)
    return tools::fail(kTool, "--stats is given more than once");
  if (inputFile.empty())
    return tools::fail(kTool, "the program's file name is empty");

  bool isLibrary = llvm::StringRef(inputFile).ends_with(".so");
  if (isLibrary)
    if (Status s = tools::checkNoCompileFlags(inputFile); !s.ok())
      return tools::fail(kTool, s.message());
  auto options = tools::compileOptionsFromFlags(statsCount > 0);
  if (!options)
    return tools::fail(kTool, options.message());
  tools::RunOptions run;
  run.inputs = inputSpecs;
  run.outputDir = outputDir;
  run.repeat = repeat;
  run.time = showTime;
  run.stats = statsCount > 0;
  run.raiseOn = raiseOn;
  run.program = inputFile;
  if (Status s = tools::checkRunOptions(run); !s.ok())
    return tools::fail(kTool, s.message());

  auto exe = isLibrary ? Executable::load(inputFile)
                       : Executable::compileFile(inputFile, *options);
  if (!exe)
    return tools::fail(kTool, exe.message());
  return tools::runAndReport(kTool, *exe, run);
}
