//===- JitBench.cpp - Compile time and call cost of the CPU JIT -----------===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//
//
// The "Speed and size" figures of the CPU JIT and its embedded API:
//
//  - Compile: parse-to-callable time (Executable::compileFile, which parses,
//    lowers and JIT-compiles) of the seed's programs. Target: the SDE's
//    `solve_sde` in at most 150 ms at the default optimization level.
//  - Mwe*: the MWE's scalar `solve` over 3000 lanes (keys
//    split(PRNGKey(0), 3000), inits 0.1), one call per lane with the input
//    buffers built once and refilled, against the same loop over the
//    hand-written baseline's mweSolve. Target: within 1.2x. mweSolve keeps
//    per-lane statistics and draws through the host threefry's vectors, so
//    a third loop, the same lane as scalar C++ that allocates nothing, shows
//    what the JIT's code costs against the tightest C++. The loops also run
//    interleaved in one benchmark whose `ratio` counters are JIT time over
//    C++ time, so that load on a shared machine hits them alike.
//
// Timings are wall clock: compilation and calls run on the calling thread.
// Operator new is counted, so the Mwe* benchmarks also report the C++ heap
// allocations per lane (the JIT'd code's own malloc of its result is not
// counted).
//
// The programs are read from LOOM_EXAMPLES_DIR, which CMake sets to the
// source tree's python-free-examples/; `--examples=DIR` overrides it.
//
//===----------------------------------------------------------------------===//

#include "ExamplesFlag.h"
#include "baseline/Seed.h"
#include "loom/Loom.h"
#include "loom/Support/Threefry.h"

#include <benchmark/benchmark.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>
#include <string>
#include <vector>

//===----------------------------------------------------------------------===//
// Counting allocations
//===----------------------------------------------------------------------===//

static std::atomic<uint64_t> numAllocations{0};

// Every other form of operator new and delete in libstdc++ (arrays, nothrow,
// sized) ends in these two; aligned forms are not used on these paths. Not
// inlined: GCC 12 would otherwise see malloc's block reach free through
// "operator delete" and warn of a mismatch (-Wmismatched-new-delete).
__attribute__((noinline)) void *operator new(std::size_t size) {
  numAllocations.fetch_add(1, std::memory_order_relaxed);
  if (void *p = std::malloc(size ? size : 1))
    return p;
  throw std::bad_alloc();
}
__attribute__((noinline)) void operator delete(void *p) noexcept {
  std::free(p);
}
void operator delete(void *p, std::size_t) noexcept { ::operator delete(p); }

