//===- CompileFlags.cpp - The compile options on command lines ------------===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//

#include "CompileFlags.h"

#include "loom/Support/Limits.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <fmt/format.h>

#include <cstdio>

using namespace loom;
namespace cl = llvm::cl;

cl::OptionCategory &loom::tools::compileCategory() {
  static cl::OptionCategory category("Compile options");
  return category;
}

static cl::opt<std::string> entryName("entry", cl::desc("Entry function"),
                                      cl::init("main"),
                                      cl::cat(tools::compileCategory()));
static cl::opt<std::string> backend("backend", cl::desc("cpu | gpu | mpi"),
                                    cl::init("cpu"),
                                    cl::cat(tools::compileCategory()));
static cl::opt<int> shards("shards",
                           cl::desc("Number of shards (0: from the "
                                    "program's mesh, or 1)"),
                           cl::init(0), cl::cat(tools::compileCategory()));
static cl::opt<std::string> divergent("divergent",
                                      cl::desc("auto | masked | per-lane | "
                                               "gang"),
                                      cl::init("auto"),
                                      cl::cat(tools::compileCategory()));
static cl::opt<int> gangWidth("gang-width",
                              cl::desc("Lanes of one gang (--divergent gang; "
                                       "default: loom-vmap's)"),
                              cl::init(0), cl::cat(tools::compileCategory()));
static cl::opt<bool> refill("refill",
                            cl::desc("With --divergent gang: a gang's slot "
                                     "whose lane is done takes the next lane"),
                            cl::cat(tools::compileCategory()));
static cl::opt<bool> adaptive("adaptive",
                              cl::desc("With --divergent auto: time refill "
                                       "against lock-step at run time where "
                                       "the cost model cannot tell them "
                                       "apart (--adaptive=0: one strategy)"),
                              cl::init(true),
                              cl::cat(tools::compileCategory()));
static cl::opt<std::string> loopSync("loop-sync",
                                     cl::desc("auto | global | local"),
                                     cl::init("auto"),
                                     cl::cat(tools::compileCategory()));
static cl::opt<bool> fpContraction("fp-contraction",
                                   cl::desc("Allow fused multiply-add"),
                                   cl::cat(tools::compileCategory()));
static cl::opt<bool>
    laneVectors("lane-vectors",
                cl::desc("Carry a gang's lane values as vectors (experimental: "
                         "docs/vmap.md)"),
                cl::cat(tools::compileCategory()));
static cl::opt<int> optLevel("O", cl::desc("LLVM optimization level (0-3)"),
                             cl::init(3), cl::Prefix,
                             cl::cat(tools::compileCategory()));
static cl::opt<bool>
    verifyEach("verify-each",
               cl::desc("Verify the IR after every pass of the lowering (as "
                        "loom-opt does; default: once at its end)"),
               cl::cat(tools::compileCategory()));
static cl::opt<std::string>
    targetCPU("target-cpu",
              cl::desc("The CPU ahead-of-time code is compiled for "
                       "(default x86-64-v3; the JIT compiles for this one)"),
              cl::cat(tools::compileCategory()));

static cl::opt<std::string>
    gpuArch("gpu-arch",
            cl::desc("The GPU that --backend gpu compiles for (sm_80: A100)"),
            cl::init("sm_90"), cl::cat(tools::compileCategory()));
static cl::opt<std::string>
    cudaPath("cuda-path",
             cl::desc("The CUDA toolkit that --backend gpu links libdevice "
                      "from (default $CUDA_HOME, then /usr/local/cuda)"),
             cl::cat(tools::compileCategory()));

const std::string &loom::tools::entryFlag() { return entryName.getValue(); }

