//===- Passes.h - Loom conversion passes ------------------------*- C++ -*-===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//

#ifndef LOOM_CONVERSION_PASSES_H
#define LOOM_CONVERSION_PASSES_H

#include "loom/Conversion/LoomToGPU/LoomToGPU.h"
#include "loom/Conversion/LoomToStandard/LoomToStandard.h"
#include "loom/Conversion/LoopCountersToRuntime/LoopCountersToRuntime.h"
#include "loom/Conversion/MeshToLoomRuntime/MeshToLoomRuntime.h"
#include "mlir/Pass/Pass.h"

namespace mlir::loom {

#define GEN_PASS_REGISTRATION
#include "loom/Conversion/Passes.h.inc"

} // namespace mlir::loom

#endif // LOOM_CONVERSION_PASSES_H
