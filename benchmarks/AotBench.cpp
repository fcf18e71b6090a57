//===- AotBench.cpp - Loading an AOT library against compiling with the JIT =//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//
//
// The ahead-of-time figures, each measured side by side with the JIT in the
// same iterations, so that load on a shared machine hits both alike:
//
//  - SdeLoadVsCompile/<entry>: Executable::load of the diffrax SDE's `.so`
//    against Executable::compileFile of the same file with the same
//    CompileOptions (the entry, opt level 3). The library is written once,
//    before any benchmark runs, by Executable::compileFileTo into a
//    temporary directory. Each iteration compiles once and loads once;
//    the iteration time is the load, and `ratio` is load over compile.
//  - CallJitVsAot: the cost of one `call` of the tiny program JitBench's
//    callOverhead times (solve's signature, adds one to its input), through
//    a JIT executable and through the loaded library of the same program,
//    in alternating batches of kCalls calls. The iteration time is the
//    library's batch; `ratio` is the library's call over the JIT's, which
//    should be 1 within noise: both end in the same call path.
//
// Before timing, both executables of each program are called once and
// their outputs compared bit for bit; a difference fails the run.
//
// The programs are read from LOOM_EXAMPLES_DIR, which CMake sets to the
// source tree's python-free-examples/; `--examples=DIR` overrides it.
//
//===----------------------------------------------------------------------===//

#include "ExamplesFlag.h"
#include "loom/Loom.h"

#include <benchmark/benchmark.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace {

using loom::DType;
using loom::Executable;
using loom::HostBuffer;
using Clock = std::chrono::steady_clock;
namespace fs = std::filesystem;

std::string examplesDir = LOOM_EXAMPLES_DIR;
/// Where main() writes the programs and libraries; removed at exit.
fs::path workDir;

double secondsSince(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

/// JitBench's callOverhead program.
constexpr const char *kTinyProgram = R"mlir(
func.func @main(%init: tensor<1xf32>, %key: tensor<2xi32>) -> tensor<1xf32> {
  %c0 = arith.constant 0 : index
  %one = arith.constant 1.0 : f32
  %x = tensor.extract %init[%c0] : tensor<1xf32>
  %y = arith.addf %x, %one : f32
  %r = tensor.from_elements %y : tensor<1xf32>
  return %r : tensor<1xf32>
})mlir";

/// `(init, key)` inputs that view two fields, as JitBench's calls do.
struct ScalarInputs {
  float init = 0.1f;
  uint32_t key[2] = {0, 42};
  std::vector<HostBuffer> buffers;

  ScalarInputs() {
    buffers.push_back(HostBuffer::view(DType::F32, {1}, &init).take());
    buffers.push_back(HostBuffer::view(DType::U32, {2}, key).take());
  }
};

/// Empty when both give the same bits for the same inputs.
std::string compareOutputs(const Executable &jit, const Executable &aot,
                           const std::vector<HostBuffer> &inputs) {
  auto a = jit.call(inputs);
  auto b = aot.call(inputs);
  if (!a)
    return "the JIT: " + a.message();
  if (!b)
    return "the library: " + b.message();
  if (a->size() != b->size())
    return "the JIT and the library give different numbers of outputs";
  for (size_t i = 0; i < a->size(); ++i) {
    const HostBuffer &x = (*a)[i], &y = (*b)[i];
    if (x.typeString() != y.typeString() || x.byteSize() != y.byteSize() ||
        std::memcmp(x.data(), y.data(), x.byteSize()) != 0)
      return "output " + std::to_string(i) +
             " differs between the JIT and the library";
  }
  return "";
}

fs::path sdeLibrary(const std::string &entry) {
  return workDir / ("sde-" + entry + ".so");
}

loom::CompileOptions optionsFor(const std::string &entry) {
  loom::CompileOptions options;
  options.entry = entry;
  return options;
}

//===----------------------------------------------------------------------===//
// Load against compile
//===----------------------------------------------------------------------===//

void sdeLoadVsCompile(benchmark::State &state, const char *entry) {
  std::string source = examplesDir + "/diffrax/sde.mlir";
  std::string library = sdeLibrary(entry).string();
  loom::CompileOptions options = optionsFor(entry);
  double compile = 0, load = 0;
  for (auto _ : state) {
    auto start = Clock::now();
    auto jit = Executable::compileFile(source, options);
    double c = secondsSince(start);
    start = Clock::now();
    auto aot = Executable::load(library);
    double l = secondsSince(start);
    if (!jit || !aot) {
      state.SkipWithError((jit ? aot.message() : jit.message()).c_str());
      return;
    }
    compile += c;
    load += l;
    state.SetIterationTime(l);
  }
  double n = static_cast<double>(state.iterations());
  state.counters["compile_ms"] = 1e3 * compile / n;
  state.counters["load_ms"] = 1e3 * load / n;
  state.counters["ratio"] = load / compile;
  state.counters["so_kib"] = static_cast<double>(fs::file_size(library)) / 1024;
}

