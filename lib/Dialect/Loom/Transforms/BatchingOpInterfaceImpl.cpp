//===- BatchingOpInterfaceImpl.cpp - Batching rules of upstream ops -------===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//
//
// External BatchingOpInterface models for the upstream ops Loom programs are
// written in. Each rule rewrites one op of the scalar function into the
// batched function, where batched values carry the lanes as a new leading
// axis. Rules that need a lane's own index or a lane mask fall back to a
// loop over lanes in destination-passing style, which one-shot
// bufferization turns into in-place updates.
//
//===----------------------------------------------------------------------===//

#include "loom/Dialect/Loom/Transforms/BatchingOpInterfaceImpl.h"
#include "loom/Dialect/Loom/IR/LoomOps.h"
#include "loom/Interfaces/BatchingOpInterface.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/IndexingUtils.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Transforms/RegionUtils.h"

using namespace mlir;
using namespace mlir::loom;

//===----------------------------------------------------------------------===//
// Shared helpers
//===----------------------------------------------------------------------===//

/// True when the mapped value of `original` carries the lane axis.
static bool isMappedBatched(BatchingContext &context, Value original) {
  return context.lookup(original).getType() != original.getType();
}

static bool anyBatched(BatchingContext &context, ValueRange originals) {
  return llvm::any_of(originals, [&](Value v) { return context.isBatched(v); });
}

static bool anyBatched(BatchingContext &context,
                       ArrayRef<OpFoldResult> originals) {
  return llvm::any_of(originals, [&](OpFoldResult ofr) {
    auto value = dyn_cast<Value>(ofr);
    return value && context.isBatched(value);
  });
}

/// The lane-axis size as an OpFoldResult: static when known.
static OpFoldResult getBatchSizeOFR(BatchingContext &context,
                                    OpBuilder &builder) {
  int64_t batch = context.getStaticBatchSize();
  if (!ShapedType::isDynamic(batch))
    return builder.getIndexAttr(batch);
  return context.getBatchSize();
}

static SmallVector<OpFoldResult> mapOFRs(BatchingContext &context,
                                         ArrayRef<OpFoldResult> values) {
  SmallVector<OpFoldResult> mapped;
  for (OpFoldResult ofr : values) {
    if (auto value = dyn_cast<Value>(ofr))
      mapped.push_back(context.lookup(value));
    else
      mapped.push_back(ofr);
  }
  return mapped;
}

/// `batched` (tensor<B>) broadcast along trailing axes to `batchedType`,
/// whose lane axes have the sizes `laneSizes`.
static Value broadcastTrailing(BatchingContext &context, OpBuilder &builder,
                               Location loc, Value batched, Type batchedType,
                               ArrayRef<OpFoldResult> laneSizes) {
  auto target = cast<RankedTensorType>(batchedType);
  auto source = cast<RankedTensorType>(batched.getType());
  if (source.getRank() == target.getRank())
    return batched;
  auto type = RankedTensorType::get(target.getShape(), source.getElementType());
  Value empty = context.createEmpty(builder, loc, type, laneSizes);
  SmallVector<int64_t> dims =
      llvm::to_vector(llvm::seq<int64_t>(source.getRank(), target.getRank()));
  return builder.create<linalg::BroadcastOp>(loc, batched, empty, dims)
      ->getResult(0);
}

/// A tensor like `like` in a buffer of its own: an allocation, which CSE
/// leaves alone, where two tensor.empty of one size would become one.
static Value allocLike(OpBuilder &builder, Location loc, Value like) {
  auto type = cast<RankedTensorType>(like.getType());
  SmallVector<Value> sizes;
  for (int64_t dim = 0; dim < type.getRank(); ++dim)
    if (type.isDynamicDim(dim))
      sizes.push_back(builder.create<tensor::DimOp>(loc, like, dim));
  return builder.create<bufferization::AllocTensorOp>(loc, type, sizes);
}

/// The inits of a loop's carries, each a tensor the loop may update in
/// place without copying at entry:
///  - a view (a slice or reshape of another tensor) is copied, or its carry
///    would bufferize with a fully dynamic layout;
///  - a broadcast scalar (linalg.fill, built once where the scalar is
///    defined) is filled anew, which writes what a copy would;
///  - a value that an earlier carry starts from too is copied: two carries
///    need two buffers, and this says so rather than leaving the copy to
///    bufferization.
static SmallVector<Value> ownCarries(BatchingContext &context,
                                     OpBuilder &builder, Location loc,
                                     ArrayRef<Value> values) {
  SmallVector<Value> inits;
  for (auto [i, value] : llvm::enumerate(values)) {
    Operation *def = value.getDefiningOp();
    if (isa_and_nonnull<tensor::ExtractSliceOp, tensor::ExpandShapeOp,
                        tensor::CollapseShapeOp>(def)) {
      inits.push_back(context.copyToNewTensor(builder, loc, value));
    } else if (auto fill = dyn_cast_or_null<linalg::FillOp>(def)) {
      inits.push_back(builder
                          .create<linalg::FillOp>(loc, fill.getInputs(),
                                                  allocLike(builder, loc, value))
                          .getResult(0));
    } else if (isa<TensorType>(value.getType()) &&
               llvm::is_contained(values.take_front(i), value)) {
      inits.push_back(builder
                          .create<linalg::CopyOp>(loc, value,
                                                  allocLike(builder, loc, value))
                          .getResult(0));
    } else {
      inits.push_back(value);
    }
  }
  return inits;
}

