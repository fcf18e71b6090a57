//===- SCF.cpp - Batching rules of scf.if and scf.for ---------------------===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//
//
// scf.if with a condition every lane shares stays an scf.if; with a per-lane
// one, both branches run, each under its lanes' mask. scf.for with shared
// bounds stays a loop; loom-vmap rewrites one with per-lane bounds into an
// scf.while (SCFWhile.cpp) before batching.
//
//===----------------------------------------------------------------------===//

#include "BatchingModels.h"

#include "loom/Dialect/Loom/IR/LoomOps.h"
#include "loom/Dialect/Loom/Utils/BatchingUtils.h"
#include "loom/Interfaces/BatchingOpInterface.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace mlir::loom;

//===----------------------------------------------------------------------===//
// Regions
//===----------------------------------------------------------------------===//

/// Batches `block` and returns the batched values its scf.yield yields, each
/// batched when `batched[i]`.
static FailureOr<SmallVector<Value>>
batchYieldingBlock(BatchingContext &context, OpBuilder &builder, Block &block,
                   ArrayRef<bool> batched) {
  if (failed(context.batchBlock(block, builder)))
    return failure();
  SmallVector<Value> values;
  for (auto [value, isBatched] :
       llvm::zip(block.getTerminator()->getOperands(), batched))
    values.push_back(context.lookupAs(builder, block.getTerminator()->getLoc(),
                                      value, isBatched));
  return values;
}

/// Batches `block` into `newBlock` (empty, or ending in the terminator an op
/// builder put there), which it ends with an scf.yield of the batched values
/// `block` yields, each batched when `batched[i]`. Returns those values.
static FailureOr<SmallVector<Value>>
batchYieldingBlockInto(BatchingContext &context, OpBuilder &builder,
                       Block &block, Block &newBlock, ArrayRef<bool> batched) {
  OpBuilder::InsertionGuard guard(builder);
  if (!newBlock.empty())
    newBlock.getTerminator()->erase();
  builder.setInsertionPointToEnd(&newBlock);
  FailureOr<SmallVector<Value>> yielded =
      batchYieldingBlock(context, builder, block, batched);
  if (failed(yielded))
    return failure();
  builder.create<scf::YieldOp>(block.getTerminator()->getLoc(), *yielded);
  return yielded;
}

namespace {

//===----------------------------------------------------------------------===//
// scf.if
//===----------------------------------------------------------------------===//

// vmap(if c then a else b) with shared c => if c then a' else b'
// with per-lane c => a' under mask c, b' under mask !c, select(c, a', b');
//   a buffer both branches only write under their masks needs no select:
//   the else branch writes into the then branch's result.
struct IfBatchingModel : public OpBatchingModel<IfBatchingModel, scf::IfOp> {
  static LogicalResult batchOp(scf::IfOp branch, BatchingContext &context,
                               OpBuilder &builder) {
    SmallVector<bool> batched;
    for (Value result : branch.getResults())
      batched.push_back(context.isBatched(result));
    if (!context.isControlBatched(branch))
      return batchShared(branch, context, builder, batched);
    return batchDivergent(branch, context, builder);
  }

  static LogicalResult batchShared(scf::IfOp branch, BatchingContext &context,
                                   OpBuilder &builder, ArrayRef<bool> batched) {
    Location loc = branch.getLoc();
    SmallVector<Type> types;
    for (auto [result, isBatched] : llvm::zip(branch.getResults(), batched))
      types.push_back(isBatched ? context.getBatchedType(result.getType())
                                : result.getType());
    auto newIf = builder.create<scf::IfOp>(
        loc, types, context.lookup(branch.getCondition()),
        /*addThenBlock=*/true, /*addElseBlock=*/branch.elseBlock() != nullptr);
    SmallVector<Value> thenValues, elseValues;
    for (auto [block, newBlock, values] :
         {std::make_tuple(branch.thenBlock(), newIf.thenBlock(), &thenValues),
          std::make_tuple(branch.elseBlock(), newIf.elseBlock(),
                          &elseValues)}) {
      if (!block)
        continue;
      FailureOr<SmallVector<Value>> yielded =
          batchYieldingBlockInto(context, builder, *block, *newBlock, batched);
      if (failed(yielded))
        return failure();
      *values = *yielded;
    }
    for (auto [i, result] : llvm::enumerate(branch.getResults())) {
      context.map(result, newIf.getResult(i));
      // Both branches leave inactive lanes of one value alone: so does the if.
      Value thenBase = context.getUnchangedBase(thenValues[i]);
      if (thenBase != thenValues[i] &&
          context.getUnchangedBase(elseValues[i]) == thenBase &&
          thenBase.getParentRegion()->isAncestor(newIf->getParentRegion()))
        context.recordUnchangedOnInactive(newIf.getResult(i), thenBase);
    }
    return success();
  }

