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
// `jax-split-partitionable:SEED:COUNT` (with `:INDEX`, one key of those). Every
// problem is one line on stderr and a non-zero exit.
//
//===----------------------------------------------------------------------===//

#include "loom/Loom.h"
#include "loom/Runtime/InputSpec.h"
#include "loom/Runtime/Npy.h"
#include "loom/Support/Limits.h"
#include "loom/Support/SolverResults.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <iterator>
#include <map>

using namespace loom;
namespace cl = llvm::cl;

static cl::OptionCategory category("loom-run options");
static cl::opt<std::string> inputFile(cl::Positional,
                                      cl::desc("<program.mlir>"), cl::Required,
                                      cl::cat(category));
static cl::opt<std::string> entryName("entry", cl::desc("Entry function"),
                                      cl::init("main"), cl::cat(category));
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
static bool showStats = false;
static constexpr const char *kStatsHelp =
    "  --stats                    - Count loop iterations and active lanes "
    "per shard, and collectives, and print them after the calls\n";
static cl::opt<bool> showTime("time",
                              cl::desc("Print compile time and call times"),
                              cl::cat(category));
static cl::opt<std::string> backend("backend", cl::desc("cpu | gpu | mpi"),
                                    cl::init("cpu"), cl::cat(category));
static cl::opt<int> shards("shards",
                           cl::desc("Number of shards (0: from the "
                                    "program's mesh, or 1)"),
                           cl::init(0), cl::cat(category));
static cl::opt<std::string> divergent("divergent",
                                      cl::desc("auto | masked | per-lane"),
                                      cl::init("auto"), cl::cat(category));
static cl::opt<std::string> loopSync("loop-sync",
                                     cl::desc("auto | global | local"),
                                     cl::init("auto"), cl::cat(category));
static cl::opt<bool> fpContraction("fp-contraction",
                                   cl::desc("Allow fused multiply-add"),
                                   cl::cat(category));
static cl::opt<int> optLevel("O", cl::desc("LLVM optimization level (0-3)"),
                             cl::init(3), cl::Prefix, cl::cat(category));

// EQX_ON_ERROR=raise. A compiled call cannot throw, and which lanes failed
// is only known after the whole batch ran, so a program returns its per-lane
// error codes (diffrax's `result`) and the caller raises; this is that caller.
static cl::opt<std::string> raiseOn(
    "raise-on",
    cl::desc("Fail, naming the lanes, if the integer result NAME is nonzero "
             "anywhere (EQX_ON_ERROR=raise); nothing is written"),
    cl::value_desc("NAME"), cl::cat(category));

static int fail(const std::string &message) {
  fmt::print(stderr, "loom-run: {}\n", message);
  return 1;
}

/// An option as a user types it: `-O`, `--entry`.
static std::string flagName(const cl::Option &option) {
  return (option.ArgStr.size() == 1 ? "-" : "--") + option.ArgStr.str();
}

/// Mistakes llvm::cl lets through: it lets a later occurrence of an option
/// silently override an earlier one, and takes an empty string as a value.
/// Every option but --input holds one value, so either is a typo in a long
/// command line, and running with whichever value won would hide it.
static Status checkOptionUse(int statsCount) {
  const cl::Option *single[] = {
      &entryName, &outputDir, &repeat,        &showTime, &backend, &shards,
      &divergent, &loopSync,  &fpContraction, &optLevel, &raiseOn};
  for (const cl::Option *option : single)
    if (option->getNumOccurrences() > 1)
      return Status::error(flagName(*option) + " is given more than once");
  if (statsCount > 1)
    return Status::error("--stats is given more than once");
  const cl::opt<std::string> *words[] = {&entryName, &outputDir, &raiseOn,
                                         &backend,   &divergent, &loopSync};
  for (const cl::opt<std::string> *option : words)
    if (option->getNumOccurrences() && option->getValue().empty())
      return Status::error(flagName(*option) + " needs a value, got ''");
  if (inputFile.empty())
    return Status::error("the program's file name is empty");
  return Status::success();
}

/// One line: name, type, and a few statistics of the values.
static std::string summarize(const std::string &name, const HostBuffer &b) {
  std::string line = fmt::format("{}: {}", name, b.typeString());
  int64_t n = b.numElements();
  if (n == 0)
    return line;
  auto value = [&](int64_t i) -> double {
    switch (b.dtype()) {
    case DType::F32:
      return b.dataAs<float>()[i];
    case DType::F64:
      return b.dataAs<double>()[i];
    case DType::I32:
      return b.dataAs<int32_t>()[i];
    case DType::U32:
      return b.dataAs<uint32_t>()[i];
    case DType::I64:
      return static_cast<double>(b.dataAs<int64_t>()[i]);
    case DType::I1:
      return b.dataAs<uint8_t>()[i];
    }
    return 0;
  };
  double lo = value(0), hi = value(0), sum = 0;
  for (int64_t i = 0; i < n; ++i) {
    double v = value(i);
    lo = std::min(lo, v);
    hi = std::max(hi, v);
    sum += v;
  }
  line += fmt::format(" min={:.9g} max={:.9g} mean={:.9g} [", lo, hi, sum / n);
  for (int64_t i = 0; i < std::min<int64_t>(n, 4); ++i)
    line += fmt::format("{}{:.9g}", i ? ", " : "", value(i));
  return line + (n > 4 ? ", ...]" : "]");
}

