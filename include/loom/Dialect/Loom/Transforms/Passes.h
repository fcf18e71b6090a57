//===- Passes.h - Loom dialect passes ---------------------------*- C++ -*-===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//

#ifndef LOOM_DIALECT_LOOM_TRANSFORMS_PASSES_H
#define LOOM_DIALECT_LOOM_TRANSFORMS_PASSES_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::loom {

/// `loom-vmap divergent=`: how loops whose predicate differs per lane lower.
enum class DivergentLoops { Auto, Masked, PerLane };

/// `loom-vmap target=`: where the batched code runs.
enum class VmapTarget { CPU, GPU };

#define GEN_PASS_DECL
#include "loom/Dialect/Loom/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "loom/Dialect/Loom/Transforms/Passes.h.inc"

} // namespace mlir::loom

#endif // LOOM_DIALECT_LOOM_TRANSFORMS_PASSES_H
