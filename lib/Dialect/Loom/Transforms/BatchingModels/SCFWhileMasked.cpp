//===- SCFWhileMasked.cpp - Masked scf.while run lane by lane -------------===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//
//
// A masked loop whose carries are scalars runs its straight-line code as
// loops over the lanes on scalars, which LLVM vectorises, rather than as one
// batched tensor op per value: a loop of elementwise code is one such pass
// per iteration, and the outer level of a nest one pass before its inner
// loops (with the predicate) and one after (with the selects).
//
//===----------------------------------------------------------------------===//

#include "SCFWhileMasked.h"

#include "loom/Dialect/Loom/Utils/BatchingUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace mlir::loom;

static bool isScalar(Type type) { return type.isIntOrIndexOrFloat(); }

/// An scf.if on scalars whose branches hold lane ops only: a loop over
/// lanes runs both branches and selects, as ISPC and LLVM's vectorizer
/// if-convert. Only the branch a lane takes may trap, so cloneLaneOp guards
/// each branch's trapping operands with the lanes that take it.
static bool isLaneBranch(Operation &op, IsBatchedFn isBatched) {
  auto branch = dyn_cast<scf::IfOp>(op);
  if (!branch || !llvm::all_of(branch.getResultTypes(), isScalar))
    return false;
  return llvm::all_of(branch->getRegions(), [&](Region &region) {
    return region.empty() || llvm::all_of(region.front().without_terminator(),
                                          [&](Operation &inner) {
                                            return isLaneOp(inner, isBatched);
                                          });
  });
}

/// True when every op of `block` but its terminator is a lane op.
static bool hasLaneOpsOnly(Block &block, IsBatchedFn isBatched) {
  return llvm::all_of(block.without_terminator(),
                      [&](Operation &op) { return isLaneOp(op, isBatched); });
}

/// A tensor every lane shares (a constant, or a value that is not batched)
/// and can read anywhere in: of static shape, with an element (index 0 of
/// every dimension is in bounds).
static bool isLaneTable(Value value, IsBatchedFn isBatched) {
  auto type = dyn_cast<RankedTensorType>(value.getType());
  return type && type.hasStaticShape() && type.getNumElements() > 0 &&
         (matchPattern(value, m_Constant()) || !isBatched(value));
}

bool mlir::loom::isLaneOp(Operation &op, IsBatchedFn isBatched) {
  if (op.getNumRegions() != 0)
    return isLaneBranch(op, isBatched);
  // A table read at a lane's own index is a load per lane, which LLVM
  // vectorises as a gather (or lane by lane where gathers are slow);
  // cloneLaneOp keeps it in bounds off the mask.
  if (auto extract = dyn_cast<tensor::ExtractOp>(op))
    return isLaneTable(extract.getTensor(), isBatched) &&
           isScalar(extract.getType());
  return isMemoryEffectFree(&op) &&
         (op.hasTrait<OpTrait::Elementwise>() ||
          op.hasTrait<OpTrait::ConstantLike>()) &&
         llvm::all_of(op.getOperandTypes(), isScalar) &&
         llvm::all_of(op.getResultTypes(), isScalar);
}

/// Scalar carries, a condition that forwards carries, and a before region
/// of lane ops.
static bool hasLaneCondition(scf::WhileOp loop, IsBatchedFn isBatched) {
  if (!llvm::all_of(loop.getInits().getTypes(), isScalar))
    return false;
  for (Value forwarded : loop.getConditionOp().getArgs())
    if (!getForwardedCarry(loop, forwarded))
      return false;
  return hasLaneOpsOnly(*loop.getBeforeBody(), isBatched);
}

bool mlir::loom::isElementwiseLoop(scf::WhileOp loop, IsBatchedFn isBatched) {
  if (!hasLaneCondition(loop, isBatched) ||
      !hasLaneOpsOnly(*loop.getAfterBody(), isBatched))
    return false;
  llvm::SetVector<Value> captured;
  getUsedValuesDefinedAbove(loop->getRegions(), captured);
  return llvm::all_of(captured, [&](Value v) {
    return isScalar(v.getType()) || isLaneTable(v, isBatched);
  });
}

