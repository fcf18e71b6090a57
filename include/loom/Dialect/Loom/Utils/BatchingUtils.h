//===- BatchingUtils.h - Ops that batching rules build ----------*- C++ -*-===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//
//
// The shapes every batching rule builds, for the rules of Loom's own ops
// (LoomBatching.cpp), the external models of upstream ops and `loom-vmap`:
// tensors with the lane axis, lanes of them, masked selects and loops over
// lanes. They read the batch size, the mask and the value mapping of a
// BatchingContext, and depend on no Loom dialect op.
//
//===----------------------------------------------------------------------===//

#ifndef LOOM_DIALECT_LOOM_UTILS_BATCHINGUTILS_H
#define LOOM_DIALECT_LOOM_UTILS_BATCHINGUTILS_H

#include "loom/Interfaces/BatchingOpInterface.h"

namespace mlir::loom {

//===----------------------------------------------------------------------===//
// Batched tensors and their lanes
//===----------------------------------------------------------------------===//

/// The lane-axis size as an OpFoldResult: an attribute when static.
OpFoldResult getBatchSizeOFR(BatchingContext &context, OpBuilder &builder);

/// A tensor.empty of `batchedType`: the lane axis sized by the batch, the
/// lane's own axes by `laneSizes` (one per axis after the lane axis). A
/// type whose lane axes are all static needs no `laneSizes`.
Value createEmpty(BatchingContext &context, OpBuilder &builder, Location loc,
                  Type batchedType, ArrayRef<OpFoldResult> laneSizes = {});

/// The sizes of a lane of `batched` (its axes after the lane axis): static
/// ones as attributes, dynamic ones read with tensor.dim. Every lane has the
/// same shape, the one it is batched with.
SmallVector<OpFoldResult> getLaneSizes(OpBuilder &builder, Location loc,
                                       Value batched);

/// `unbatched` on every lane, at the insertion point: linalg.fill for a
/// scalar, linalg.broadcast for a tensor. BatchingContext::broadcast builds
/// it once per value, where the value is defined.
Value buildBroadcast(BatchingContext &context, OpBuilder &builder, Location loc,
                     Value unbatched);

/// `batched` (a tensor with the lane axis and maybe some lane axes)
/// broadcast along further trailing axes to `batchedType`, whose lane axes
/// have the sizes `laneSizes`; `batched` itself when the ranks agree.
Value broadcastTrailing(BatchingContext &context, OpBuilder &builder,
                        Location loc, Value batched, Type batchedType,
                        ArrayRef<OpFoldResult> laneSizes);

/// Lane `lane` of `batched`: tensor.extract or a rank-reducing
/// tensor.extract_slice.
Value extractLane(OpBuilder &builder, Location loc, Value batched, Value lane);

/// `dest` with lane `lane` replaced by `laneValue`: tensor.insert or a
/// rank-reducing tensor.insert_slice (destination-passing, in place once
/// bufferized).
Value insertLane(OpBuilder &builder, Location loc, Value laneValue, Value dest,
                 Value lane);

/// The value of `original` on lane `lane`: extracted when batched, itself
/// when every lane shares it.
Value getLaneValue(BatchingContext &context, OpBuilder &builder, Location loc,
                   Value original, Value lane);

//===----------------------------------------------------------------------===//
// Buffers of their own
//===----------------------------------------------------------------------===//

/// A tensor like `like` in a buffer of its own: a
/// bufferization.alloc_tensor, which CSE leaves alone, where two tensor.empty
/// of one size would become one.
Value allocTensorLike(OpBuilder &builder, Location loc, Value like);
/// A batch of scalars `laneType` in a buffer of its own (an alloc_tensor, as
/// allocTensorLike): a loop's lane mask, or values a loop over lanes writes.
Value allocLanes(BatchingContext &context, OpBuilder &builder, Location loc,
                 Type laneType);

/// A copy of `tensor` in a tensor of its own (linalg.copy into
/// `allocTensorLike`): once bufferized, a buffer with the identity layout,
/// not a view into another one.
Value copyToNewTensor(OpBuilder &builder, Location loc, Value tensor);

/// The inits of a loop's carries, each a tensor the loop may update in
/// place without copying at entry:
///  - a view (a slice or reshape of another tensor) is copied, or its carry
///    would bufferize with a fully dynamic layout;
///  - a broadcast scalar (linalg.fill, built once where the scalar is
///    defined) is filled anew, which writes what a copy would;
///  - a value that an earlier carry starts from too is copied: two carries
///    need two buffers, and this says so rather than leaving the copy to
///    bufferization.
SmallVector<Value> ownCarries(OpBuilder &builder, Location loc,
                              ArrayRef<Value> values);

/// `ownCarries` of the inits of a loop whose carries are `carries` (block
/// arguments of the scalar loop): each init is looked up batched exactly
/// when its carry is.
SmallVector<Value> lookupOwnCarries(BatchingContext &context,
                                    OpBuilder &builder, Location loc,
                                    ValueRange inits, ValueRange carries);

//===----------------------------------------------------------------------===//
// Lane masks
//===----------------------------------------------------------------------===//

/// `select(mask, onTrue, onFalse)` lane by lane, written into `onFalse`
/// (a linalg.generic), so it bufferizes in place.
Value selectLanes(OpBuilder &builder, Location loc, Value mask, Value onTrue,
                  Value onFalse);

/// `batched` with `safe` on every lane the context's mask clears, `batched`
/// itself without a mask: a linalg.generic select, which fuses into the
/// elementwise op that reads it. Active lanes keep their value, so an
/// active lane that divides by zero does what the scalar program does.
Value selectOnInactive(BatchingContext &context, OpBuilder &builder,
                       Location loc, Value batched, int64_t safe);

//===----------------------------------------------------------------------===//
// Loops over lanes
//===----------------------------------------------------------------------===//

/// The body of a loop over lanes: returns the values to yield.
using LaneBodyFn = function_ref<SmallVector<Value>(
    OpBuilder &, Location, Value lane, ValueRange iterArgs)>;

/// Builds `scf.for %lane = 0 to B iter_args(inits)` around `body`. Returns
/// the loop's results.
ValueRange buildLaneLoop(BatchingContext &context, OpBuilder &builder,
                         Location loc, ValueRange inits, LaneBodyFn body);

/// The generic per-lane rule: an scf.for over lanes that runs a scalar
/// clone of `op` on each lane's operands and inserts its results,
/// destination-passing. With `skipInactive`, lanes the mask clears keep
/// the destination's lane unchanged (and never run `op`). `destinations`
/// (batched, one per result) default to tensor.empty.
LogicalResult batchPerLane(BatchingContext &context, OpBuilder &builder,
                           Operation *op, bool skipInactive,
                           ArrayRef<Value> destinations = {});

} // namespace mlir::loom

#endif // LOOM_DIALECT_LOOM_UTILS_BATCHINGUTILS_H
