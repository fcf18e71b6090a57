//===- Loom.h - The embedded C++ API ----------------------------*- C++ -*-===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//
//
// Compile a Loom program once, call it many times with host buffers:
//
//   loom::CompileOptions options;
//   options.entry = "main";
//   auto exe = loom::Executable::compileFile("while_of_while.mlir", options);
//   if (!exe) { std::cerr << exe.message() << "\n"; return 1; }
//   auto outputs = exe->call({inits, keys});     // inputs are viewed, not
//   copied if (!outputs) { std::cerr << outputs.message() << "\n"; return 1; }
//
// Or ahead of time: compileFileTo(..., EmitStage::Library, "prog.so") once,
// with the compiler, then Executable::load("prog.so") wherever it runs, with
// only the runtime library (Loom::Runtime, no LLVM); it is called the same
// way.
//
// The header exposes no LLVM or MLIR type. Every failure is a value with a
// one-line message; nothing here aborts on bad input. An Executable may be
// called from several threads at once.
//
//===----------------------------------------------------------------------===//

#ifndef LOOM_LOOM_H
#define LOOM_LOOM_H

#include "loom/Runtime/HostBuffer.h"
#include "loom/Support/Policies.h"
#include "loom/Support/Status.h"

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace loom {

/// Where the compiled program runs.
enum class Backend { CPU, GPU, MPI };

/// What Executable::compileFileTo writes (`loom-compile --emit=`): the
/// module after the Loom pipeline and bufferization ("mlir"), its LLVM IR
/// ("llvm"), an object file ("obj"), or a shared library that
/// Executable::load loads ("so"); with the GPU backend, the kernels' PTX
/// ("ptx").
enum class EmitStage { MLIR, LLVM, Object, Library, PTX };

/// Parses "mlir", "llvm", "obj", "so" or "ptx".
Result<EmitStage> parseEmitStage(const std::string &word);

/// Parses the words used on command lines ("cpu", "gpu", "mpi"); the
/// policies' words are parsed by parseDivergentPolicy and
/// parseLoopSyncPolicy (loom/Support/Policies.h).
Result<Backend> parseBackend(const std::string &word);

struct CompileOptions {
  /// The function to call.
  std::string entry = "main";
  Backend backend = Backend::CPU;
  /// Number of shards; 0 takes it from the program's mesh, or 1.
  int shards = 0;
  DivergentPolicy divergent = DivergentPolicy::Auto;
  /// Lanes of one gang under DivergentPolicy::Gang; 0 takes loom-vmap's
  /// default (docs/vmap.md).
  int gangWidth = 0;
  /// Under DivergentPolicy::Gang: a slot of a gang whose lane leaves the
  /// outermost loop takes the shard's next pending lane.
  bool refill = false;
  /// Under DivergentPolicy::Auto on a CPU: where the cost model cannot
  /// tell refill from a lock-step strategy for a loop nest, compile both,
  /// and let each shard time them on its first calls and keep the faster
  /// (docs/vmap.md). Off under LoopSyncPolicy::Global.
  bool adaptive = true;
  LoopSyncPolicy loopSync = LoopSyncPolicy::Auto;
  /// Allow a*b+c to become a fused multiply-add. Off by default, so every
  /// strategy and shard count computes the same bits.
  bool fpContraction = false;
  /// On a CPU, carry a gang's lane values as vectors and compute its loops
  /// over lanes as vector ops (loom-lane-tensors-to-vectors), instead of
  /// buffers and loops that LLVM's vectorizers widen. Experimental, off by
  /// default: docs/vmap.md has what it gains and costs.
  bool laneVectors = false;
  /// LLVM optimization level, 0 to 3.
  int optLevel = 3;
  /// Verify the IR after every pass of the lowering (bufferization and the
  /// conversions to LLVM), as loom-opt does. Off, it is verified once at
  /// the lowering's end: per pass it is about half of the seed SDE's MLIR
  /// lowering time. The program is verified when parsed, and after every
  /// pass of batching and sharding, either way.
  bool verifyEachPass = false;
  /// Count each loop's iterations and active lanes per shard (counters()).
  /// Masked loops pay one extra reduction per iteration, so it is off by
  /// default.
  bool countLoops = false;
  /// The CPU that ahead-of-time code is compiled for, as LLVM (and clang's
  /// -march) names it; empty means x86-64-v3. The JIT compiles for the CPU
  /// it runs on.
  std::string targetCPU;
  /// The MPI backend's communicator, as its Fortran handle
  /// (`MPI_Comm_c2f(comm)`), for an application that runs Loom on part of
  /// its job; unset means MPI_COMM_WORLD. One rank per shard either way.
  std::optional<int32_t> mpiCommunicator;
  /// The GPU backend's target, as CUDA names it (sm_80 for an A100).
  std::string gpuArch = "sm_90";
  /// The CUDA toolkit the GPU backend links libdevice from; empty means
  /// $CUDA_HOME, then /usr/local/cuda.
  std::string cudaPath;
};

/// How Executable::load sets up what the library runs on.
struct LoadOptions {
  /// As CompileOptions::mpiCommunicator, for a library compiled with
  /// `--backend mpi`.
  std::optional<int32_t> mpiCommunicator;
};

/// What one loop did, per shard, summed over the calls since the counters
/// were last reset.
struct LoopCounters {
  /// Where the loop is in the source ("file:line:col").
  std::string location;
  /// A masked loop counts its active lanes; any other loop one lane per
  /// iteration (a per-lane loop runs one lane at a time).
  bool masked = false;
  /// The lanes each iteration of a masked loop covers when that is fixed:
  /// a gang's width (divergent=gang). 0: the shard's lanes
  /// (Counters::lanes). Lane utilisation is activeLaneIterations /
  /// (iterations * lanes).
  int64_t lanes = 0;
  /// The timed variant the loop runs in (a VariantCounters name), empty
  /// when it is in none: each of the two has its own loops.
  std::string variant;
  std::vector<int64_t> iterations;
  std::vector<int64_t> activeLaneIterations;
};

/// What each shard chose at one loop nest compiled two ways
/// (CompileOptions::adaptive), over all calls so far: resetCounters() does
/// not make a shard time the variants again.
struct VariantCounters {
  /// Where the loop nest is in the source ("file:line:col").
  std::string location;
  /// What the two are, as loom-vmap's remarks name them: "gang (width 32)",
  /// "gang with refill (width 32)".
  std::string primary, alternative;
  /// Per shard: the variant kept (0: primary, 1: alternative), or -1 while
  /// the shard is still timing them or never reached the nest.
  std::vector<int32_t> chosen;
  /// Per shard: the fastest run of each variant, in nanoseconds of the
  /// shard thread's CPU time; -1 if it has not run.
  std::vector<int64_t> primaryNanos, alternativeNanos;
};

/// Counters of a program that runs on a mesh.
struct Counters {
  int64_t calls = 0;
  /// Per shard: lanes in the last call, and collectives over all calls.
  std::vector<int64_t> lanes;
  std::vector<int64_t> collectives;
  /// Empty unless compiled with countLoops.
  std::vector<LoopCounters> loops;
  /// One per loop nest compiled two ways, with or without countLoops.
  std::vector<VariantCounters> variants;
};

/// One argument or result of the entry function.
struct ValueInfo {
  /// The `loom.name` attribute, or "arg<i>" / "result<i>".
  std::string name;
  DType dtype;
  /// -1 marks a dynamic dimension; empty for a scalar.
  std::vector<int64_t> shape;
  /// The `loom.default` of an argument that may be omitted.
  std::optional<double> defaultValue;
  /// The `loom.range` [lo, hi] of an integer scalar argument, inclusive:
  /// every call fails, naming the argument, on a value outside it.
  std::optional<std::pair<int64_t, int64_t>> range;
};

/// Time spent compiling, by stage, in seconds (a loaded library: `jit` is
/// the time it took to load).
struct CompileTimes {
  double parse = 0, lower = 0, jit = 0;
  double total() const { return parse + lower + jit; }
};

/// A compiled entry function.
///
/// An Executable may be destroyed at any time, by exit's handlers too (held
/// in a static, say): a JIT-compiled one destroyed there is kept, still
/// reachable, until the process ends, since LLVM's JIT cannot be torn down
/// once LLVM's own static state is gone.
class Executable {
public:
  static Result<Executable> compile(const std::string &source,
                                    const CompileOptions &options = {},
                                    const std::string &bufferName = "<string>");
  static Result<Executable> compileFile(const std::string &path,
                                        const CompileOptions &options = {});

  /// Ahead of time: compiles the program in `path` as compileFile does and
  /// writes `stage` to `outputPath`.
  static Status compileFileTo(const std::string &path,
                              const CompileOptions &options, EmitStage stage,
                              const std::string &outputPath);

  /// Loads a library that compileFileTo wrote (EmitStage::Library): the
  /// same calls and counters as the executable compileFile gives. Needs only
  /// the runtime library, no LLVM. A library of another Loom, or for a CPU
  /// that lacks some of its target's features, or a file that is not one,
  /// is an error.
  static Result<Executable> load(const std::string &path,
                                 const LoadOptions &options = {});

  const std::vector<ValueInfo> &inputs() const;
  const std::vector<ValueInfo> &outputs() const;
  const CompileTimes &compileTimes() const;

  /// The position of the input called `name`; a decimal number is taken as
  /// a position.
  Result<size_t> inputIndex(const std::string &name) const;

  /// Calls the entry with one buffer per argument, in order; trailing
  /// arguments that have defaults may be left out. Inputs are read in place.
  /// Besides what the compiled code allocates itself, a call allocates only
  /// its outputs: the returned vector, and each output's shape and bytes. A
  /// tensor's bytes are the block the compiled code wrote it to, unless that
  /// is a constant, an input or another output's. On a mesh, each shard's
  /// part of a split output is allocated too, then joined into the output.
  Result<std::vector<HostBuffer>>
  call(const std::vector<HostBuffer> &inputs) const;

  /// The same, with inputs addressed by name (or position); arguments with
  /// defaults may be left out.
  Result<std::vector<HostBuffer>>
  callNamed(const std::map<std::string, HostBuffer> &inputs) const;

  /// Whether it was compiled with CompileOptions::countLoops (for a loaded
  /// library: `loom-compile --counters`).
  bool countsLoops() const;

  /// On the MPI backend, this process's rank (0 for every other backend).
  /// Every rank calls call() and counters() at the same point; only rank
  /// 0's inputs are read (the others may pass none), and rank 0 receives
  /// the whole outputs, the others the outputs of their own lanes. An error
  /// on any rank is returned by every rank, naming the rank.
  int32_t rank() const;

  /// The counters since the last reset; an error for a program that does
  /// not run on a mesh (a scalar entry). On the MPI backend they hold every
  /// rank's counters, on every rank.
  Result<Counters> counters() const;
  void resetCounters() const;

  struct Impl;

private:
  explicit Executable(std::shared_ptr<const Impl> impl);
  std::shared_ptr<const Impl> impl;
};

} // namespace loom

#endif // LOOM_LOOM_H