bool mlir::loom::isElementwiseNest(scf::WhileOp loop, IsBatchedFn isBatched) {
  return hasLaneCondition(loop, isBatched) &&
         !hasLaneOpsOnly(*loop.getAfterBody(), isBatched);
}

/// Clones the lane branch `branch` for one lane as both of its branches,
/// each trap-safe off the lanes that take it, and a select per result.
static void cloneLaneBranch(OpBuilder &b, Location loc, scf::IfOp branch,
                            IRMapping &map, Value laneMask) {
  Value cond = map.lookupOrDefault(branch.getCondition());
  auto under = [&](Value taken) -> Value {
    return laneMask ? b.create<arith::AndIOp>(loc, laneMask, taken) : taken;
  };
  SmallVector<Value> thenValues =
      cloneLaneBlock(b, loc, *branch.thenBlock(), map, under(cond));
  if (!branch.elseBlock())
    return;
  Value notCond = b.create<arith::XOrIOp>(
      loc, cond, b.create<arith::ConstantOp>(loc, b.getBoolAttr(true)));
  SmallVector<Value> elseValues =
      cloneLaneBlock(b, loc, *branch.elseBlock(), map, under(notCond));
  for (auto [result, thenValue, elseValue] :
       llvm::zip(branch.getResults(), thenValues, elseValues))
    map.map(result, b.create<arith::SelectOp>(loc, cond, thenValue, elseValue));
}

/// Clones `op` for one lane, with the operand that can trap made safe where
/// `laneMask` (an i1, or null for none) is false.
static void cloneLaneOp(OpBuilder &b, Location loc, Operation &op,
                        IRMapping &map, Value laneMask) {
  if (auto branch = dyn_cast<scf::IfOp>(op))
    return cloneLaneBranch(b, loc, branch, map, laneMask);
  Operation *clone = b.clone(op, map);
  // A lane the mask clears may hold an index the scalar program never
  // reads at (one past a table's end, where its loop stopped): it reads
  // element 0 instead, which isLaneTable makes sure exists.
  if (auto read = dyn_cast<tensor::ExtractOp>(clone); read && laneMask) {
    OpBuilder::InsertionGuard before(b);
    b.setInsertionPoint(read);
    for (OpOperand &index : read.getIndicesMutable()) {
      Value zero = b.create<arith::ConstantIndexOp>(loc, 0);
      index.set(b.create<arith::SelectOp>(loc, laneMask, index.get(), zero));
    }
    return;
  }
  std::optional<TrapGuard> guard = getTrapGuard(&op);
  if (!guard || !laneMask)
    return;
  OpBuilder::InsertionGuard before(b);
  b.setInsertionPoint(clone);
  Value operand = clone->getOperand(guard->operand);
  Value safe = b.create<arith::ConstantOp>(
      loc, b.getIntegerAttr(operand.getType(), guard->safeValue));
  clone->setOperand(guard->operand,
                    b.create<arith::SelectOp>(loc, laneMask, operand, safe));
}

SmallVector<Value> mlir::loom::cloneLaneBlock(OpBuilder &b, Location loc,
                                              Block &block, IRMapping &map,
                                              Value laneMask) {
  for (Operation &op : block.without_terminator())
    cloneLaneOp(b, loc, op, map, laneMask);
  SmallVector<Value> results;
  for (Value operand : block.getTerminator()->getOperands())
    results.push_back(map.lookupOrDefault(operand));
  return results;
}

SmallVector<Value> mlir::loom::getOwnBatchedInits(scf::WhileOp loop,
                                                  BatchingContext &context,
                                                  OpBuilder &builder) {
  SmallVector<Value> looked;
  for (Value init : loop.getInits())
    looked.push_back(context.lookupBatched(builder, loop.getLoc(), init));
  return ownCarries(builder, loop.getLoc(), looked);
}

/// Maps the results of `loop`, whose condition forwards only carries, to
/// those of `newLoop`, whose carries keep their inits on inactive lanes.
static void mapForwardedResults(scf::WhileOp loop, scf::WhileOp newLoop,
                                ArrayRef<Value> inits,
                                BatchingContext &context) {
  for (auto [result, forwarded] :
       llvm::zip(loop.getResults(), loop.getConditionOp().getArgs())) {
    unsigned at = *getForwardedCarry(loop, forwarded);
    Value newResult = newLoop.getResult(at);
    context.map(result, newResult);
    context.recordUnchangedOnInactive(newResult, inits[at]);
  }
}

