//===- Pipelines.h - Loom's pass pipelines ----------------------*- C++ -*-===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//
//
// The whole compiler as two pipelines, built from typed pass constructors:
//
//   loom-pipeline   batching and sharding: annotate-batch-axes, vmap, shard,
//                   localize-loops and, on request, the loop counters;
//   loom-to-llvm    the CPU lowering, tensors to the LLVM dialect (its first
//                   half, tensors to buffers, is loom-bufferize).
//
// loom-opt registers them under these names; the embedded API and loom-run
// call the builders directly, so nothing needs the global pass registry.
//
//===----------------------------------------------------------------------===//

#ifndef LOOM_PIPELINES_PIPELINES_H
#define LOOM_PIPELINES_PIPELINES_H

#include "loom/Conversion/Passes.h"
#include "loom/Dialect/Loom/Transforms/Passes.h"

#include "mlir/Pass/PassOptions.h"

namespace mlir::loom {

/// Options of `loom-pipeline`: every option of every pass it runs, under the
/// pass's own name and with its default (a test holds them to that).
struct LoomPipelineOptions : public PassPipelineOptions<LoomPipelineOptions> {
  // loom-vmap
  PassOptions::Option<DivergentPolicy> divergent{
      *this, "divergent",
      llvm::cl::desc("Lowering of loops whose predicate differs per lane"),
      llvm::cl::init(LoomVmapPassOptions{}.divergent), divergentPolicyValues()};
  PassOptions::Option<unsigned> gangWidth{
      *this, "gang-width",
      llvm::cl::desc("Lanes of one gang (divergent=gang): each gang runs the "
                     "masked loop nest on its own lanes"),
      llvm::cl::init(LoomVmapPassOptions{}.gangWidth)};
  PassOptions::Option<bool> refill{
      *this, "refill",
      llvm::cl::desc("With divergent=gang: a gang's slot whose lane leaves "
                     "the outermost loop takes the shard's next pending lane"),
      llvm::cl::init(LoomVmapPassOptions{}.refill)};
  PassOptions::Option<bool> adaptive{
      *this, "adaptive",
      llvm::cl::desc("divergent=auto on a CPU: compile refill and a "
                     "lock-step strategy for a nest the model cannot tell "
                     "apart, and time them at run time (off with "
                     "loop-sync=global)"),
      llvm::cl::init(LoomVmapPassOptions{}.adaptive)};
  PassOptions::Option<double> adaptiveFactor{
      *this, "adaptive-factor",
      llvm::cl::desc("How much costlier than the cheapest the second "
                     "strategy may be modelled, and still be timed"),
      llvm::cl::init(LoomVmapPassOptions{}.adaptiveFactor)};
  PassOptions::Option<VmapTarget> target{
      *this, "target",
      llvm::cl::desc("Where the batched code runs (input to the cost model)"),
      llvm::cl::init(LoomVmapPassOptions{}.target), vmapTargetValues()};
  PassOptions::Option<unsigned> simdWidth{
      *this, "simd-width",
      llvm::cl::desc("Lanes one SIMD instruction processes (cost model)"),
      llvm::cl::init(LoomVmapPassOptions{}.simdWidth)};
  PassOptions::Option<double> divergencePerDoubling{
      *this, "divergence-per-doubling",
      llvm::cl::desc("d in D(n) = 1 + d * log2(n), the slowest lane's trip "
                     "count over the mean among n lanes in lock-step, per "
                     "level (cost model)"),
      llvm::cl::init(LoomVmapPassOptions{}.divergencePerDoubling)};
  PassOptions::Option<int64_t> assumedBatch{
      *this, "assumed-batch",
      llvm::cl::desc("Batch size the cost model assumes when it is dynamic"),
      llvm::cl::init(LoomVmapPassOptions{}.assumedBatch)};
  PassOptions::Option<double> maskedOpCost{
      *this, "masked-op-cost",
      llvm::cl::desc("Cost of one masked op on SIMD-width lanes, in scalar "
                     "ops (cost model)"),
      llvm::cl::init(LoomVmapPassOptions{}.maskedOpCost)};
  PassOptions::Option<double> laneOpCost{
      *this, "lane-op-cost",
      llvm::cl::desc("Cost per lane of an op either lowering runs lane by "
                     "lane, in scalar ops (cost model)"),
      llvm::cl::init(LoomVmapPassOptions{}.laneOpCost)};
  PassOptions::Option<double> onePassOpCost{
      *this, "one-pass-op-cost",
      llvm::cl::desc("Cost of one masked op on SIMD-width lanes in a loop "
                     "masked in one pass over the lanes, in scalar ops "
                     "(cost model)"),
      llvm::cl::init(LoomVmapPassOptions{}.onePassOpCost)};
  PassOptions::Option<double> gangOpCost{
      *this, "gang-op-cost",
      llvm::cl::desc("Cost of one op of a gang on SIMD-width lanes in a loop "
                     "masked in sweeps, in scalar ops (cost model)"),
      llvm::cl::init(LoomVmapPassOptions{}.gangOpCost)};
  PassOptions::Option<double> gangOnePassOpCost{
      *this, "gang-one-pass-op-cost",
      llvm::cl::desc("Cost of one op of a gang on SIMD-width lanes in a loop "
                     "masked in one pass, in scalar ops (cost model)"),
      llvm::cl::init(LoomVmapPassOptions{}.gangOnePassOpCost)};
  PassOptions::Option<double> carriedLatencyCost{
      *this, "carried-latency-cost",
      llvm::cl::desc("Cost of one cycle on a per-lane trip's loop-carried "
                     "dependency chain, in scalar ops (cost model)"),
      llvm::cl::init(LoomVmapPassOptions{}.carriedLatencyCost)};
  PassOptions::Option<double> batchedLaneOpCost{
      *this, "batched-lane-op-cost",
      llvm::cl::desc("Cost per lane and trip of a lane-by-lane op in the "
                     "masked and gang forms, in scalar ops (cost model)"),
      llvm::cl::init(LoomVmapPassOptions{}.batchedLaneOpCost)};
  PassOptions::Option<double> tableReadCost{
      *this, "table-read-cost",
      llvm::cl::desc("Cost per lane and trip of a read at a lane's index of "
                     "a table every lane shares, in a loop masked in one "
                     "pass, in scalar ops (cost model)"),
      llvm::cl::init(LoomVmapPassOptions{}.tableReadCost)};
  PassOptions::Option<double> gangOverhead{
      *this, "gang-overhead",
      llvm::cl::desc("Fixed cost of one gang, in scalar ops (cost model)"),
      llvm::cl::init(LoomVmapPassOptions{}.gangOverhead)};
  PassOptions::Option<double> vectorLibmOps{
      *this, "vector-libm-ops",
      llvm::cl::desc("What an f32 sin or log1p costs the batched forms in "
                     "vector ops where computed in arithmetic "
                     "(libm-to-arith); 0: a libm call per lane (cost model)"),
      llvm::cl::init(LoomVmapPassOptions{}.vectorLibmOps)};
  PassOptions::Option<double> refillOpCost{
      *this, "refill-op-cost",
      llvm::cl::desc("What refill adds to every trip of the outermost loop, "
                     "per carry, in gang ops (cost model)"),
      llvm::cl::init(LoomVmapPassOptions{}.refillOpCost)};

