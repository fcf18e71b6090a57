//===- Pipelines.cpp - Loom's pass pipelines ------------------------------===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//
//
// Each stage is an upstream or Loom pass that can be run alone with
// loom-opt; this file only fixes their order and options. They are built
// from the passes' constructors, never from pass names, so that the API
// needs no pass registry and a misspelt stage does not compile.
//
//===----------------------------------------------------------------------===//

#include "loom/Pipelines/Pipelines.h"
#include "loom/Transforms/Passes.h"

#include "mlir/Conversion/AffineToStandard/AffineToStandard.h"
#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/BufferizationToMemRef/BufferizationToMemRef.h"
#include "mlir/Conversion/ControlFlowToLLVM/ControlFlowToLLVM.h"
#include "mlir/Conversion/FuncToLLVM/ConvertFuncToLLVMPass.h"
#include "mlir/Conversion/IndexToLLVM/IndexToLLVM.h"
#include "mlir/Conversion/MathToLLVM/MathToLLVM.h"
#include "mlir/Conversion/MathToLibm/MathToLibm.h"
#include "mlir/Conversion/MemRefToLLVM/MemRefToLLVM.h"
#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Conversion/VectorToLLVM/ConvertVectorToLLVMPass.h"
#include "mlir/Conversion/VectorToSCF/VectorToSCF.h"
#include "mlir/Dialect/Bufferization/Pipelines/Passes.h"
#include "mlir/Dialect/Bufferization/Transforms/OneShotAnalysis.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;
using namespace mlir::loom;

//===----------------------------------------------------------------------===//
// loom-pipeline: batching and sharding
//===----------------------------------------------------------------------===//

LoomVmapPassOptions LoomPipelineOptions::vmapOptions() const {
  LoomVmapPassOptions vmap;
  vmap.divergent = divergent;
  vmap.gangWidth = gangWidth;
  vmap.refill = refill;
  vmap.target = target;
  vmap.simdWidth = simdWidth;
  vmap.divergencePerDoubling = divergencePerDoubling;
  vmap.assumedBatch = assumedBatch;
  vmap.maskedOpCost = maskedOpCost;
  vmap.laneOpCost = laneOpCost;
  vmap.onePassOpCost = onePassOpCost;
  vmap.gangOpCost = gangOpCost;
  vmap.gangOnePassOpCost = gangOnePassOpCost;
  vmap.batchedLaneOpCost = batchedLaneOpCost;
  vmap.tableReadCost = tableReadCost;
  vmap.carriedLatencyCost = carriedLatencyCost;
  vmap.gangOverhead = gangOverhead;
  vmap.refillOpCost = refillOpCost;
  vmap.vectorLibmOps = vectorLibmOps;
  // Each shard picks its variant alone, and under global sync every masked
  // loop holds a collective that the shards must all enter.
  vmap.adaptive = adaptive && loopSync != LoopSyncPolicy::Global;
  vmap.adaptiveFactor = adaptiveFactor;
  return vmap;
}

LoomShardOptions LoomPipelineOptions::shardOptions() const {
  LoomShardOptions shard;
  shard.shards = shards;
  return shard;
}

LoomLocalizeLoopsOptions LoomPipelineOptions::localizeLoopsOptions() const {
  LoomLocalizeLoopsOptions localize;
  localize.loopSync = loopSync;
  return localize;
}

void mlir::loom::buildLoomPipeline(OpPassManager &pm,
                                   const LoomPipelineOptions &options) {
  // Before loom-vmap replaces the loom.vmap ops that say what is batched.
  pm.addPass(createLoomAnnotateBatchAxes());
  // A loop whose carries are all scalars gets loom-vmap's one-pass masked
  // and gang forms; JAX's `y` of shape (1,) would keep it in sweeps.
  // Private functions keep their arguments: remarks name them by number.
  LoomScalarizeSmallTensorsOptions scalarize;
  scalarize.privateArguments = false;
  pm.addPass(createLoomScalarizeSmallTensors(scalarize));
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createLoomVmapPass(options.vmapOptions()));
  pm.addPass(createLoomShard(options.shardOptions()));
  pm.addPass(createLoomLocalizeLoops(options.localizeLoopsOptions()));
  // After sharding: it counts per shard, through the shard context that
  // loom-shard adds.
  if (options.counters)
    pm.addPass(createLoomCountLoopIterations());
}