// vmap(while(c, b)) with batched c and an elementwise scalar body
//   => while(any(m)) where, in one loop over lanes per iteration,
//      a = e & c(x); x = select(a, b(x), x); m = e & c(x)
//
// The predicate, every carry's update and the mask the any() reduces are
// one pass over the lanes on scalars, which LLVM vectorises; loom-bufferize
// folds the any() of the mask into an i32 accumulator of that pass, so no
// mask is stored. The before region does the work and the after region
// only passes the carries on: a trip with no active lane changes nothing,
// so the first trip needs no test. The predicate is evaluated on the old
// and on the new carries, as JAX does, rather than kept in memory.
LogicalResult mlir::loom::batchMaskedFused(scf::WhileOp loop,
                                           BatchingContext &context,
                                           OpBuilder &builder) {
  Location loc = loop.getLoc();
  scf::ConditionOp cond = loop.getConditionOp();
  unsigned numCarries = loop.getInits().size();
  SmallVector<Value> inits = getOwnBatchedInits(loop, context, builder);
  Value entryMask = context.getMask();
  Value maskInit = allocLanes(context, builder, loc, builder.getI1Type());

  // Values from above: per-lane ones are read at the lane, shared ones
  // used as they are.
  llvm::SetVector<Value> captured;
  getUsedValuesDefinedAbove(loop->getRegions(), captured);
  SmallVector<std::pair<Value, Value>> capturedValues;
  for (Value value : captured)
    capturedValues.push_back(
        {value, context.isBatched(value)
                    ? context.lookupBatched(builder, loc, value)
                    : context.lookup(value)});

  Block &before = *loop.getBeforeBody();
  Block &after = *loop.getAfterBody();
  auto newLoop = builder.create<scf::WhileOp>(
      loc, TypeRange(inits), inits,
      [&](OpBuilder &b, Location l, ValueRange args) {
        SmallVector<Value> laneInits(args);
        laneInits.push_back(maskInit);
        ValueRange lanes = buildLaneLoop(
            context, b, l, laneInits,
            [&](OpBuilder &lb, Location ll, Value lane,
                ValueRange acc) -> SmallVector<Value> {
              IRMapping shared;
              for (auto [original, value] : capturedValues)
                shared.map(original,
                           context.isBatched(original)
                               ? lb.create<tensor::ExtractOp>(ll, value, lane)
                               : value);
              Value entry =
                  entryMask ? lb.create<tensor::ExtractOp>(ll, entryMask, lane)
                            : Value();
              // The lane's predicate on `carries`, under the entry mask.
              auto predicate = [&](ValueRange carries) -> Value {
                IRMapping map = shared;
                map.map(before.getArguments(), carries);
                Value p = cloneLaneBlock(lb, ll, before, map, entry).front();
                return entry ? lb.create<arith::AndIOp>(ll, entry, p) : p;
              };
              SmallVector<Value> old;
              for (Value carry : acc.take_front(numCarries))
                old.push_back(lb.create<tensor::ExtractOp>(ll, carry, lane));
              Value active = predicate(old);
              IRMapping map = shared;
              for (auto [arg, forwarded] :
                   llvm::zip(after.getArguments(), cond.getArgs()))
                map.map(arg, old[*getForwardedCarry(loop, forwarded)]);
              SmallVector<Value> next =
                  cloneLaneBlock(lb, ll, after, map, active);
              for (unsigned i = 0; i < numCarries; ++i)
                next[i] =
                    lb.create<arith::SelectOp>(ll, active, next[i], old[i]);
              Value again = predicate(next);
              SmallVector<Value> updated;
              for (auto [value, carry] : llvm::zip(next, acc))
                updated.push_back(
                    lb.create<tensor::InsertOp>(ll, value, carry, lane));
              updated.push_back(
                  lb.create<tensor::InsertOp>(ll, again, acc.back(), lane));
              return updated;
            });
        Value any = b.create<AnyOp>(cond.getLoc(), b.getI1Type(), lanes.back(),
                                    b.getI64IntegerAttr(0));
        b.create<scf::ConditionOp>(cond.getLoc(), any,
                                   lanes.take_front(numCarries));
      },
      [&](OpBuilder &b, Location l, ValueRange args) {
        b.create<scf::YieldOp>(loop.getYieldOp().getLoc(), args);
      });
  setDecided(newLoop, loop, LoopStrategy::Masked);
  mapForwardedResults(loop, newLoop, inits, context);
  return success();
}

