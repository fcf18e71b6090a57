//===- Passes.h - Loom transforms on upstream IR ----------------*- C++ -*-===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//

#ifndef LOOM_TRANSFORMS_PASSES_H
#define LOOM_TRANSFORMS_PASSES_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::loom {

#define GEN_PASS_DECL
#include "loom/Transforms/Passes.h.inc"

std::unique_ptr<Pass> createLoomAllowFPContraction();

#define GEN_PASS_REGISTRATION
#include "loom/Transforms/Passes.h.inc"

} // namespace mlir::loom

#endif // LOOM_TRANSFORMS_PASSES_H