/// Fails with a diagnostic naming the op and what makes it unbatchable.
static LogicalResult unsupported(Operation *op, const Twine &why) {
  return op->emitError() << "cannot batch '" << op->getName() << "': " << why;
}

//===----------------------------------------------------------------------===//
// Elementwise ops (every ElementwiseMappable arith and math op)
//===----------------------------------------------------------------------===//

// vmap(op(x, y)) => op(x', y')   with unbatched operands broadcast
struct ElementwiseBatchingModel
    : public BatchingOpInterface::FallbackModel<ElementwiseBatchingModel> {
  LogicalResult batch(Operation *op, BatchingContext &context,
                      OpBuilder &builder) const {
    Location loc = op->getLoc();
    Type laneResult = op->getResult(0).getType();
    Type batchedResult = context.getBatchedType(laneResult);
    bool tensorLanes = isa<RankedTensorType>(laneResult);
    // A lane's shape, from an operand that has it (elementwise ops keep
    // shapes), for a per-lane scalar broadcast to it.
    auto getLaneSizes = [&]() -> SmallVector<OpFoldResult> {
      for (Value operand : op->getOperands()) {
        if (!isa<RankedTensorType>(operand.getType()))
          continue;
        Value value = context.lookup(operand);
        if (isMappedBatched(context, operand))
          return context.getLaneSizes(builder, loc, value);
        return tensor::getMixedSizes(builder, loc, value);
      }
      return {};
    };
    IRMapping mapping;
    for (Value operand : op->getOperands()) {
      bool scalarOperand = !isa<RankedTensorType>(operand.getType());
      Value value;
      if (isMappedBatched(context, operand))
        // A per-lane scalar among tensor lanes (select's condition) needs
        // the lane's shape; on the lane axis alone it would not line up.
        value = tensorLanes && scalarOperand
                    ? broadcastTrailing(context, builder, loc,
                                        context.lookup(operand), batchedResult,
                                        getLaneSizes())
                    : context.lookup(operand);
      else if (tensorLanes && scalarOperand)
        // arith.select with one condition for the whole tensor stays so.
        value = context.lookup(operand);
      else
        value = context.lookupBatched(builder, loc, operand);
      mapping.map(operand, value);
    }
    // Lanes the mask clears run the op too, on values the scalar program
    // never divides by: they get a divisor that cannot trap.
    if (std::optional<TrapGuard> guard = getTrapGuard(op)) {
      Value operand = op->getOperand(guard->operand);
      mapping.map(operand, context.selectOnInactive(builder, loc,
                                                    mapping.lookup(operand),
                                                    guard->safeValue));
    }
    Operation *batched = builder.clone(*op, mapping);
    for (auto [result, newResult] :
         llvm::zip(op->getResults(), batched->getResults())) {
      newResult.setType(context.getBatchedType(result.getType()));
      context.map(result, newResult);
    }
    return success();
  }
};

/// Attaches the elementwise model to every registered op of `dialect` that is
/// ElementwiseMappable, so new upstream ops are covered without a list.
static void attachElementwiseModels(MLIRContext *context, Dialect *dialect) {
  for (RegisteredOperationName name : context->getRegisteredOperations()) {
    if (&name.getDialect() != dialect)
      continue;
    if (!name.hasTrait<OpTrait::Elementwise>() ||
        !name.hasTrait<OpTrait::Tensorizable>())
      continue;
    if (name.hasInterface<BatchingOpInterface>())
      continue;
    name.attachInterface<ElementwiseBatchingModel>();
  }
}

//===----------------------------------------------------------------------===//
// tensor
//===----------------------------------------------------------------------===//