namespace {

/// Where the ops of a nest's after block run. The ops that are not lane
/// ops (the barriers: nested loops, branches, calls) are batched in order;
/// the lane ops of batched values run in loops over lanes: stage 0 with the
/// predicate in the before region, stage i right after barrier i, the last
/// stage with the carry selects. Each lane op runs at the latest stage that
/// its first user allows, so that code feeding only the new carries joins
/// the selects, and the values a later stage or a barrier reads are stored.
struct NestPlan {
  SmallVector<Operation *> barriers;
  /// Lane ops whose results are the same on every lane: batched as they
  /// are, and cloned into a lane loop that reads them.
  DenseSet<Operation *> uniform;
  SmallVector<SmallVector<Operation *>> stages;
  DenseSet<Value> stored;

  NestPlan(scf::WhileOp loop, BatchingContext &context) {
    Block &after = *loop.getAfterBody();
    DenseMap<Operation *, unsigned> barrierIndex;
    for (Operation &op : after.without_terminator()) {
      if (!isLaneOp(op, context)) {
        barriers.push_back(&op);
        barrierIndex[&op] = barriers.size();
      } else if (llvm::none_of(op.getResults(), [&](Value result) {
                   return context.isBatched(result);
                 })) {
        uniform.insert(&op);
      }
    }
    unsigned last = barriers.size();
    stages.resize(last + 1);
    DenseMap<Operation *, unsigned> stageOf;
    // Users come later in the block: from the end, each user is placed
    // before the ops that feed it.
    for (Operation &op : llvm::reverse(after.without_terminator())) {
      if (!isLaneOp(op, context) || uniform.contains(&op))
        continue;
      auto need = [&](Operation *user) -> unsigned {
        Operation *owner = after.findAncestorOpInBlock(*user);
        if (owner == after.getTerminator())
          return last;
        auto barrier = barrierIndex.find(owner);
        if (barrier != barrierIndex.end())
          return barrier->second - 1;
        return stageOf.lookup(owner);
      };
      unsigned at = last;
      for (Operation *user : op.getUsers())
        at = std::min(at, need(user));
      stageOf[&op] = at;
      stages[at].push_back(&op);
      for (Value result : op.getResults())
        if (llvm::any_of(result.getUsers(), [&](Operation *user) {
              return barrierIndex.contains(
                         after.findAncestorOpInBlock(*user)) ||
                     need(user) != at;
            }))
          stored.insert(result);
    }
    for (SmallVector<Operation *> &stage : stages)
      std::reverse(stage.begin(), stage.end());
  }

  /// The results of `stage` that are stored, in order.
  SmallVector<Value> getStored(unsigned stage) const {
    SmallVector<Value> values;
    for (Operation *op : stages[stage])
      for (Value result : op->getResults())
        if (stored.contains(result))
          values.push_back(result);
    return values;
  }
};

/// Builds the ops of one lane in a loop over lanes.
struct LaneCloner {
  BatchingContext &context;
  const NestPlan &plan;
  OpBuilder &b;
  Location loc;
  Value lane;
  /// Whether the lane is active: trapping operands are made safe where not.
  Value guard;
  IRMapping map;

