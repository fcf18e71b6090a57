//===- SCFWhileMasked.h - Masked scf.while run lane by lane -----*- C++ -*-===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//
//
// The masked lowerings of scf.while whose straight-line code runs as loops
// over lanes on scalars (SCFWhileMasked.cpp), and what they share with the
// other lowerings of SCFWhile.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef LOOM_LIB_DIALECT_LOOM_TRANSFORMS_BATCHINGMODELS_SCFWHILEMASKED_H
#define LOOM_LIB_DIALECT_LOOM_TRANSFORMS_BATCHINGMODELS_SCFWHILEMASKED_H

#include "loom/Dialect/Loom/IR/LoomOps.h"
#include "loom/Interfaces/BatchingOpInterface.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"

namespace mlir::loom {

/// The carry `forwarded` is, when scf.condition passes a carry through.
std::optional<unsigned> getForwardedCarry(scf::WhileOp loop, Value forwarded);

/// Gives `newLoop` the attributes of `loop`, and the strategy loom-vmap
/// decided for it, which replaces what was asked for (loom-vmap's contract
/// for loom.strategy on the loops it builds).
void setDecided(scf::WhileOp newLoop, scf::WhileOp loop, LoopStrategy strategy);

/// The inits of `loop`, batched, in buffers of the new loop's own
/// (ownCarries).
SmallVector<Value> getOwnBatchedInits(scf::WhileOp loop,
                                      BatchingContext &context,
                                      OpBuilder &builder);

/// Whether a value of the scalar program is per-lane (BatchingContext's and
/// BatchednessAnalysis's isBatched).
using IsBatchedFn = llvm::function_ref<bool(Value)>;

/// A pure elementwise op on scalars or a read at scalar indices of a table
/// every lane shares (a constant or an unbatched tensor of static shape),
/// which a loop over lanes runs as it is, or an scf.if on scalars of such
/// ops, which it runs as both branches and selects.
bool isLaneOp(Operation &op, IsBatchedFn isBatched);
inline bool isLaneOp(Operation &op, const BatchingContext &context) {
  return isLaneOp(op, [&](Value v) { return context.isBatched(v); });
}

/// Clones the lane ops of `block` but its terminator for one lane, each
/// trapping operand and table index made safe where `laneMask` (an i1, or
/// null for none) is false. Returns the terminator's operands, mapped.
SmallVector<Value> cloneLaneBlock(OpBuilder &b, Location loc, Block &block,
                                  IRMapping &map, Value laneMask);

/// True for a scalar loop that can run as one loop over lanes per
/// iteration: scalar carries, a condition that forwards carries, and
/// regions of lane ops (isLaneOp) only, reading scalars and shared tables
/// from above.
bool isElementwiseLoop(scf::WhileOp loop, IsBatchedFn isBatched);
inline bool isElementwiseLoop(scf::WhileOp loop,
                              const BatchingContext &context) {
  return isElementwiseLoop(loop, [&](Value v) { return context.isBatched(v); });
}
LogicalResult batchMaskedFused(scf::WhileOp loop, BatchingContext &context,
                               OpBuilder &builder);

/// True for a scalar loop like those of isElementwiseLoop but for other ops
/// (nested loops, branches, calls, gathers) in its body: an outer level of a
/// nest, whose straight-line code runs lane by lane between them.
bool isElementwiseNest(scf::WhileOp loop, IsBatchedFn isBatched);
inline bool isElementwiseNest(scf::WhileOp loop,
                              const BatchingContext &context) {
  return isElementwiseNest(loop, [&](Value v) { return context.isBatched(v); });
}
LogicalResult batchMaskedNest(scf::WhileOp loop, BatchingContext &context,
                              OpBuilder &builder);

} // namespace mlir::loom

#endif // LOOM_LIB_DIALECT_LOOM_TRANSFORMS_BATCHINGMODELS_SCFWHILEMASKED_H