//===----------------------------------------------------------------------===//
// loom-bufferize and loom-to-llvm: the CPU lowering
//===----------------------------------------------------------------------===//

/// Tensors to buffers: Loom ops to upstream ones, small loop carries to
/// scalars, elementwise ops fused, one-shot bufferization, deallocation.
void mlir::loom::buildLoomBufferizePipeline(OpPassManager &pm,
                                            const LoomToLLVMOptions &options) {
  if (options.fpContraction)
    pm.addPass(createLoomAllowFPContraction());
  // Before anything trusts a constant index.
  pm.addPass(createLoomCheckStaticBounds());
  pm.addPass(createConvertMeshToLoomRuntime());
  // Batched callees return fresh batch-sized tensors; inlined, their
  // buffers can be hoisted out of the caller's loops with the rest.
  pm.addPass(createLoomInlineBatchedCallees());
  pm.addPass(createLoomCopySlicedCallOperands());
  // Inlined callees repeat each other's random ops (the SDE's two Brownian
  // increments split the same keys); once lowered, each would be its own
  // threefry call, which CSE does not merge.
  pm.addPass(createCSEPass());
  pm.addPass(createConvertLoomToStandard());
  // After the random ops are lowered: they run lane by lane on key words,
  // which the pass keeps as one vector each, as it keeps small tensors'
  // elements in elementwise ops.
  pm.addPass(createLoomSplitLaneTensors());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createLoomScalarizeSmallTensors());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  // Before elementwise ops on tensors become linalg.generic loops.
  if (options.laneVectors) {
    pm.addPass(createLoomLaneTensorsToVectors());
    pm.addPass(createCanonicalizerPass());
  }
  pm.addNestedPass<func::FuncOp>(createConvertElementwiseToLinalgPass());
  pm.addNestedPass<func::FuncOp>(createLinalgElementwiseOpFusionPass());
  pm.addPass(createLoomCarryInPlace());
  pm.addPass(createLoomFillInBranches());
  // Loops whose carries cannot be updated in place still compile, with a
  // copy; the seed programs' loops are checked by lit to need none.
  bufferization::OneShotBufferizationOptions bufferize;
  bufferize.bufferizeFunctionBoundaries = true;
  bufferize.setFunctionBoundaryTypeConversion(
      bufferization::LayoutMapOption::IdentityLayoutMap);
  bufferize.allowReturnAllocsFromLoops = true;
  pm.addPass(bufferization::createOneShotBufferizePass(bufferize));
  pm.addPass(createCanonicalizerPass());
  // Before deallocation is placed: a buffer allocated in a loop body and
  // dead at its end is allocated once, before the loop (once the sizes
  // it is allocated with, often dims of loop-invariant views, are hoisted).
  pm.addPass(createLoopInvariantCodeMotionPass());
  pm.addNestedPass<func::FuncOp>(bufferization::createBufferLoopHoistingPass());
  // Small static buffers that no loop allocates (a gang's W-lane state,
  // once hoisted) go on the stack: LLVM then sees they alias nothing and
  // keeps them in vector registers, where a heap buffer's lanes are stored
  // and reloaded.
  pm.addNestedPass<func::FuncOp>(
      bufferization::createPromoteBuffersToStackPass());
  bufferization::buildBufferDeallocationPipeline(
      pm, bufferization::BufferDeallocationPipelineOptions());
}

/// Buffers to the LLVM dialect. Transcendental math goes to libm before the
/// rest of math goes to LLVM intrinsics, so scalar and vectorized code call
/// the same functions and every strategy computes the same bits (and
/// `log1p` stays accurate: math-to-llvm would approximate it as log(1 + x)).
void mlir::loom::buildLoomToLLVMPipeline(OpPassManager &pm,
                                         const LoomToLLVMOptions &options) {
  buildLoomBufferizePipeline(pm, options);
  buildLoomBuffersToLLVMPipeline(pm, options.libmToArith);
}

