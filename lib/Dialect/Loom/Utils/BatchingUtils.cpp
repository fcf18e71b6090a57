//===- BatchingUtils.cpp - Ops that batching rules build ------------------===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//

#include "loom/Dialect/Loom/Utils/BatchingUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace mlir::loom;

//===----------------------------------------------------------------------===//
// Batched tensors and their lanes
//===----------------------------------------------------------------------===//

OpFoldResult mlir::loom::getBatchSizeOFR(BatchingContext &context,
                                         OpBuilder &builder) {
  int64_t batch = context.getStaticBatchSize();
  if (!ShapedType::isDynamic(batch))
    return builder.getIndexAttr(batch);
  return context.getBatchSize();
}

Value mlir::loom::createEmpty(BatchingContext &context, OpBuilder &builder,
                              Location loc, Type batchedType,
                              ArrayRef<OpFoldResult> laneSizes) {
  auto tensor = cast<RankedTensorType>(batchedType);
  assert((laneSizes.empty() ||
          laneSizes.size() + 1 == static_cast<size_t>(tensor.getRank())) &&
         "one size per lane axis");
  SmallVector<Value> dynamicSizes;
  if (tensor.isDynamicDim(0))
    dynamicSizes.push_back(context.getBatchSize());
  for (int64_t dim = 1; dim < tensor.getRank(); ++dim) {
    if (!tensor.isDynamicDim(dim))
      continue;
    assert(!laneSizes.empty() && "a dynamic lane axis needs its size");
    dynamicSizes.push_back(
        getValueOrCreateConstantIndexOp(builder, loc, laneSizes[dim - 1]));
  }
  return builder.create<tensor::EmptyOp>(loc, tensor, dynamicSizes);
}

SmallVector<OpFoldResult>
mlir::loom::getLaneSizes(OpBuilder &builder, Location loc, Value batched) {
  auto type = cast<RankedTensorType>(batched.getType());
  SmallVector<OpFoldResult> sizes;
  for (int64_t dim = 1; dim < type.getRank(); ++dim)
    sizes.push_back(
        type.isDynamicDim(dim)
            ? OpFoldResult(
                  builder.createOrFold<tensor::DimOp>(loc, batched, dim))
            : OpFoldResult(builder.getIndexAttr(type.getDimSize(dim))));
  return sizes;
}

Value mlir::loom::buildBroadcast(BatchingContext &context, OpBuilder &builder,
                                 Location loc, Value unbatched) {
  Type batchedType = context.getBatchedType(unbatched.getType());
  if (!isa<RankedTensorType>(unbatched.getType())) {
    Value empty = createEmpty(context, builder, loc, batchedType);
    return builder.create<linalg::FillOp>(loc, unbatched, empty).getResult(0);
  }
  // Every lane gets the tensor's own shape.
  Value empty = createEmpty(context, builder, loc, batchedType,
                            tensor::getMixedSizes(builder, loc, unbatched));
  return builder
      .create<linalg::BroadcastOp>(loc, unbatched, empty, ArrayRef<int64_t>{0})
      ->getResult(0);
}

Value mlir::loom::broadcastTrailing(BatchingContext &context,
                                    OpBuilder &builder, Location loc,
                                    Value batched, Type batchedType,
                                    ArrayRef<OpFoldResult> laneSizes) {
  auto target = cast<RankedTensorType>(batchedType);
  auto source = cast<RankedTensorType>(batched.getType());
  if (source.getRank() == target.getRank())
    return batched;
  auto type = RankedTensorType::get(target.getShape(), source.getElementType());
  Value empty = createEmpty(context, builder, loc, type, laneSizes);
  SmallVector<int64_t> dims =
      llvm::to_vector(llvm::seq<int64_t>(source.getRank(), target.getRank()));
  return builder.create<linalg::BroadcastOp>(loc, batched, empty, dims)
      ->getResult(0);
}

