//===- BatchingOpInterface.cpp - vmap batching rules ----------------------===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//

#include "loom/Interfaces/BatchingOpInterface.h"

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

#include "loom/Interfaces/BatchingOpInterface.cpp.inc"

BatchingContext::~BatchingContext() = default;

//===----------------------------------------------------------------------===//
// Ops that trap
//===----------------------------------------------------------------------===//

std::optional<TrapGuard> mlir::loom::getTrapGuard(Operation *op) {
  if (isa<arith::DivSIOp, arith::DivUIOp, arith::RemSIOp, arith::RemUIOp,
          arith::CeilDivSIOp, arith::CeilDivUIOp, arith::FloorDivSIOp>(op))
    return TrapGuard{/*operand=*/1, /*safeValue=*/1};
  return std::nullopt;
}

//===----------------------------------------------------------------------===//
// Mask and masked-write facts
//===----------------------------------------------------------------------===//

Value BatchingContext::narrowMask(Value narrower) {
  Value previous = mask;
  if (narrower != previous)
    maskParents.try_emplace(narrower, previous);
  mask = narrower;
  return previous;
}

/// True when every lane `narrow` sets is set in `wide` as well, as far as the
/// masks recorded by `narrowMask` show. A null mask sets every lane.
bool BatchingContext::isMaskWithin(Value narrow, Value wide) const {
  for (unsigned depth = 0; depth < 1000; ++depth) {
    if (narrow == wide || !wide)
      return true;
    if (!narrow)
      return false;
    auto it = maskParents.find(narrow);
    if (it == maskParents.end())
      return false;
    narrow = it->second;
  }
  return false;
}

void BatchingContext::recordMaskNonEmpty() {
  if (mask)
    nonEmptyMasks.insert(mask);
}

bool BatchingContext::isMaskNonEmpty() const {
  return !mask || nonEmptyMasks.contains(mask);
}

void BatchingContext::recordUnchangedOnInactive(Value value, Value base) {
  if (value != base)
    unchanged[value] = {base, mask};
}

Value BatchingContext::getUnchangedBase(Value value) const {
  // A fact recorded under a narrower mask says more than the current mask
  // needs (fewer lanes may change), so it still holds; one recorded under a
  // wider mask does not.
  for (unsigned depth = 0; depth < 100000; ++depth) {
    auto it = unchanged.find(value);
    if (it == unchanged.end() || !isMaskWithin(it->second.mask, mask))
      return value;
    value = it->second.base;
  }
  return value;
}

bool BatchingContext::isUnchangedOnInactive(Value value, Value base) const {
  for (unsigned depth = 0; depth < 100000; ++depth) {
    if (value == base)
      return true;
    auto it = unchanged.find(value);
    if (it == unchanged.end() || !isMaskWithin(it->second.mask, mask))
      return false;
    value = it->second.base;
  }
  return false;
}

//===----------------------------------------------------------------------===//
// Types and shapes
//===----------------------------------------------------------------------===//

Type BatchingContext::getBatchedType(Type laneType) const {
  int64_t batch = getStaticBatchSize();
  if (auto tensor = dyn_cast<RankedTensorType>(laneType)) {
    SmallVector<int64_t> shape{batch};
    llvm::append_range(shape, tensor.getShape());
    return RankedTensorType::get(shape, tensor.getElementType());
  }
  return RankedTensorType::get({batch}, laneType);
}

Value BatchingContext::lookupBatched(OpBuilder &builder, Location loc,
                                     Value original) {
  Value value = lookup(original);
  // Batching always adds the lane axis, so an unchanged type means the value
  // is the same on every lane.
  if (value.getType() != original.getType())
    return value;
  return broadcast(builder, loc, value);
}

Value BatchingContext::lookupAs(OpBuilder &builder, Location loc,
                                Value original, bool batched) {
  return batched ? lookupBatched(builder, loc, original) : lookup(original);
}