void mlir::loom::buildLoomBuffersToLLVMPipeline(OpPassManager &pm,
                                                bool libmToArith) {
  // Deallocation clones a read-only argument that is returned; without
  // this the clone reaches LLVM translation and the entry cannot compile.
  pm.addPass(createBufferizationToMemRefPass());
  // After the last stage that makes a memref.copy: a copy that would not
  // become a memcpy would call memrefCopy, which the JIT does not provide.
  pm.addPass(createLoomLowerStridedCopies());
  pm.addNestedPass<func::FuncOp>(createConvertLinalgToLoopsPass());
  // A lane vector read from or written to a strided view (a column of a
  // gang's 2-D lane tensor, loom-lane-tensors-to-vectors): element by
  // element, which convert-vector-to-llvm does not do.
  pm.addPass(createConvertVectorToSCFPass(
      VectorTransferToSCFOptions().enableFullUnroll()));
  // A lane mask in memory as bytes: the loop vectorizer widens no i1 load.
  pm.addPass(createLoomWidenBoolBuffers());
  // Before loom-libm-to-arith, which gives the variants' vector math the
  // variants of its own.
  pm.addPass(createLoomVectorVariants());
  // Where it is valid: math-to-libm would make sinf and log1pf calls that
  // the vectorizers could only repeat lane by lane.
  if (libmToArith)
    pm.addPass(createLoomLibmToArith());
  pm.addPass(createLoomFuseLaneLoops());
  pm.addPass(createLowerAffinePass());
  pm.addPass(createConvertSCFToCFPass());
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createLowerAffinePass());
  pm.addPass(createLoomBitCountsToLLVM());
  pm.addPass(createConvertMathToLibmPass());
  pm.addPass(createConvertMathToLLVMPass());
  // loom-libm-to-arith's vector variants test whether a lane needs a case.
  pm.addPass(createConvertVectorToLLVMPass());
  // convert-arith-to-llvm has no pattern for ceildivsi, ceildivui and
  // floordivsi (not arith-expand: it also rewrites float min/max).
  pm.addPass(createLoomExpandIntegerDivision());
  pm.addPass(createArithToLLVMConversionPass());
  pm.addPass(createConvertIndexToLLVMPass());
  // aligned_alloc, not malloc plus an aligned inttoptr: LLVM then knows
  // each buffer is its own allocation, and the loop vectorizer needs no
  // run-time overlap check (and scalar copy of the loop) between two of
  // them. The masked SDE's and ODE's @main compile 17-20% faster.
  FinalizeMemRefToLLVMConversionPassOptions memrefOptions;
  memrefOptions.useAlignedAlloc = true;
  pm.addPass(createFinalizeMemRefToLLVMConversionPass(memrefOptions));
  pm.addPass(createLoomPadAlignedAllocSizes());
  pm.addPass(createConvertControlFlowToLLVMPass());
  pm.addPass(createConvertFuncToLLVMPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
}

void mlir::loom::registerLoomPipelines() {
  PassPipelineRegistration<LoomPipelineOptions>(
      "loom-pipeline",
      "Batch and shard Loom IR: loom-annotate-batch-axes, "
      "loom-scalarize-small-tensors and canonicalize, loom-vmap, loom-shard, "
      "loom-localize-loops (and loom-count-loop-iterations with "
      "counters=1), with every option of the batching passes",
      buildLoomPipeline);
  PassPipelineRegistration<LoomToLLVMOptions>(
      "loom-bufferize",
      "Lower Loom IR on tensors to upstream IR on buffers (the first half of "
      "loom-to-llvm)",
      buildLoomBufferizePipeline);
  PassPipelineRegistration<LoomToLLVMOptions>(
      "loom-to-llvm",
      "Lower Loom IR on tensors to the LLVM dialect for the CPU JIT",
      buildLoomToLLVMPipeline);
}
