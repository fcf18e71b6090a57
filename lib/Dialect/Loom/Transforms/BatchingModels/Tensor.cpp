//===- Tensor.cpp - Batching rules of tensor ops --------------------------===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//
//
// Element, slice and shape ops of tensor. An index every lane shares reads or
// writes one column of the batched tensor (a slice across the lane axis); a
// per-lane index runs a loop over lanes. Writes under a mask touch only the
// active lanes, in place: never a select of the whole tensor, which
// bufferizes to a copy.
//
//===----------------------------------------------------------------------===//

#include "BatchingModels.h"

#include "loom/Dialect/Loom/Utils/BatchingUtils.h"
#include "loom/Interfaces/BatchingOpInterface.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/IndexingUtils.h"
#include "mlir/IR/DialectRegistry.h"

using namespace mlir;
using namespace mlir::loom;

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

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

/// Fails with a diagnostic naming the op and what makes it unbatchable.
static LogicalResult unsupported(Operation *op, const Twine &why) {
  return op->emitError() << "cannot batch '" << op->getName() << "': " << why;
}

/// `values` with each Value replaced by `map(value)`.
static SmallVector<OpFoldResult> mapOFRs(ArrayRef<OpFoldResult> values,
                                         function_ref<Value(Value)> map) {
  SmallVector<OpFoldResult> mapped;
  for (OpFoldResult ofr : values) {
    if (auto value = dyn_cast<Value>(ofr))
      mapped.push_back(map(value));
    else
      mapped.push_back(ofr);
  }
  return mapped;
}

static SmallVector<OpFoldResult> mapOFRs(BatchingContext &context,
                                         ArrayRef<OpFoldResult> values) {
  return mapOFRs(values, [&](Value value) { return context.lookup(value); });
}

/// True when an offset or a stride of `slice` differs per lane; fails on a
/// size that does (a ragged batch).
static FailureOr<bool> hasPerLaneOffsets(BatchingContext &context,
                                         OffsetSizeAndStrideOpInterface slice) {
  if (anyBatched(context, slice.getMixedSizes()))
    return unsupported(slice, "its size differs per lane (ragged batch)");
  return anyBatched(context, slice.getMixedOffsets()) ||
         anyBatched(context, slice.getMixedStrides());
}

namespace {
/// Where a slice of a batched tensor is.
struct BatchedSlice {
  SmallVector<OpFoldResult> offsets, sizes, strides;
};
} // namespace

/// The column of a batched tensor of rank `rank` at `indices`, an element
/// every lane shares: [0, i...] of sizes [B, 1...].
static BatchedSlice getColumn(BatchingContext &context, OpBuilder &builder,
                              ValueRange indices, int64_t rank) {
  BatchedSlice column{{builder.getIndexAttr(0)},
                      {getBatchSizeOFR(context, builder)},
                      SmallVector<OpFoldResult>(rank, builder.getIndexAttr(1))};
  for (Value index : indices) {
    column.offsets.push_back(context.lookup(index));
    column.sizes.push_back(builder.getIndexAttr(1));
  }
  return column;
}

/// `slice` (offsets every lane shares) on every lane: [0, o...] of sizes
/// [B, s...] and strides [1, t...].
static BatchedSlice getColumn(BatchingContext &context, OpBuilder &builder,
                              OffsetSizeAndStrideOpInterface slice) {
  BatchedSlice column{{builder.getIndexAttr(0)},
                      {getBatchSizeOFR(context, builder)},
                      {builder.getIndexAttr(1)}};
  llvm::append_range(column.offsets, mapOFRs(context, slice.getMixedOffsets()));
  llvm::append_range(column.sizes, mapOFRs(context, slice.getMixedSizes()));
  llvm::append_range(column.strides, mapOFRs(context, slice.getMixedStrides()));
  return column;
}

/// `dest` with `column` replaced by `value`, on the lanes of the mask only:
/// under a mask, `value` is first selected into the old column.
static Value insertColumn(BatchingContext &context, OpBuilder &builder,
                          Location loc, Value value, Value dest,
                          const BatchedSlice &column) {
  if (Value mask = context.getMask()) {
    Value old = builder.create<tensor::ExtractSliceOp>(
        loc, cast<RankedTensorType>(value.getType()), dest, column.offsets,
        column.sizes, column.strides);
    value = selectLanes(builder, loc, mask, value, old);
  }
  return builder.create<tensor::InsertSliceOp>(loc, value, dest, column.offsets,
                                               column.sizes, column.strides);
}