Value BatchingContext::createEmpty(OpBuilder &builder, Location loc,
                                   Type batchedType,
                                   ArrayRef<OpFoldResult> laneSizes) {
  auto tensor = cast<RankedTensorType>(batchedType);
  assert((laneSizes.empty() ||
          laneSizes.size() + 1 == static_cast<size_t>(tensor.getRank())) &&
         "one size per lane axis");
  SmallVector<Value> dynamicSizes;
  if (tensor.isDynamicDim(0))
    dynamicSizes.push_back(getBatchSize());
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
BatchingContext::getLaneSizes(OpBuilder &builder, Location loc, Value batched) {
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

Value BatchingContext::broadcast(OpBuilder &builder, Location loc,
                                 Value unbatched) {
  // Broadcast once, right where the value is defined: a constant used in a
  // loop body is then filled once, not on every iteration.
  if (Value cached = broadcasts.lookup(unbatched))
    return cached;
  OpBuilder::InsertionGuard guard(builder);
  Operation *batchSizeDef = getBatchSize().getDefiningOp();
  if (Operation *def = unbatched.getDefiningOp()) {
    builder.setInsertionPointAfter(def);
  } else {
    Block *owner = cast<BlockArgument>(unbatched).getOwner();
    if (batchSizeDef && batchSizeDef->getBlock() == owner)
      builder.setInsertionPointAfter(batchSizeDef);
    else
      builder.setInsertionPointToStart(owner);
  }
  Value result = broadcastHere(builder, loc, unbatched);
  broadcasts[unbatched] = result;
  return result;
}

Value BatchingContext::broadcastHere(OpBuilder &builder, Location loc,
                                     Value unbatched) {
  Type batchedType = getBatchedType(unbatched.getType());
  if (!isa<RankedTensorType>(unbatched.getType())) {
    Value empty = createEmpty(builder, loc, batchedType);
    return builder.create<linalg::FillOp>(loc, unbatched, empty).getResult(0);
  }
  // Every lane gets the tensor's own shape.
  Value empty = createEmpty(builder, loc, batchedType,
                            tensor::getMixedSizes(builder, loc, unbatched));
  return builder
      .create<linalg::BroadcastOp>(loc, unbatched, empty, ArrayRef<int64_t>{0})
      ->getResult(0);
}

/// Offsets, sizes and strides of lane `lane` of `batched`, a tensor<BxS...>
/// (its dynamic lane sizes read with tensor.dim).
static void getLaneSlice(BatchingContext &context, OpBuilder &builder,
                         Location loc, Value batched, Value lane,
                         SmallVectorImpl<OpFoldResult> &offsets,
                         SmallVectorImpl<OpFoldResult> &sizes,
                         SmallVectorImpl<OpFoldResult> &strides) {
  offsets.push_back(lane);
  sizes.push_back(builder.getIndexAttr(1));
  strides.push_back(builder.getIndexAttr(1));
  for (OpFoldResult size : context.getLaneSizes(builder, loc, batched)) {
    offsets.push_back(builder.getIndexAttr(0));
    sizes.push_back(size);
    strides.push_back(builder.getIndexAttr(1));
  }
}

Value BatchingContext::extractLane(OpBuilder &builder, Location loc,
                                   Value batched, Value lane) {
  auto type = cast<RankedTensorType>(batched.getType());
  if (type.getRank() == 1)
    return builder.create<tensor::ExtractOp>(loc, batched, lane);
  SmallVector<OpFoldResult> offsets, sizes, strides;
  getLaneSlice(*this, builder, loc, batched, lane, offsets, sizes, strides);
  auto laneType = RankedTensorType::get(type.getShape().drop_front(),
                                        type.getElementType());
  return builder.create<tensor::ExtractSliceOp>(loc, laneType, batched, offsets,
                                                sizes, strides);
}

Value BatchingContext::insertLane(OpBuilder &builder, Location loc,
                                  Value laneValue, Value dest, Value lane) {
  if (!isa<RankedTensorType>(laneValue.getType()))
    return builder.create<tensor::InsertOp>(loc, laneValue, dest, lane);
  SmallVector<OpFoldResult> offsets, sizes, strides;
  getLaneSlice(*this, builder, loc, dest, lane, offsets, sizes, strides);
  return builder.create<tensor::InsertSliceOp>(loc, laneValue, dest, offsets,
                                               sizes, strides);
}

Value BatchingContext::broadcastMask(OpBuilder &builder, Location loc,
                                     Value laneMask, Value like) {
  auto target = cast<RankedTensorType>(like.getType());
  if (target.getRank() == 1)
    return laneMask;
  auto maskType = RankedTensorType::get(target.getShape(), builder.getI1Type());
  Value empty =
      createEmpty(builder, loc, maskType, getLaneSizes(builder, loc, like));
  SmallVector<int64_t> dims =
      llvm::to_vector(llvm::seq<int64_t>(1, target.getRank()));
  return builder.create<linalg::BroadcastOp>(loc, laneMask, empty, dims)
      ->getResult(0);
}

Value BatchingContext::getAllTrue(OpBuilder &builder, Location loc) {
  if (allTrue)
    return allTrue;
  // Built once, next to the batch size, so every loop shares it.
  OpBuilder::InsertionGuard guard(builder);
  Value batchSize = getBatchSize();
  if (Operation *def = batchSize.getDefiningOp())
    builder.setInsertionPointAfter(def);
  else
    builder.setInsertionPointToStart(cast<BlockArgument>(batchSize).getOwner());
  Value scalar =
      builder.create<arith::ConstantOp>(loc, builder.getBoolAttr(true));
  allTrue = broadcast(builder, loc, scalar);
  return allTrue;
}

Value BatchingContext::copyToNewTensor(OpBuilder &builder, Location loc,
                                       Value tensor) {
  auto type = cast<RankedTensorType>(tensor.getType());
  SmallVector<Value> dynamicSizes;
  for (int64_t dim = 0; dim < type.getRank(); ++dim)
    if (type.isDynamicDim(dim))
      dynamicSizes.push_back(builder.create<tensor::DimOp>(loc, tensor, dim));
  // An allocation, not a tensor.empty: CSE would make two copies of one
  // value one, and bufferization would then give them one buffer.
  Value buffer =
      builder.create<bufferization::AllocTensorOp>(loc, type, dynamicSizes);
  return builder.create<linalg::CopyOp>(loc, tensor, buffer).getResult(0);
}

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
Value BatchingContext::selectLanes(OpBuilder &builder, Location loc,
                                   Value laneMask, Value onTrue,
                                   Value onFalse) {
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
Value BatchingContext::selectOnInactive(OpBuilder &builder, Location loc,
                                        Value batched, int64_t safe) {
  if (!mask)
    return batched;
  // Into a fresh tensor, never into `batched`: the value may have other
  // users that need the stale lanes. Elementwise fusion folds the generic
  // into its one user, so no buffer is allocated for it.
  auto type = cast<RankedTensorType>(batched.getType());
  Value empty =
      createEmpty(builder, loc, type, getLaneSizes(builder, loc, batched));
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

ValueRange BatchingContext::buildLaneLoop(OpBuilder &builder, Location loc,
                                          ValueRange inits, LaneBodyFn body) {
  Value zero = builder.create<arith::ConstantIndexOp>(loc, 0);
  Value one = builder.create<arith::ConstantIndexOp>(loc, 1);
  auto loop = builder.create<scf::ForOp>(
      loc, zero, getBatchSize(), one, inits,
      [&](OpBuilder &nested, Location nestedLoc, Value lane,
          ValueRange iterArgs) {
        SmallVector<Value> yielded = body(nested, nestedLoc, lane, iterArgs);
        nested.create<scf::YieldOp>(nestedLoc, yielded);
      });
  return loop.getResults();
}

// vmap(op)(xs) => for b: ys[b] = op(xs[b])   (destination-passing)
LogicalResult BatchingContext::batchPerLane(OpBuilder &builder, Operation *op,
                                            bool skipInactive,
                                            ArrayRef<Value> destinations) {
  Location loc = op->getLoc();
  for (Value result : op->getResults())
    if (!isBatched(result))
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
      inits.push_back(
          createEmpty(builder, loc, getBatchedType(result.getType())));
    }
  }

  // A lane's tensor is a view at a per-lane offset. MLIR 19's bufferization
  // passes such a view to a call as a memref.cast to the callee's identity
  // layout, which drops the offset (every lane would read lane 0): give
  // tensors that may reach a call a buffer of their own.
  bool reachesCall = false;
  op->walk([&](func::CallOp) { reachesCall = true; });

  Value laneMask = skipInactive ? mask : Value();
  Operation *laneClone = nullptr;
  ValueRange results = buildLaneLoop(
      builder, loc, inits,
      [&](OpBuilder &b, Location l, Value lane, ValueRange acc) {
        IRMapping laneMap;
        for (Value input : inputs) {
          Value value = lookup(input);
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
    map(result, value);
  notifyClonedPerLane(op, laneClone);
  return success();
}
