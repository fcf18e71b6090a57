//===- SCFWhileRefill.cpp - Gangs whose slots take the next lane ----------===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//
//
// Gangs with refill (divergent=gang refill=1), on the outermost divergent
// loop: W slots each hold one lane; when a slot's lane leaves the loop, its
// results go to that lane's place in the outputs and the slot takes the
// shard's next pending lane. A gang then runs until the shard's last lane
// is done with every slot busy but at the end, so its lane utilisation
// approaches per-lane's while it keeps the SIMD width.
//
// The loop's before and after blocks are outlined as two scalar functions
// and batched at W lanes (masked, in a gang), and the loop is built by hand
// around them:
//
//   slots: carries[W], captured per-lane values[W], lane[W], live[W]
//   while (any(live)):
//     (c, forwarded) = before(carries)            under live
//     for s: if live & !c: out[lane[s]] = forwarded[s]   (retire)
//            if not live & c: take the next lane the enclosing mask keeps
//                             (its inits and captured values; refilled)
//     active = live & c (a refilled slot waits for the next trip)
//     carries = select(active, after(forwarded), carries)   under active
//
//===----------------------------------------------------------------------===//

#include "BatchingModels.h"

#include "loom/Dialect/Loom/IR/LoomDialect.h"
#include "loom/Dialect/Loom/IR/LoomOps.h"
#include "loom/Dialect/Loom/Utils/BatchingUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::loom;

namespace {

/// One outlined block, batched at the gang's width.
struct GangBlock {
  func::FuncOp func;
  SmallVector<bool> resultBatched;
};

/// Outlines `block` of `loop` (its arguments, then the loop's captures) as
/// a scalar function returning its terminator's operands, and batches it.
FailureOr<GangBlock> outlineBlock(scf::WhileOp loop, Block &block,
                                  StringRef name, BatchingContext &context,
                                  SmallVectorImpl<Value> &captures) {
  Operation *terminator = block.getTerminator();
  SmallVector<Value> operands;
  IRMapping mapping;
  func::FuncOp scalar = outlineScalarRegion(loop, block.getArguments(),
                                            terminator->getOperandTypes(), name,
                                            operands, mapping);
  OpBuilder b = OpBuilder::atBlockEnd(&scalar.getBody().front());
  for (Operation &op : block.without_terminator())
    b.clone(op, mapping);
  SmallVector<Value> results;
  for (Value value : terminator->getOperands())
    results.push_back(mapping.lookupOrDefault(value));
  b.create<func::ReturnOp>(loop.getLoc(), results);

  // The block's arguments are per-lane in every slot; captured values as
  // the context has them.
  unsigned numArgs = block.getNumArguments();
  SmallVector<bool> signature(numArgs, true);
  captures.assign(operands.begin() + numArgs, operands.end());
  for (Value capture : captures)
    signature.push_back(context.isBatched(capture));
  GangBlock batched;
  FailureOr<func::FuncOp> func = context.batchGangBody(
      scalar, signature, loop, /*isGangLoop=*/false, batched.resultBatched);
  if (failed(func))
    return failure();
  batched.func = *func;
  return batched;
}

/// `value` on every one of `width` lanes when it is not batched already.
Value toSlots(OpBuilder &b, Location loc, Value value, bool isBatched,
              int64_t width) {
  if (isBatched)
    return value;
  if (!isa<RankedTensorType>(value.getType()))
    return b.create<tensor::SplatOp>(
        loc, RankedTensorType::get({width}, value.getType()), value);
  auto type = cast<RankedTensorType>(value.getType());
  SmallVector<OpFoldResult> sizes{b.getIndexAttr(width)};
  for (int64_t d = 0; d < type.getRank(); ++d)
    sizes.push_back(
        type.isDynamicDim(d)
            ? OpFoldResult(b.createOrFold<tensor::DimOp>(loc, value, d))
            : OpFoldResult(b.getIndexAttr(type.getDimSize(d))));
  Value empty = b.create<tensor::EmptyOp>(loc, sizes, type.getElementType());
  return b.create<linalg::BroadcastOp>(loc, value, empty, ArrayRef<int64_t>{0})
      ->getResult(0);
}

/// The slots' state, as the refill loop carries it.
struct Slots {
  SmallVector<Value> carries;  // W lanes each
  SmallVector<Value> captured; // the per-lane captures, W lanes each
  Value lanes;                 // tensor<Wxindex>: the lane each slot holds
  Value live;                  // tensor<Wxi1>: the slot holds a lane
  Value next;                  // the first lane not taken yet
  SmallVector<Value> outs;     // the results, B lanes each