// vmap(t[i]) with shared i => extract_slice t'[0, i][B, 1]
//   (collapse_shape t' when t has one element)
// vmap(t[i]) with per-lane i => for b: r[b] = t'[b, i[b]]
struct ExtractBatchingModel
    : public BatchingOpInterface::ExternalModel<ExtractBatchingModel,
                                                tensor::ExtractOp> {
  LogicalResult batch(Operation *op, BatchingContext &context,
                      OpBuilder &builder) const {
    auto extract = cast<tensor::ExtractOp>(op);
    // A lane's own index may be out of bounds on a lane the mask clears (its
    // values are stale), so those lanes do not read at all.
    if (anyBatched(context, extract.getIndices()))
      return context.batchPerLane(builder, op, /*skipInactive=*/true);
    Location loc = op->getLoc();
    Value source = context.lookupBatched(builder, loc, extract.getTensor());
    auto sourceType = cast<RankedTensorType>(source.getType());
    if (sourceType.getRank() == 1) {
      context.map(extract.getResult(), source);
      return success();
    }
    auto resultType = cast<RankedTensorType>(
        context.getBatchedType(extract.getResult().getType()));
    if (extract.getTensor().getType().getNumElements() == 1) {
      // vmap(t[0...] : tensor<1x..>) => collapse_shape t' : tensor<B>, the
      // inverse of from_elements' expand_shape: a lane state of one element
      // read, updated and rebuilt folds back to the same tensor, which
      // bufferization then sees read and written in place.
      ReassociationIndices all =
          llvm::to_vector(llvm::seq<int64_t>(0, sourceType.getRank()));
      context.map(extract.getResult(),
                  builder.create<tensor::CollapseShapeOp>(
                      loc, resultType, source,
                      ArrayRef<ReassociationIndices>{all}));
      return success();
    }
    SmallVector<OpFoldResult> offsets{builder.getIndexAttr(0)};
    SmallVector<OpFoldResult> sizes{getBatchSizeOFR(context, builder)};
    SmallVector<OpFoldResult> strides(sourceType.getRank(),
                                      builder.getIndexAttr(1));
    for (Value index : extract.getIndices()) {
      offsets.push_back(context.lookup(index));
      sizes.push_back(builder.getIndexAttr(1));
    }
    Value column = builder.create<tensor::ExtractSliceOp>(
        loc, resultType, source, offsets, sizes, strides);
    context.map(extract.getResult(), column);
    return success();
  }
};

/// Builds `for b: if mask[b]: dest[b, idx...] = write(b)` (the `if` only
/// under a mask) and returns the updated destination. `write` inserts one
/// lane's value into `acc` at lane `lane`.
static Value buildMaskedLaneWrites(
    BatchingContext &context, OpBuilder &builder, Location loc, Value dest,
    function_ref<Value(OpBuilder &, Location, Value lane, Value acc)> write) {
  Value mask = context.getMask();
  return context.buildLaneLoop(
      builder, loc, dest,
      [&](OpBuilder &b, Location l, Value lane,
          ValueRange acc) -> SmallVector<Value> {
        if (!mask)
          return {write(b, l, lane, acc[0])};
        Value active = b.create<tensor::ExtractOp>(l, mask, lane);
        auto branch = b.create<scf::IfOp>(
            l, active,
            [&](OpBuilder &t, Location tl) {
              t.create<scf::YieldOp>(tl, write(t, tl, lane, acc[0]));
            },
            [&](OpBuilder &e, Location el) {
              e.create<scf::YieldOp>(el, acc[0]);
            });
        return {branch.getResult(0)};
      })[0];
}

/// The value of `original` on lane `lane`: extracted when batched.
static Value getLaneValue(BatchingContext &context, OpBuilder &builder,
                          Location loc, Value original, Value lane) {
  Value value = context.lookup(original);
  if (value.getType() == original.getType())
    return value;
  return context.extractLane(builder, loc, value, lane);
}

// vmap(t[i] = v) with per-lane i, or under a mask
//   => for b: if active[b]: t'[b, i[b]] = v[b]
// vmap(t[i] = v) with shared i => insert_slice v' into t'[0, i][B, 1]
struct InsertBatchingModel
    : public BatchingOpInterface::ExternalModel<InsertBatchingModel,
                                                tensor::InsertOp> {
  LogicalResult batch(Operation *op, BatchingContext &context,
                      OpBuilder &builder) const {
    auto insert = cast<tensor::InsertOp>(op);
    Location loc = op->getLoc();
    Value dest = context.lookupBatched(builder, loc, insert.getDest());
    auto destType = cast<RankedTensorType>(dest.getType());
    Value mask = context.getMask();

    if (anyBatched(context, insert.getIndices())) {
      // A per-lane index: one scalar write per lane, in place. Never a
      // select of the whole buffer, which bufferizes to a copy.
      Value result = buildMaskedLaneWrites(
          context, builder, loc, dest,
          [&](OpBuilder &b, Location l, Value lane, Value acc) -> Value {
            SmallVector<Value> indices{lane};
            for (Value index : insert.getIndices())
              indices.push_back(getLaneValue(context, b, l, index, lane));
            Value scalar =
                getLaneValue(context, b, l, insert.getScalar(), lane);
            return b.create<tensor::InsertOp>(l, scalar, acc, indices);
          });
      context.map(insert.getResult(), result);
      if (mask)
        context.recordUnchangedOnInactive(result, dest);
      return success();
    }

    Value scalar = context.lookupBatched(builder, loc, insert.getScalar());
    if (destType.getRank() == 1) {
      // A rank-0 lane tensor: the inserted scalar is the whole lane.
      Value result =
          mask ? context.selectLanes(builder, loc, mask, scalar, dest) : scalar;
      context.map(insert.getResult(), result);
      if (mask)
        context.recordUnchangedOnInactive(result, dest);
      return success();
    }
    SmallVector<OpFoldResult> offsets{builder.getIndexAttr(0)};
    SmallVector<OpFoldResult> sizes{getBatchSizeOFR(context, builder)};
    SmallVector<OpFoldResult> strides(destType.getRank(),
                                      builder.getIndexAttr(1));
    for (Value index : insert.getIndices()) {
      offsets.push_back(context.lookup(index));
      sizes.push_back(builder.getIndexAttr(1));
    }
    if (mask) {
      // Shared index under a mask: select within the written column only.
      auto columnType = cast<RankedTensorType>(scalar.getType());
      Value old = builder.create<tensor::ExtractSliceOp>(
          loc, columnType, dest, offsets, sizes, strides);
      scalar = context.selectLanes(builder, loc, mask, scalar, old);
    }
    Value result = builder.create<tensor::InsertSliceOp>(
        loc, scalar, dest, offsets, sizes, strides);
    context.map(insert.getResult(), result);
    if (mask)
      context.recordUnchangedOnInactive(result, dest);
    return success();
  }
};