  /// `original` on this lane: cloned already, cloned now (a uniform op), or
  /// read at the lane from its batched value.
  Value get(Value original) {
    if (Value value = map.lookupOrNull(original))
      return value;
    Operation *def = original.getDefiningOp();
    if (def && plan.uniform.contains(def)) {
      clone(*def);
      return map.lookup(original);
    }
    Value value = getLaneValue(context, b, loc, original, lane);
    map.map(original, value);
    return value;
  }
  void clone(Operation &op) {
    for (Value operand : op.getOperands())
      get(operand);
    // A lane branch's ops read values from above it, too.
    if (op.getNumRegions() != 0) {
      llvm::SetVector<Value> captured;
      getUsedValuesDefinedAbove(op.getRegions(), captured);
      for (Value value : captured)
        get(value);
    }
    cloneLaneOp(b, loc, op, map, guard);
  }
  void cloneAll(ArrayRef<Operation *> ops) {
    for (Operation *op : ops)
      clone(*op);
  }
  /// Maps the block arguments of the after region to the lane's carries.
  void mapAfterArgs(scf::WhileOp loop, ArrayRef<Value> carries) {
    for (auto [arg, forwarded] :
         llvm::zip(loop.getAfterArguments(), loop.getConditionOp().getArgs()))
      map.map(arg, carries[*getForwardedCarry(loop, forwarded)]);
  }
  /// Writes `originals` on this lane into `dests`.
  SmallVector<Value> insertAll(ArrayRef<Value> originals, ValueRange dests) {
    SmallVector<Value> updated;
    for (auto [original, dest] : llvm::zip(originals, dests))
      updated.push_back(
          b.create<tensor::InsertOp>(loc, get(original), dest, lane));
    return updated;
  }
  SmallVector<Value> extractAll(ValueRange batched) {
    SmallVector<Value> values;
    for (Value value : batched)
      values.push_back(b.create<tensor::ExtractOp>(loc, value, lane));
    return values;
  }
};

} // namespace

