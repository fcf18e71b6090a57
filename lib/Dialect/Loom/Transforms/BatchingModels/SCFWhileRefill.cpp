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
//   for every slot s: take the next lane the enclosing mask keeps
//   busy = any(live)
//   while (busy):
//     (c, forwarded) = before(carries)            under live
//     leaving = live & !c
//     for s in leaving: out[lane[s]] = forwarded[s]           (retire)
//     active = live & c
//     carries = select(active, after(forwarded), carries)   under active
//     for s in leaving: take the next lane the enclosing mask keeps
//                       (its inits and captured values; refilled; it
//                       waits for the next trip)
//     busy = any(active) | some slot took a lane
//
// The flag, not any(live) at the top of a trip, decides the loop: `live`
// was just stored a byte at a time, and one wide load of it stalls on
// store forwarding every trip.
//
// With a run-time switch (`refillOn`, what loom.variant_begin decides when
// gangs with and without refill are timed against each other), the same
// loop also runs lock-step gangs: while the switch is off, a slot whose
// lane leaves stays empty, and only once every slot is empty do they all
// take the next lanes, the next gang of W, as batchWhileInGangs would. One
// copy of the nest then serves both variants, compiled once.
//
// "for s in leaving" visits only the slots whose lanes leave, by the set
// bits of the mask as an integer (ISPC's foreach_active): a lane costs its
// retirement and its replacement, not a pass over every slot on each trip
// where one leaves. Lanes are independent, so which slot runs a lane does
// not change what it computes.
//
//===----------------------------------------------------------------------===//

#include "BatchingModels.h"
#include "SCFWhileMasked.h"

#include "loom/Dialect/Loom/IR/LoomDialect.h"
#include "loom/Dialect/Loom/IR/LoomOps.h"
#include "loom/Dialect/Loom/Utils/BatchingUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/SetVector.h"

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