// vmap(from_elements(x, y)) => insert_slice x', y' into empty[0, k][B, 1]
struct FromElementsBatchingModel
    : public BatchingOpInterface::ExternalModel<FromElementsBatchingModel,
                                                tensor::FromElementsOp> {
  LogicalResult batch(Operation *op, BatchingContext &context,
                      OpBuilder &builder) const {
    auto fromElements = cast<tensor::FromElementsOp>(op);
    Location loc = op->getLoc();
    auto laneType = cast<RankedTensorType>(fromElements.getType());
    Type batchedType = context.getBatchedType(laneType);
    if (laneType.getNumElements() == 1) {
      // vmap(from_elements(x) : tensor<1x..>) => expand_shape x' :
      // tensor<Bx1x..> A reshape is a view once bufferized: no buffer per lane
      // state.
      Value element = context.lookupBatched(builder, loc,
                                            fromElements.getElements().front());
      ReassociationIndices all =
          llvm::to_vector(llvm::seq<int64_t>(0, laneType.getRank() + 1));
      SmallVector<OpFoldResult> shape{getBatchSizeOFR(context, builder)};
      for (int64_t dim : laneType.getShape())
        shape.push_back(builder.getIndexAttr(dim));
      Value result = builder.create<tensor::ExpandShapeOp>(
          loc, batchedType, element, ArrayRef<ReassociationIndices>{all},
          shape);
      context.map(fromElements.getResult(), result);
      return success();
    }
    Value result = context.createEmpty(builder, loc, batchedType);
    SmallVector<int64_t> strides = computeStrides(laneType.getShape());
    for (auto [linear, element] : llvm::enumerate(fromElements.getElements())) {
      Value column = context.lookupBatched(builder, loc, element);
      SmallVector<OpFoldResult> offsets{builder.getIndexAttr(0)};
      SmallVector<OpFoldResult> sizes{getBatchSizeOFR(context, builder)};
      for (int64_t index : delinearize(linear, strides)) {
        offsets.push_back(builder.getIndexAttr(index));
        sizes.push_back(builder.getIndexAttr(1));
      }
      SmallVector<OpFoldResult> ones(offsets.size(), builder.getIndexAttr(1));
      result = builder.create<tensor::InsertSliceOp>(loc, column, result,
                                                     offsets, sizes, ones);
    }
    context.map(fromElements.getResult(), result);
    return success();
  }
};

// vmap(splat(x) : tensor<S>) => broadcast x' : tensor<B> to tensor<BxS>
struct SplatBatchingModel
    : public BatchingOpInterface::ExternalModel<SplatBatchingModel,
                                                tensor::SplatOp> {
  LogicalResult batch(Operation *op, BatchingContext &context,
                      OpBuilder &builder) const {
    auto splat = cast<tensor::SplatOp>(op);
    if (anyBatched(context, splat.getDynamicSizes()))
      return unsupported(op, "its size differs per lane (ragged batch)");
    Location loc = op->getLoc();
    Value element = context.lookupBatched(builder, loc, splat.getInput());
    Type batchedType = context.getBatchedType(splat.getType());
    SmallVector<OpFoldResult> laneSizes =
        getMixedValues(splat.getType().getShape(),
                       llvm::to_vector(llvm::map_range(
                           splat.getDynamicSizes(),
                           [&](Value size) { return context.lookup(size); })),
                       builder);
    context.map(splat.getResult(),
                broadcastTrailing(context, builder, loc, element, batchedType,
                                  laneSizes));
    return success();
  }
};

