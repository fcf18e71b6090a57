//===- RunTool.cpp - What loom-run and loom-exec share --------------------===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//

#include "RunTool.h"

#include "loom/Runtime/InputSpec.h"
#include "loom/Runtime/MPIMesh.h"
#include "loom/Runtime/Npy.h"
#include "loom/Support/SolverResults.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iterator>
#include <map>
#include <thread>

using namespace loom;
using namespace loom::tools;

int loom::tools::fail(const char *tool, const std::string &message) {
  MPIWorld world = mpiWorld();
  if (world.size == 1) {
    fmt::print(stderr, "{}: {}\n", tool, message);
    return 1;
  }
  // In an MPI job every rank must end, or the others wait for it forever.
  // An error of a call is every rank's (they agree on it), so rank 0 says
  // it once and ends the job; any other rank waits to be ended with it, and
  // speaks only if rank 0 did not (an error only it had).
  if (world.rank != 0)
    std::this_thread::sleep_for(std::chrono::seconds(5));
  bool named = message.rfind("rank ", 0) == 0;
  fmt::print(stderr, "{}: {}{}\n", tool,
             named ? "" : fmt::format("rank {}: ", world.rank), message);
  std::fflush(stderr);
  abortJob(1);
}

std::string loom::tools::summarize(const std::string &name,
                                   const HostBuffer &b) {
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

Status loom::tools::checkErrorCodes(const Executable &exe,
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

/// "variants at LOC: primary P, alternative A; kept per shard [...];
/// fastest run per shard in CPU time, primary [...] and alternative [...] ms".
static std::string describeChoices(const VariantCounters &site) {
  std::string kept, fastest[2];
  for (size_t s = 0; s < site.chosen.size(); ++s) {
    const char *sep = s ? ", " : "";
    int32_t chosen = site.chosen[s];
    kept += fmt::format("{}{}", sep,
                        chosen < 0    ? "undecided"
                        : chosen == 0 ? "primary"
                                      : "alternative");
    int64_t nanos[2] = {site.primaryNanos[s], site.alternativeNanos[s]};
    for (int v = 0; v < 2; ++v)
      fastest[v] += nanos[v] < 0 ? fmt::format("{}-", sep)
                                 : fmt::format("{}{:.3f}", sep, nanos[v] / 1e6);
  }
  return fmt::format(
      "variants at {}: primary {}, alternative {}; kept per "
      "shard [{}]; fastest run per shard in CPU time, primary [{}] and "
      "alternative [{}] ms",
      site.location, site.primary, site.alternative, kept, fastest[0],
      fastest[1]);
}

/// Per loop: iterations per shard, and for masked loops how many of the
/// lane-iterations did useful work; any other loop counts one lane per
/// iteration, so for it only the iterations summed over shards mean
/// something. Per shard: collectives per call.
static Status printCounters(const Executable &exe) {
  auto counters = exe.counters();
  if (!counters)
    return counters.status();
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
      slots +=
          loop.iterations[s] * (loop.lanes ? loop.lanes : counters->lanes[s]);
    }
    std::string line =
        fmt::format("loop {} ({}{}{}): iterations per shard per call {}",
                    loop.location, loop.masked ? "masked" : "unmasked",
                    loop.variant.empty() ? "" : ", in variant ", loop.variant,
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
  for (const VariantCounters &site : counters->variants)
    fmt::print("{}\n", describeChoices(site));
  return Status::success();
}

Status loom::tools::checkRunOptions(const RunOptions &options) {
  if (options.repeat == 0)
    return Status::error("--repeat must be at least 1");
  if (options.outputDir.empty())
    return Status::success();
  std::error_code ec;
  std::filesystem::create_directories(options.outputDir, ec);
  // create_directories fails on an existing regular file too.
  if (std::filesystem::is_regular_file(options.outputDir))
    return Status::error("output directory '" + options.outputDir +
                         "' is not a directory");
  if (ec)
    return Status::error("cannot create output directory '" +
                         options.outputDir + "': " + ec.message());
  return Status::success();
}

int loom::tools::runAndReport(const char *tool, const Executable &exe,
                              const RunOptions &options) {
  if (options.stats && !exe.countsLoops())
    return fail(tool, "--stats: " + options.program +
                          " was compiled without --counters");
  // On the MPI backend every rank calls, and rank 0 alone reads the inputs
  // and reports.
  bool root = exe.rank() == 0;
  std::map<std::string, HostBuffer> inputs;
  // Per input, the name or position it was given by: a second --input for
  // the same argument, by either, is an error rather than the last one
  // winning.
  std::vector<std::string> givenAs(exe.inputs().size());
  for (const std::string &item :
       root ? options.inputs : std::vector<std::string>()) {
    size_t eq = item.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == item.size())
      return fail(tool, "bad --input '" + item + "' (expected NAME=SPEC)");
    std::string name = item.substr(0, eq);
    auto index = exe.inputIndex(name);
    if (!index)
      return fail(tool, index.message());
    if (!givenAs[*index].empty())
      return fail(tool, "input '" + exe.inputs()[*index].name +
                            "' is given twice (--input " + givenAs[*index] +
                            "=... and --input " + name + "=...)");
    givenAs[*index] = name;
    auto buffer = parseInputSpec(item.substr(eq + 1));
    if (!buffer)
      return fail(tool, "input '" + name + "': " + buffer.message());
    inputs[name] = buffer.take();
  }

  using Clock = std::chrono::steady_clock;
  std::vector<double> seconds;
  Result<std::vector<HostBuffer>> outputs = Status::error("not called");
  for (unsigned r = 0; r < options.repeat; ++r) {
    auto start = Clock::now();
    outputs = exe.callNamed(inputs);
    seconds.push_back(
        std::chrono::duration<double>(Clock::now() - start).count());
    if (!outputs)
      return fail(tool, outputs.message());
  }

  if (!root) {
    // Rank 0 gathers the counters of every rank.
    if (options.stats)
      if (auto counters = exe.counters(); !counters)
        return fail(tool, counters.message());
    return 0;
  }

  if (!options.raiseOn.empty()) {
    if (Status s = checkErrorCodes(exe, *outputs, options.raiseOn); !s.ok())
      return fail(tool, s.message());
  }

  for (size_t i = 0; i < outputs->size(); ++i) {
    const std::string &name = exe.outputs()[i].name;
    fmt::print("{}\n", summarize(name, (*outputs)[i]));
    if (options.outputDir.empty())
      continue;
    std::string path =
        (std::filesystem::path(options.outputDir) / (name + ".npy")).string();
    if (Status s = writeNpy(path, (*outputs)[i]); !s.ok())
      return fail(tool, s.message());
  }

  if (options.stats)
    if (Status s = printCounters(exe); !s.ok())
      return fail(tool, s.message());

  if (options.time) {
    const CompileTimes &t = exe.compileTimes();
    std::sort(seconds.begin(), seconds.end());
    fmt::print("compile: {:.1f} ms (parse {:.1f}, lower {:.1f}, jit {:.1f})\n",
               1e3 * t.total(), 1e3 * t.parse, 1e3 * t.lower, 1e3 * t.jit);
    fmt::print("call: median {:.3f} ms, min {:.3f} ms over {} calls\n",
               1e3 * seconds[seconds.size() / 2], 1e3 * seconds.front(),
               seconds.size());
  }
  return 0;
}