/// The lanes (flat indices) where the error-code result `name` is nonzero,
/// as one error naming the first few of them and their codes, then, for
/// each code among all failed lanes that is one of diffrax's
/// (loom/Support/SolverResults.h), the message diffrax raises.
static Status checkErrorCodes(const Executable &exe,
                              const std::vector<HostBuffer> &outputs,
                              const std::string &name) {
  const std::vector<ValueInfo> &infos = exe.outputs();
  auto it = std::find_if(infos.begin(), infos.end(),
                         [&](const ValueInfo &v) { return v.name == name; });
  if (it == infos.end())
    return Status::error("--raise-on: the entry has no result '" + name + "'");
  const HostBuffer &codes = outputs[it - infos.begin()];
  if (codes.dtype() != DType::I32)
    return Status::error("--raise-on: result '" + name + "' is " +
                         codes.typeString() + ", not i32");
  const int32_t *code = codes.dataAs<int32_t>();
  std::string lanes;
  int64_t failed = 0;
  bool seen[std::size(kSolverResults)] = {};
  for (int64_t i = 0; i < codes.numElements(); ++i) {
    if (code[i] == 0)
      continue;
    if (const SolverResult *known = findSolverResult(code[i]))
      seen[known - kSolverResults] = true;
    if (++failed <= 8)
      lanes +=
          fmt::format("{}{} ({}={})", failed > 1 ? ", " : "", i, name, code[i]);
  }
  if (failed == 0)
    return Status::success();
  std::string messages;
  for (size_t k = 0; k < std::size(kSolverResults); ++k)
    if (seen[k])
      messages +=
          fmt::format("; {} = {}: {}", kSolverResults[k].code,
                      kSolverResults[k].name, kSolverResults[k].message);
  return Status::error(fmt::format("{} of {} lanes failed: {}{}{}", failed,
                                   codes.numElements(), lanes,
                                   failed > 8 ? ", ..." : "", messages));
}

static std::string joinInts(const std::vector<int64_t> &values) {
  std::string s;
  for (int64_t v : values)
    s += (s.empty() ? "" : ", ") + std::to_string(v);
  return "[" + s + "]";
}

/// Per loop: iterations per shard, and for masked loops how many of the
/// lane-iterations did useful work; any other loop counts one lane per
/// iteration, so for it only the iterations summed over shards mean
/// something. Per shard: collectives per call.
static int printCounters(const Executable &exe) {
  auto counters = exe.counters();
  if (!counters)
    return fail(counters.message());
  int64_t calls = std::max<int64_t>(counters->calls, 1);
  auto perCall = [&](std::vector<int64_t> v) {
    for (int64_t &x : v)
      x /= calls;
    return v;
  };
  for (const LoopCounters &loop : counters->loops) {
    int64_t active = 0, slots = 0, iterations = 0;
    for (size_t s = 0; s < loop.iterations.size(); ++s) {
      iterations += loop.iterations[s];
      active += loop.activeLaneIterations[s];
      slots += loop.iterations[s] * counters->lanes[s];
    }
    std::string line =
        fmt::format("loop {} ({}): iterations per shard per call {}",
                    loop.location, loop.masked ? "masked" : "unmasked",
                    joinInts(perCall(loop.iterations)));
    if (loop.masked && slots > 0)
      line +=
          fmt::format(", active lane-iterations {} of {} ({:.1f}% lane "
                      "utilisation)",
                      active / calls, slots / calls, 100.0 * active / slots);
    else
      line +=
          fmt::format(", iterations summed over shards {}", iterations / calls);
    fmt::print("{}\n", line);
  }
  fmt::print("collectives per shard per call: {}\n",
             joinInts(perCall(counters->collectives)));
  return 0;
}

