//===- SCFWhile.cpp - Batching rules of scf.while -------------------------===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//
//
// scf.while is where lanes diverge. A loop whose predicate every lane shares
// stays one loop. A divergent one is lowered as loom-vmap's strategy for it
// says: masked (one loop that runs while any lane is active, each carry
// selected into its old value on finished lanes) or per lane (a loop over
// lanes around the scalar loop).
//
//===----------------------------------------------------------------------===//

#include "BatchingModels.h"
#include "SCFWhileMasked.h"

#include "loom/Dialect/Loom/IR/LoomOps.h"
#include "loom/Dialect/Loom/Utils/BatchingUtils.h"
#include "loom/Interfaces/BatchingOpInterface.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/DialectRegistry.h"

using namespace mlir;
using namespace mlir::loom;

// e & p => for b: a[b] = e[b] & p[b]
/// The lanes of the enclosing mask `entry` (all when null) whose predicate
/// holds, written over the loop's mask buffer `active` without reading it.
/// A loop over lanes rather than a linalg.generic: elementwise fusion gives
/// a generic that does not read its `outs` a fresh tensor.empty instead,
/// and the mask would then be copied into a new buffer on every iteration
/// to be forwarded by scf.condition.
static Value activeLanes(BatchingContext &context, OpBuilder &builder,
                         Location loc, Value pred, Value entry, Value active) {
  return buildLaneLoop(
             context, builder, loc, active,
             [&](OpBuilder &b, Location l, Value lane,
                 ValueRange mask) -> SmallVector<Value> {
               Value bit = b.create<tensor::ExtractOp>(l, pred, lane);
               if (entry)
                 bit = b.create<arith::AndIOp>(
                     l, b.create<tensor::ExtractOp>(l, entry, lane), bit);
               return {b.create<tensor::InsertOp>(l, bit, mask.front(), lane)};
             })
      .front();
}

/// An order for the in-place selects of a masked loop's carries. The select
/// of carry i writes into old carry i, and the elementwise ops computing new
/// carry j fuse into the select of j: when they read old carry i, the select
/// of j must come first, or bufferization copies old carry i every
/// iteration. Topological on "new j reads old i"; a cycle (a swap) keeps the
/// remaining carries in their order, and costs a copy.
static SmallVector<unsigned> orderSelects(ArrayRef<Value> updated,
                                          ValueRange old) {
  unsigned n = updated.size();
  if (n == 0)
    return {};
  Block *body = Value(old.front()).getParentBlock();
  // reads[j][i]: the new value of carry j depends on the old value of i
  // through ops of this block.
  std::vector<std::vector<bool>> reads(n, std::vector<bool>(n, false));
  for (unsigned j = 0; j < n; ++j) {
    SmallVector<Value> work{updated[j]};
    DenseSet<Value> seen;
    while (!work.empty()) {
      Value value = work.pop_back_val();
      if (!seen.insert(value).second)
        continue;
      for (unsigned i = 0; i < n; ++i)
        if (value == old[i])
          reads[j][i] = true;
      Operation *def = value.getDefiningOp();
      if (!def || def->getBlock() != body)
        continue;
      llvm::append_range(work, def->getOperands());
    }
  }
  SmallVector<unsigned> order;
  std::vector<bool> done(n, false);
  while (order.size() < n) {
    bool progress = false;
    for (unsigned i = 0; i < n; ++i) {
      if (done[i])
        continue;
      // Carry i may be written once no pending new value reads old i.
      bool blocked = false;
      for (unsigned j = 0; j < n; ++j)
        blocked = blocked || (j != i && !done[j] && reads[j][i]);
      if (blocked)
        continue;
      done[i] = true;
      order.push_back(i);
      progress = true;
    }
    if (!progress)
      for (unsigned i = 0; i < n; ++i)
        if (!done[i]) {
          done[i] = true;
          order.push_back(i);
          break;
        }
  }
  return order;
}

std::optional<unsigned> mlir::loom::getForwardedCarry(scf::WhileOp loop,
                                                      Value forwarded) {
  auto arg = dyn_cast<BlockArgument>(forwarded);
  if (!arg || arg.getOwner() != loop.getBeforeBody())
    return std::nullopt;
  return arg.getArgNumber();
}