/// Offsets, sizes and strides of lane `lane` of `batched`, a tensor<BxS...>
/// (its dynamic lane sizes read with tensor.dim).
static void getLaneSlice(OpBuilder &builder, Location loc, Value batched,
                         Value lane, SmallVectorImpl<OpFoldResult> &offsets,
                         SmallVectorImpl<OpFoldResult> &sizes,
                         SmallVectorImpl<OpFoldResult> &strides) {
  offsets.push_back(lane);
  sizes.push_back(builder.getIndexAttr(1));
  strides.push_back(builder.getIndexAttr(1));
  for (OpFoldResult size : getLaneSizes(builder, loc, batched)) {
    offsets.push_back(builder.getIndexAttr(0));
    sizes.push_back(size);
    strides.push_back(builder.getIndexAttr(1));
  }
}

Value mlir::loom::extractLane(OpBuilder &builder, Location loc, Value batched,
                              Value lane) {
  auto type = cast<RankedTensorType>(batched.getType());
  if (type.getRank() == 1)
    return builder.create<tensor::ExtractOp>(loc, batched, lane);
  SmallVector<OpFoldResult> offsets, sizes, strides;
  getLaneSlice(builder, loc, batched, lane, offsets, sizes, strides);
  auto laneType = RankedTensorType::get(type.getShape().drop_front(),
                                        type.getElementType());
  return builder.create<tensor::ExtractSliceOp>(loc, laneType, batched, offsets,
                                                sizes, strides);
}

Value mlir::loom::insertLane(OpBuilder &builder, Location loc, Value laneValue,
                             Value dest, Value lane) {
  if (!isa<RankedTensorType>(laneValue.getType()))
    return builder.create<tensor::InsertOp>(loc, laneValue, dest, lane);
  SmallVector<OpFoldResult> offsets, sizes, strides;
  getLaneSlice(builder, loc, dest, lane, offsets, sizes, strides);
  return builder.create<tensor::InsertSliceOp>(loc, laneValue, dest, offsets,
                                               sizes, strides);
}

Value mlir::loom::getLaneValue(BatchingContext &context, OpBuilder &builder,
                               Location loc, Value original, Value lane) {
  Value value = context.lookup(original);
  if (value.getType() == original.getType())
    return value;
  return extractLane(builder, loc, value, lane);
}

//===----------------------------------------------------------------------===//
// Buffers of their own
//===----------------------------------------------------------------------===//

Value mlir::loom::allocTensorLike(OpBuilder &builder, Location loc,
                                  Value like) {
  auto type = cast<RankedTensorType>(like.getType());
  SmallVector<Value> sizes;
  for (int64_t dim = 0; dim < type.getRank(); ++dim)
    if (type.isDynamicDim(dim))
      sizes.push_back(builder.create<tensor::DimOp>(loc, like, dim));
  return builder.create<bufferization::AllocTensorOp>(loc, type, sizes);
}

Value mlir::loom::allocLanes(BatchingContext &context, OpBuilder &builder,
                             Location loc, Type laneType) {
  auto type = cast<RankedTensorType>(context.getBatchedType(laneType));
  SmallVector<Value> sizes;
  if (type.isDynamicDim(0))
    sizes.push_back(context.getBatchSize());
  return builder.create<bufferization::AllocTensorOp>(loc, type, sizes);
}

Value mlir::loom::copyToNewTensor(OpBuilder &builder, Location loc,
                                  Value tensor) {
  // An allocation, not a tensor.empty: CSE would make two copies of one
  // value one, and bufferization would then give them one buffer.
  Value buffer = allocTensorLike(builder, loc, tensor);
  return builder.create<linalg::CopyOp>(loc, tensor, buffer).getResult(0);
}

SmallVector<Value> mlir::loom::ownCarries(OpBuilder &builder, Location loc,
                                          ArrayRef<Value> values) {
  SmallVector<Value> inits;
  for (auto [i, value] : llvm::enumerate(values)) {
    Operation *def = value.getDefiningOp();
    if (auto fill = dyn_cast_or_null<linalg::FillOp>(def)) {
      inits.push_back(
          builder
              .create<linalg::FillOp>(loc, fill.getInputs(),
                                      allocTensorLike(builder, loc, value))
              .getResult(0));
      continue;
    }
    bool isView = isa_and_nonnull<tensor::ExtractSliceOp, tensor::ExpandShapeOp,
                                  tensor::CollapseShapeOp>(def);
    bool isShared = isa<TensorType>(value.getType()) &&
                    llvm::is_contained(values.take_front(i), value);
    inits.push_back(isView || isShared ? copyToNewTensor(builder, loc, value)
                                       : value);
  }
  return inits;
}