/// Maps `original`, a write into `dest`, to `written`, which equals `dest`
/// on the lanes the mask clears.
static LogicalResult mapWrite(BatchingContext &context, Value original,
                              Value written, Value dest) {
  context.map(original, written);
  if (context.getMask())
    context.recordUnchangedOnInactive(written, dest);
  return success();
}

/// Builds `for b: if mask[b]: dest[b, idx...] = write(b)` (the `if` only
/// under a mask) and returns the updated destination. `write` inserts one
/// lane's value into `acc` at lane `lane`.
static Value buildMaskedLaneWrites(
    BatchingContext &context, OpBuilder &builder, Location loc, Value dest,
    function_ref<Value(OpBuilder &, Location, Value lane, Value acc)> write) {
  Value mask = context.getMask();
  return buildLaneLoop(
      context, builder, loc, dest,
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

namespace {

//===----------------------------------------------------------------------===//
// Elements
//===----------------------------------------------------------------------===//

// vmap(t[i]) with shared i => extract_slice t'[0, i][B, 1]
//   (collapse_shape t' when t has one element)
// vmap(t[i]) with per-lane i => for b: r[b] = t'[b, i[b]]
struct ExtractBatchingModel
    : public OpBatchingModel<ExtractBatchingModel, tensor::ExtractOp> {
  static LogicalResult batchOp(tensor::ExtractOp extract,
                               BatchingContext &context, OpBuilder &builder) {
    // A lane's own index may be out of bounds on a lane the mask clears (its
    // values are stale), so those lanes do not read at all.
    if (anyBatched(context, extract.getIndices()))
      return batchPerLane(context, builder, extract, /*skipInactive=*/true);
    Location loc = extract.getLoc();
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
      context.map(
          extract.getResult(),
          builder.create<tensor::CollapseShapeOp>(
              loc, resultType, source, ArrayRef<ReassociationIndices>{all}));
      return success();
    }
    BatchedSlice column =
        getColumn(context, builder, extract.getIndices(), sourceType.getRank());
    context.map(extract.getResult(),
                builder.create<tensor::ExtractSliceOp>(
                    loc, resultType, source, column.offsets, column.sizes,
                    column.strides));
    return success();
  }
};

// vmap(t[i] = v) with per-lane i, or under a mask
//   => for b: if active[b]: t'[b, i[b]] = v[b]
// vmap(t[i] = v) with shared i => insert_slice v' into t'[0, i][B, 1]
struct InsertBatchingModel
    : public OpBatchingModel<InsertBatchingModel, tensor::InsertOp> {
  static LogicalResult batchOp(tensor::InsertOp insert,
                               BatchingContext &context, OpBuilder &builder) {
    Location loc = insert.getLoc();
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
      return mapWrite(context, insert.getResult(), result, dest);
    }

    Value scalar = context.lookupBatched(builder, loc, insert.getScalar());
    if (destType.getRank() == 1) {
      // A rank-0 lane tensor: the inserted scalar is the whole lane.
      Value result =
          mask ? selectLanes(builder, loc, mask, scalar, dest) : scalar;
      return mapWrite(context, insert.getResult(), result, dest);
    }
    // A shared index under a mask selects within the written column only.
    BatchedSlice column =
        getColumn(context, builder, insert.getIndices(), destType.getRank());
    return mapWrite(context, insert.getResult(),
                    insertColumn(context, builder, loc, scalar, dest, column),
                    dest);
  }
};

// vmap(from_elements(x, y)) => insert_slice x', y' into empty[0, k][B, 1]
struct FromElementsBatchingModel
    : public OpBatchingModel<FromElementsBatchingModel,
                             tensor::FromElementsOp> {
  static LogicalResult batchOp(tensor::FromElementsOp fromElements,
                               BatchingContext &context, OpBuilder &builder) {
    Location loc = fromElements.getLoc();
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
    Value result = createEmpty(context, builder, loc, batchedType);
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
    : public OpBatchingModel<SplatBatchingModel, tensor::SplatOp> {
  static LogicalResult batchOp(tensor::SplatOp splat, BatchingContext &context,
                               OpBuilder &builder) {
    if (anyBatched(context, splat.getDynamicSizes()))
      return unsupported(splat, "its size differs per lane (ragged batch)");
    Location loc = splat.getLoc();
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

//===----------------------------------------------------------------------===//
// Slices
//===----------------------------------------------------------------------===//

// vmap(t[o:o+s]) with shared o => t'[0, o : B, s]
// vmap(t[o:o+s]) with per-lane o => for b: r[b] = t'[b, o[b] : 1, s]
struct ExtractSliceBatchingModel
    : public OpBatchingModel<ExtractSliceBatchingModel,
                             tensor::ExtractSliceOp> {
  static LogicalResult batchOp(tensor::ExtractSliceOp slice,
                               BatchingContext &context, OpBuilder &builder) {
    FailureOr<bool> perLane = hasPerLaneOffsets(context, slice);
    if (failed(perLane))
      return failure();
    Location loc = slice.getLoc();
    if (*perLane) {
      // Each lane's slice has the shared sizes, less the dropped unit axes.
      SmallVector<OpFoldResult> laneSizes;
      llvm::SmallBitVector dropped = slice.getDroppedDims();
      for (auto [dim, size] :
           llvm::enumerate(mapOFRs(context, slice.getMixedSizes())))
        if (!dropped.test(dim))
          laneSizes.push_back(size);
      Value dest =
          createEmpty(context, builder, loc,
                      context.getBatchedType(slice.getType()), laneSizes);
      return batchPerLane(context, builder, slice, /*skipInactive=*/true, dest);
    }
    Value source = context.lookupBatched(builder, loc, slice.getSource());
    BatchedSlice column = getColumn(context, builder, slice);
    auto resultType =
        cast<RankedTensorType>(context.getBatchedType(slice.getType()));
    Value result = builder.create<tensor::ExtractSliceOp>(
        loc, resultType, source, column.offsets, column.sizes, column.strides);
    context.map(slice.getResult(), result);
    return success();
  }
};

// vmap(insert_slice v into t[o]) with shared o => insert_slice v' into t'[0, o]
// with per-lane o, or under a mask => for b: if active[b]: t'[b, o[b]] = v[b]
struct InsertSliceBatchingModel
    : public OpBatchingModel<InsertSliceBatchingModel, tensor::InsertSliceOp> {
  static LogicalResult batchOp(tensor::InsertSliceOp slice,
                               BatchingContext &context, OpBuilder &builder) {
    FailureOr<bool> perLane = hasPerLaneOffsets(context, slice);
    if (failed(perLane))
      return failure();
    Location loc = slice.getLoc();
    Value dest = context.lookupBatched(builder, loc, slice.getDest());

    if (*perLane) {
      Value result = buildMaskedLaneWrites(
          context, builder, loc, dest,
          [&](OpBuilder &b, Location l, Value lane, Value acc) -> Value {
            auto onLane = [&](Value value) {
              return getLaneValue(context, b, l, value, lane);
            };
            SmallVector<OpFoldResult> offsets{lane};
            SmallVector<OpFoldResult> sizes{b.getIndexAttr(1)};
            SmallVector<OpFoldResult> strides{b.getIndexAttr(1)};
            llvm::append_range(offsets,
                               mapOFRs(slice.getMixedOffsets(), onLane));
            llvm::append_range(sizes, mapOFRs(slice.getMixedSizes(), onLane));
            llvm::append_range(strides,
                               mapOFRs(slice.getMixedStrides(), onLane));
            Value source = onLane(slice.getSource());
            return b.create<tensor::InsertSliceOp>(l, source, acc, offsets,
                                                   sizes, strides);
          });
      return mapWrite(context, slice.getResult(), result, dest);
    }

    // Shared offsets under a mask select within the written slice only.
    Value source = context.lookupBatched(builder, loc, slice.getSource());
    BatchedSlice column = getColumn(context, builder, slice);
    return mapWrite(context, slice.getResult(),
                    insertColumn(context, builder, loc, source, dest, column),
                    dest);
  }
};

//===----------------------------------------------------------------------===//
// Shapes
//===----------------------------------------------------------------------===//

// vmap(dim(t, i)) => dim(t', i + 1)   (every lane has the same shape)
struct DimBatchingModel
    : public OpBatchingModel<DimBatchingModel, tensor::DimOp> {
  static LogicalResult batchOp(tensor::DimOp dim, BatchingContext &context,
                               OpBuilder &builder) {
    if (context.isBatched(dim.getIndex()))
      return unsupported(dim, "its axis differs per lane");
    Location loc = dim.getLoc();
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

} // namespace

void mlir::loom::registerTensorBatchingModels(DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *ctx, tensor::TensorDialect *) {
    tensor::ExtractOp::attachInterface<ExtractBatchingModel>(*ctx);
    tensor::InsertOp::attachInterface<InsertBatchingModel>(*ctx);
    tensor::FromElementsOp::attachInterface<FromElementsBatchingModel>(*ctx);
    tensor::SplatOp::attachInterface<SplatBatchingModel>(*ctx);
    tensor::ExtractSliceOp::attachInterface<ExtractSliceBatchingModel>(*ctx);
    tensor::InsertSliceOp::attachInterface<InsertSliceBatchingModel>(*ctx);
    tensor::DimOp::attachInterface<DimBatchingModel>(*ctx);
  });
}