/// The lanes `mask` (a tensor of i1) does not set.
Value notLanes(OpBuilder &b, Location loc, Value mask) {
  return b.create<arith::XOrIOp>(
      loc, mask,
      b.create<arith::ConstantOp>(
          loc, DenseElementsAttr::get(cast<ShapedType>(mask.getType()), true)));
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
  Value busy;                  // i1: some slot is live (the loop goes on)

  /// What a slot holds, and the next lane.
  SmallVector<Value> state() const {
    SmallVector<Value> all(carries);
    llvm::append_range(all, captured);
    all.push_back(lanes);
    all.push_back(live);
    all.push_back(next);
    return all;
  }
  SmallVector<Value> flatten() const {
    SmallVector<Value> all = state();
    llvm::append_range(all, outs);
    all.push_back(busy);
    return all;
  }
  /// The inverse of state(): outs and busy unset.
  static Slots fromState(ValueRange all, unsigned numCarries,
                         unsigned numCaptured) {
    Slots s;
    s.carries.assign(all.begin(), all.begin() + numCarries);
    all = all.drop_front(numCarries);
    s.captured.assign(all.begin(), all.begin() + numCaptured);
    all = all.drop_front(numCaptured);
    s.lanes = all[0];
    s.live = all[1];
    s.next = all[2];
    return s;
  }
  /// The inverse of flatten().
  static Slots unflatten(ValueRange all, unsigned numCarries,
                         unsigned numCaptured) {
    unsigned numState = numCarries + numCaptured + 3;
    Slots s = fromState(all.take_front(numState), numCarries, numCaptured);
    ValueRange outs = all.drop_front(numState).drop_back();
    s.outs.assign(outs.begin(), outs.end());
    s.busy = all.back();
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

/// The slots that `mask` (tensor<Wxi1>) sets, as an i64 of bits for each
/// 64 slots.
SmallVector<Value> getSlotBits(OpBuilder &b, Location loc, Value mask,
                               int64_t width) {
  SmallVector<Value> words;
  Type i64 = b.getI64Type();
  Value zero = b.create<arith::ConstantIndexOp>(loc, 0);
  Value one = b.create<arith::ConstantIndexOp>(loc, 1);
  for (int64_t base = 0; base < width; base += 64) {
    Value first = b.create<arith::ConstantIndexOp>(loc, base);
    Value count = b.create<arith::ConstantIndexOp>(
        loc, std::min<int64_t>(64, width - base));
    Value none = b.create<arith::ConstantIntOp>(loc, 0, 64);
    auto bits = b.create<scf::ForOp>(
        loc, zero, count, one, ValueRange{none},
        [&](OpBuilder &fb, Location fl, Value i, ValueRange acc) {
          Value slot = fb.create<arith::AddIOp>(fl, first, i);
          Value bit = fb.create<arith::ExtUIOp>(
              fl, i64, fb.create<tensor::ExtractOp>(fl, mask, slot));
          Value shift = fb.create<arith::IndexCastUIOp>(fl, i64, i);
          Value placed = fb.create<arith::ShLIOp>(fl, bit, shift);
          fb.create<scf::YieldOp>(
              fl, ValueRange{fb.create<arith::OrIOp>(fl, acc[0], placed)});
        });
    words.push_back(bits.getResult(0));
  }
  return words;
}

/// `body` on each slot that `words` (getSlotBits) sets, lowest first,
/// threading `state`; on none unless `enabled` (null: always). One trip per
/// set bit: its slot by cttz, then the bit cleared.
SmallVector<Value> forSetSlots(
    OpBuilder &b, Location loc, ArrayRef<Value> words, Value enabled,
    ValueRange state,
    function_ref<SmallVector<Value>(OpBuilder &, Location, Value, ValueRange)>
        body) {
  SmallVector<Value> current(state);
  Value zero = b.create<arith::ConstantIndexOp>(loc, 0);
  Value one = b.create<arith::ConstantIndexOp>(loc, 1);
  Value oneBit = b.create<arith::ConstantIntOp>(loc, 1, 64);
  for (auto [k, word] : llvm::enumerate(words)) {
    Value count = b.create<arith::IndexCastUIOp>(
        loc, b.getIndexType(), b.create<math::CtPopOp>(loc, word));
    if (enabled)
      count = b.create<arith::SelectOp>(loc, enabled, count, zero);
    Value first = b.create<arith::ConstantIndexOp>(loc, 64 * k);
    SmallVector<Value> inits{word};
    llvm::append_range(inits, current);
    auto slots = b.create<scf::ForOp>(
        loc, zero, count, one, inits,
        [&](OpBuilder &fb, Location fl, Value, ValueRange acc) {
          Value bits = acc.front();
          Value low = fb.create<arith::IndexCastUIOp>(
              fl, fb.getIndexType(),
              fb.create<math::CountTrailingZerosOp>(fl, bits));
          Value slot = fb.create<arith::AddIOp>(fl, first, low);
          SmallVector<Value> next{fb.create<arith::AndIOp>(
              fl, bits, fb.create<arith::SubIOp>(fl, bits, oneBit))};
          llvm::append_range(next, body(fb, fl, slot, acc.drop_front()));
          fb.create<scf::YieldOp>(fl, next);
        });
    current.assign(slots.getResults().begin() + 1, slots.getResults().end());
  }
  return current;
}

/// Every one of `width` slots, as getSlotBits has them.
SmallVector<Value> getEverySlotBits(OpBuilder &b, Location loc, int64_t width) {
  SmallVector<Value> words;
  for (int64_t base = 0; base < width; base += 64) {
    int64_t count = std::min<int64_t>(64, width - base);
    words.push_back(b.create<arith::ConstantIntOp>(
        loc, count == 64 ? -1 : (int64_t(1) << count) - 1, 64));
  }
  return words;
}

/// The slots that take a lane after a trip: those in `leavingBits` while
/// `refillOn` holds, otherwise every slot (the gang is then empty, or
/// takes none).
SmallVector<Value> getTakingSlotBits(OpBuilder &b, Location loc,
                                     ArrayRef<Value> leavingBits,
                                     Value refillOn, int64_t width) {
  SmallVector<Value> words = getEverySlotBits(b, loc, width);
  for (auto [word, leaving] : llvm::zip(words, leavingBits))
    word = b.create<arith::SelectOp>(loc, refillOn, leaving, word);
  return words;
}

/// Whether slots take lanes after a trip: some lane is pending, and the
/// slots refill one by one (`refillOn`, null: always) or the gang is empty
/// (`going` false).
Value takesLanes(OpBuilder &b, Location loc, Value pendingLeft, Value refillOn,
                 Value going) {
  if (!refillOn)
    return pendingLeft;
  Value trueBit = b.create<arith::ConstantOp>(loc, b.getBoolAttr(true));
  Value empty = b.create<arith::XOrIOp>(loc, going, trueBit);
  return b.create<arith::AndIOp>(loc, pendingLeft,
                                 b.create<arith::OrIOp>(loc, refillOn, empty));
}

} // namespace

// vmap(while(c, b)) with batched c, in gangs whose slots refill: see above.
LogicalResult mlir::loom::batchWhileRefill(scf::WhileOp loop,
                                           BatchingContext &context,
                                           OpBuilder &builder, Value refillOn) {
  Location loc = loop.getLoc();
  SmallVector<Value> destinations;
  SmallVector<bool> fromInit;
  if (failed(getLoopResultDestinations(loop, context, builder,
                                       "in gangs with refill", destinations,
                                       fromInit)))
    return failure();
  // A loop of lane ops on scalars runs each trip as one pass over the slots
  // (its before and after blocks cloned per slot, as batchMaskedFused does
  // per lane); any other has its blocks outlined and batched at W lanes.
  bool fused = isElementwiseLoop(loop, context);
  SmallVector<Value> captures;
  FailureOr<GangBlock> before = GangBlock(), after = GangBlock();
  if (fused) {
    llvm::SetVector<Value> captured;
    getUsedValuesDefinedAbove(loop->getRegions(), captured);
    captures.assign(captured.begin(), captured.end());
  } else {
    before = outlineBlock(loop, *loop.getBeforeBody(), "_gang_before", context,
                          captures);
    if (failed(before))
      return failure();
    after = outlineBlock(loop, *loop.getAfterBody(), "_gang_after", context,
                         captures);
    if (failed(after))
      return failure();
  }

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

  // A slot takes the next pending lane, if one is left: its inits and
  // captured values, its position, and the slot is live. `state` is
  // carries, captured, lanes, live, next.
  auto takeNext = [&](OpBuilder &fb, Location fl, Value slot,
                      ValueRange acc) -> SmallVector<Value> {
    SmallVector<Value> cur(acc);
    Value &lanes = cur[numCarries + numCaptured];
    Value &live = cur[numCarries + numCaptured + 1];
    Value &next = cur.back();
    Value pending = findPending(context, fb, fl, next);
    Value take =
        fb.create<arith::CmpIOp>(fl, arith::CmpIPredicate::ult, pending, n);
    auto taken = fb.create<scf::IfOp>(
        fl, take,
        [&](OpBuilder &tb, Location tl) {
          SmallVector<Value> filled;
          for (auto [value, dest] :
               llvm::zip(perLane, ArrayRef<Value>(cur).take_front(numCarries +
                                                                  numCaptured)))
            filled.push_back(insertLane(
                tb, tl, extractLane(tb, tl, value, pending), dest, slot));
          filled.push_back(
              tb.create<tensor::InsertOp>(tl, pending, lanes, slot));
          filled.push_back(
              tb.create<tensor::InsertOp>(tl, trueBit, live, slot));
          filled.push_back(tb.create<arith::AddIOp>(tl, pending, one));
          tb.create<scf::YieldOp>(tl, filled);
        },
        [&](OpBuilder &tb, Location tl) { tb.create<scf::YieldOp>(tl, cur); });
    return SmallVector<Value>(taken.getResults());
  };

  // One trip of a fused loop: one pass over the slots runs each live slot's
  // predicate and, where it holds, its step (trap-safe elsewhere); the
  // slots whose lanes leave keep their carries, which are the loop's
  // results. The pass also gathers the leaving slots as bits (an i64 for
  // each 64 slots) and whether any slot goes on, in registers: a mask
  // stored a byte per slot and read back whole stalls on store forwarding
  // every trip. Then, over the leaving slots only, each lane's results go
  // to its place and the slot takes the next pending lane.
  auto fusedTrip = [&](OpBuilder &wb, Location wl, const Slots &s) -> Slots {
    Block &beforeBlock = *loop.getBeforeBody();
    Block &afterBlock = *loop.getAfterBody();
    scf::ConditionOp cond = loop.getConditionOp();
    Type i64 = wb.getI64Type();
    Slots t = s;
    SmallVector<Value> leavingBits;
    Value going = wb.create<arith::ConstantOp>(wl, wb.getBoolAttr(false));
    for (int64_t base = 0; base < width; base += 64) {
      Value first = wb.create<arith::ConstantIndexOp>(wl, base);
      Value end = wb.create<arith::ConstantIndexOp>(
          wl, std::min<int64_t>(width, base + 64));
      SmallVector<Value> inits(t.carries);
      inits.push_back(t.live);
      inits.push_back(wb.create<arith::ConstantIntOp>(wl, 0, 64));
      inits.push_back(going);
      auto pass = wb.create<scf::ForOp>(
          wl, first, end, one, inits,
          [&](OpBuilder &fb, Location fl, Value slot, ValueRange acc) {
            auto at = [&](Value slots) -> Value {
              return fb.create<tensor::ExtractOp>(fl, slots, slot);
            };
            Value live = at(acc[numCarries]);
            IRMapping map;
            unsigned next = 0;
            for (auto [i, capture] : llvm::enumerate(captures))
              map.map(capture, next < numCaptured && capturedAt[next] == i
                                   ? at(s.captured[next++])
                                   : context.lookup(capture));
            SmallVector<Value> old;
            for (Value carry : acc.take_front(numCarries))
              old.push_back(at(carry));
            map.map(beforeBlock.getArguments(), old);
            Value p = cloneLaneBlock(fb, fl, beforeBlock, map, live).front();
            Value active = fb.create<arith::AndIOp>(fl, live, p);
            for (auto [arg, forwarded] :
                 llvm::zip(afterBlock.getArguments(), cond.getArgs()))
              map.map(arg, old[*getForwardedCarry(loop, forwarded)]);
            SmallVector<Value> stepped =
                cloneLaneBlock(fb, fl, afterBlock, map, active);
            SmallVector<Value> updated;
            for (unsigned i = 0; i < numCarries; ++i)
              updated.push_back(fb.create<tensor::InsertOp>(
                  fl,
                  fb.create<arith::SelectOp>(fl, active, stepped[i], old[i]),
                  acc[i], slot));
            updated.push_back(
                fb.create<tensor::InsertOp>(fl, active, acc[numCarries], slot));
            Value leaving = fb.create<arith::AndIOp>(
                fl, live, fb.create<arith::XOrIOp>(fl, p, trueBit));
            Value shift = fb.create<arith::IndexCastUIOp>(
                fl, i64, fb.create<arith::SubIOp>(fl, slot, first));
            updated.push_back(fb.create<arith::OrIOp>(
                fl, acc[numCarries + 1],
                fb.create<arith::ShLIOp>(
                    fl, fb.create<arith::ExtUIOp>(fl, i64, leaving), shift)));
            updated.push_back(
                fb.create<arith::OrIOp>(fl, acc[numCarries + 2], active));
            fb.create<scf::YieldOp>(fl, updated);
          });
      t.carries.assign(pass.getResults().begin(),
                       pass.getResults().begin() + numCarries);
      t.live = pass.getResult(numCarries);
      leavingBits.push_back(pass.getResult(numCarries + 1));
      going = pass.getResult(numCarries + 2);
    }
    unsigned numState = numCarries + numCaptured + 3;
    SmallVector<Value> state = t.state();
    llvm::append_range(state, t.outs);
    SmallVector<Value> r = forSetSlots(
        wb, wl, leavingBits, Value(), state,
        [&](OpBuilder &fb, Location fl, Value slot,
            ValueRange acc) -> SmallVector<Value> {
          Value lane = fb.create<tensor::ExtractOp>(
              fl, acc[numCarries + numCaptured], slot);
          SmallVector<Value> outs;
          for (auto [out, forwarded] :
               llvm::zip(acc.drop_front(numState), cond.getArgs()))
            outs.push_back(insertLane(
                fb, fl,
                extractLane(fb, fl, acc[*getForwardedCarry(loop, forwarded)],
                            slot),
                out, lane));
          SmallVector<Value> taken;
          if (refillOn) {
            auto maybe = fb.create<scf::IfOp>(
                fl, refillOn,
                [&](OpBuilder &tb, Location tl) {
                  tb.create<scf::YieldOp>(
                      tl, takeNext(tb, tl, slot, acc.take_front(numState)));
                },
                [&](OpBuilder &tb, Location tl) {
                  tb.create<scf::YieldOp>(tl, acc.take_front(numState));
                });
            taken.assign(maybe.getResults().begin(), maybe.getResults().end());
          } else {
            taken = takeNext(fb, fl, slot, acc.take_front(numState));
          }
          llvm::append_range(taken, outs);
          return taken;
        });
    if (refillOn) {
      // Lock-step: once the gang is empty, every slot takes a lane.
      Slots v = Slots::fromState(ArrayRef<Value>(r).take_front(numState),
                                 numCarries, numCaptured);
      Value pendingLeft =
          wb.create<arith::CmpIOp>(wl, arith::CmpIPredicate::ult, v.next, n);
      Value off = wb.create<arith::XOrIOp>(wl, refillOn, trueBit);
      Value empty = wb.create<arith::XOrIOp>(wl, going, trueBit);
      Value takes = wb.create<arith::AndIOp>(
          wl, off, wb.create<arith::AndIOp>(wl, pendingLeft, empty));
      SmallVector<Value> taken = forSetSlots(
          wb, wl, getEverySlotBits(wb, wl, width), takes, v.state(), takeNext);
      std::copy(taken.begin(), taken.end(), r.begin());
    }
    Slots u = Slots::fromState(ArrayRef<Value>(r).take_front(numState),
                               numCarries, numCaptured);
    u.outs.assign(r.begin() + numState, r.end());
    // A slot took a lane exactly when the next lane moved on.
    u.busy = wb.create<arith::OrIOp>(
        wl, going,
        wb.create<arith::CmpIOp>(wl, arith::CmpIPredicate::ne, u.next, t.next));
    return u;
  };

  // With no lane the slots would have nothing real to hold.
  Value any =
      builder.create<arith::CmpIOp>(loc, arith::CmpIPredicate::ugt, n, zero);
  auto guarded = builder.create<scf::IfOp>(
      loc, any,
      [&](OpBuilder &b, Location l) {
        // The first gang: lanes 0 .. W-1 (padding slots hold the last lane,
        // not live); then each slot that holds no lane, a padding slot or
        // one the enclosing mask clears (lanes 0 .. W-1 may all be), takes
        // the next lane the mask keeps.
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
        Value next0 = b.create<arith::MinUIOp>(l, w, n);
        SmallVector<Value> first(gathered);
        first.push_back(lanes0);
        first.push_back(live);
        first.push_back(next0);
        Value pending0 =
            b.create<arith::CmpIOp>(l, arith::CmpIPredicate::ult, next0, n);
        Slots init = Slots::fromState(
            forSetSlots(b, l, getSlotBits(b, l, notLanes(b, l, live), width),
                        pending0, first, takeNext),
            numCarries, numCaptured);
        init.outs.assign(destinations.begin(), destinations.end());
        init.busy = b.create<AnyOp>(l, b.getI1Type(), init.live,
                                    b.getI64IntegerAttr(0));
        SmallVector<Value> inits = init.flatten();

        auto refill = b.create<scf::WhileOp>(
            l, TypeRange(ValueRange(inits)), inits,
            [&](OpBuilder &wb, Location wl, ValueRange args) {
              wb.create<scf::ConditionOp>(wl, args.back(), args);
            },
            [&](OpBuilder &wb, Location wl, ValueRange args) {
              Slots s = Slots::unflatten(args, numCarries, numCaptured);
              if (fused) {
                wb.create<scf::YieldOp>(wl, fusedTrip(wb, wl, s).flatten());
                return;
              }
              auto pred = wb.create<func::CallOp>(
                  wl, before->func, blockArgs(s.carries, s.captured, s.live));
              SmallVector<Value> forwarded;
              for (auto [j, result] : llvm::enumerate(pred.getResults()))
                forwarded.push_back(
                    toSlots(wb, wl, result, before->resultBatched[j], width));
              Value c = forwarded.front();
              forwarded.erase(forwarded.begin());

              Value leaving =
                  wb.create<arith::AndIOp>(wl, s.live, notLanes(wb, wl, c));
              Value active = wb.create<arith::AndIOp>(wl, s.live, c);
              SmallVector<Value> leavingBits =
                  getSlotBits(wb, wl, leaving, width);
              // Retire: a leaving lane's forwarded values go to its place,
              // read before the step may reuse their buffers.
              SmallVector<Value> retired = forSetSlots(
                  wb, wl, leavingBits, Value(), s.outs,
                  [&](OpBuilder &fb, Location fl, Value slot,
                      ValueRange outs) -> SmallVector<Value> {
                    Value lane =
                        fb.create<tensor::ExtractOp>(fl, s.lanes, slot);
                    SmallVector<Value> written;
                    for (auto [out, value] : llvm::zip(outs, forwarded))
                      written.push_back(insertLane(
                          fb, fl, extractLane(fb, fl, value, slot), out, lane));
                    return written;
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

              // Refill: a slot whose lane left takes the next pending lane
              // (lock-step: every slot, once none is active). As in the
              // fused trip, whether any is active is read from `active` as
              // it was computed, not from `live` after refill's byte stores.
              Value going = wb.create<AnyOp>(wl, wb.getI1Type(), active,
                                             wb.getI64IntegerAttr(0));
              Value pendingLeft = wb.create<arith::CmpIOp>(
                  wl, arith::CmpIPredicate::ult, t.next, n);
              // Named in order: as call arguments, the IR's op order
              // would be the host compiler's evaluation order.
              Value takes = takesLanes(wb, wl, pendingLeft, refillOn, going);
              SmallVector<Value> taking(leavingBits);
              if (refillOn)
                taking =
                    getTakingSlotBits(wb, wl, leavingBits, refillOn, width);
              Slots u = Slots::fromState(
                  forSetSlots(wb, wl, taking, takes, t.state(), takeNext),
                  numCarries, numCaptured);
              u.outs = t.outs;
              u.busy = wb.create<arith::OrIOp>(
                  wl, going,
                  wb.create<arith::CmpIOp>(wl, arith::CmpIPredicate::ne, u.next,
                                           t.next));
              wb.create<scf::YieldOp>(wl, u.flatten());
            });
        // What loom-vmap decided, and what makes loom-count-loop-iterations
        // count the live slots as this loop's lanes.
        refill->setAttr(
            LoomDialect::kStrategyAttrName,
            LoopStrategyAttr::get(loop.getContext(), LoopStrategy::Gang));
        refill->setAttr(LoomDialect::kLaneMaskAttrName,
                        b.getI64IntegerAttr(numCarries + numCaptured + 1));
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