/// Maps `originals` (the scalar loop's block arguments) to `args` and
/// batches `body` at `builder`'s insertion point.
static LogicalResult batchLoopBlock(BatchingContext &context,
                                    OpBuilder &builder, Block &body,
                                    ValueRange originals, ValueRange args) {
  for (auto [arg, newArg] : llvm::zip(originals, args))
    context.map(arg, newArg);
  return context.batchBlock(body, builder);
}

void mlir::loom::setDecided(scf::WhileOp newLoop, scf::WhileOp loop,
                            LoopStrategy strategy) {
  newLoop->setDiscardableAttrs(loop->getDiscardableAttrDictionary());
  // The new loop's carries are not the scalar loop's.
  newLoop->removeAttr(LoomDialect::kSourceCarriesAttrName);
  newLoop->setAttr(LoomDialect::kStrategyAttrName,
                   LoopStrategyAttr::get(loop.getContext(), strategy));
}

// Write each result into its carry's init when the condition passes the
// carry straight through, so a buffer carried by the loop is updated in
// place and lanes skipped under a mask keep their value.
LogicalResult mlir::loom::getLoopResultDestinations(
    scf::WhileOp loop, BatchingContext &context, OpBuilder &builder,
    StringRef how, SmallVectorImpl<Value> &destinations,
    SmallVectorImpl<bool> &fromInit) {
  Location loc = loop.getLoc();
  scf::ConditionOp cond = loop.getConditionOp();
  for (auto [j, result] : llvm::enumerate(loop.getResults())) {
    std::optional<unsigned> carry = getForwardedCarry(loop, cond.getArgs()[j]);
    if (carry && loop.getInits()[*carry].getType() == result.getType()) {
      destinations.push_back(
          context.lookupBatched(builder, loc, loop.getInits()[*carry]));
      fromInit.push_back(true);
      continue;
    }
    // A lane's result of dynamic shape is only known once its loop has
    // run: batchPerLane says so when it has no destination.
    auto tensor = dyn_cast<RankedTensorType>(result.getType());
    if (tensor && !tensor.hasStaticShape())
      return loop->emitError()
             << "cannot run this loop " << how << ": result #" << j
             << " has the dynamic shape " << tensor
             << " and is not a carry passed through the condition, so "
             << "its shape is not known before the loop runs on each "
             << "lane (run it masked: loom.strategy = "
                "#loom.strategy<masked>)";
    destinations.push_back(createEmpty(
        context, builder, loc, context.getBatchedType(result.getType())));
    fromInit.push_back(false);
  }
  return success();
}