// vmap(t[o:o+s]) with shared o => t'[0, o : B, s]
// vmap(t[o:o+s]) with per-lane o => for b: r[b] = t'[b, o[b] : 1, s]
struct ExtractSliceBatchingModel
    : public BatchingOpInterface::ExternalModel<ExtractSliceBatchingModel,
                                                tensor::ExtractSliceOp> {
  LogicalResult batch(Operation *op, BatchingContext &context,
                      OpBuilder &builder) const {
    auto slice = cast<tensor::ExtractSliceOp>(op);
    if (anyBatched(context, slice.getMixedSizes()))
      return unsupported(op, "its size differs per lane (ragged batch)");
    Location loc = op->getLoc();
    if (anyBatched(context, slice.getMixedOffsets()) ||
        anyBatched(context, slice.getMixedStrides())) {
      // Each lane's slice has the shared sizes, less the dropped unit axes.
      SmallVector<OpFoldResult> laneSizes;
      llvm::SmallBitVector dropped = slice.getDroppedDims();
      for (auto [dim, size] :
           llvm::enumerate(mapOFRs(context, slice.getMixedSizes())))
        if (!dropped.test(dim))
          laneSizes.push_back(size);
      Value dest = context.createEmpty(
          builder, loc, context.getBatchedType(slice.getType()), laneSizes);
      return context.batchPerLane(builder, op, /*skipInactive=*/true, dest);
    }
    Value source = context.lookupBatched(builder, loc, slice.getSource());
    SmallVector<OpFoldResult> offsets{builder.getIndexAttr(0)};
    SmallVector<OpFoldResult> sizes{getBatchSizeOFR(context, builder)};
    SmallVector<OpFoldResult> strides{builder.getIndexAttr(1)};
    llvm::append_range(offsets, mapOFRs(context, slice.getMixedOffsets()));
    llvm::append_range(sizes, mapOFRs(context, slice.getMixedSizes()));
    llvm::append_range(strides, mapOFRs(context, slice.getMixedStrides()));
    auto resultType =
        cast<RankedTensorType>(context.getBatchedType(slice.getType()));
    Value result = builder.create<tensor::ExtractSliceOp>(
        loc, resultType, source, offsets, sizes, strides);
    context.map(slice.getResult(), result);
    return success();
  }
};

// vmap(insert_slice v into t[o]) with shared o => insert_slice v' into t'[0, o]
// with per-lane o, or under a mask => for b: if active[b]: t'[b, o[b]] = v[b]
struct InsertSliceBatchingModel
    : public BatchingOpInterface::ExternalModel<InsertSliceBatchingModel,
                                                tensor::InsertSliceOp> {
  LogicalResult batch(Operation *op, BatchingContext &context,
                      OpBuilder &builder) const {
    auto slice = cast<tensor::InsertSliceOp>(op);
    if (anyBatched(context, slice.getMixedSizes()))
      return unsupported(op, "its size differs per lane (ragged batch)");
    Location loc = op->getLoc();
    Value dest = context.lookupBatched(builder, loc, slice.getDest());
    Value mask = context.getMask();

    if (anyBatched(context, slice.getMixedOffsets()) ||
        anyBatched(context, slice.getMixedStrides())) {
      Value result = buildMaskedLaneWrites(
          context, builder, loc, dest,
          [&](OpBuilder &b, Location l, Value lane, Value acc) -> Value {
            SmallVector<OpFoldResult> offsets{lane};
            SmallVector<OpFoldResult> sizes{b.getIndexAttr(1)};
            SmallVector<OpFoldResult> strides{b.getIndexAttr(1)};
            auto laneOFRs = [&](ArrayRef<OpFoldResult> values,
                                SmallVectorImpl<OpFoldResult> &out) {
              for (OpFoldResult ofr : values) {
                if (auto value = dyn_cast<Value>(ofr))
                  out.push_back(getLaneValue(context, b, l, value, lane));
                else
                  out.push_back(ofr);
              }
            };
            laneOFRs(slice.getMixedOffsets(), offsets);
            laneOFRs(slice.getMixedSizes(), sizes);
            laneOFRs(slice.getMixedStrides(), strides);
            Value source = getLaneValue(context, b, l, slice.getSource(), lane);
            return b.create<tensor::InsertSliceOp>(l, source, acc, offsets,
                                                   sizes, strides);
          });
      context.map(slice.getResult(), result);
      if (mask)
        context.recordUnchangedOnInactive(result, dest);
      return success();
    }

    Value source = context.lookupBatched(builder, loc, slice.getSource());
    SmallVector<OpFoldResult> offsets{builder.getIndexAttr(0)};
    SmallVector<OpFoldResult> sizes{getBatchSizeOFR(context, builder)};
    SmallVector<OpFoldResult> strides{builder.getIndexAttr(1)};
    llvm::append_range(offsets, mapOFRs(context, slice.getMixedOffsets()));
    llvm::append_range(sizes, mapOFRs(context, slice.getMixedSizes()));
    llvm::append_range(strides, mapOFRs(context, slice.getMixedStrides()));
    if (mask) {
      // Shared offsets under a mask: select within the written slice only.
      Value old = builder.create<tensor::ExtractSliceOp>(
          loc, cast<RankedTensorType>(source.getType()), dest, offsets, sizes,
          strides);
      source = context.selectLanes(builder, loc, mask, source, old);
    }
    Value result = builder.create<tensor::InsertSliceOp>(
        loc, source, dest, offsets, sizes, strides);
    context.map(slice.getResult(), result);
    if (mask)
      context.recordUnchangedOnInactive(result, dest);
    return success();
  }
};