namespace {

using loom::DType;
using loom::Executable;
using loom::HostBuffer;
using Clock = std::chrono::steady_clock;

std::string examplesDir = LOOM_EXAMPLES_DIR;

double secondsSince(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

//===----------------------------------------------------------------------===//
// Parse to callable
//===----------------------------------------------------------------------===//

// state.range(0) is the optimization level.
void compileProgram(benchmark::State &state, const char *file,
                    const char *entry) {
  loom::CompileOptions options;
  options.entry = entry;
  options.optLevel = static_cast<int>(state.range(0));
  std::string path = examplesDir + "/" + file;
  loom::CompileTimes total;
  for (auto _ : state) {
    auto exe = Executable::compileFile(path, options);
    if (!exe) {
      state.SkipWithError(exe.message().c_str());
      return;
    }
    const loom::CompileTimes &t = exe->compileTimes();
    total.parse += t.parse;
    total.lower += t.lower;
    total.jit += t.jit;
  }
  // The API's own breakdown of the time: parse + verify, the MLIR lowering
  // pipeline, LLVM optimization and code generation.
  double n = static_cast<double>(state.iterations());
  state.counters["parse_ms"] = 1e3 * total.parse / n;
  state.counters["lower_ms"] = 1e3 * total.lower / n;
  state.counters["jit_ms"] = 1e3 * total.jit / n;
}

void compileSde(benchmark::State &state) {
  compileProgram(state, "diffrax/sde.mlir", "solve_sde");
}
void compileOde(benchmark::State &state) {
  compileProgram(state, "diffrax/ode.mlir", "solve_ode");
}
void compileMwe(benchmark::State &state) {
  compileProgram(state, "mwe/while_of_while.mlir", "solve");
}

// Opt level 3 is CompileOptions' default; 0 shows what LLVM's optimizer
// costs.
BENCHMARK(compileSde)
    ->ArgName("opt")
    ->Arg(3)
    ->Arg(0)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK(compileOde)
    ->ArgName("opt")
    ->Arg(3)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK(compileMwe)
    ->ArgName("opt")
    ->Arg(3)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

//===----------------------------------------------------------------------===//
// The MWE's scalar solve over 3000 lanes
//===----------------------------------------------------------------------===//

constexpr size_t kLanes = 3000;
constexpr float kInit = 0.1f;

/// The per-lane keys of the seed's batch, split(PRNGKey(0), kLanes).
const std::vector<uint32_t> &laneKeys() {
  static const std::vector<uint32_t> keys = loom::threefry::split(
      loom::threefry::prngKey(0), kLanes, /*partitionable=*/false);
  return keys;
}

/// One pass of the C++ loop; returns a value that depends on every lane.
float baselineLanes() {
  float sum = 0.0f;
  for (size_t lane = 0; lane < kLanes; ++lane) {
    loom::threefry::Key k = {laneKeys()[2 * lane], laneKeys()[2 * lane + 1]};
    sum += loom::baseline::mweSolve(kInit, k, loom::baseline::MathMode::Libm).y;
  }
  return sum;
}

/// One lane of the MWE as scalar C++: mweSolve's float32 operations and
/// threefry blocks, without its statistics or any vector.
float scalarLane(float init, loom::threefry::Key key) {
  using loom::threefry::block;
  // randint(key, -2, 2): split(key) hashes the counts (0, 2) and (1, 3) and
  // takes the halves' first and second words as the two keys; each draws
  // one word from the padded counts (0, 0).
  auto a = block(key, {0u, 2u});
  auto b = block(key, {1u, 3u});
  uint32_t higher = block({a[0], b[0]}, {0u, 0u})[0];
  uint32_t lower = block({a[1], b[1]}, {0u, 0u})[0];
  const int32_t minval = -2;
  const uint32_t span = 4;
  const uint32_t multiplier = ((65536u % span) * (65536u % span)) % span;
  int32_t count =
      minval + static_cast<int32_t>(
                   ((higher % span) * multiplier + lower % span) % span);
  float t = 0.0f, y = init;
  for (; count < 5; ++count) {
    // uniform(PRNGKey(count), (1,)): the block of the padded counts (0, 0).
    uint32_t bits = block({0u, static_cast<uint32_t>(count)}, {0u, 0u})[0] >> 9;
    bits |= 0x3F800000u;
    float unit;
    std::memcpy(&unit, &bits, sizeof unit);
    y = unit - 1.0f;
    while (y < 10.0f) {
      float dy = std::fabs(::sinf(t)) + 5.0f * y;
      float step = 0.1f * dy;
      t = t + 0.1f;
      y = y + step;
    }
  }
  return y;
}

float scalarLanes() {
  float sum = 0.0f;
  for (size_t lane = 0; lane < kLanes; ++lane)
    sum += scalarLane(kInit, {laneKeys()[2 * lane], laneKeys()[2 * lane + 1]});
  return sum;
}

/// The compiled `solve`, with its two input buffers viewing `init` and `key`,
/// which each lane refills: no input is built per call.
class MweJit {
public:
  /// Compiles and checks every lane of the JIT and of the scalar loop
  /// against the baseline, bit for bit (all call the C library's sinf); a
  /// mismatch or error is a message.
  std::string setUp() {
    loom::CompileOptions options;
    options.entry = "solve";
    auto compiled = Executable::compileFile(
        examplesDir + "/mwe/while_of_while.mlir", options);
    if (!compiled)
      return compiled.message();
    exe.emplace_back(compiled.take());
    inputs.push_back(HostBuffer::view(DType::F32, {1}, &init).take());
    inputs.push_back(HostBuffer::view(DType::U32, {2}, key).take());
    for (size_t lane = 0; lane < kLanes; ++lane) {
      auto y = solve(lane);
      if (!y)
        return y.message();
      loom::threefry::Key k = {laneKeys()[2 * lane], laneKeys()[2 * lane + 1]};
      float expected =
          loom::baseline::mweSolve(kInit, k, loom::baseline::MathMode::Libm).y;
      float scalar = scalarLane(kInit, k);
      if (std::memcmp(&*y, &expected, sizeof expected) != 0 ||
          std::memcmp(&scalar, &expected, sizeof expected) != 0)
        return "lane " + std::to_string(lane) + ": the JIT gives " +
               std::to_string(*y) + ", the scalar loop " +
               std::to_string(scalar) + ", the baseline " +
               std::to_string(expected);
    }
    return "";
  }

  loom::Result<float> solve(size_t lane) {
    init = kInit;
    key[0] = laneKeys()[2 * lane];
    key[1] = laneKeys()[2 * lane + 1];
    auto out = exe.front().call(inputs);
    if (!out)
      return out.status();
    return *(*out)[0].dataAs<float>();
  }

private:
  // A vector only because Executable has no empty state.
  std::vector<Executable> exe;
  float init = kInit;
  uint32_t key[2] = {0, 0};
  std::vector<HostBuffer> inputs;
};

/// One pass of the JIT loop, or an error message.
loom::Result<float> jitLanes(MweJit &jit) {
  float sum = 0.0f;
  for (size_t lane = 0; lane < kLanes; ++lane) {
    auto y = jit.solve(lane);
    if (!y)
      return y.status();
    sum += *y;
  }
  return sum;
}

void reportAllocations(benchmark::State &state, uint64_t before) {
  double lanes = static_cast<double>(state.iterations()) * kLanes;
  state.counters["allocs_per_lane"] =
      static_cast<double>(numAllocations.load() - before) / lanes;
  state.SetItemsProcessed(state.iterations() * kLanes);
}

void mweCpp(benchmark::State &state) {
  uint64_t before = numAllocations.load();
  for (auto _ : state)
    benchmark::DoNotOptimize(baselineLanes());
  reportAllocations(state, before);
}

void mweCppScalar(benchmark::State &state) {
  uint64_t before = numAllocations.load();
  for (auto _ : state)
    benchmark::DoNotOptimize(scalarLanes());
  reportAllocations(state, before);
}

void mweJit(benchmark::State &state) {
  MweJit jit;
  if (std::string error = jit.setUp(); !error.empty()) {
    state.SkipWithError(error.c_str());
    return;
  }
  uint64_t before = numAllocations.load();
  for (auto _ : state) {
    auto sum = jitLanes(jit);
    if (!sum) {
      state.SkipWithError(sum.message().c_str());
      return;
    }
    benchmark::DoNotOptimize(*sum);
  }
  reportAllocations(state, before);
}

// All three loops in every iteration; the reported time is the JIT loop's.
void mweJitOverCpp(benchmark::State &state) {
  MweJit jit;
  if (std::string error = jit.setUp(); !error.empty()) {
    state.SkipWithError(error.c_str());
    return;
  }
  double cpp = 0, scalar = 0, jitTime = 0;
  for (auto _ : state) {
    auto start = Clock::now();
    benchmark::DoNotOptimize(baselineLanes());
    double c = secondsSince(start);
    start = Clock::now();
    benchmark::DoNotOptimize(scalarLanes());
    double s = secondsSince(start);
    start = Clock::now();
    auto sum = jitLanes(jit);
    double j = secondsSince(start);
    if (!sum) {
      state.SkipWithError(sum.message().c_str());
      return;
    }
    benchmark::DoNotOptimize(*sum);
    cpp += c;
    scalar += s;
    jitTime += j;
    state.SetIterationTime(j);
  }
  double n = static_cast<double>(state.iterations());
  state.counters["cpp_ms"] = 1e3 * cpp / n;
  state.counters["scalar_ms"] = 1e3 * scalar / n;
  state.counters["jit_ms"] = 1e3 * jitTime / n;
  // The target: JIT over the baseline's mweSolve loop.
  state.counters["ratio"] = jitTime / cpp;
  state.counters["ratio_scalar"] = jitTime / scalar;
}

/// The API's cost per call: an entry with solve's signature that only adds
/// one to its input, called like MweJit calls solve.
void callOverhead(benchmark::State &state) {
  auto exe = Executable::compile(R"mlir(
func.func @main(%init: tensor<1xf32>, %key: tensor<2xi32>) -> tensor<1xf32> {
  %c0 = arith.constant 0 : index
  %one = arith.constant 1.0 : f32
  %x = tensor.extract %init[%c0] : tensor<1xf32>
  %y = arith.addf %x, %one : f32
  %r = tensor.from_elements %y : tensor<1xf32>
  return %r : tensor<1xf32>
})mlir");
  if (!exe) {
    state.SkipWithError(exe.message().c_str());
    return;
  }
  float init = kInit;
  uint32_t key[2] = {0, 0};
  std::vector<HostBuffer> inputs;
  inputs.push_back(HostBuffer::view(DType::F32, {1}, &init).take());
  inputs.push_back(HostBuffer::view(DType::U32, {2}, key).take());
  uint64_t before = numAllocations.load();
  for (auto _ : state) {
    auto out = exe->call(inputs);
    if (!out) {
      state.SkipWithError(out.message().c_str());
      return;
    }
    benchmark::DoNotOptimize(*(*out)[0].dataAs<float>());
  }
  state.counters["allocs_per_call"] =
      static_cast<double>(numAllocations.load() - before) /
      static_cast<double>(state.iterations());
}

BENCHMARK(callOverhead)->UseRealTime();
BENCHMARK(mweCpp)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(mweCppScalar)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(mweJit)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(mweJitOverCpp)->Unit(benchmark::kMillisecond)->UseManualTime();

} // namespace

int main(int argc, char **argv) {
  benchmark::Initialize(&argc, argv);
  if (!loom::bench::parseExamplesFlag(argc, argv, "loom-bench-jit",
                                      examplesDir))
    return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
