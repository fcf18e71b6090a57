//===- loom-compile.cpp - Compile a Loom program ahead of time ------------===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//
//
//   loom-compile FILE [compile options] [--counters] [--emit=mlir|llvm|obj|so]
//                -o OUT
//
// The JIT's pipeline, with loom-run's compile options, writing a shared
// library (the default) that loom-exec, loom-run and Executable::load run,
// or an earlier stage of it. Every problem is one line on stderr and a
// non-zero exit.
//
//===----------------------------------------------------------------------===//

#include "CompileFlags.h"

#include "loom/Loom.h"

#include "llvm/Support/CommandLine.h"

#include <fmt/format.h>

#include <cstdio>

using namespace loom;
namespace cl = llvm::cl;

static cl::OptionCategory category("loom-compile options");
static cl::opt<std::string> inputFile(cl::Positional,
                                      cl::desc("<program.mlir>"), cl::Required,
                                      cl::cat(category));
static cl::opt<std::string> outputFile("o", cl::desc("Output file"),
                                       cl::value_desc("OUT"), cl::Required,
                                       cl::cat(category));
static cl::opt<std::string>
    emit("emit",
         cl::desc("mlir (after bufferization) | llvm (LLVM IR) | obj | so | "
                  "ptx (--backend gpu: the kernels)"),
         cl::init("so"), cl::cat(category));
static cl::opt<bool> counters(
    "counters",
    cl::desc("Count loop iterations and active lanes (for loom-exec --stats)"),
    cl::cat(category));

static constexpr const char *kTool = "loom-compile";

static int fail(const std::string &message) {
  fmt::print(stderr, "{}: {}\n", kTool, message);
  return 1;
}

int main(int argc, char **argv) {
  if (!tools::parseCommandLine(
          kTool, argc, argv,
          "Loom ahead-of-time compiler: compile a program into a shared "
          "library that loom-exec runs\n",
          category))
    return 1;
  if (Status s = tools::checkOptionUse({&outputFile, &emit, &counters},
                                       {&outputFile, &emit});
      !s.ok())
    return fail(s.message());
  if (inputFile.empty())
    return fail("the program's file name is empty");
  auto stage = parseEmitStage(emit);
  if (!stage)
    return fail(stage.message());
  auto options = tools::compileOptionsFromFlags(counters);
  if (!options)
    return fail(options.message());
  if (Status s =
          Executable::compileFileTo(inputFile, *options, *stage, outputFile);
      !s.ok())
    return fail(s.message());
  return 0;
}
