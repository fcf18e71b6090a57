//===- LoomToLLVM.cpp - The CPU lowering pipeline -------------------------===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//
//
// Loom IR on tensors (after loom-vmap / loom-shard, or without them) down to
// the LLVM dialect. Each stage is an upstream or Loom pass that can be run
// alone with loom-opt; this file only fixes their order and options.
//
//===----------------------------------------------------------------------===//

#include "loom/Conversion/Passes.h"
#include "loom/Transforms/Passes.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"

using namespace mlir;

/// Tensors to buffers: Loom ops to upstream ones, small loop carries to
/// scalars, elementwise ops fused, one-shot bufferization, deallocation.
static constexpr const char *kBufferizeStages[] = {
    "loom-check-static-bounds", // before anything trusts a constant index
    "convert-mesh-to-loom-runtime",
    // Batched callees return fresh batch-sized tensors; inlined, their
    // buffers can be hoisted out of the caller's loops with the rest.
    "loom-inline-batched-callees",
    "loom-copy-sliced-call-operands",
    "convert-loom-to-standard",
    "canonicalize",
    "loom-scalarize-small-tensors",
    "canonicalize",
    "cse",
    "func.func(convert-elementwise-to-linalg)",
    "func.func(linalg-fuse-elementwise-ops)",
    "loom-carry-in-place",
    // Loops whose carries cannot be updated in place still compile, with a
    // copy; the seed programs' loops are checked by lit to need none.
    "one-shot-bufferize{bufferize-function-boundaries=1 "
    "function-boundary-type-conversion=identity-layout-map "
    "allow-return-allocs-from-loops=1}",
    "canonicalize",
    // Before deallocation is placed: a buffer allocated in a loop body and
    // dead at its end is allocated once, before the loop (once the sizes
    // it is allocated with, often dims of loop-invariant views, are hoisted).
    "loop-invariant-code-motion",
    "func.func(buffer-loop-hoisting)",
    "buffer-deallocation-pipeline",
};

/// Buffers to the LLVM dialect. Transcendental math goes to libm before the
/// rest of math goes to LLVM intrinsics, so scalar and vectorized code call
/// the same functions and every strategy computes the same bits (and
/// `log1p` stays accurate: math-to-llvm would approximate it as log(1 + x)).
static constexpr const char *kLLVMStages[] = {
    // Deallocation clones a read-only argument that is returned; without
    // this the clone reaches LLVM translation and the entry cannot compile.
    "convert-bufferization-to-memref",
    // After the last stage that makes a memref.copy: a copy that would not
    // become a memcpy would call memrefCopy, which the JIT does not provide.
    "loom-lower-strided-copies",
    "func.func(convert-linalg-to-loops)",
    "lower-affine",
    "convert-scf-to-cf",
    "expand-strided-metadata",
    "lower-affine",
    "convert-math-to-libm",
    "convert-math-to-llvm",
    // convert-arith-to-llvm has no pattern for ceildivsi, ceildivui and
    // floordivsi (not arith-expand: it also rewrites float min/max).
    "loom-expand-integer-division",
    "convert-arith-to-llvm",
    "convert-index-to-llvm",
    "finalize-memref-to-llvm",
    "convert-cf-to-llvm",
    "convert-func-to-llvm",
    "reconcile-unrealized-casts",
};

template <size_t N>
static void addStages(OpPassManager &pm, const char *const (&stages)[N]) {
  for (const char *stage : stages) {
    // The stage names are fixed above and registered with Loom's passes; a
    // failure here is a Loom bug that the pipelines' lit tests catch.
    if (failed(parsePassPipeline(stage, pm)))
      llvm::report_fatal_error(llvm::Twine("bad Loom pipeline stage: ") +
                               stage);
  }
}

void mlir::loom::buildLoomBufferizePipeline(OpPassManager &pm,
                                            const LoomToLLVMOptions &options) {
  if (options.fpContraction)
    pm.addPass(createLoomAllowFPContraction());
  addStages(pm, kBufferizeStages);
}

void mlir::loom::buildLoomToLLVMPipeline(OpPassManager &pm,
                                         const LoomToLLVMOptions &options) {
  buildLoomBufferizePipeline(pm, options);
  addStages(pm, kLLVMStages);
}

void mlir::loom::registerLoomToLLVMPipeline() {
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