  SmallVector<Value> flatten() const {
    SmallVector<Value> all(carries);
    llvm::append_range(all, captured);
    all.push_back(lanes);
    all.push_back(live);
    all.push_back(next);
    llvm::append_range(all, outs);
    return all;
  }
  static Slots unflatten(ValueRange all, unsigned numCarries,
                         unsigned numCaptured) {
    Slots s;
    s.carries.assign(all.begin(), all.begin() + numCarries);
    all = all.drop_front(numCarries);
    s.captured.assign(all.begin(), all.begin() + numCaptured);
    all = all.drop_front(numCaptured);
    s.lanes = all[0];
    s.live = all[1];
    s.next = all[2];
    s.outs.assign(all.begin() + 3, all.end());
    return s;
  }
};

/// The first lane at or after `from` that the enclosing mask keeps, or the
/// batch size when none is left.
Value findPending(BatchingContext &context, OpBuilder &b, Location loc,
                  Value from) {
  Value mask = context.getMask();
  if (!mask)
    return from;
  Value n = context.getBatchSize();
  Value one = b.create<arith::ConstantIndexOp>(loc, 1);
  Value last = b.create<arith::SubIOp>(loc, n, one);
  auto scan = b.create<scf::WhileOp>(
      loc, TypeRange{b.getIndexType()}, ValueRange{from},
      [&](OpBuilder &wb, Location wl, ValueRange args) {
        Value in =
            wb.create<arith::CmpIOp>(wl, arith::CmpIPredicate::ult, args[0], n);
        Value at = wb.create<arith::MinUIOp>(wl, args[0], last);
        Value kept = wb.create<tensor::ExtractOp>(wl, mask, at);
        Value skip = wb.create<arith::AndIOp>(
            wl, in,
            wb.create<arith::XOrIOp>(
                wl, kept,
                wb.create<arith::ConstantOp>(wl, wb.getBoolAttr(true))));
        wb.create<scf::ConditionOp>(wl, skip, args);
      },
      [&](OpBuilder &wb, Location wl, ValueRange args) {
        wb.create<scf::YieldOp>(
            wl, ValueRange{wb.create<arith::AddIOp>(wl, args[0], one)});
      });
  return scan.getResult(0);
}

/// When `cond` holds, `body` on each of the `width` slots in turn, threading
/// `state`; otherwise `state` as it is.
ValueRange forSlotsIf(
    OpBuilder &b, Location loc, Value cond, int64_t width, ValueRange state,
    function_ref<SmallVector<Value>(OpBuilder &, Location, Value, ValueRange)>
        body) {
  auto guarded = b.create<scf::IfOp>(
      loc, cond,
      [&](OpBuilder &ib, Location il) {
        Value zero = ib.create<arith::ConstantIndexOp>(il, 0);
        Value one = ib.create<arith::ConstantIndexOp>(il, 1);
        Value w = ib.create<arith::ConstantIndexOp>(il, width);
        auto slots = ib.create<scf::ForOp>(
            il, zero, w, one, state,
            [&](OpBuilder &fb, Location fl, Value slot, ValueRange acc) {
              fb.create<scf::YieldOp>(fl, body(fb, fl, slot, acc));
            });
        ib.create<scf::YieldOp>(il, slots.getResults());
      },
      [&](OpBuilder &ib, Location il) { ib.create<scf::YieldOp>(il, state); });
  return guarded.getResults();
}

} // namespace

