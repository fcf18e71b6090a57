//===- DivergentBench.cpp - The divergent suite under every strategy ------===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//
//
// The divergent-loop suite (benchmarks/divergent/*.mlir): each program's
// @main over 12,800 lanes (64 distinct lanes tiled, as the inputs of
// benchmarks/divergent/suite.py), compiled for every divergent-loop strategy
// the API knows (masked, per-lane, gang and gang with refill at the default
// width, and auto) at 1 and 2 shards, timed side by side in one run. The
// fastest strategy, auto's choice and auto over the fastest are what the cost
// model is fitted to and judged on (benchmarks/fit-cost-model.py,
// docs/vmap.md); benchmarks/report.py renders the table.
//
// Every variant's outputs are checked bit for bit against the 1-shard
// per-lane run before it is timed; a mismatch fails the run (exit status 1).
// `make bench` interleaves the repetitions of all variants at random
// (--benchmark_enable_random_interleaving), so a change in the machine's load
// during the run spreads over every strategy instead of biasing one.
//
// Counters: `compile_ms`, `held_out` (1 for the held-out half, 0 for the fit
// half, from the program's `// suite: split=` line), `lanes`, and on the
// auto variant `masked_loops` and `loops`: how many of the loops auto
// compiled masked (read from a second, -O0 compile with loop counters), and
// `same_code_as`: 1 + the index (masked, per-lane, gang...) of the fixed
// strategy whose lowered module (EmitStage::MLIR) is auto's, 0 for none;
// `seed-code/<workload>/s<shards>` records the same for the seed's programs
// (timed by loom-bench-seed).
//
//===----------------------------------------------------------------------===//

#include "BenchSupport.h"
#include "ExamplesFlag.h"
#include "loom/Loom.h"

#include <benchmark/benchmark.h>

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

