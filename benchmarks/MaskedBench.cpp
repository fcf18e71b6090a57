//===- MaskedBench.cpp - Loom's masked loops against hand-written SIMD ----===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//
//
// `loom-bench-masked`: divergent loops under divergent=masked at one shard,
// next to benchmarks/baseline/Masked.h, the same lock-step algorithm written
// by hand with GCC vector extensions (AVX2). Two programs, those of
// test/Integration/vmap/Inputs/divergent.mlir: the Collatz step counter
// (integer, one level) and a float while-of-while. 64 distinct lanes tiled
// to 12,800.
//
// Each program's outputs are compared bit for bit with the baseline's
// before timing; a difference fails the run. The `*/interleaved` benchmark
// calls Loom and the baseline alternately, and its `ratio` counter is Loom's
// time over the baseline's, from the same iterations, so that load on a
// shared machine hits both alike. `compile_ms` is compileTimes().total().
//
//===----------------------------------------------------------------------===//

#include "BenchSupport.h"
#include "baseline/Masked.h"
#include "loom/Loom.h"

#include <benchmark/benchmark.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace {

using loom::DType;
using loom::Executable;
using loom::HostBuffer;
using Clock = std::chrono::steady_clock;

constexpr int64_t kLanes = 12800;
constexpr int64_t kDistinct = 64;

const char *kCollatz = R"mlir(
func.func @collatz(%x0: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c3 = arith.constant 3 : i32
  %r:2 = scf.while (%x = %x0, %n = %c0) : (i32, i32) -> (i32, i32) {
    %go = arith.cmpi sgt, %x, %c1 : i32
    scf.condition(%go) %x, %n : i32, i32
  } do {
  ^bb0(%x: i32, %n: i32):
    %low = arith.andi %x, %c1 : i32
    %odd = arith.cmpi ne, %low, %c0 : i32
    %half = arith.shrsi %x, %c1 : i32
    %t = arith.muli %x, %c3 : i32
    %t1 = arith.addi %t, %c1 : i32
    %next = arith.select %odd, %t1, %half : i32
    %n1 = arith.addi %n, %c1 : i32
    scf.yield %next, %n1 : i32, i32
  }
  return %r#1 : i32
}
func.func @main(%xs: tensor<?xi32> {loom.name = "xs"}) -> tensor<?xi32> {
  %r = loom.vmap @collatz(%xs) in_axes [0] out_axes [0]
      : (tensor<?xi32>) -> tensor<?xi32>
  return %r : tensor<?xi32>
}
)mlir";

const char *kNested = R"mlir(
func.func @nested(%a: f32, %b: f32) -> (f32, i32) {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %half = arith.constant 0.5 : f32
  %i0 = arith.constant 0 : i32
  %i1 = arith.constant 1 : i32
  %r:3 = scf.while (%t = %zero, %acc = %zero, %k = %i0)
      : (f32, f32, i32) -> (f32, f32, i32) {
    %go = arith.cmpf olt, %t, %a : f32
    scf.condition(%go) %t, %acc, %k : f32, f32, i32
  } do {
  ^bb0(%t: f32, %acc: f32, %k: i32):
    %limit = arith.mulf %t, %b : f32
    %step0 = arith.addf %one, %b : f32
    %step = arith.mulf %half, %step0 : f32
    %in:2 = scf.while (%s = %zero, %j = %i0) : (f32, i32) -> (f32, i32) {
      %more = arith.cmpf olt, %s, %limit : f32
      scf.condition(%more) %s, %j : f32, i32
    } do {
    ^bb0(%s: f32, %j: i32):
      %s1 = arith.addf %s, %step : f32
      %j1 = arith.addi %j, %i1 : i32
      scf.yield %s1, %j1 : f32, i32
    }
    %acc1 = arith.addf %acc, %in#0 : f32
    %t1 = arith.addf %t, %one : f32
    %k1 = arith.addi %k, %in#1 : i32
    scf.yield %t1, %acc1, %k1 : f32, f32, i32
  }
  return %r#1, %r#2 : f32, i32
}
func.func @main(%as: tensor<?xf32> {loom.name = "as"},
                %bs: tensor<?xf32> {loom.name = "bs"})
    -> (tensor<?xf32>, tensor<?xi32>) {
  %r:2 = loom.vmap @nested(%as, %bs) in_axes [0, 0] out_axes [0, 0]
      : (tensor<?xf32>, tensor<?xf32>) -> (tensor<?xf32>, tensor<?xi32>)
  return %r#0, %r#1 : tensor<?xf32>, tensor<?xi32>
}
)mlir";

using loom::bench::die;
using loom::bench::orDie;

/// One program: its inputs, the compiled masked entry, and both sides'
/// outputs as raw bytes.
struct Program {
  std::string name;
  std::vector<HostBuffer> inputs;
  Executable exe;
  double compileSeconds = 0;
  /// Runs the baseline on `inputs`, returning its outputs' bytes.
  std::vector<std::vector<char>> (*baseline)(const std::vector<HostBuffer> &);
};

template <typename T>
std::vector<char> bytesOf(const T *data, int64_t n) {
  const char *p = reinterpret_cast<const char *>(data);
  return std::vector<char>(p, p + n * sizeof(T));
}