// vmap(while(c, b)) with batched c, in gangs whose slots refill: see above.
LogicalResult mlir::loom::batchWhileRefill(scf::WhileOp loop,
                                           BatchingContext &context,
                                           OpBuilder &builder) {
  Location loc = loop.getLoc();
  SmallVector<Value> destinations;
  SmallVector<bool> fromInit;
  if (failed(getLoopResultDestinations(loop, context, builder,
                                       "in gangs with refill", destinations,
                                       fromInit)))
    return failure();
  SmallVector<Value> captures;
  FailureOr<GangBlock> before = outlineBlock(loop, *loop.getBeforeBody(),
                                             "_gang_before", context, captures);
  if (failed(before))
    return failure();
  FailureOr<GangBlock> after = outlineBlock(loop, *loop.getAfterBody(),
                                            "_gang_after", context, captures);
  if (failed(after))
    return failure();

  int64_t width = context.getGangWidth();
  unsigned numCarries = loop.getInits().size();
  // What a slot takes from its lane: the carries' inits, then the per-lane
  // captures.
  SmallVector<Value> perLane;
  for (Value init : loop.getInits())
    perLane.push_back(context.lookupBatched(builder, loc, init));
  SmallVector<unsigned> capturedAt; // position in `captures`, per-lane ones
  for (auto [i, capture] : llvm::enumerate(captures))
    if (context.isBatched(capture)) {
      capturedAt.push_back(i);
      perLane.push_back(context.lookup(capture));
    }
  unsigned numCaptured = capturedAt.size();

  Value n = context.getBatchSize();
  Value zero = builder.create<arith::ConstantIndexOp>(loc, 0);
  Value one = builder.create<arith::ConstantIndexOp>(loc, 1);
  Value w = builder.create<arith::ConstantIndexOp>(loc, width);
  Value trueBit =
      builder.create<arith::ConstantOp>(loc, builder.getBoolAttr(true));
  auto notOf = [&](OpBuilder &b, Location l, Value bit) -> Value {
    return b.create<arith::XOrIOp>(l, bit, trueBit);
  };
  // The arguments of an outlined block: its own (W lanes), then captures.
  auto blockArgs = [&](ValueRange own, ArrayRef<Value> capturedSlots,
                       Value mask) {
    SmallVector<Value> args(own);
    unsigned next = 0;
    for (auto [i, capture] : llvm::enumerate(captures))
      args.push_back(next < numCaptured && capturedAt[next] == i
                         ? capturedSlots[next++]
                         : context.lookup(capture));
    args.push_back(mask);
    return args;
  };

  // With no lane the slots would have nothing real to hold.
  Value any =
      builder.create<arith::CmpIOp>(loc, arith::CmpIPredicate::ugt, n, zero);
  auto guarded = builder.create<scf::IfOp>(
      loc, any,
      [&](OpBuilder &b, Location l) {
        // The first gang: lanes 0 .. W-1 (padding slots hold the last lane,
        // not live); lanes the enclosing mask clears are never taken.
        SmallVector<Value> gathered;
        Value live = gatherGang(context, b, l, zero, perLane, width, gathered);
        // Lane positions clamped to the last lane (as the gather's), and
        // the next lane min(W, n): positions among this shard's lanes.
        Value last = b.create<arith::SubIOp>(l, n, one);
        Value lanes0 = b.create<tensor::EmptyOp>(l, ArrayRef<int64_t>{width},
                                                 b.getIndexType());
        lanes0 = b.create<scf::ForOp>(
                      l, zero, w, one, ValueRange{lanes0},
                      [&](OpBuilder &fb, Location fl, Value s, ValueRange acc) {
                        Value lane = fb.create<arith::MinUIOp>(fl, s, last);
                        fb.create<scf::YieldOp>(
                            fl, ValueRange{fb.create<tensor::InsertOp>(
                                    fl, lane, acc[0], s)});
                      })
                     .getResult(0);
        Slots init;
        init.carries.assign(gathered.begin(), gathered.begin() + numCarries);
        init.captured.assign(gathered.begin() + numCarries, gathered.end());
        init.lanes = lanes0;
        init.live = live;
        init.next = b.create<arith::MinUIOp>(l, w, n);
        init.outs.assign(destinations.begin(), destinations.end());
        SmallVector<Value> inits = init.flatten();

        auto refill = b.create<scf::WhileOp>(
            l, TypeRange(ValueRange(inits)), inits,
            [&](OpBuilder &wb, Location wl, ValueRange args) {
              Slots s = Slots::unflatten(args, numCarries, numCaptured);
              Value busy = wb.create<AnyOp>(wl, wb.getI1Type(), s.live,
                                            wb.getI64IntegerAttr(0));
              wb.create<scf::ConditionOp>(wl, busy, args);
            },
            [&](OpBuilder &wb, Location wl, ValueRange args) {
              Slots s = Slots::unflatten(args, numCarries, numCaptured);
              auto pred = wb.create<func::CallOp>(
                  wl, before->func, blockArgs(s.carries, s.captured, s.live));
              SmallVector<Value> forwarded;
              for (auto [j, result] : llvm::enumerate(pred.getResults()))
                forwarded.push_back(
                    toSlots(wb, wl, result, before->resultBatched[j], width));
              Value c = forwarded.front();
              forwarded.erase(forwarded.begin());

              // Only a trip on which some lane leaves runs the scalar loops
              // over slots; on the others the slots' state stays as it is.
              Value leaving = wb.create<arith::AndIOp>(
                  wl, s.live,
                  wb.create<arith::XOrIOp>(
                      wl, c,
                      wb.create<arith::ConstantOp>(
                          wl, DenseElementsAttr::get(
                                  cast<ShapedType>(c.getType()), true))));
              Value active = wb.create<arith::AndIOp>(wl, s.live, c);
              Value anyLeaves = wb.create<AnyOp>(wl, wb.getI1Type(), leaving,
                                                 wb.getI64IntegerAttr(0));
              // Retire: a leaving lane's forwarded values go to its place,
              // read before the step may reuse their buffers.
              ValueRange retired = forSlotsIf(
                  wb, wl, anyLeaves, width, s.outs,
                  [&](OpBuilder &fb, Location fl, Value slot,
                      ValueRange outs) -> SmallVector<Value> {
                    Value done =
                        fb.create<tensor::ExtractOp>(fl, leaving, slot);
                    Value lane =
                        fb.create<tensor::ExtractOp>(fl, s.lanes, slot);
                    auto write = fb.create<scf::IfOp>(
                        fl, done,
                        [&](OpBuilder &tb, Location tl) {
                          SmallVector<Value> written;
                          for (auto [out, value] : llvm::zip(outs, forwarded))
                            written.push_back(insertLane(
                                tb, tl, extractLane(tb, tl, value, slot), out,
                                lane));
                          tb.create<scf::YieldOp>(tl, written);
                        },
                        [&](OpBuilder &tb, Location tl) {
                          tb.create<scf::YieldOp>(tl, outs);
                        });
                    return SmallVector<Value>(write.getResults());
                  });

              // The running lanes' step; the other slots keep their carries
              // (refilled below), so each carry is updated in place.
              Slots t = s;
              t.outs.assign(retired.begin(), retired.end());
              // Copied back into `live`'s buffer, which then never changes
              // hands (it would be a fresh one per trip).
              t.live =
                  wb.create<linalg::CopyOp>(wl, active, s.live).getResult(0);
              auto step = wb.create<func::CallOp>(
                  wl, after->func, blockArgs(forwarded, s.captured, active));
              // Every carry's new value is computed before any is stored
              // back: the step reads the old carries, and a carry updated in
              // place would hide its old value from the others' updates.
              // The new values then live in buffers that never leave a trip
              // (hoisted, small: on the stack), not in a fresh one per trip.
              SmallVector<Value> stepped;
              for (auto [i, carry] : llvm::enumerate(t.carries))
                stepped.push_back(
                    selectLanes(wb, wl, active,
                                toSlots(wb, wl, step.getResult(i),
                                        after->resultBatched[i], width),
                                carry));
              for (auto [carry, value] : llvm::zip(t.carries, stepped))
                carry = numCarries == 1
                            ? value
                            : wb.create<linalg::CopyOp>(wl, value, carry)
                                  .getResult(0);

              // Refill: a slot whose lane left takes the next pending lane.
              SmallVector<Value> state(t.carries);
              llvm::append_range(state, t.captured);
              state.push_back(t.lanes);
              state.push_back(t.live);
              state.push_back(t.next);
              Value pendingLeft = wb.create<arith::AndIOp>(
                  wl, anyLeaves,
                  wb.create<arith::CmpIOp>(wl, arith::CmpIPredicate::ult,
                                           t.next, n));
              ValueRange r = forSlotsIf(
                  wb, wl, pendingLeft, width, state,
                  [&](OpBuilder &fb, Location fl, Value slot,
                      ValueRange acc) -> SmallVector<Value> {
                    SmallVector<Value> cur(acc);
                    Value &lanes = cur[numCarries + numCaptured];
                    Value &live = cur[numCarries + numCaptured + 1];
                    Value &next = cur.back();
                    Value held = fb.create<tensor::ExtractOp>(fl, live, slot);
                    Value pending = findPending(context, fb, fl, next);
                    Value take = fb.create<arith::AndIOp>(
                        fl, notOf(fb, fl, held),
                        fb.create<arith::CmpIOp>(fl, arith::CmpIPredicate::ult,
                                                 pending, n));
                    auto taken = fb.create<scf::IfOp>(
                        fl, take,
                        [&](OpBuilder &tb, Location tl) {
                          SmallVector<Value> filled;
                          for (auto [value, dest] : llvm::zip(
                                   perLane, ArrayRef<Value>(cur).take_front(
                                                numCarries + numCaptured)))
                            filled.push_back(insertLane(
                                tb, tl, extractLane(tb, tl, value, pending),
                                dest, slot));
                          filled.push_back(tb.create<tensor::InsertOp>(
                              tl, pending, lanes, slot));
                          filled.push_back(tb.create<tensor::InsertOp>(
                              tl, trueBit, live, slot));
                          filled.push_back(
                              tb.create<arith::AddIOp>(tl, pending, one));
                          tb.create<scf::YieldOp>(tl, filled);
                        },
                        [&](OpBuilder &tb, Location tl) {
                          tb.create<scf::YieldOp>(tl, cur);
                        });
                    return SmallVector<Value>(taken.getResults());
                  });
              t.carries.assign(r.begin(), r.begin() + numCarries);
              t.captured.assign(r.begin() + numCarries,
                                r.begin() + numCarries + numCaptured);
              t.lanes = r[numCarries + numCaptured];
              t.live = r[numCarries + numCaptured + 1];
              t.next = r[numCarries + numCaptured + 2];
              wb.create<scf::YieldOp>(wl, t.flatten());
            });
        // What loom-vmap decided, and what makes loom-count-loop-iterations
        // count the live slots as this loop's lanes.
        refill->setAttr(
            LoomDialect::kStrategyAttrName,
            LoopStrategyAttr::get(loop.getContext(), LoopStrategy::Gang));
        Slots done =
            Slots::unflatten(refill.getResults(), numCarries, numCaptured);
        b.create<scf::YieldOp>(l, done.outs);
      },
      [&](OpBuilder &b, Location l) {
        b.create<scf::YieldOp>(l, destinations);
      });
  for (auto [j, result] : llvm::enumerate(loop.getResults())) {
    context.map(result, guarded.getResult(j));
    if (fromInit[j])
      context.recordUnchangedOnInactive(guarded.getResult(j), destinations[j]);
  }
  return success();
}