// vmap(while(c, b)) with batched c, scalar carries, and a body of elementwise
// code around nested ops n_1..n_k
//   => while(any(m)) where
//        before: for b: a[b] = e[b] & c(x[b]); s0[b] = stage 0 of the body
//        after:  n_1'; for b: stage 1; ...; n_k';
//                for b: x[b] = select(a[b], stage k and the yield, x[b])
//
// Like batchMasked, but for the nested ops, the straight-line code runs as
// loops over lanes: one pass with the predicate, where the any() folds into
// an accumulator (AnyOfLaneLoop.cpp), one after each nested op that feeds a
// later one, and one for every carry's select. The values stage 0 computes
// for the after region are carries of the loop, like the mask, so that each
// keeps one buffer. Stage 0 also runs on the last trip, when no lane is
// active: its ops are pure, and trap-safe on inactive lanes.
LogicalResult mlir::loom::batchMaskedNest(scf::WhileOp loop,
                                          BatchingContext &context,
                                          OpBuilder &builder) {
  Location loc = loop.getLoc();
  scf::ConditionOp cond = loop.getConditionOp();
  scf::YieldOp yield = loop.getYieldOp();
  unsigned numCarries = loop.getInits().size();
  NestPlan plan(loop, context);
  unsigned last = plan.barriers.size();

  SmallVector<Value> inits = getOwnBatchedInits(loop, context, builder);
  Value entryMask = context.getMask();
  inits.push_back(allocLanes(context, builder, loc, builder.getI1Type()));
  SmallVector<Value> firstStored = plan.getStored(0);
  for (Value value : firstStored)
    inits.push_back(allocLanes(context, builder, loc, value.getType()));

  Block &before = *loop.getBeforeBody();
  Block &after = *loop.getAfterBody();
  bool failedBody = false;
  auto newLoop = builder.create<scf::WhileOp>(
      loc, TypeRange(inits), inits,
      [&](OpBuilder &b, Location l, ValueRange args) {
        ValueRange written = buildLaneLoop(
            context, b, l, args.drop_front(numCarries),
            [&](OpBuilder &lb, Location ll, Value lane,
                ValueRange acc) -> SmallVector<Value> {
              LaneCloner cloner{context, plan, lb, ll, lane, {}, {}};
              Value entry =
                  entryMask ? lb.create<tensor::ExtractOp>(ll, entryMask, lane)
                            : Value();
              SmallVector<Value> old =
                  cloner.extractAll(args.take_front(numCarries));
              cloner.map.map(before.getArguments(), old);
              cloner.guard = entry;
              for (Operation &op : before.without_terminator())
                cloner.clone(op);
              Value active = cloner.get(cond.getCondition());
              if (entry)
                active = lb.create<arith::AndIOp>(ll, entry, active);
              cloner.guard = active;
              cloner.mapAfterArgs(loop, old);
              cloner.cloneAll(plan.stages[0]);
              SmallVector<Value> updated{
                  lb.create<tensor::InsertOp>(ll, active, acc.front(), lane)};
              llvm::append_range(
                  updated, cloner.insertAll(firstStored, acc.drop_front()));
              return updated;
            });
        Value any = b.create<AnyOp>(cond.getLoc(), b.getI1Type(),
                                    written.front(), b.getI64IntegerAttr(0));
        SmallVector<Value> forwarded(args.take_front(numCarries));
        llvm::append_range(forwarded, written);
        b.create<scf::ConditionOp>(cond.getLoc(), any, forwarded);
      },
      [&](OpBuilder &b, Location l, ValueRange args) {
        ValueRange carries = args.take_front(numCarries);
        Value active = args[numCarries];
        Value previous = context.narrowMask(active);
        // The body runs only while some lane is active.
        context.recordMaskNonEmpty();
        for (auto [arg, forwarded] :
             llvm::zip(loop.getAfterArguments(), cond.getArgs()))
          context.map(arg, carries[*getForwardedCarry(loop, forwarded)]);
        for (auto [value, arg] :
             llvm::zip(firstStored, args.drop_front(numCarries + 1)))
          context.map(value, arg);
        // Barriers in order, each followed by the stage it feeds.
        unsigned stage = 0;
        for (Operation &op : after.without_terminator()) {
          if (isLaneOp(op, context) && !plan.uniform.contains(&op))
            continue;
          if (failed(context.batchOp(op, b))) {
            failedBody = true;
            context.restoreMask(previous);
            return;
          }
          if (plan.uniform.contains(&op) || ++stage == last)
            continue;
          SmallVector<Value> stored = plan.getStored(stage);
          if (stored.empty())
            continue;
          SmallVector<Value> outs;
          for (Value value : stored)
            outs.push_back(allocLanes(context, b, l, value.getType()));
          ValueRange results = buildLaneLoop(
              context, b, l, outs,
              [&](OpBuilder &lb, Location ll, Value lane,
                  ValueRange acc) -> SmallVector<Value> {
                LaneCloner cloner{context, plan, lb, ll, lane, {}, {}};
                cloner.guard = lb.create<tensor::ExtractOp>(ll, active, lane);
                cloner.mapAfterArgs(loop, cloner.extractAll(carries));
                cloner.cloneAll(plan.stages[stage]);
                return cloner.insertAll(stored, acc);
              });
          for (auto [value, result] : llvm::zip(stored, results))
            context.map(value, result);
        }
        // The last stage, and each carry selected into its old value.
        ValueRange next = buildLaneLoop(
            context, b, l, carries,
            [&](OpBuilder &lb, Location ll, Value lane,
                ValueRange acc) -> SmallVector<Value> {
              LaneCloner cloner{context, plan, lb, ll, lane, {}, {}};
              cloner.guard = lb.create<tensor::ExtractOp>(ll, active, lane);
              SmallVector<Value> old = cloner.extractAll(acc);
              cloner.mapAfterArgs(loop, old);
              cloner.cloneAll(plan.stages[last]);
              SmallVector<Value> updated;
              for (auto [value, oldValue, dest] :
                   llvm::zip(yield.getResults(), old, acc)) {
                Value selected = lb.create<arith::SelectOp>(
                    ll, cloner.guard, cloner.get(value), oldValue);
                updated.push_back(
                    lb.create<tensor::InsertOp>(ll, selected, dest, lane));
              }
              return updated;
            });
        SmallVector<Value> yielded(next);
        llvm::append_range(yielded, args.drop_front(numCarries));
        b.create<scf::YieldOp>(yield.getLoc(), yielded);
        context.restoreMask(previous);
      });
  // The mark loom-localize-loops trusts, as batchMasked's.
  setDecided(newLoop, loop, LoopStrategy::Masked);
  if (failedBody)
    return failure();
  mapForwardedResults(loop, newLoop, inits, context);
  return success();
}
