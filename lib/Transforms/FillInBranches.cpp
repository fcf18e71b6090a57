//===- FillInBranches.cpp - A fill of its own for each scf.if branch ------===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//

#include "loom/Transforms/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/MapVector.h"

namespace mlir::loom {
#define GEN_PASS_DEF_LOOMFILLINBRANCHES
#include "loom/Transforms/Passes.h.inc"
} // namespace mlir::loom

using namespace mlir;

namespace {

/// The branch of an scf.if in `op`'s block that holds `user`; null where
/// `user` is in none.
Region *branchOf(Operation *op, Operation *user) {
  Operation *at = op->getBlock()->findAncestorOpInBlock(*user);
  if (!isa_and_nonnull<scf::IfOp>(at) || at == user)
    return nullptr;
  for (Region &region : at->getRegions())
    if (region.isAncestor(user->getParentRegion()))
      return &region;
  return nullptr;
}

/// Makes `op` (a tensor.empty, or a fill of one) anew at the start of each
/// branch that uses it, if every use is in one, and erases it (not the
/// empty a fill fills: the caller does, once nothing uses it).
void makeInBranches(Operation *op) {
  auto fill = dyn_cast<linalg::FillOp>(op);
  tensor::EmptyOp empty =
      fill ? fill.getOutputs()[0].getDefiningOp<tensor::EmptyOp>()
           : dyn_cast<tensor::EmptyOp>(op);
  if (!empty || op->getNumResults() != 1)
    return;
  llvm::MapVector<Region *, SmallVector<OpOperand *>> uses;
  for (OpOperand &use : op->getResult(0).getUses()) {
    Region *branch = branchOf(op, use.getOwner());
    if (!branch)
      return;
    uses[branch].push_back(&use);
  }
  if (uses.empty())
    return;
  for (auto &[branch, operands] : uses) {
    auto b = OpBuilder::atBlockBegin(&branch->front());
    IRMapping mapping;
    Value own = b.clone(*empty, mapping)->getResult(0);
    if (fill)
      own = b.clone(*fill, mapping)->getResult(0);
    for (OpOperand *operand : operands)
      operand->set(own);
  }
  op->erase();
}

struct LoomFillInBranches
    : mlir::loom::impl::LoomFillInBranchesBase<LoomFillInBranches> {
  void runOnOperation() override {
    // Fills first: the empties they fill are theirs.
    SmallVector<Operation *> fills, empties;
    getOperation()->walk([&](Operation *op) {
      if (isa<linalg::FillOp>(op))
        fills.push_back(op);
      else if (isa<tensor::EmptyOp>(op))
        empties.push_back(op);
    });
    for (Operation *fill : fills)
      makeInBranches(fill);
    // Dead empties go: those only a moved fill used among them.
    for (Operation *empty : empties) {
      if (empty->use_empty())
        empty->erase();
      else
        makeInBranches(empty);
    }
  }
};

} // namespace
