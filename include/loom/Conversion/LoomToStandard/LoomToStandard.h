//===- LoomToStandard.h - Lower loom ops to upstream dialects ---*- C++ -*-===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//

#ifndef LOOM_CONVERSION_LOOMTOSTANDARD_LOOMTOSTANDARD_H
#define LOOM_CONVERSION_LOOMTOSTANDARD_LOOMTOSTANDARD_H

#include "mlir/Pass/Pass.h"

namespace mlir {
class RewritePatternSet;
class SymbolTable;

namespace loom {

#define GEN_PASS_DECL_CONVERTLOOMTOSTANDARD
#include "loom/Conversion/Passes.h.inc"

/// Patterns lowering loom.any/all/sum/max/min to linalg.reduce.
/// Folds `loom.any` of a mask that an scf.for writes lane by lane into an
/// i1 accumulator of that loop (AnyOfLaneLoop.cpp).
void foldAnyOfLaneLoops(Operation *root);

void populateLoomReductionToLinalgPatterns(RewritePatternSet &patterns);

/// Patterns lowering loom.random.* to arith; helper functions they call are
/// created once in `symbols`' module.
void populateLoomRandomToArithPatterns(RewritePatternSet &patterns,
                                       SymbolTable &symbols);

} // namespace loom
} // namespace mlir

#endif // LOOM_CONVERSION_LOOMTOSTANDARD_LOOMTOSTANDARD_H