  // loom-shard
  PassOptions::Option<int64_t> shards{
      *this, "shards",
      llvm::cl::desc(
          "Number of shards; overrides the mesh in the IR (0: keep it)"),
      llvm::cl::init(LoomShardOptions{}.shards)};

  // loom-localize-loops
  PassOptions::Option<LoopSyncPolicy> loopSync{
      *this, "loop-sync",
      llvm::cl::desc("Predicate synchronisation of sharded loops"),
      llvm::cl::init(LoomLocalizeLoopsOptions{}.loopSync),
      loopSyncPolicyValues()};

  // loom-count-loop-iterations
  PassOptions::Option<bool> counters{
      *this, "counters",
      llvm::cl::desc("Count each loop's iterations and active lanes per shard "
                     "(loom-count-loop-iterations)"),
      llvm::cl::init(false)};

  /// The options of each pass, as set here.
  LoomVmapPassOptions vmapOptions() const;
  LoomShardOptions shardOptions() const;
  LoomLocalizeLoopsOptions localizeLoopsOptions() const;
};

/// Options of the CPU lowering, `loom-bufferize` and `loom-to-llvm`.
struct LoomToLLVMOptions : public PassPipelineOptions<LoomToLLVMOptions> {
  PassOptions::Option<bool> fpContraction{
      *this, "fp-contraction",
      llvm::cl::desc("Allow fusing a*b+c into FMA (off by default: every "
                     "strategy then computes the same bits)"),
      llvm::cl::init(false)};
  PassOptions::Option<bool> libmToArith{
      *this, "libm-to-arith",
      llvm::cl::desc("Compute sinf and log1pf in arithmetic as glibc does, "
                     "so that they vectorize (loom-libm-to-arith: only for "
                     "code that runs with glibc on a CPU with FMA and AVX2)"),
      llvm::cl::init(false)};
  PassOptions::Option<bool> laneVectors{
      *this, "lane-vectors",
      llvm::cl::desc("Carry small static lane tensors (a gang's) as vector "
                     "values (loom-lane-tensors-to-vectors; experimental: "
                     "docs/vmap.md)"),
      llvm::cl::init(false)};
};

/// Appends batching and sharding: loom-annotate-batch-axes, loom-vmap,
/// loom-shard, loom-localize-loops, then loom-count-loop-iterations if
/// `counters`. Exactly what running those passes one by one does.
void buildLoomPipeline(OpPassManager &pm, const LoomPipelineOptions &options);

/// Appends the first half of the CPU lowering: Loom IR on tensors to
/// upstream IR on buffers (scf loops, memrefs).
void buildLoomBufferizePipeline(OpPassManager &pm,
                                const LoomToLLVMOptions &options);

/// Appends the CPU lowering, from Loom IR on tensors to the LLVM dialect.
void buildLoomToLLVMPipeline(OpPassManager &pm,
                             const LoomToLLVMOptions &options);

/// The part of loom-to-llvm after loom-bufferize: buffers to the LLVM
/// dialect (the GPU backend's host code takes it after its kernels).
/// `libmToArith`: LoomToLLVMOptions' option of that name.
void buildLoomBuffersToLLVMPipeline(OpPassManager &pm,
                                    bool libmToArith = false);

/// Registers `loom-pipeline`, `loom-bufferize` and `loom-to-llvm` with the
/// pass registry (for loom-opt).
void registerLoomPipelines();

} // namespace mlir::loom

#endif // LOOM_PIPELINES_PIPELINES_H