SmallVector<Value> mlir::loom::lookupOwnCarries(BatchingContext &context,
                                                OpBuilder &builder,
                                                Location loc, ValueRange inits,
                                                ValueRange carries) {
  SmallVector<Value> looked;
  for (auto [init, carry] : llvm::zip(inits, carries))
    looked.push_back(
        context.lookupAs(builder, loc, init, context.isBatched(carry)));
  return ownCarries(builder, loc, looked);
}

//===----------------------------------------------------------------------===//
// Lane masks
//===----------------------------------------------------------------------===//

/// A linalg.generic over `init`'s shape that reads the lane mask at each
/// element's lane (axis 0) and `value` at the element itself, and yields
/// `combine(mask, value, init)` for it.
static Value buildLaneGeneric(
    OpBuilder &builder, Location loc, Value laneMask, Value value, Value init,
    function_ref<Value(OpBuilder &, Location, ValueRange)> combine) {
  auto type = cast<RankedTensorType>(init.getType());
  MLIRContext *ctx = builder.getContext();
  unsigned rank = type.getRank();
  AffineMap identity = AffineMap::getMultiDimIdentityMap(rank, ctx);
  AffineMap laneOnly = AffineMap::get(rank, 0, getAffineDimExpr(0, ctx), ctx);
  SmallVector<AffineMap> maps{laneOnly, identity, identity};
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  auto generic = builder.create<linalg::GenericOp>(
      loc, TypeRange{type}, ValueRange{laneMask, value}, ValueRange{init}, maps,
      iterators, [&](OpBuilder &b, Location l, ValueRange args) {
        b.create<linalg::YieldOp>(l, combine(b, l, args));
      });
  return generic.getResult(0);
}

// select(m, t, f) lane by lane => linalg.generic ins(m, t) outs(f)
Value mlir::loom::selectLanes(OpBuilder &builder, Location loc, Value laneMask,
                              Value onTrue, Value onFalse) {
  // A generic that writes into `onFalse` (the old value of a carry, or the
  // old column of a buffer) rather than arith.select: bufferized, it updates
  // that buffer in place, and producers of `onTrue` fuse into it, so a
  // masked carry update allocates nothing.
  return buildLaneGeneric(
      builder, loc, laneMask, onTrue, onFalse,
      [](OpBuilder &b, Location l, ValueRange args) -> Value {
        return b.create<arith::SelectOp>(l, args[0], args[1], args[2]);
      });
}

// x with s on inactive lanes => linalg.generic ins(m, x) { select(m, x, s) }
Value mlir::loom::selectOnInactive(BatchingContext &context, OpBuilder &builder,
                                   Location loc, Value batched, int64_t safe) {
  Value mask = context.getMask();
  if (!mask)
    return batched;
  // Into a fresh tensor, never into `batched`: the value may have other
  // users that need the stale lanes. Elementwise fusion folds the generic
  // into its one user, so no buffer is allocated for it.
  auto type = cast<RankedTensorType>(batched.getType());
  Value empty = createEmpty(context, builder, loc, type,
                            getLaneSizes(builder, loc, batched));
  Type element = type.getElementType();
  return buildLaneGeneric(
      builder, loc, mask, batched, empty,
      [&](OpBuilder &b, Location l, ValueRange args) -> Value {
        Value safeValue = b.create<arith::ConstantOp>(
            l, element, b.getIntegerAttr(element, safe));
        return b.create<arith::SelectOp>(l, args[0], args[1], safeValue);
      });
}

//===----------------------------------------------------------------------===//
// Loops over lanes
//===----------------------------------------------------------------------===//

ValueRange mlir::loom::buildLaneLoop(BatchingContext &context,
                                     OpBuilder &builder, Location loc,
                                     ValueRange inits, LaneBodyFn body) {
  Value zero = builder.create<arith::ConstantIndexOp>(loc, 0);
  Value one = builder.create<arith::ConstantIndexOp>(loc, 1);
  auto loop = builder.create<scf::ForOp>(
      loc, zero, context.getBatchSize(), one, inits,
      [&](OpBuilder &nested, Location nestedLoc, Value lane,
          ValueRange iterArgs) {
        SmallVector<Value> yielded = body(nested, nestedLoc, lane, iterArgs);
        nested.create<scf::YieldOp>(nestedLoc, yielded);
      });
  return loop.getResults();
}

