//===- SCFWhileGang.cpp - scf.while run in gangs of lanes -----------------===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//
//
// The gang strategy (ISPC's execution model, derived from vmap): the lanes
// of a shard run in gangs of W, and each gang runs the masked loop nest on
// its own W lanes under its own predicate, so it leaves as soon as its own
// lanes are done rather than when the slowest lane of the shard is. The
// loop is outlined into a scalar function, which loom-vmap batches at W
// lanes under a mask with every divergent loop in it masked; each gang
// gathers its lanes into W-lane tensors, calls that clone, and writes its
// lanes' results back. The clone is inlined before bufferization like every
// batched clone.
//
//===----------------------------------------------------------------------===//

#include "BatchingModels.h"

#include "loom/Dialect/Loom/IR/LoomOps.h"
#include "loom/Dialect/Loom/Utils/BatchingUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Transforms/RegionUtils.h"

using namespace mlir;
using namespace mlir::loom;

bool mlir::loom::fitsOneGang(BatchingContext &context) {
  int64_t batch = context.getStaticBatchSize();
  return !ShapedType::isDynamic(batch) && batch <= context.getGangWidth();
}

func::FuncOp mlir::loom::outlineScalarRegion(Operation *op, ValueRange leading,
                                             TypeRange results, StringRef name,
                                             SmallVectorImpl<Value> &operands,
                                             IRMapping &mapping) {
  llvm::SetVector<Value> captured;
  getUsedValuesDefinedAbove(op->getRegions(), captured);
  operands.assign(leading.begin(), leading.end());
  // Constants are cloned in rather than passed: the batched function then
  // sees them as the constants they are.
  SmallVector<Operation *> constants;
  for (Value value : captured) {
    Operation *def = value.getDefiningOp();
    if (def && def->hasTrait<OpTrait::ConstantLike>())
      constants.push_back(def);
    else
      operands.push_back(value);
  }
  MLIRContext *ctx = op->getContext();
  auto parent = op->getParentOfType<func::FuncOp>();
  std::string symbol = (parent ? parent.getSymName().str() : "") + name.str();
  auto func = func::FuncOp::create(
      op->getLoc(), symbol,
      FunctionType::get(ctx, TypeRange(ValueRange(operands)), results));
  func.setPrivate();
  Block *entry = func.addEntryBlock();
  OpBuilder builder = OpBuilder::atBlockBegin(entry);
  for (Operation *constant : constants)
    builder.clone(*constant, mapping);
  for (auto [value, arg] : llvm::zip(operands, entry->getArguments()))
    if (!mapping.contains(value))
      mapping.map(value, arg);
  return func;
}

Value mlir::loom::createGangTensor(OpBuilder &builder, Location loc,
                                   Value batched, int64_t width) {
  auto type = cast<RankedTensorType>(batched.getType());
  SmallVector<OpFoldResult> sizes{builder.getIndexAttr(width)};
  llvm::append_range(sizes, getLaneSizes(builder, loc, batched));
  return builder.create<tensor::EmptyOp>(loc, sizes, type.getElementType());
}

Value mlir::loom::gatherGang(BatchingContext &context, OpBuilder &builder,
                             Location loc, Value start, ArrayRef<Value> batched,
                             int64_t width, SmallVectorImpl<Value> &gathered) {
  Value n = context.getBatchSize();
  Value zero = builder.create<arith::ConstantIndexOp>(loc, 0);
  Value one = builder.create<arith::ConstantIndexOp>(loc, 1);
  Value w = builder.create<arith::ConstantIndexOp>(loc, width);
  Value last = builder.create<arith::SubIOp>(loc, n, one);
  Value entryMask = context.getMask();
  SmallVector<Value> empties;
  for (Value value : batched)
    empties.push_back(createGangTensor(builder, loc, value, width));
  empties.push_back(builder.create<tensor::EmptyOp>(
      loc, ArrayRef<int64_t>{width}, builder.getI1Type()));
  auto gather = builder.create<scf::ForOp>(
      loc, zero, w, one, empties,
      [&](OpBuilder &b, Location l, Value slot, ValueRange slots) {
        // Padding slots of the tail gang hold the last lane's state: a real
        // lane's, so whatever they compute (masked off) stays as safe as
        // that lane is.
        Value lane = b.create<arith::AddIOp>(l, start, slot);
        Value source = b.create<arith::MinUIOp>(l, lane, last);
        SmallVector<Value> filled;
        for (auto [value, dest] : llvm::zip(batched, slots.drop_back()))
          filled.push_back(
              insertLane(b, l, extractLane(b, l, value, source), dest, slot));
        Value in =
            b.create<arith::CmpIOp>(l, arith::CmpIPredicate::ult, lane, n);
        if (entryMask)
          in = b.create<arith::AndIOp>(
              l, in, b.create<tensor::ExtractOp>(l, entryMask, source));
        filled.push_back(b.create<tensor::InsertOp>(l, in, slots.back(), slot));
        b.create<scf::YieldOp>(l, filled);
      });
  llvm::append_range(gathered, gather.getResults().drop_back());
  return gather.getResults().back();
}