std::vector<std::vector<char>>
collatzBaseline(const std::vector<HostBuffer> &in) {
  // The baseline updates its state in place, as Loom's loop does.
  std::vector<int32_t> xs(in[0].dataAs<int32_t>(),
                          in[0].dataAs<int32_t>() + kLanes);
  std::vector<int32_t> steps(kLanes);
  loom::baseline::collatzMasked(xs.data(), steps.data(), kLanes);
  return {bytesOf(steps.data(), kLanes)};
}

std::vector<std::vector<char>>
nestedBaseline(const std::vector<HostBuffer> &in) {
  std::vector<float> acc(kLanes);
  std::vector<int32_t> trips(kLanes);
  loom::baseline::nestedMasked(in[0].dataAs<float>(), in[1].dataAs<float>(),
                               acc.data(), trips.data(), kLanes);
  return {bytesOf(acc.data(), kLanes), bytesOf(trips.data(), kLanes)};
}

HostBuffer filled(DType dtype, const std::function<void(int64_t, void *)> &at) {
  HostBuffer b = orDie(HostBuffer::zeros(dtype, {kLanes}), "input");
  for (int64_t i = 0; i < kLanes; ++i)
    at(i % kDistinct, static_cast<char *>(b.data()) + 4 * i);
  return b;
}

std::vector<std::vector<char>> loomOutputs(const Program &p) {
  std::vector<HostBuffer> out =
      orDie(p.exe.call(p.inputs), "calling " + p.name);
  std::vector<std::vector<char>> bytes;
  for (const HostBuffer &b : out) {
    const char *data = static_cast<const char *>(b.data());
    bytes.emplace_back(data, data + b.byteSize());
  }
  return bytes;
}

Program &program(const std::string &name) {
  static std::map<std::string, Program> programs;
  auto it = programs.find(name);
  if (it != programs.end())
    return it->second;
  loom::CompileOptions options;
  options.shards = 1;
  options.divergent = loom::DivergentPolicy::Masked;
  bool collatz = name == "collatz";
  Executable exe = orDie(
      Executable::compile(collatz ? kCollatz : kNested, options, name), name);
  Program p{name, {}, std::move(exe), 0, nullptr};
  p.compileSeconds = p.exe.compileTimes().total();
  if (collatz) {
    p.inputs.push_back(filled(DType::I32, [](int64_t i, void *v) {
      *static_cast<int32_t *>(v) = static_cast<int32_t>(i * 37 + 1);
    }));
    p.baseline = collatzBaseline;
  } else {
    p.inputs.push_back(filled(DType::F32, [](int64_t i, void *v) {
      *static_cast<float *>(v) = 4.0f + static_cast<float>(i % 13);
    }));
    p.inputs.push_back(filled(DType::F32, [](int64_t i, void *v) {
      *static_cast<float *>(v) = 0.25f + 0.02f * static_cast<float>(i);
    }));
    p.baseline = nestedBaseline;
  }
  // Twice: a call that updated its inputs in place would change the second.
  for (int round = 0; round < 2; ++round)
    if (loomOutputs(p) != p.baseline(p.inputs))
      die(name + ": Loom's masked outputs differ from the baseline's");
  return programs.emplace(name, std::move(p)).first->second;
}

void setCounters(benchmark::State &state, const Program &p) {
  state.counters["compile_ms"] = p.compileSeconds * 1e3;
  state.counters["lanes"] = kLanes;
}

void BM_Loom(benchmark::State &state, const char *name) {
  Program &p = program(name);
  for (auto _ : state)
    benchmark::DoNotOptimize(p.exe.call(p.inputs));
  setCounters(state, p);
}

void BM_Baseline(benchmark::State &state, const char *name) {
  Program &p = program(name);
  for (auto _ : state)
    benchmark::DoNotOptimize(p.baseline(p.inputs));
  setCounters(state, p);
}

void BM_Interleaved(benchmark::State &state, const char *name) {
  Program &p = program(name);
  double loomSeconds = 0, baselineSeconds = 0;
  for (auto _ : state) {
    Clock::time_point start = Clock::now();
    benchmark::DoNotOptimize(p.exe.call(p.inputs));
    Clock::time_point middle = Clock::now();
    benchmark::DoNotOptimize(p.baseline(p.inputs));
    Clock::time_point end = Clock::now();
    loomSeconds += std::chrono::duration<double>(middle - start).count();
    baselineSeconds += std::chrono::duration<double>(end - middle).count();
  }
  setCounters(state, p);
  state.counters["ratio"] =
      baselineSeconds > 0 ? loomSeconds / baselineSeconds : 0;
}

} // namespace

int main(int argc, char **argv) {
  // The baseline is AVX2 code throughout: elsewhere it would fault.
  if (!__builtin_cpu_supports("avx2")) {
    std::fprintf(stderr, "loom-bench-masked: this CPU has no AVX2, which "
                         "the hand-written baseline needs: nothing run\n");
    return 0;
  }
  for (const char *name : {"collatz", "nested"}) {
    std::string prefix = std::string(name) + "/";
    benchmark::RegisterBenchmark((prefix + "loom-masked").c_str(), BM_Loom,
                                 name)
        ->Unit(benchmark::kMicrosecond);
    benchmark::RegisterBenchmark((prefix + "baseline-simd").c_str(),
                                 BM_Baseline, name)
        ->Unit(benchmark::kMicrosecond);
    benchmark::RegisterBenchmark((prefix + "interleaved").c_str(),
                                 BM_Interleaved, name)
        ->Unit(benchmark::kMicrosecond);
  }
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