// vmap(op)(xs) => for b: ys[b] = op(xs[b])   (destination-passing)
LogicalResult mlir::loom::batchPerLane(BatchingContext &context,
                                       OpBuilder &builder, Operation *op,
                                       bool skipInactive,
                                       ArrayRef<Value> destinations) {
  Location loc = op->getLoc();
  for (Value result : op->getResults())
    if (!context.isBatched(result))
      return op->emitError()
             << "cannot batch '" << op->getName() << "' lane by lane: result #"
             << cast<OpResult>(result).getResultNumber()
             << " is the same on every lane";

  llvm::SetVector<Value> inputs;
  inputs.insert(op->operand_begin(), op->operand_end());
  getUsedValuesDefinedAbove(op->getRegions(), inputs);

  SmallVector<Value> inits(destinations);
  if (inits.empty()) {
    for (OpResult result : op->getResults()) {
      // A lane's result is inserted where its shape says; a dynamic shape
      // is only known once the op has run on the lane, too late to size
      // the batch (rules that know it pass destinations).
      auto tensor = dyn_cast<RankedTensorType>(result.getType());
      if (tensor && !tensor.hasStaticShape())
        return op->emitError()
               << "cannot batch '" << op->getName()
               << "' lane by lane: result #" << result.getResultNumber()
               << " has the dynamic shape " << tensor
               << ", which is not known before the op runs on each lane";
      inits.push_back(createEmpty(context, builder, loc,
                                  context.getBatchedType(result.getType())));
    }
  }

  // A lane's tensor is a view at a per-lane offset. MLIR 19's bufferization
  // passes such a view to a call as a memref.cast to the callee's identity
  // layout, which drops the offset (every lane would read lane 0): give
  // tensors that may reach a call a buffer of their own.
  bool reachesCall = false;
  op->walk([&](func::CallOp) { reachesCall = true; });

  Value laneMask = skipInactive ? context.getMask() : Value();
  Operation *laneClone = nullptr;
  ValueRange results = buildLaneLoop(
      context, builder, loc, inits,
      [&](OpBuilder &b, Location l, Value lane, ValueRange acc) {
        IRMapping laneMap;
        for (Value input : inputs) {
          Value value = context.lookup(input);
          if (value.getType() == input.getType()) {
            laneMap.map(input, value);
            continue;
          }
          // An input that is also a destination (a loop's init receiving its
          // result) is read from the loop's own tensor: lane b is read just
          // before it is overwritten, so the update stays in place.
          auto dest = llvm::find(inits, value);
          if (dest != inits.end())
            value = acc[dest - inits.begin()];
          Value laneValue = extractLane(b, l, value, lane);
          if (reachesCall && isa<RankedTensorType>(laneValue.getType()))
            laneValue = copyToNewTensor(b, l, laneValue);
          laneMap.map(input, laneValue);
        }
        SmallVector<Value> laneResults;
        if (!laneMask) {
          laneClone = b.clone(*op, laneMap);
          laneResults = laneClone->getResults();
        } else {
          // A lane the mask clears keeps its destination untouched and never
          // runs the op: its inputs may be stale values the scalar program
          // would never have seen (and a loop on them might not end).
          Value active = b.create<tensor::ExtractOp>(l, laneMask, lane);
          auto branch = b.create<scf::IfOp>(
              l, active,
              [&](OpBuilder &t, Location tl) {
                laneClone = t.clone(*op, laneMap);
                t.create<scf::YieldOp>(tl, laneClone->getResults());
              },
              [&](OpBuilder &e, Location el) {
                SmallVector<Value> kept;
                for (Value dest : acc)
                  kept.push_back(extractLane(e, el, dest, lane));
                e.create<scf::YieldOp>(el, kept);
              });
          laneResults = branch.getResults();
        }
        SmallVector<Value> updated;
        for (auto [laneResult, dest] : llvm::zip(laneResults, acc))
          updated.push_back(insertLane(b, l, laneResult, dest, lane));
        return updated;
      });
  for (auto [result, value] : llvm::zip(op->getResults(), results))
    context.map(result, value);
  context.notifyClonedPerLane(op, laneClone);
  return success();
}
