//===- LoomToGPU.h - Lane loops to GPU kernels ------------------*- C++ -*-===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//

#ifndef LOOM_CONVERSION_LOOMTOGPU_LOOMTOGPU_H
#define LOOM_CONVERSION_LOOMTOGPU_LOOMTOGPU_H

#include "mlir/Pass/Pass.h"

namespace mlir::loom {

#define GEN_PASS_DECL_CONVERTLANELOOPSTOGPU
#define GEN_PASS_DECL_LOOMMARKLANELOOPS
#define GEN_PASS_DECL_LOOMMERGEGPUMODULES
#define GEN_PASS_DECL_LOOMEXACTMATHTOLLVM
#define GEN_PASS_DECL_CONVERTGPULAUNCHESTOLOOMRUNTIME
#include "loom/Conversion/Passes.h.inc"

/// Whether `op` needs no libdevice in a kernel: loom-exact-math-to-llvm or
/// convert-math-to-llvm make it an intrinsic.
bool isExactMathOp(Operation *op);

/// The mark loom-mark-lane-loops sets on a lane loop (a unit attribute,
/// outside the loom dialect, whose verifier knows only its own).
inline constexpr llvm::StringLiteral kLaneLoopAttrName = "loom_gpu.lane_loop";

/// The prefix of the globals convert-gpu-launches-to-loom-runtime makes of
/// each gpu.binary's PTX (NUL-terminated).
inline constexpr llvm::StringLiteral kPTXGlobalPrefix = "__loom_gpu_ptx_";

} // namespace mlir::loom

#endif // LOOM_CONVERSION_LOOMTOGPU_LOOMTOGPU_H