Result<CompileOptions> loom::tools::compileOptionsFromFlags(bool countLoops) {
  // The API reads shards=0 as "from the program's mesh"; that is what
  // leaving --shards out means, so an explicit 0 (or less) is a mistake.
  if (shards.getNumOccurrences() && (shards < 1 || shards > kMaxShards))
    return Status::error("--shards must be 1 to " + std::to_string(kMaxShards) +
                         ", got " + std::to_string(shards));
  CompileOptions options;
  options.entry = entryName;
  options.shards = shards;
  options.fpContraction = fpContraction;
  options.laneVectors = laneVectors;
  options.optLevel = optLevel;
  options.verifyEachPass = verifyEach;
  options.countLoops = countLoops;
  options.targetCPU = targetCPU;
  options.gpuArch = gpuArch;
  options.cudaPath = cudaPath;
  auto be = parseBackend(backend);
  if (!be)
    return be.status();
  options.backend = *be;
  auto dv = parseDivergentPolicy(divergent);
  if (!dv)
    return dv.status();
  options.divergent = *dv;
  if (gangWidth.getNumOccurrences() && gangWidth < 1)
    return Status::error("--gang-width must be at least 1, got " +
                         std::to_string(gangWidth));
  // Auto weighs gangs of the given width too; it chooses refill itself.
  if (refill && options.divergent != DivergentPolicy::Gang)
    return Status::error(
        "--refill applies to gangs: it needs --divergent gang");
  if (gangWidth.getNumOccurrences() &&
      options.divergent != DivergentPolicy::Gang &&
      options.divergent != DivergentPolicy::Auto)
    return Status::error(
        "--gang-width applies to gangs: it needs --divergent gang or auto");
  options.gangWidth = gangWidth;
  options.refill = refill;
  if (adaptive.getNumOccurrences() && adaptive &&
      options.divergent != DivergentPolicy::Auto)
    return Status::error(
        "--adaptive applies to --divergent auto, which alone weighs "
        "strategies");
  options.adaptive = adaptive;
  auto ls = parseLoopSyncPolicy(loopSync);
  if (!ls)
    return ls.status();
  options.loopSync = *ls;
  return options;
}

bool loom::tools::parseCommandLine(const char *tool, int argc, char **argv,
                                   const std::string &overview,
                                   cl::OptionCategory &own) {
  cl::HideUnrelatedOptions({&own, &compileCategory()});
  // cl reports some mistakes on two lines ("Did you mean ...?"); every
  // error is one line, so collect them and join the lines.
  std::string clErrors;
  llvm::raw_string_ostream clErrorStream(clErrors);
  if (cl::ParseCommandLineOptions(argc, argv, overview, &clErrorStream))
    return true;
  llvm::SmallVector<llvm::StringRef> lines;
  llvm::StringRef(clErrors).split(lines, '\n', -1, /*KeepEmpty=*/false);
  std::string joined;
  std::string prefix = std::string(tool) + ": ";
  for (llvm::StringRef line : lines) {
    line.consume_front(prefix);
    joined += (joined.empty() ? "" : " ") + line.trim().str();
  }
  // Bad option values were already reported, on one line, by cl itself.
  if (!joined.empty())
    fmt::print(stderr, "{}{}\n", prefix, joined);
  return false;
}

/// An option as a user types it: `-O`, `--entry`.
static std::string flagName(const cl::Option &option) {
  return (option.ArgStr.size() == 1 ? "-" : "--") + option.ArgStr.str();
}

/// Every flag of compileCategory().
static llvm::ArrayRef<const cl::Option *> compileFlags() {
  static const cl::Option *const flags[] = {
      &entryName, &backend,    &shards,    &divergent,     &gangWidth,
      &refill,    &adaptive,   &loopSync,  &fpContraction, &laneVectors,
      &optLevel,  &verifyEach, &targetCPU, &gpuArch,       &cudaPath};
  return flags;
}

Status loom::tools::checkNoCompileFlags(const std::string &library) {
  for (const cl::Option *option : compileFlags())
    if (option->getNumOccurrences())
      return Status::error(flagName(*option) + " is a compile option, and " +
                           library +
                           " is already compiled (give it to loom-compile)");
  return Status::success();
}

Status loom::tools::checkOptionUse(
    llvm::ArrayRef<const cl::Option *> single,
    llvm::ArrayRef<const cl::opt<std::string> *> words) {
  llvm::SmallVector<const cl::Option *> allSingle(compileFlags());
  allSingle.append(single.begin(), single.end());
  for (const cl::Option *option : allSingle)
    if (option->getNumOccurrences() > 1)
      return Status::error(flagName(*option) + " is given more than once");
  llvm::SmallVector<const cl::opt<std::string> *> allWords = {
      &entryName, &backend, &divergent, &loopSync,
      &targetCPU, &gpuArch, &cudaPath};
  allWords.append(words.begin(), words.end());
  for (const cl::opt<std::string> *option : allWords)
    if (option->getNumOccurrences() && option->getValue().empty())
      return Status::error(flagName(*option) + " needs a value, got ''");
  return Status::success();
}