  static LogicalResult batchDivergent(scf::IfOp branch,
                                      BatchingContext &context,
                                      OpBuilder &builder) {
    Location loc = branch.getLoc();
    Value cond = context.lookupBatched(builder, loc, branch.getCondition());
    Value outer = context.getMask();
    Value notCond = builder.create<arith::XOrIOp>(
        loc, cond, context.getAllTrue(builder, loc));
    Value thenMask =
        outer ? builder.create<arith::AndIOp>(loc, outer, cond) : cond;
    Value elseMask =
        outer ? builder.create<arith::AndIOp>(loc, outer, notCond) : notCond;
    SmallVector<bool> allBatched(branch.getNumResults(), true);

    // Then branch, on the lanes that take it.
    Value previous = context.narrowMask(thenMask);
    FailureOr<SmallVector<Value>> thenValues =
        batchYieldingBlock(context, builder, *branch.thenBlock(), allBatched);
    SmallVector<Value> bases;
    if (succeeded(thenValues))
      for (Value value : *thenValues)
        bases.push_back(context.getUnchangedBase(value));
    context.restoreMask(previous);
    if (failed(thenValues))
      return failure();
    if (!branch.elseBlock()) {
      // No results without an else block; the then branch is all there is.
      return success();
    }

    // The else branch reads the then branch's result wherever the then
    // branch only wrote lanes under its mask: on the else branch's lanes the
    // two are equal, and chaining the writes avoids a select of the buffer.
    SmallVector<std::pair<Value, Value>> overridden;
    SmallVector<bool> chained(branch.getNumResults(), false);
    llvm::SetVector<Value> captured;
    getUsedValuesDefinedAbove(branch.getElseRegion(), captured);
    for (Value original : captured) {
      Value current = context.lookup(original);
      for (auto [i, base] : llvm::enumerate(bases)) {
        if (chained[i] || base != current)
          continue;
        chained[i] = true;
        overridden.emplace_back(original, current);
        context.map(original, (*thenValues)[i]);
        break;
      }
    }
    previous = context.narrowMask(elseMask);
    FailureOr<SmallVector<Value>> elseValues =
        batchYieldingBlock(context, builder, *branch.elseBlock(), allBatched);
    if (succeeded(elseValues))
      for (auto [i, value] : llvm::enumerate(*elseValues))
        chained[i] = chained[i] &&
                     context.isUnchangedOnInactive(value, (*thenValues)[i]);
    context.restoreMask(previous);
    for (auto [original, value] : overridden)
      context.map(original, value);
    if (failed(elseValues))
      return failure();

    for (auto [i, result] : llvm::enumerate(branch.getResults())) {
      if (chained[i]) {
        context.map(result, (*elseValues)[i]);
        context.recordUnchangedOnInactive((*elseValues)[i], bases[i]);
        continue;
      }
      context.map(result, selectLanes(builder, loc, cond, (*thenValues)[i],
                                      (*elseValues)[i]));
    }
    return success();
  }
};

//===----------------------------------------------------------------------===//
// scf.for
//===----------------------------------------------------------------------===//

// vmap(for i in [l, u) (x) b) with shared bounds => for i in [l, u) (x') b'
struct ForBatchingModel : public OpBatchingModel<ForBatchingModel, scf::ForOp> {
  static LogicalResult batchOp(scf::ForOp loop, BatchingContext &context,
                               OpBuilder &builder) {
    FailureOr<LoopStrategy> strategy = context.getLoopStrategy(loop);
    if (failed(strategy))
      return failure();
    // `loom-vmap` turns loops with per-lane bounds into while loops before
    // batching; a per-lane for that is left is run lane by lane.
    if (*strategy != LoopStrategy::Uniform) {
      // Each result is written into its init's lanes: an init has the
      // result's shape, dynamic or not, and lanes skipped under a mask
      // keep it.
      Location loc = loop.getLoc();
      SmallVector<Value> destinations;
      for (Value init : loop.getInitArgs())
        destinations.push_back(context.lookupBatched(builder, loc, init));
      return batchPerLane(context, builder, loop, /*skipInactive=*/true,
                          destinations);
    }

    Location loc = loop.getLoc();
    SmallVector<Value> inits = lookupOwnCarries(
        context, builder, loc, loop.getInitArgs(), loop.getRegionIterArgs());
    auto newLoop =
        builder.create<scf::ForOp>(loc, context.lookup(loop.getLowerBound()),
                                   context.lookup(loop.getUpperBound()),
                                   context.lookup(loop.getStep()), inits);
    newLoop->setDiscardableAttrs(loop->getDiscardableAttrDictionary());
    context.map(loop.getInductionVar(), newLoop.getInductionVar());
    for (auto [arg, newArg] :
         llvm::zip(loop.getRegionIterArgs(), newLoop.getRegionIterArgs()))
      context.map(arg, newArg);

    SmallVector<bool> batched;
    for (Value arg : loop.getRegionIterArgs())
      batched.push_back(context.isBatched(arg));
    FailureOr<SmallVector<Value>> yielded = batchYieldingBlockInto(
        context, builder, *loop.getBody(), *newLoop.getBody(), batched);
    if (failed(yielded))
      return failure();

    for (auto [i, result] : llvm::enumerate(loop.getResults())) {
      context.map(result, newLoop.getResult(i));
      // Every iteration writes only active lanes: so does the whole loop.
      if (context.isUnchangedOnInactive((*yielded)[i],
                                        newLoop.getRegionIterArgs()[i]))
        context.recordUnchangedOnInactive(newLoop.getResult(i), inits[i]);
    }
    return success();
  }
};

} // namespace

void mlir::loom::registerSCFBatchingModels(DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *ctx, scf::SCFDialect *) {
    scf::ForOp::attachInterface<ForBatchingModel>(*ctx);
    scf::IfOp::attachInterface<IfBatchingModel>(*ctx);
  });
}