namespace {

struct WhileBatchingModel
    : public OpBatchingModel<WhileBatchingModel, scf::WhileOp> {
  static LogicalResult batchOp(scf::WhileOp loop, BatchingContext &context,
                               OpBuilder &builder) {
    FailureOr<LoopStrategy> strategy = context.getLoopStrategy(loop);
    if (failed(strategy))
      return failure();
    if (context.hasAlternative(loop))
      return batchTimedVariants(loop, context, builder);
    return batchAs(*strategy, loop, context, builder);
  }

  // vmap(while(c, b)), compiled two ways
  //   => a = loom.variant_begin
  //      r = if a { alternative(while) } else { primary(while) }
  //      loom.variant_end a
  // Both compute the same bits; each shard times them and keeps the faster.
  // Where the primary is gangs with refill and the alternative lock-step
  // gangs, one nest runs both, its slots refilling while a run-time switch
  // holds (batchWhileRefill), and the nest is compiled once:
  //   => a = loom.variant_begin
  //      r = refill(while, refill-on = !a)
  //      loom.variant_end a
  // Not the other way round: refill's slots cost more per trip than a
  // lock-step gang's own loop (the ODE's, with a 100-float buffer among its
  // carries, runs 1.8x slower lock-step in them), so a primary that is
  // lock-step keeps its own loop.
  static LogicalResult batchTimedVariants(scf::WhileOp loop,
                                          BatchingContext &context,
                                          OpBuilder &builder) {
    Location loc = loop.getLoc();
    SmallVector<Type> types;
    for (Value result : loop.getResults())
      types.push_back(context.getBatchedType(result.getType()));
    ArrayAttr names = builder.getStrArrayAttr(
        {context.describeVariant(loop, /*alternative=*/false),
         context.describeVariant(loop, /*alternative=*/true)});
    Value alternative =
        builder.create<VariantBeginOp>(loc, builder.getI1Type(), names);
    if (isRefillSwitch(loop, context)) {
      Value refillOn = builder.create<arith::XOrIOp>(
          loc, alternative,
          builder.create<arith::ConstantOp>(loc, builder.getBoolAttr(true)));
      if (failed(batchWhileRefill(loop, context, builder, refillOn)))
        return failure();
      builder.create<VariantEndOp>(loc, alternative);
      return success();
    }
    auto branch = builder.create<scf::IfOp>(loc, types, alternative,
                                            /*withElseRegion=*/true);
    // The primary last: what the rest of the function sees of this loop.
    for (bool alt : {true, false}) {
      Block *block = alt ? branch.thenBlock() : branch.elseBlock();
      OpBuilder b = OpBuilder::atBlockEnd(block);
      if (!block->empty())
        b.setInsertionPoint(&block->back());
      LoopStrategy strategy = context.useVariant(loop, alt);
      if (failed(batchAs(strategy, loop, context, b)))
        return failure();
      if (!types.empty()) {
        SmallVector<Value> results;
        for (auto [result, type] : llvm::zip(loop.getResults(), types)) {
          Value value = context.lookupBatched(b, loc, result);
          if (value.getType() != type)
            value = b.create<tensor::CastOp>(loc, type, value);
          results.push_back(value);
        }
        b.create<scf::YieldOp>(loc, results);
      }
    }
    builder.create<VariantEndOp>(loc, alternative);
    for (auto [result, value] :
         llvm::zip(loop.getResults(), branch.getResults()))
      context.map(result, value);
    return success();
  }

  /// Whether `loop`'s primary is gangs with refill and its alternative
  /// gangs without, which one nest runs both of. Leaves the primary in use,
  /// which is the refill that batchWhileRefill reads.
  static bool isRefillSwitch(scf::WhileOp loop, BatchingContext &context) {
    LoopStrategy alternative = context.useVariant(loop, /*alternative=*/true);
    bool alternativeRefills = context.getGangRefill(loop);
    LoopStrategy primary = context.useVariant(loop, /*alternative=*/false);
    return primary == LoopStrategy::Gang && context.getGangRefill(loop) &&
           alternative == LoopStrategy::Gang && !alternativeRefills &&
           !fitsOneGang(context);
  }

  static LogicalResult batchAs(LoopStrategy strategy, scf::WhileOp loop,
                               BatchingContext &context, OpBuilder &builder) {
    switch (strategy) {
    case LoopStrategy::Uniform:
      return batchUniform(loop, context, builder);
    case LoopStrategy::Gang:
      if (!fitsOneGang(context))
        return context.getGangRefill(loop)
                   ? batchWhileRefill(loop, context, builder)
                   : batchWhileInGangs(loop, context, builder);
      [[fallthrough]];
    case LoopStrategy::Masked:
      if (isElementwiseLoop(loop, context))
        return batchMaskedFused(loop, context, builder);
      if (isElementwiseNest(loop, context))
        return batchMaskedNest(loop, context, builder);
      return batchMasked(loop, context, builder);
    case LoopStrategy::PerLane:
      return batchPerLane(loop, context, builder);
    }
    llvm_unreachable("unknown loop strategy");
  }

  // vmap(while(c, b)) with shared c => while(c', b')
  //   (a carry that never meets a per-lane value stays unbatched)
  static LogicalResult batchUniform(scf::WhileOp loop, BatchingContext &context,
                                    OpBuilder &builder) {
    Location loc = loop.getLoc();
    SmallVector<Value> inits = lookupOwnCarries(
        context, builder, loc, loop.getInits(), loop.getBeforeArguments());
    SmallVector<Type> resultTypes;
    for (Value result : loop.getResults())
      resultTypes.push_back(context.isBatched(result)
                                ? context.getBatchedType(result.getType())
                                : result.getType());
    scf::ConditionOp cond = loop.getConditionOp();
    scf::YieldOp yield = loop.getYieldOp();

    bool failedBody = false;
    SmallVector<Value> newYields;
    auto newLoop = builder.create<scf::WhileOp>(
        loc, TypeRange(resultTypes), inits,
        [&](OpBuilder &b, Location l, ValueRange args) {
          if (failed(batchLoopBlock(context, b, *loop.getBeforeBody(),
                                    loop.getBeforeArguments(), args))) {
            failedBody = true;
            return;
          }
          SmallVector<Value> forwarded;
          for (auto [value, arg] :
               llvm::zip(cond.getArgs(), loop.getAfterArguments()))
            forwarded.push_back(
                context.lookupAs(b, l, value, context.isBatched(arg)));
          b.create<scf::ConditionOp>(
              cond.getLoc(), context.lookup(cond.getCondition()), forwarded);
        },
        [&](OpBuilder &b, Location l, ValueRange args) {
          if (failedBody)
            return;
          if (failed(batchLoopBlock(context, b, *loop.getAfterBody(),
                                    loop.getAfterArguments(), args))) {
            failedBody = true;
            return;
          }
          for (auto [value, arg] :
               llvm::zip(yield.getResults(), loop.getBeforeArguments()))
            newYields.push_back(
                context.lookupAs(b, l, value, context.isBatched(arg)));
          b.create<scf::YieldOp>(yield.getLoc(), newYields);
        });
    setDecided(newLoop, loop, LoopStrategy::Uniform);
    if (failedBody)
      return failure();

    for (auto [j, result] : llvm::enumerate(loop.getResults())) {
      context.map(result, newLoop.getResult(j));
      // A carry passed straight through the condition, and only written
      // under the mask by the body, is its init on inactive lanes.
      std::optional<unsigned> carry =
          getForwardedCarry(loop, cond.getArgs()[j]);
      if (carry && *carry == j &&
          context.isUnchangedOnInactive(newYields[j],
                                        newLoop.getAfterArguments()[j]))
        context.recordUnchangedOnInactive(newLoop.getResult(j), inits[j]);
    }
    return success();
  }

  // vmap(while(c, b)) with batched c
  //   => while(any(a = e & c'); select(a, b', x))
  //   with e the enclosing mask at entry; c' computed once per iteration
  //
  // The active mask is recomputed from e, never updated from its previous
  // value: a lane whose predicate went false keeps its carries from then on,
  // and a pure predicate of unchanged carries stays false. So the mask's
  // buffer starts uninitialised instead of as a copy of e, which would copy
  // the enclosing mask on every entry (once per outer iteration, nested).
  //
  // Layout: the loop carries (x..., a); scf.condition forwards every carry
  // unchanged at its own position, then the new mask, then whatever else the
  // scalar condition forwards. One-shot bufferization pairs condition
  // operands with carries by position, so this keeps every carry that the
  // body updates in place (a buffer under masked writes), and the mask, in
  // place.
  static LogicalResult batchMasked(scf::WhileOp loop, BatchingContext &context,
                                   OpBuilder &builder) {
    Location loc = loop.getLoc();
    scf::ConditionOp cond = loop.getConditionOp();
    scf::YieldOp yield = loop.getYieldOp();
    unsigned numCarries = loop.getInits().size();

    SmallVector<Value> inits = getOwnBatchedInits(loop, context, builder);
    // The mask's buffer: an allocation, not a tensor.empty, which CSE would
    // merge with the enclosing loop's, so that one-shot bufferization (to
    // which an empty tensor holds nothing to protect) gives both loops one
    // buffer.
    Value entryMask = context.getMask();
    inits.push_back(allocLanes(context, builder, loc, builder.getI1Type()));

    // Where each value the scalar condition forwards lives after the new
    // condition: its carry's position, or a slot after the mask.
    SmallVector<unsigned> forwardedAt;
    SmallVector<Value> extraForwarded;
    for (Value value : cond.getArgs()) {
      if (std::optional<unsigned> carry = getForwardedCarry(loop, value)) {
        forwardedAt.push_back(*carry);
        continue;
      }
      forwardedAt.push_back(numCarries + 1 + extraForwarded.size());
      extraForwarded.push_back(value);
    }
    SmallVector<Type> afterTypes = llvm::to_vector(TypeRange(inits));
    for (Value value : extraForwarded)
      afterTypes.push_back(context.getBatchedType(value.getType()));

    bool failedBody = false;
    auto newLoop = builder.create<scf::WhileOp>(
        loc, TypeRange(afterTypes), inits,
        [&](OpBuilder &b, Location l, ValueRange args) {
          if (failed(batchLoopBlock(context, b, *loop.getBeforeBody(),
                                    loop.getBeforeArguments(), args))) {
            failedBody = true;
            return;
          }
          Location condLoc = cond.getLoc();
          Value pred = context.lookupBatched(b, condLoc, cond.getCondition());
          Value active =
              activeLanes(context, b, condLoc, pred, entryMask, args.back());
          Value any = b.create<AnyOp>(condLoc, b.getI1Type(), active,
                                      b.getI64IntegerAttr(0));
          SmallVector<Value> forwarded(args.drop_back());
          forwarded.push_back(active);
          for (Value value : extraForwarded)
            forwarded.push_back(context.lookupBatched(b, condLoc, value));
          b.create<scf::ConditionOp>(condLoc, any, forwarded);
        },
        [&](OpBuilder &b, Location l, ValueRange args) {
          if (failedBody)
            return;
          ValueRange oldCarries = args.take_front(numCarries);
          Value active = args[numCarries];
          Value previous = context.narrowMask(active);
          // The body runs only while some lane is active.
          context.recordMaskNonEmpty();
          for (auto [arg, at] :
               llvm::zip(loop.getAfterArguments(), forwardedAt))
            context.map(arg, args[at]);
          if (failed(context.batchBlock(*loop.getAfterBody(), b))) {
            failedBody = true;
            context.restoreMask(previous);
            return;
          }
          Location yieldLoc = yield.getLoc();
          SmallVector<Value> next;
          for (auto [value, old] : llvm::zip(yield.getResults(), oldCarries))
            next.push_back(context.lookupBatched(b, yieldLoc, value));
          // A carry the body only writes under the mask (a buffer) is
          // already right on finished lanes; anything else is selected into
          // its old value, in an order that writes a carry only after the
          // new values that read its old value.
          for (unsigned i : orderSelects(next, oldCarries))
            if (!context.isUnchangedOnInactive(next[i], oldCarries[i]))
              next[i] =
                  selectLanes(b, yieldLoc, active, next[i], oldCarries[i]);
          next.push_back(active);
          b.create<scf::YieldOp>(yieldLoc, next);
          context.restoreMask(previous);
        });
    // The mark loom-localize-loops trusts: every carry of this loop is
    // frozen on a lane once the lane is done, so a shard may stop as soon as
    // its own lanes are.
    setDecided(newLoop, loop, LoopStrategy::Masked);
    if (failedBody)
      return failure();

    for (auto [result, at] : llvm::zip(loop.getResults(), forwardedAt)) {
      Value newResult = newLoop.getResult(at);
      context.map(result, newResult);
      // Lanes the enclosing mask clears never become active: every carry
      // keeps its init there.
      if (at < numCarries)
        context.recordUnchangedOnInactive(newResult, inits[at]);
    }
    return success();
  }

  // vmap(while(c, b)) with batched c, per lane
  //   => for lane: r[lane] = while(c, b)(x[lane])   (scalar loop, no masking)
  static LogicalResult batchPerLane(scf::WhileOp loop, BatchingContext &context,
                                    OpBuilder &builder) {
    SmallVector<Value> destinations;
    SmallVector<bool> fromInit;
    if (failed(getLoopResultDestinations(loop, context, builder, "lane by lane",
                                         destinations, fromInit)))
      return failure();
    if (failed(loom::batchPerLane(context, builder, loop, /*skipInactive=*/true,
                                  destinations)))
      return failure();
    for (auto [j, result] : llvm::enumerate(loop.getResults()))
      if (fromInit[j])
        context.recordUnchangedOnInactive(context.lookup(result),
                                          destinations[j]);
    return success();
  }
};

//===----------------------------------------------------------------------===//

} // namespace

void mlir::loom::registerSCFWhileBatchingModel(DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *ctx, scf::SCFDialect *) {
    scf::WhileOp::attachInterface<WhileBatchingModel>(*ctx);
  });
}