namespace {

using loom::DType;
using loom::Executable;
using loom::HostBuffer;
using Clock = std::chrono::steady_clock;

std::string suiteDir = LOOM_SUITE_DIR;
std::string examplesDir = LOOM_EXAMPLES_DIR;
constexpr int64_t kBatch = 12800;
bool anyMismatch = false;

using loom::bench::die;
using loom::bench::orDie;

//===----------------------------------------------------------------------===//
// Programs and their inputs (the header format of suite.py)
//===----------------------------------------------------------------------===//

struct Input {
  std::string name;
  bool isFloat = false;
  double lo = 0, hi = 0;
  bool scalar = false;
};

struct Program {
  std::string name, path;
  bool heldOut = false;
  std::vector<Input> inputs;
  std::map<std::string, HostBuffer> args;
};

/// suite.py's multipliers: input i takes lane j = (b mod 64) * m_i mod 64.
constexpr int64_t kMultipliers[] = {37, 13, 29, 53, 45, 21};

HostBuffer makeInput(const Input &in, size_t index, int64_t batch) {
  DType dtype = in.isFloat ? DType::F32 : DType::I32;
  std::vector<int64_t> shape;
  if (!in.scalar)
    shape = {batch};
  HostBuffer b = orDie(HostBuffer::zeros(dtype, shape), in.name);
  int64_t m = kMultipliers[index % std::size(kMultipliers)];
  int64_t n = in.scalar ? 1 : batch;
  for (int64_t i = 0; i < n; ++i) {
    int64_t j = (i % 64) * m % 64;
    if (in.isFloat)
      b.dataAs<float>()[i] = static_cast<float>(
          in.scalar ? in.lo : in.lo + (in.hi - in.lo) * j / 63.0);
    else
      b.dataAs<int32_t>()[i] = static_cast<int32_t>(
          in.scalar ? in.lo
                    : in.lo + static_cast<int64_t>(in.hi - in.lo) * j / 63);
  }
  return b;
}

Program parseProgram(const std::filesystem::path &path) {
  Program p;
  p.name = path.stem().string();
  p.path = path.string();
  std::ifstream file(path);
  bool split = false;
  for (std::string line; std::getline(file, line);) {
    std::istringstream words(line);
    std::string slashes, tag;
    words >> slashes >> tag;
    if (slashes != "//")
      continue;
    if (tag == "suite:") {
      std::string value;
      words >> value;
      split = value == "split=fit" || value == "split=held-out";
      p.heldOut = value == "split=held-out";
    } else if (tag == "suite-input:") {
      Input in;
      std::string dtype;
      words >> in.name >> dtype >> in.lo;
      in.isFloat = dtype == "f32";
      if (!(words >> in.hi))
        in.scalar = true;
      p.inputs.push_back(in);
    }
  }
  if (!split || p.inputs.empty())
    die(p.path + ": no '// suite: split=' line or no inputs");
  for (size_t i = 0; i < p.inputs.size(); ++i)
    p.args[p.inputs[i].name] = makeInput(p.inputs[i], i, kBatch);
  return p;
}

std::vector<Program> &programs() {
  static std::vector<Program> all;
  return all;
}

void loadPrograms() {
  std::vector<std::filesystem::path> paths;
  std::error_code ec;
  for (const auto &entry : std::filesystem::directory_iterator(suiteDir, ec))
    if (entry.path().extension() == ".mlir")
      paths.push_back(entry.path());
  if (ec || paths.empty())
    die("no programs in " + suiteDir);
  std::sort(paths.begin(), paths.end());
  for (const auto &path : paths)
    programs().push_back(parseProgram(path));
}

//===----------------------------------------------------------------------===//
// Variants, compiled once
//===----------------------------------------------------------------------===//

/// A strategy as the suite times it: a policy, and for gangs (at the
/// default width) whether their slots refill.
struct Strategy {
  loom::DivergentPolicy policy;
  bool refill = false;
  /// CompileOptions::laneVectors (rows named <strategy>-lv).
  bool laneVectors = false;
  bool operator!=(const Strategy &o) const {
    return policy != o.policy || refill != o.refill ||
           laneVectors != o.laneVectors;
  }
};

std::string nameOf(Strategy s) {
  return std::string(loom::toString(s.policy)) + (s.refill ? "-refill" : "") +
         (s.laneVectors ? "-lv" : "");
}

/// --lane-vectors: also time gang, gang with refill and auto with
/// CompileOptions::laneVectors, beside the rows without.
bool laneVectorRows = false;

const Strategy kPerLane{loom::DivergentPolicy::PerLane};
const Strategy kAuto{loom::DivergentPolicy::Auto};

/// Every strategy the API parses, gang with and without refill.
std::vector<Strategy> strategies() {
  std::vector<Strategy> all;
  for (const char *word : {"masked", "per-lane", "gang", "auto"})
    if (auto p = loom::parseDivergentPolicy(word)) {
      all.push_back({p.take()});
      if (all.back().policy == loom::DivergentPolicy::Gang)
        all.push_back({loom::DivergentPolicy::Gang, true});
    }
  return all;
}

loom::CompileOptions optionsFor(Strategy d, int shards) {
  loom::CompileOptions options;
  options.entry = "main";
  options.shards = shards;
  options.divergent = d.policy;
  options.refill = d.refill;
  options.laneVectors = d.laneVectors;
  return options;
}

struct Compiled {
  std::unique_ptr<Executable> exe;
  double compileSeconds = 0;
};

const Compiled &compiled(const Program &p, Strategy d, int shards) {
  static std::map<std::string, Compiled> cache;
  std::string key = p.name + "/" + std::to_string(shards) + "/" + nameOf(d);
  auto it = cache.find(key);
  if (it != cache.end())
    return it->second;
  Executable exe = orDie(Executable::compileFile(p.path, optionsFor(d, shards)),
                         "compiling " + key);
  Compiled c;
  c.compileSeconds = exe.compileTimes().total();
  c.exe = std::make_unique<Executable>(std::move(exe));
  return cache.emplace(key, std::move(c)).first->second;
}

using Outputs = std::vector<HostBuffer>;

Outputs call(const Executable &exe, const Program &p) {
  return orDie(exe.callNamed(p.args), "calling " + p.name);
}

const Outputs &reference(const Program &p) {
  static std::map<const Program *, Outputs> refs;
  auto it = refs.find(&p);
  if (it == refs.end())
    it = refs.emplace(&p, call(*compiled(p, kPerLane, 1).exe, p)).first;
  return it->second;
}

bool sameBits(const Outputs &a, const Outputs &b) {
  if (a.size() != b.size())
    return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (a[i].shape() != b[i].shape() || a[i].dtype() != b[i].dtype() ||
        std::memcmp(a[i].data(), b[i].data(), a[i].byteSize()) != 0)
      return false;
  return true;
}

/// How many loops auto compiles masked, of how many: from a -O0 compile with
/// loop counters, which record each loop's lowering.
std::pair<int, int> autoChoice(const Program &p, int shards) {
  static std::map<std::pair<const Program *, int>, std::pair<int, int>> cache;
  auto [it, fresh] = cache.try_emplace({&p, shards});
  if (!fresh)
    return it->second;
  loom::CompileOptions options = optionsFor(kAuto, shards);
  options.countLoops = true;
  options.optLevel = 0;
  Executable exe = orDie(Executable::compileFile(p.path, options),
                         "compiling " + p.name + " with loop counters");
  call(exe, p);
  loom::Counters c = orDie(exe.counters(), "reading loop counters");
  int masked = 0;
  for (const loom::LoopCounters &loop : c.loops)
    masked += loop.masked;
  return it->second = {masked, static_cast<int>(c.loops.size())};
}

/// The module after the pipeline and bufferization (EmitStage::MLIR).
std::string loweredModule(const std::string &path, Strategy d, int shards) {
  std::filesystem::path out =
      std::filesystem::temp_directory_path() /
      ("loom-bench-divergent-" + std::to_string(getpid()) + ".mlir");
  loom::Status status = Executable::compileFileTo(
      path, optionsFor(d, shards), loom::EmitStage::MLIR, out.string());
  if (!status)
    die("lowering " + path + ": " + status.message());
  std::ifstream file(out);
  std::stringstream text;
  text << file.rdbuf();
  std::filesystem::remove(out);
  return text.str();
}

/// 1 + the index into strategies() of the fixed strategy whose lowered
/// module auto's equals, 0 for none: with the same code, the two runs differ
/// only by the machine's noise.
double sameCodeAs(const std::string &path, int shards) {
  static std::map<std::pair<std::string, int>, double> cache;
  auto [it, fresh] = cache.try_emplace({path, shards}, 0.0);
  if (!fresh)
    return it->second;
  std::string mine = loweredModule(path, kAuto, shards);
  std::vector<Strategy> all = strategies();
  for (size_t i = 0; i < all.size(); ++i)
    if (all[i] != kAuto && loweredModule(path, all[i], shards) == mine)
      return it->second = static_cast<double>(i + 1);
  return it->second;
}

void benchVariant(benchmark::State &state, const Program *p, Strategy d,
                  int shards) {
  const Compiled &c = compiled(*p, d, shards);
  if (!sameBits(call(*c.exe, *p), reference(*p))) {
    anyMismatch = true;
    std::fprintf(stderr,
                 "loom-bench-divergent: MISMATCH: %s/s%d/%s differs from the "
                 "1-shard per-lane run\n",
                 p->name.c_str(), shards, nameOf(d).c_str());
    state.SkipWithError("outputs differ from the 1-shard per-lane run");
    return;
  }
  for (auto _ : state) {
    Outputs out = call(*c.exe, *p);
    benchmark::DoNotOptimize(out.data());
  }
  state.counters["compile_ms"] = 1e3 * c.compileSeconds;
  state.counters["held_out"] = p->heldOut;
  state.counters["lanes"] = static_cast<double>(kBatch);
  if (d.policy == loom::DivergentPolicy::Auto && !d.laneVectors) {
    auto [masked, loops] = autoChoice(*p, shards);
    state.counters["masked_loops"] = masked;
    state.counters["loops"] = loops;
    state.counters["same_code_as"] = sameCodeAs(p->path, shards);
  }
}

/// Not timed: whether auto's code for a seed program's @main is a fixed
/// strategy's, for the seed's rows of the suite's table (loom-bench-seed
/// times them).
void seedCode(benchmark::State &state, std::string path, int shards) {
  double same = sameCodeAs(path, shards);
  for (auto _ : state)
    benchmark::DoNotOptimize(same);
  state.counters["same_code_as"] = same;
}

/// Names are divergent/<program>/s<shards>/<strategy>, and
/// seed-code/<workload>/s<shards> for the seed's programs.
void registerAll() {
  const std::pair<const char *, const char *> seeds[] = {
      {"mwe-b3000", "mwe/while_of_while.mlir"},
      {"ode-b300", "diffrax/ode.mlir"},
      {"sde-b300", "diffrax/sde.mlir"}};
  for (const auto &[workload, file] : seeds)
    for (int shards : {1, 2}) {
      std::string name =
          std::string("seed-code/") + workload + "/s" + std::to_string(shards);
      benchmark::RegisterBenchmark(name.c_str(), seedCode,
                                   examplesDir + "/" + file, shards);
    }
  for (const Program &p : programs())
    for (int shards : {1, 2})
      for (Strategy d : strategies()) {
        std::vector<Strategy> rows = {d};
        if (laneVectorRows && d.policy != loom::DivergentPolicy::Masked &&
            d.policy != loom::DivergentPolicy::PerLane)
          rows.push_back({d.policy, d.refill, /*laneVectors=*/true});
        for (Strategy row : rows) {
          std::string name = "divergent/" + p.name + "/s" +
                             std::to_string(shards) + "/" + nameOf(row);
          benchmark::RegisterBenchmark(name.c_str(), benchVariant, &p, row,
                                       shards)
              ->Unit(benchmark::kMillisecond)
              ->UseRealTime();
        }
      }
}

} // namespace

int main(int argc, char **argv) {
  benchmark::Initialize(&argc, argv);
  // What is left: --lane-vectors, and --examples=DIR, the seed's programs
  // (the suite is beside this file's source, in benchmarks/divergent/).
  int kept = 1;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--lane-vectors") == 0)
      laneVectorRows = true;
    else
      argv[kept++] = argv[i];
  }
  argc = kept;
  if (!loom::bench::parseExamplesFlag(argc, argv, "loom-bench-divergent",
                                      examplesDir))
    return 1;
  loadPrograms();
  registerAll();
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  if (anyMismatch) {
    std::fprintf(stderr, "loom-bench-divergent: some variants computed "
                         "different bits (see MISMATCH above)\n");
    return 1;
  }
  return 0;
}