// vmap(dim(t, i)) => dim(t', i + 1)   (every lane has the same shape)
struct DimBatchingModel
    : public BatchingOpInterface::ExternalModel<DimBatchingModel,
                                                tensor::DimOp> {
  LogicalResult batch(Operation *op, BatchingContext &context,
                      OpBuilder &builder) const {
    auto dim = cast<tensor::DimOp>(op);
    if (context.isBatched(dim.getIndex()))
      return unsupported(op, "its axis differs per lane");
    Location loc = op->getLoc();
    Value source = context.lookupBatched(builder, loc, dim.getSource());
    // A constant axis stays a constant: loom-shard reads from it which axis
    // a tensor.dim asks for.
    Value index = context.lookup(dim.getIndex());
    if (std::optional<int64_t> axis = getConstantIntValue(index))
      index = builder.create<arith::ConstantIndexOp>(loc, *axis + 1);
    else
      index = builder.create<arith::AddIOp>(
          loc, index, builder.create<arith::ConstantIndexOp>(loc, 1));
    context.map(dim.getResult(),
                builder.create<tensor::DimOp>(loc, source, index));
    return success();
  }
};

//===----------------------------------------------------------------------===//
// func
//===----------------------------------------------------------------------===//

// vmap(call @f(x, c)) => call @f_vmap(x', c)   (one clone per signature)
struct CallBatchingModel
    : public BatchingOpInterface::ExternalModel<CallBatchingModel,
                                                func::CallOp> {
  LogicalResult batch(Operation *op, BatchingContext &context,
                      OpBuilder &builder) const {
    auto call = cast<func::CallOp>(op);
    SmallVector<bool> resultBatched;
    FailureOr<func::FuncOp> callee =
        context.getBatchedCallee(call, resultBatched);
    if (failed(callee))
      return failure();
    Location loc = op->getLoc();
    SmallVector<Value> operands;
    for (Value operand : call.getOperands()) {
      Value value =
          context.lookupAs(builder, loc, operand, context.isBatched(operand));
      operands.push_back(value);
    }
    // A callee batched under a mask takes it last.
    if (callee->getNumArguments() == operands.size() + 1)
      operands.push_back(context.getMask());
    auto batched = builder.create<func::CallOp>(loc, *callee, operands);
    for (auto [result, newResult] :
         llvm::zip(call.getResults(), batched.getResults()))
      context.map(result, newResult);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// scf.if
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

// vmap(if c then a else b) with shared c => if c then a' else b'
// with per-lane c => a' under mask c, b' under mask !c, select(c, a', b');
//   a buffer both branches only write under their masks needs no select:
//   the else branch writes into the then branch's result.
struct IfBatchingModel
    : public BatchingOpInterface::ExternalModel<IfBatchingModel, scf::IfOp> {
  LogicalResult batch(Operation *op, BatchingContext &context,
                      OpBuilder &builder) const {
    auto branch = cast<scf::IfOp>(op);
    SmallVector<bool> batched;
    for (Value result : branch.getResults())
      batched.push_back(context.isBatched(result));
    if (!context.isControlBatched(op))
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
    OpBuilder::InsertionGuard guard(builder);
    SmallVector<Value> thenValues, elseValues;
    for (auto [block, newBlock, values] :
         {std::make_tuple(branch.thenBlock(), newIf.thenBlock(), &thenValues),
          std::make_tuple(branch.elseBlock(), newIf.elseBlock(),
                          &elseValues)}) {
      if (!block)
        continue;
      // The builder made empty blocks or blocks ending in an empty yield.
      if (!newBlock->empty())
        newBlock->getTerminator()->erase();
      builder.setInsertionPointToEnd(newBlock);
      FailureOr<SmallVector<Value>> yielded =
          batchYieldingBlock(context, builder, *block, batched);
      if (failed(yielded))
        return failure();
      builder.create<scf::YieldOp>(block->getTerminator()->getLoc(), *yielded);
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
      context.map(result,
                  context.selectLanes(builder, loc, cond, (*thenValues)[i],
                                      (*elseValues)[i]));
    }
    return success();
  }
};

//===----------------------------------------------------------------------===//
// scf.for
//===----------------------------------------------------------------------===//

// vmap(for i in [l, u) (x) b) with shared bounds => for i in [l, u) (x') b'
struct ForBatchingModel
    : public BatchingOpInterface::ExternalModel<ForBatchingModel, scf::ForOp> {
  LogicalResult batch(Operation *op, BatchingContext &context,
                      OpBuilder &builder) const {
    auto loop = cast<scf::ForOp>(op);
    FailureOr<LoopStrategy> strategy = context.getLoopStrategy(op);
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
      return context.batchPerLane(builder, op, /*skipInactive=*/true,
                                  destinations);
    }

    Location loc = loop.getLoc();
    SmallVector<Value> looked;
    for (auto [init, arg] :
         llvm::zip(loop.getInitArgs(), loop.getRegionIterArgs()))
      looked.push_back(
          context.lookupAs(builder, loc, init, context.isBatched(arg)));
    SmallVector<Value> inits = ownCarries(context, builder, loc, looked);
    auto newLoop =
        builder.create<scf::ForOp>(loc, context.lookup(loop.getLowerBound()),
                                   context.lookup(loop.getUpperBound()),
                                   context.lookup(loop.getStep()), inits);
    newLoop->setDiscardableAttrs(loop->getDiscardableAttrDictionary());
    Block *body = newLoop.getBody();
    context.map(loop.getInductionVar(), newLoop.getInductionVar());
    for (auto [arg, newArg] :
         llvm::zip(loop.getRegionIterArgs(), newLoop.getRegionIterArgs()))
      context.map(arg, newArg);

    OpBuilder::InsertionGuard guard(builder);
    if (!body->empty())
      body->getTerminator()->erase();
    builder.setInsertionPointToEnd(body);
    SmallVector<bool> batched;
    for (Value arg : loop.getRegionIterArgs())
      batched.push_back(context.isBatched(arg));
    FailureOr<SmallVector<Value>> yielded =
        batchYieldingBlock(context, builder, *loop.getBody(), batched);
    if (failed(yielded))
      return failure();
    builder.create<scf::YieldOp>(loop.getBody()->getTerminator()->getLoc(),
                                 *yielded);

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

//===----------------------------------------------------------------------===//
// scf.while
//===----------------------------------------------------------------------===//

// e & p => for b: a[b] = e[b] & p[b]
/// The lanes of the enclosing mask `entry` (all when null) whose predicate
/// holds, written over the loop's mask buffer `active` without reading it.
/// A loop over lanes rather than a linalg.generic: elementwise fusion gives
/// a generic that does not read its `outs` a fresh tensor.empty instead,
/// and the mask would then be copied into a new buffer on every iteration
/// to be forwarded by scf.condition.
static Value activeLanes(BatchingContext &context, OpBuilder &builder,
                         Location loc, Value pred, Value entry, Value active) {
  return context
      .buildLaneLoop(builder, loc, active,
                     [&](OpBuilder &b, Location l, Value lane,
                         ValueRange mask) -> SmallVector<Value> {
                       Value bit = b.create<tensor::ExtractOp>(l, pred, lane);
                       if (entry)
                         bit = b.create<arith::AndIOp>(
                             l, b.create<tensor::ExtractOp>(l, entry, lane),
                             bit);
                       return {b.create<tensor::InsertOp>(l, bit, mask.front(),
                                                          lane)};
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

/// The carry `forwarded` is, when scf.condition passes a carry through.
static std::optional<unsigned> getForwardedCarry(scf::WhileOp loop,
                                                 Value forwarded) {
  auto arg = dyn_cast<BlockArgument>(forwarded);
  if (!arg || arg.getOwner() != loop.getBeforeBody())
    return std::nullopt;
  return arg.getArgNumber();
}

struct WhileBatchingModel
    : public BatchingOpInterface::ExternalModel<WhileBatchingModel,
                                                scf::WhileOp> {
  LogicalResult batch(Operation *op, BatchingContext &context,
                      OpBuilder &builder) const {
    auto loop = cast<scf::WhileOp>(op);
    FailureOr<LoopStrategy> strategy = context.getLoopStrategy(op);
    if (failed(strategy))
      return failure();
    switch (*strategy) {
    case LoopStrategy::Uniform:
      return batchUniform(loop, context, builder);
    case LoopStrategy::Masked:
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
    SmallVector<Value> looked;
    for (auto [init, arg] :
         llvm::zip(loop.getInits(), loop.getBeforeArguments()))
      looked.push_back(
          context.lookupAs(builder, loc, init, context.isBatched(arg)));
    SmallVector<Value> inits = ownCarries(context, builder, loc, looked);
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
          for (auto [arg, newArg] : llvm::zip(loop.getBeforeArguments(), args))
            context.map(arg, newArg);
          if (failed(context.batchBlock(*loop.getBeforeBody(), b))) {
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
          for (auto [arg, newArg] : llvm::zip(loop.getAfterArguments(), args))
            context.map(arg, newArg);
          if (failed(context.batchBlock(*loop.getAfterBody(), b))) {
            failedBody = true;
            return;
          }
          for (auto [value, arg] :
               llvm::zip(yield.getResults(), loop.getBeforeArguments()))
            newYields.push_back(
                context.lookupAs(b, l, value, context.isBatched(arg)));
          b.create<scf::YieldOp>(yield.getLoc(), newYields);
        });
    newLoop->setDiscardableAttrs(loop->getDiscardableAttrDictionary());
    // What was decided replaces what was asked for (loom-vmap's contract
    // for loom.strategy on the loops it builds).
    newLoop->setAttr(
        LoomDialect::kStrategyAttrName,
        LoopStrategyAttr::get(loop.getContext(), LoopStrategy::Uniform));
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

    SmallVector<Value> looked;
    for (Value init : loop.getInits())
      looked.push_back(context.lookupBatched(builder, loc, init));
    SmallVector<Value> inits = ownCarries(context, builder, loc, looked);
    // The mask's buffer: an allocation, not a tensor.empty, which CSE would
    // merge with the enclosing loop's, so that one-shot bufferization (to
    // which an empty tensor holds nothing to protect) gives both loops one
    // buffer.
    Value entryMask = context.getMask();
    auto maskType =
        cast<RankedTensorType>(context.getBatchedType(builder.getI1Type()));
    SmallVector<Value> maskSizes;
    if (maskType.isDynamicDim(0))
      maskSizes.push_back(context.getBatchSize());
    inits.push_back(builder.create<bufferization::AllocTensorOp>(
        loc, maskType, maskSizes));

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
          for (auto [arg, newArg] : llvm::zip(loop.getBeforeArguments(), args))
            context.map(arg, newArg);
          if (failed(context.batchBlock(*loop.getBeforeBody(), b))) {
            failedBody = true;
            return;
          }
          Location condLoc = cond.getLoc();
          Value pred = context.lookupBatched(b, condLoc, cond.getCondition());
          Value active = activeLanes(context, b, condLoc, pred, entryMask,
                                     args.back());
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
              next[i] = context.selectLanes(b, yieldLoc, active, next[i],
                                            oldCarries[i]);
          next.push_back(active);
          b.create<scf::YieldOp>(yieldLoc, next);
          context.restoreMask(previous);
        });
    newLoop->setDiscardableAttrs(loop->getDiscardableAttrDictionary());
    // The mark loom-localize-loops trusts: every carry of this loop is
    // frozen on a lane once the lane is done, so a shard may stop as soon as
    // its own lanes are.
    newLoop->setAttr(
        LoomDialect::kStrategyAttrName,
        LoopStrategyAttr::get(loop.getContext(), LoopStrategy::Masked));
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
    Location loc = loop.getLoc();
    scf::ConditionOp cond = loop.getConditionOp();
    // Write each result into its carry's init when the condition passes the
    // carry straight through, so a buffer carried by the loop is updated in
    // place and lanes skipped under a mask keep their value.
    SmallVector<Value> destinations;
    SmallVector<bool> fromInit;
    for (auto [j, result] : llvm::enumerate(loop.getResults())) {
      std::optional<unsigned> carry =
          getForwardedCarry(loop, cond.getArgs()[j]);
      if (carry && loop.getInits()[*carry].getType() == result.getType()) {
        destinations.push_back(
            context.lookupBatched(builder, loc, loop.getInits()[*carry]));
        fromInit.push_back(true);
      } else {
        // A lane's result of dynamic shape is only known once its loop has
        // run: batchPerLane says so when it has no destination.
        auto tensor = dyn_cast<RankedTensorType>(result.getType());
        if (tensor && !tensor.hasStaticShape())
          return loop->emitError()
                 << "cannot run this loop lane by lane: result #" << j
                 << " has the dynamic shape " << tensor
                 << " and is not a carry passed through the condition, so "
                 << "its shape is not known before the loop runs on each "
                 << "lane (run it masked: loom.strategy = "
                    "#loom.strategy<masked>)";
        destinations.push_back(context.createEmpty(
            builder, loc, context.getBatchedType(result.getType())));
        fromInit.push_back(false);
      }
    }
    if (failed(context.batchPerLane(builder, loop, /*skipInactive=*/true,
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
// Registration
//===----------------------------------------------------------------------===//

void mlir::loom::registerBatchingOpInterfaceExternalModels(
    DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *ctx, arith::ArithDialect *dialect) {
    attachElementwiseModels(ctx, dialect);
  });
  registry.addExtension(+[](MLIRContext *ctx, math::MathDialect *dialect) {
    attachElementwiseModels(ctx, dialect);
  });
  registry.addExtension(+[](MLIRContext *ctx, tensor::TensorDialect *) {
    tensor::ExtractOp::attachInterface<ExtractBatchingModel>(*ctx);
    tensor::InsertOp::attachInterface<InsertBatchingModel>(*ctx);
    tensor::FromElementsOp::attachInterface<FromElementsBatchingModel>(*ctx);
    tensor::SplatOp::attachInterface<SplatBatchingModel>(*ctx);
    tensor::ExtractSliceOp::attachInterface<ExtractSliceBatchingModel>(*ctx);
    tensor::InsertSliceOp::attachInterface<InsertSliceBatchingModel>(*ctx);
    tensor::DimOp::attachInterface<DimBatchingModel>(*ctx);
  });
  registry.addExtension(+[](MLIRContext *ctx, scf::SCFDialect *) {
    scf::WhileOp::attachInterface<WhileBatchingModel>(*ctx);
    scf::ForOp::attachInterface<ForBatchingModel>(*ctx);
    scf::IfOp::attachInterface<IfBatchingModel>(*ctx);
  });
  registry.addExtension(+[](MLIRContext *ctx, func::FuncDialect *) {
    func::CallOp::attachInterface<CallBatchingModel>(*ctx);
  });
}
