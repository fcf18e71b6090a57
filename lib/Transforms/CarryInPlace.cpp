//===- CarryInPlace.cpp - Update loop carries in place --------------------===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//

#include "loom/Transforms/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

namespace mlir::loom {
#define GEN_PASS_DEF_LOOMCARRYINPLACE
#include "loom/Transforms/Passes.h.inc"
} // namespace mlir::loom

using namespace mlir;

namespace {

/// The op of `block` that is or contains `op`.
Operation *inBlock(Block *block, Operation *op) {
  return block->findAncestorOpInBlock(*op);
}

/// Makes the generic that computes `next`, the new value of a carry whose old
/// value in the loop body is `old`, write into `old`.
void computeIntoOld(Value next, BlockArgument old) {
  auto generic = next.getDefiningOp<linalg::GenericOp>();
  Block *body = old.getOwner();
  if (!generic || generic->getBlock() != body ||
      next.getType() != old.getType())
    return;
  OpOperand *init =
      generic.getDpsInitOperand(cast<OpResult>(next).getResultNumber());
  if (!init->get().getDefiningOp<tensor::EmptyOp>() ||
      generic.payloadUsesValueFromOperand(init) ||
      !generic.getMatchingIndexingMap(init).isIdentity() ||
      generic.getNumReductionLoops() != 0)
    return;

  // Writing the old value must come after every other read of it, and
  // before any use of the new values.
  Operation *lastRead = nullptr;
  for (OpOperand &use : old.getUses()) {
    Operation *user = inBlock(body, use.getOwner());
    if (!user || user == generic || user == body->getTerminator())
      continue;
    if (!lastRead || lastRead->isBeforeInBlock(user))
      lastRead = user;
  }
  if (lastRead && generic->isBeforeInBlock(lastRead)) {
    for (Value result : generic->getResults())
      for (Operation *user : result.getUsers()) {
        Operation *at = inBlock(body, user);
        if (at && at != body->getTerminator() && !lastRead->isBeforeInBlock(at))
          return;
      }
    generic->moveAfter(lastRead);
  }
  init->set(old);
}

struct LoomCarryInPlace : loom::impl::LoomCarryInPlaceBase<LoomCarryInPlace> {
  void runOnOperation() override {
    getOperation()->walk([](scf::WhileOp loop) {
      scf::ConditionOp cond = loop.getConditionOp();
      Block *after = loop.getAfterBody();
      for (auto [i, next] : llvm::enumerate(loop.getYieldOp().getResults())) {
        // The old value reaches the body only when the condition passes
        // the carry through at its own position.
        if (i >= cond.getArgs().size() ||
            cond.getArgs()[i] != loop.getBeforeArguments()[i])
          continue;
        computeIntoOld(next, after->getArgument(i));
      }
    });
    getOperation()->walk([](scf::ForOp loop) {
      for (auto [next, old] :
           llvm::zip(loop.getYieldedValues(), loop.getRegionIterArgs()))
        computeIntoOld(next, old);
    });
  }
};

} // namespace
