//===- Passes.h - Loom conversion passes ------------------------*- C++ -*-===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//

#ifndef LOOM_CONVERSION_PASSES_H
#define LOOM_CONVERSION_PASSES_H

#include "loom/Conversion/LoomToStandard/LoomToStandard.h"
#include "loom/Conversion/LoopCountersToRuntime/LoopCountersToRuntime.h"
#include "loom/Conversion/MeshToLoomRuntime/MeshToLoomRuntime.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassOptions.h"

namespace mlir::loom {

#define GEN_PASS_REGISTRATION
#include "loom/Conversion/Passes.h.inc"

/// Options of the whole CPU lowering, `loom-to-llvm`.
struct LoomToLLVMOptions : public PassPipelineOptions<LoomToLLVMOptions> {
  PassOptions::Option<bool> fpContraction{
      *this, "fp-contraction",
      llvm::cl::desc("Allow fusing a*b+c into FMA (off by default: every "
                     "strategy then computes the same bits)"),
      llvm::cl::init(false)};
};

/// Appends the first half of the CPU lowering: Loom IR on tensors to
/// upstream IR on buffers (scf loops, memrefs).
void buildLoomBufferizePipeline(OpPassManager &pm,
                                const LoomToLLVMOptions &options);

/// Appends the CPU lowering, from Loom IR on tensors to the LLVM dialect.
void buildLoomToLLVMPipeline(OpPassManager &pm,
                             const LoomToLLVMOptions &options);

/// Registers `loom-bufferize` and `loom-to-llvm` with the pass registry.
void registerLoomToLLVMPipeline();

} // namespace mlir::loom

#endif // LOOM_CONVERSION_PASSES_H