// vmap(while(c, b)) with batched c, in gangs of W lanes
//   => for s = 0 to n step W:
//        r[s .. s+W) = while_vmap_W_masked(x[min(s + i, n - 1)],
//                                          mask = (s + i < n) & e)
LogicalResult mlir::loom::batchWhileInGangs(scf::WhileOp loop,
                                            BatchingContext &context,
                                            OpBuilder &builder) {
  Location loc = loop.getLoc();
  SmallVector<Value> destinations;
  SmallVector<bool> fromInit;
  if (failed(getLoopResultDestinations(loop, context, builder, "in gangs",
                                       destinations, fromInit)))
    return failure();

  SmallVector<Value> operands;
  IRMapping mapping;
  func::FuncOp scalar = outlineScalarRegion(
      loop, loop.getInits(), loop.getResultTypes(), "_gang", operands, mapping);
  {
    OpBuilder b = OpBuilder::atBlockEnd(&scalar.getBody().front());
    Operation *clone = b.clone(*loop, mapping);
    b.create<func::ReturnOp>(loc, clone->getResults());
  }
  SmallVector<bool> signature;
  SmallVector<Value> batched;
  for (Value operand : operands) {
    signature.push_back(context.isBatched(operand));
    if (signature.back())
      batched.push_back(context.lookup(operand));
  }
  SmallVector<bool> resultBatched;
  FailureOr<func::FuncOp> body = context.batchGangBody(
      scalar, signature, loop, /*isGangLoop=*/true, resultBatched);
  if (failed(body))
    return failure();

  int64_t width = context.getGangWidth();
  Value zero = builder.create<arith::ConstantIndexOp>(loc, 0);
  Value one = builder.create<arith::ConstantIndexOp>(loc, 1);
  Value w = builder.create<arith::ConstantIndexOp>(loc, width);
  Value n = context.getBatchSize();
  auto gangs = builder.create<scf::ForOp>(
      loc, zero, n, w, destinations,
      [&](OpBuilder &b, Location l, Value start, ValueRange acc) {
        SmallVector<Value> gathered;
        Value mask = gatherGang(context, b, l, start, batched, width, gathered);
        SmallVector<Value> args;
        auto next = gathered.begin();
        for (auto [operand, isBatched] : llvm::zip(operands, signature))
          args.push_back(isBatched ? *next++ : context.lookup(operand));
        args.push_back(mask);
        auto call = b.create<func::CallOp>(l, *body, args);
        // The gang's lanes that are kept go back to their places; the
        // others (padding, and lanes the enclosing mask clears) keep what
        // the destinations hold.
        auto scatter = b.create<scf::ForOp>(
            l, zero, w, one, acc,
            [&](OpBuilder &sb, Location sl, Value slot, ValueRange dests) {
              Value keep = sb.create<tensor::ExtractOp>(sl, mask, slot);
              Value lane = sb.create<arith::AddIOp>(sl, start, slot);
              auto write = sb.create<scf::IfOp>(
                  sl, keep,
                  [&](OpBuilder &tb, Location tl) {
                    SmallVector<Value> written;
                    for (auto [j, dest] : llvm::enumerate(dests)) {
                      Value result = call.getResult(j);
                      Value laneValue = resultBatched[j]
                                            ? extractLane(tb, tl, result, slot)
                                            : result;
                      written.push_back(
                          insertLane(tb, tl, laneValue, dest, lane));
                    }
                    tb.create<scf::YieldOp>(tl, written);
                  },
                  [&](OpBuilder &eb, Location el) {
                    eb.create<scf::YieldOp>(el, dests);
                  });
              sb.create<scf::YieldOp>(sl, write.getResults());
            });
        b.create<scf::YieldOp>(l, scatter.getResults());
      });
  for (auto [j, result] : llvm::enumerate(loop.getResults())) {
    context.map(result, gangs.getResult(j));
    if (fromInit[j])
      context.recordUnchangedOnInactive(gangs.getResult(j), destinations[j]);
  }
  return success();
}
