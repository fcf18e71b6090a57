//===- AnyOfLaneLoop.cpp - any() of a mask built lane by lane -------------===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//
//
// A masked loop from loom-vmap decides each iteration on loom.any of a mask
// that one scf.for over the lanes writes, lane by lane. Reducing that mask
// afterwards is a second pass over it, on i1 in memory, which does not
// vectorise. OR-ing each lane's bit into an (i32) accumulator of the scf.for
// itself gives the same value in the same pass, in a register; the mask is
// then stored only if something else reads it.
//
//===----------------------------------------------------------------------===//

#include "loom/Conversion/LoomToStandard/LoomToStandard.h"
#include "loom/Dialect/Loom/IR/LoomOps.h"
#include "loom/Dialect/Loom/Utils/ShardUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace mlir::loom;

/// The bit `loop` writes at its induction variable into the 1-d tensor it
/// carries as `result`, when it writes every element of that tensor and
/// reads none: lanes 0 to the tensor's size, step 1, one tensor.insert.
static tensor::InsertOp getLaneWrite(scf::ForOp loop, OpResult result) {
  unsigned index = result.getResultNumber();
  Value arg = loop.getRegionIterArgs()[index];
  auto insert =
      loop.getYieldedValues()[index].getDefiningOp<tensor::InsertOp>();
  if (!insert || insert.getDest() != arg || !arg.hasOneUse() ||
      insert.getIndices().size() != 1 ||
      insert.getIndices().front() != loop.getInductionVar())
    return {};
  if (!isConstantIntValue(loop.getLowerBound(), 0) ||
      !isConstantIntValue(loop.getStep(), 1))
    return {};
  // The loop covers the tensor: its bound is the tensor's size.
  auto type = cast<RankedTensorType>(result.getType());
  Value init = loop.getInitArgs()[index];
  if (!type.isDynamicDim(0))
    return isConstantIntValue(loop.getUpperBound(), type.getDimSize(0))
               ? insert
               : tensor::InsertOp();
  // The mask of a loop loom-vmap built masked starts as the allocation it
  // is written over, and keeps its size (loom-vmap's construction).
  if (auto arg = dyn_cast<BlockArgument>(init))
    if (auto carrier = dyn_cast<scf::WhileOp>(arg.getOwner()->getParentOp()))
      if (arg.getOwner() == carrier.getBeforeBody() && isMaskedByVmap(carrier))
        init = carrier.getInits()[arg.getArgNumber()];
  auto alloc = init.getDefiningOp<bufferization::AllocTensorOp>();
  if (alloc && !alloc.getCopy() && alloc.getDynamicSizes().size() == 1 &&
      alloc.getDynamicSizes().front() == loop.getUpperBound())
    return insert;
  return {};
}

// any(for b: m[b] = p_b) => for b: (m[b] = p_b,) acc |= p_b
static void foldAnyOfLaneLoop(RewriterBase &rewriter, AnyOp any) {
  auto input = dyn_cast<OpResult>(any.getInput());
  auto type = dyn_cast<RankedTensorType>(any.getInput().getType());
  if (!input || !type || type.getRank() != 1 || any.getAxis() != 0 ||
      !type.getElementType().isInteger(1))
    return;
  auto loop = dyn_cast<scf::ForOp>(input.getOwner());
  if (!loop)
    return;
  tensor::InsertOp write = getLaneWrite(loop, input);
  if (!write)
    return;
  Location loc = any.getLoc();
  // Read now: replaceWithAdditionalYields erases `loop`, and `input` with it.
  unsigned maskIndex = input.getResultNumber();
  rewriter.setInsertionPoint(loop);
  // An i32 accumulator, not i1: LLVM 19 turns an i1 `or` into a select,
  // which its loop vectorizer does not take for a reduction.
  Type i32 = rewriter.getI32Type();
  Value none = rewriter.create<arith::ConstantIntOp>(loc, 0, 32);
  Value bit = write.getScalar();
  auto newLoop = cast<scf::ForOp>(*loop.replaceWithAdditionalYields(
      rewriter, ValueRange{none}, /*replaceInitOperandUsesInLoop=*/false,
      [&](OpBuilder &b, Location l, ArrayRef<BlockArgument> acc) {
        Value wide = b.create<arith::ExtUIOp>(l, i32, bit);
        return SmallVector<Value>{
            b.create<arith::OrIOp>(l, acc.front(), wide).getResult()};
      }));
  rewriter.setInsertionPointAfter(newLoop);
  Value result = rewriter.create<arith::CmpIOp>(
      loc, arith::CmpIPredicate::ne, newLoop.getResults().back(), none);
  OpResult mask = newLoop->getResult(maskIndex);
  rewriter.replaceOp(any, result);
  if (!mask.use_empty())
    return;
  // Nothing else reads the mask: pass its init through, which the
  // canonicalizer drops, so it is never stored.
  unsigned index = mask.getResultNumber();
  auto yield = cast<scf::YieldOp>(newLoop.getBody()->getTerminator());
  auto insert = yield.getOperand(index).getDefiningOp<tensor::InsertOp>();
  rewriter.modifyOpInPlace(yield, [&] {
    yield.setOperand(index, newLoop.getRegionIterArgs()[index]);
  });
  if (insert->use_empty())
    rewriter.eraseOp(insert);
}

void mlir::loom::foldAnyOfLaneLoops(Operation *root) {
  SmallVector<AnyOp> anys;
  root->walk([&](AnyOp any) { anys.push_back(any); });
  IRRewriter rewriter(root->getContext());
  for (AnyOp any : anys)
    foldAnyOfLaneLoop(rewriter, any);
}