// Each iteration costs a full JIT compile (0.1-0.3 s), so a few suffice.
BENCHMARK_CAPTURE(sdeLoadVsCompile, main, "main")
    ->Iterations(4)
    ->Unit(benchmark::kMillisecond)
    ->UseManualTime();
BENCHMARK_CAPTURE(sdeLoadVsCompile, solve_sde, "solve_sde")
    ->Iterations(4)
    ->Unit(benchmark::kMillisecond)
    ->UseManualTime();

//===----------------------------------------------------------------------===//
// Call overhead
//===----------------------------------------------------------------------===//

constexpr int kCalls = 1000;

/// kCalls calls; their time, or a negative value on an error.
double timeCalls(const Executable &exe, const std::vector<HostBuffer> &in) {
  auto start = Clock::now();
  for (int i = 0; i < kCalls; ++i) {
    auto out = exe.call(in);
    if (!out)
      return -1;
    benchmark::DoNotOptimize(*(*out)[0].dataAs<float>());
  }
  return secondsSince(start);
}

void callJitVsAot(benchmark::State &state) {
  fs::path file = workDir / "tiny.mlir";
  auto jit = Executable::compileFile(file.string());
  auto aot = Executable::load((workDir / "tiny.so").string());
  if (!jit || !aot) {
    state.SkipWithError((jit ? aot.message() : jit.message()).c_str());
    return;
  }
  ScalarInputs inputs;
  double jitTime = 0, aotTime = 0;
  bool jitFirst = true;
  for (auto _ : state) {
    // Alternate which goes first, so neither always finds the caches warm.
    double j, a;
    if (jitFirst) {
      j = timeCalls(*jit, inputs.buffers);
      a = timeCalls(*aot, inputs.buffers);
    } else {
      a = timeCalls(*aot, inputs.buffers);
      j = timeCalls(*jit, inputs.buffers);
    }
    jitFirst = !jitFirst;
    if (j < 0 || a < 0) {
      state.SkipWithError("a call failed");
      return;
    }
    jitTime += j;
    aotTime += a;
    state.SetIterationTime(a);
  }
  double calls = static_cast<double>(state.iterations()) * kCalls;
  state.counters["jit_call_us"] = 1e6 * jitTime / calls;
  state.counters["aot_call_us"] = 1e6 * aotTime / calls;
  state.counters["ratio"] = aotTime / jitTime;
}

BENCHMARK(callJitVsAot)->Unit(benchmark::kMicrosecond)->UseManualTime();

//===----------------------------------------------------------------------===//
// Setup
//===----------------------------------------------------------------------===//

/// Writes every library the benchmarks load and checks each against the
/// JIT on one call; empty on success.
std::string prepare() {
  fs::path tiny = workDir / "tiny.mlir";
  std::ofstream(tiny) << kTinyProgram;
  auto writeLibrary = [](const fs::path &source,
                         const loom::CompileOptions &options,
                         const fs::path &library) -> std::string {
    loom::Status s = Executable::compileFileTo(
        source.string(), options, loom::EmitStage::Library, library.string());
    return s ? "" : s.message();
  };
  auto check = [](const fs::path &source, const loom::CompileOptions &options,
                  const fs::path &library) -> std::string {
    auto jit = Executable::compileFile(source.string(), options);
    auto aot = Executable::load(library.string());
    if (!jit)
      return jit.message();
    if (!aot)
      return aot.message();
    ScalarInputs inputs;
    std::string error = compareOutputs(*jit, *aot, inputs.buffers);
    return error.empty() ? "" : library.filename().string() + ": " + error;
  };
  if (std::string e = writeLibrary(tiny, {}, workDir / "tiny.so"); !e.empty())
    return e;
  if (std::string e = check(tiny, {}, workDir / "tiny.so"); !e.empty())
    return e;
  fs::path sde = fs::path(examplesDir) / "diffrax" / "sde.mlir";
  // @main is batched; its (inits, keys) of one lane are solve_sde's
  // (y0, key) with a leading axis, which the check's views lack, so only
  // solve_sde's outputs are compared.
  for (const char *entry : {"main", "solve_sde"}) {
    if (std::string e = writeLibrary(sde, optionsFor(entry), sdeLibrary(entry));
        !e.empty())
      return e;
  }
  return check(sde, optionsFor("solve_sde"), sdeLibrary("solve_sde"));
}

} // namespace

int main(int argc, char **argv) {
  benchmark::Initialize(&argc, argv);
  if (!loom::bench::parseExamplesFlag(argc, argv, "loom-bench-aot",
                                      examplesDir))
    return 1;
  std::string pattern = (fs::temp_directory_path() / "loom-bench-aot-XXXXXX");
  if (!mkdtemp(pattern.data())) {
    std::perror("loom-bench-aot: mkdtemp");
    return 1;
  }
  workDir = pattern;
  int status = 0;
  if (std::string error = prepare(); !error.empty()) {
    std::fprintf(stderr, "loom-bench-aot: %s\n", error.c_str());
    status = 1;
  } else {
    benchmark::RunSpecifiedBenchmarks();
  }
  benchmark::Shutdown();
  std::error_code ignored;
  fs::remove_all(workDir, ignored);
  return status;
}
