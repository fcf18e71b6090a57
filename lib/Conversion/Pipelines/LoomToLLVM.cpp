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

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"

using namespace mlir;

/// The stages, in order. Transcendental math goes to libm before the rest of
/// math goes to LLVM intrinsics, so scalar and vectorized code call the same
/// functions and every strategy computes the same bits (and `log1p` stays
/// accurate: math-to-llvm would approximate it as log(1 + x)).
static constexpr const char *kStages[] = {
    "convert-loom-to-standard",
    "canonicalize",
    "loom-scalarize-loop-carries",
    "canonicalize",
    "cse",
    "func.func(convert-elementwise-to-linalg)",
    "func.func(linalg-fuse-elementwise-ops)",
    // Loops whose carries cannot be updated in place still compile, with a
    // copy; the seed programs' loops are checked by lit to need none.
    "one-shot-bufferize{bufferize-function-boundaries=1 "
    "function-boundary-type-conversion=identity-layout-map "
    "allow-return-allocs-from-loops=1}",
    "canonicalize",
    "buffer-deallocation-pipeline",
    "func.func(convert-linalg-to-loops)",
    "lower-affine",
    "convert-scf-to-cf",
    "expand-strided-metadata",
    "lower-affine",
    "convert-math-to-libm",
    "convert-math-to-llvm",
    "convert-arith-to-llvm",
    "convert-index-to-llvm",
    "finalize-memref-to-llvm",
    "convert-cf-to-llvm",
    "convert-func-to-llvm",
    "reconcile-unrealized-casts",
};

void mlir::loom::buildLoomToLLVMPipeline(OpPassManager &pm,
                                         const LoomToLLVMOptions &options) {
  // FP contraction is decided when LLVM IR becomes machine code (the JIT's
  // target options), not here: the option is carried for tools that read it.
  (void)options;
  for (const char *stage : kStages) {
    // The stage names are fixed above; a failure here is a Loom bug that
    // the pipeline's own lit test catches.
    if (failed(parsePassPipeline(stage, pm)))
      llvm::report_fatal_error(llvm::Twine("bad loom-to-llvm stage: ") + stage);
  }
}

void mlir::loom::registerLoomToLLVMPipeline() {
  PassPipelineRegistration<LoomToLLVMOptions>(
      "loom-to-llvm",
      "Lower Loom IR on tensors to the LLVM dialect for the CPU JIT",
      buildLoomToLLVMPipeline);
}