int main(int argc, char **argv) {
  std::vector<char *> args;
  int statsCount = 0;
  for (int i = 0; i < argc; ++i) {
    llvm::StringRef arg(argv[i]);
    if (i > 0 && (arg == "--stats" || arg == "-stats"))
      showStats = ++statsCount > 0;
    else
      args.push_back(argv[i]);
  }
  argc = static_cast<int>(args.size());
  argv = args.data();
  cl::HideUnrelatedOptions(category);
  // cl reports some mistakes on two lines ("Did you mean ...?"); every
  // loom-run error is one line, so collect them and join the lines.
  std::string clErrors;
  llvm::raw_string_ostream clErrorStream(clErrors);
  if (!cl::ParseCommandLineOptions(
          argc, argv,
          (std::string("Loom JIT runner: compile a "
                       "program and run its entry on "
                       ".npy or generated inputs\n\n") +
           "Also:\n" + kStatsHelp)
              .c_str(),
          &clErrorStream)) {
    llvm::SmallVector<llvm::StringRef> lines;
    llvm::StringRef(clErrors).split(lines, '\n', -1, /*KeepEmpty=*/false);
    std::string joined;
    for (llvm::StringRef line : lines) {
      line.consume_front("loom-run: ");
      joined += (joined.empty() ? "" : " ") + line.trim().str();
    }
    // Bad option values were already reported, on one line, by cl itself.
    return joined.empty() ? 1 : fail(joined);
  }

  if (Status s = checkOptionUse(statsCount); !s.ok())
    return fail(s.message());

  // The API reads shards=0 as "from the program's mesh"; that is what
  // leaving --shards out means, so an explicit 0 (or less) is a mistake.
  if (shards.getNumOccurrences() && (shards < 1 || shards > kMaxShards))
    return fail("--shards must be 1 to " + std::to_string(kMaxShards) +
                ", got " + std::to_string(shards));

  CompileOptions options;
  options.entry = entryName;
  options.shards = shards;
  options.fpContraction = fpContraction;
  options.optLevel = optLevel;
  options.countLoops = showStats;
  auto be = parseBackend(backend);
  if (!be)
    return fail(be.message());
  options.backend = *be;
  auto dv = parseDivergentPolicy(divergent);
  if (!dv)
    return fail(dv.message());
  options.divergent = *dv;
  auto ls = parseLoopSyncPolicy(loopSync);
  if (!ls)
    return fail(ls.message());
  options.loopSync = *ls;
  if (repeat == 0)
    return fail("--repeat must be at least 1");
  // Before compiling and running, so a long run does not end in this error.
  if (!outputDir.empty()) {
    if (std::error_code ec = llvm::sys::fs::create_directories(outputDir))
      return fail("cannot create output directory '" + outputDir +
                  "': " + ec.message());
    // create_directories accepts an existing regular file.
    if (!llvm::sys::fs::is_directory(outputDir))
      return fail("output directory '" + outputDir + "' is not a directory");
  }

  auto exe = Executable::compileFile(inputFile, options);
  if (!exe)
    return fail(exe.message());

  std::map<std::string, HostBuffer> inputs;
  // Per input, the name or position it was given by: a second --input for
  // the same argument, by either, is an error rather than the last one
  // winning.
  std::vector<std::string> givenAs(exe->inputs().size());
  for (const std::string &item : inputSpecs) {
    size_t eq = item.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == item.size())
      return fail("bad --input '" + item + "' (expected NAME=SPEC)");
    std::string name = item.substr(0, eq);
    auto index = exe->inputIndex(name);
    if (!index)
      return fail(index.message());
    if (!givenAs[*index].empty())
      return fail("input '" + exe->inputs()[*index].name +
                  "' is given twice (--input " + givenAs[*index] +
                  "=... and --input " + name + "=...)");
    givenAs[*index] = name;
    auto buffer = parseInputSpec(item.substr(eq + 1));
    if (!buffer)
      return fail("input '" + name + "': " + buffer.message());
    inputs[name] = buffer.take();
  }

  using Clock = std::chrono::steady_clock;
  std::vector<double> seconds;
  Result<std::vector<HostBuffer>> outputs = Status::error("not called");
  for (unsigned r = 0; r < repeat; ++r) {
    auto start = Clock::now();
    outputs = exe->callNamed(inputs);
    seconds.push_back(
        std::chrono::duration<double>(Clock::now() - start).count());
    if (!outputs)
      return fail(outputs.message());
  }

  if (!raiseOn.empty()) {
    if (Status s = checkErrorCodes(*exe, *outputs, raiseOn); !s.ok())
      return fail(s.message());
  }

  for (size_t i = 0; i < outputs->size(); ++i) {
    const std::string &name = exe->outputs()[i].name;
    fmt::print("{}\n", summarize(name, (*outputs)[i]));
    if (outputDir.empty())
      continue;
    llvm::SmallString<256> path(outputDir);
    llvm::sys::path::append(path, name + ".npy");
    if (Status s = writeNpy(std::string(path), (*outputs)[i]); !s.ok())
      return fail(s.message());
  }

  if (showStats)
    if (int rc = printCounters(*exe); rc != 0)
      return rc;

  if (showTime) {
    const CompileTimes &t = exe->compileTimes();
    std::sort(seconds.begin(), seconds.end());
    fmt::print("compile: {:.1f} ms (parse {:.1f}, lower {:.1f}, jit {:.1f})\n",
               1e3 * t.total(), 1e3 * t.parse, 1e3 * t.lower, 1e3 * t.jit);
    fmt::print("call: median {:.3f} ms, min {:.3f} ms over {} calls\n",
               1e3 * seconds[seconds.size() / 2], 1e3 * seconds.front(),
               seconds.size());
  }
  return 0;
}
