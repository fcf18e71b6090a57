//===- SplitLaneTensors.cpp - One lane vector per element -----------------===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//
//
// What the pass does and why is in its description (Passes.td). How: the
// rewrites that split (a lane loop's batch, an elementwise op) leave the
// batch rebuilt from the element vectors by insert_slices after them, and
// the folds read every element and column through those slices, as
// upstream's fold-memref-alias-ops reads a memref.load through a subview.
// So no rewrite needs to know its readers, and the rebuilt batch dies where
// nothing reads it whole; the loop split is only made where that is so,
// since a batch read whole would be interleaved anew. An elementwise op is
// split wherever its operands' vectors are known: its readers are the next
// ops of the same kind, or reads the folds resolve.
//
//===----------------------------------------------------------------------===//

#include "loom/Transforms/Passes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Affine/ViewLikeInterfaceUtils.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tensor/Transforms/Transforms.h"
#include "mlir/Dialect/Utils/IndexingUtils.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/ValueBoundsOpInterface.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::loom {
#define GEN_PASS_DEF_LOOMSPLITLANETENSORS
#include "loom/Transforms/Passes.h.inc"
} // namespace mlir::loom

using namespace mlir;

namespace {

/// extract(extract_slice(%t)[offsets][strides], i) = extract(%t, offsets +
/// i * strides), with index 0 of each dimension the slice dropped.
struct ExtractOfExtractSlice : OpRewritePattern<tensor::ExtractOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(tensor::ExtractOp extract,
                                PatternRewriter &rewriter) const override {
    auto slice = extract.getTensor().getDefiningOp<tensor::ExtractSliceOp>();
    if (!slice)
      return failure();
    SmallVector<Value> indices;
    affine::resolveIndicesIntoOpWithOffsetsAndStrides(
        rewriter, extract.getLoc(), slice.getMixedOffsets(),
        slice.getMixedStrides(), slice.getDroppedDims(), extract.getIndices(),
        indices);
    rewriter.replaceOpWithNewOp<tensor::ExtractOp>(extract, slice.getSource(),
                                                   indices);
    return success();
  }
};

/// Where an index of one dimension lies against an insert_slice's range in
/// that dimension.
enum class Place { Inside, Outside, Unknown };

/// `index` against [offset, offset + size), the insertion's unit-stride
/// range in dimension `dim` of `dest`. An index that is not a constant is
/// known to be inside only when the range covers the whole dimension: it is
/// in bounds, as tensor.extract requires.
static Place placeIndex(Value index, OpFoldResult offset, OpFoldResult size,
                        Value dest, int64_t dim) {
  std::optional<int64_t> i = getConstantIntValue(index);
  std::optional<int64_t> lo = getConstantIntValue(offset);
  std::optional<int64_t> n = getConstantIntValue(size);
  if (i && lo && n)
    return *i >= *lo && *i < *lo + *n ? Place::Inside : Place::Outside;
  if (!lo || *lo != 0)
    return Place::Unknown;
  FailureOr<bool> whole = ValueBoundsConstraintSet::areEqual(
      ValueBoundsConstraintSet::Variable(size),
      ValueBoundsConstraintSet::Variable(dest, dim));
  return succeeded(whole) && *whole ? Place::Inside : Place::Unknown;
}

/// extract(insert_slice(%src into %dest), i): from %src where i lies inside
/// the inserted range in every dimension, from %dest where it lies outside
/// it in one; unit strides only.
struct ExtractOfInsertSlice : OpRewritePattern<tensor::ExtractOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(tensor::ExtractOp extract,
                                PatternRewriter &rewriter) const override {
    auto insert = extract.getTensor().getDefiningOp<tensor::InsertSliceOp>();
    if (!insert || !insert.hasUnitStride())
      return failure();
    SmallVector<OpFoldResult> offsets = insert.getMixedOffsets();
    SmallVector<OpFoldResult> sizes = insert.getMixedSizes();
    bool inside = true;
    for (auto [dim, index] : llvm::enumerate(extract.getIndices())) {
      Place place =
          placeIndex(index, offsets[dim], sizes[dim], insert.getDest(), dim);
      if (place == Place::Outside) {
        rewriter.modifyOpInPlace(extract, [&] {
          extract.getTensorMutable().assign(insert.getDest());
        });
        return success();
      }
      inside &= place == Place::Inside;
    }
    if (!inside)
      return failure();
    llvm::SmallBitVector dropped = insert.getDroppedDims();
    SmallVector<Value> indices;
    AffineExpr d0, s0;
    bindDims(rewriter.getContext(), d0);
    bindSymbols(rewriter.getContext(), s0);
    for (auto [dim, index] : llvm::enumerate(extract.getIndices())) {
      if (dropped.test(dim))
        continue;
      indices.push_back(getValueOrCreateConstantIndexOp(
          rewriter, extract.getLoc(),
          affine::makeComposedFoldedAffineApply(
              rewriter, extract.getLoc(), d0 - s0, {index, offsets[dim]})));
    }
    rewriter.replaceOpWithNewOp<tensor::ExtractOp>(extract, insert.getSource(),
                                                   indices);
    return success();
  }
};

/// Whether the insertion region [offsets, sizes] of `dest` and the
/// extraction region [offsets, sizes], both of unit strides, share no
/// element: in some dimension, their constant ranges do not overlap.
static bool areDisjoint(ArrayRef<OpFoldResult> insertOffsets,
                        ArrayRef<OpFoldResult> insertSizes,
                        ArrayRef<OpFoldResult> extractOffsets,
                        ArrayRef<OpFoldResult> extractSizes) {
  for (auto [io, is, eo, es] :
       llvm::zip(insertOffsets, insertSizes, extractOffsets, extractSizes)) {
    std::optional<int64_t> a = getConstantIntValue(io),
                           n = getConstantIntValue(is),
                           b = getConstantIntValue(eo),
                           m = getConstantIntValue(es);
    if (a && n && b && m && (*a + *n <= *b || *b + *m <= *a))
      return true;
  }
  return false;
}

/// Whether two offsets or sizes are provably equal.
static bool areEqual(OpFoldResult a, OpFoldResult b) {
  if (isEqualConstantIntOrValue(a, b))
    return true;
  FailureOr<bool> equal =
      ValueBoundsConstraintSet::areEqual(ValueBoundsConstraintSet::Variable(a),
                                         ValueBoundsConstraintSet::Variable(b));
  return succeeded(equal) && *equal;
}

/// extract_slice(insert_slice(%src into %dest)): %src where the two cover
/// the same region (and the types agree), an extract_slice of %dest where
/// they share no element; unit strides only.
struct ExtractSliceOfInsertSlice : OpRewritePattern<tensor::ExtractSliceOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(tensor::ExtractSliceOp extract,
                                PatternRewriter &rewriter) const override {
    auto insert = extract.getSource().getDefiningOp<tensor::InsertSliceOp>();
    if (!insert || !insert.hasUnitStride() || !extract.hasUnitStride())
      return failure();
    SmallVector<OpFoldResult> io = insert.getMixedOffsets(),
                              is = insert.getMixedSizes(),
                              eo = extract.getMixedOffsets(),
                              es = extract.getMixedSizes();
    if (areDisjoint(io, is, eo, es)) {
      rewriter.modifyOpInPlace(extract, [&] {
        extract.getSourceMutable().assign(insert.getDest());
      });
      return success();
    }
    if (extract.getType() != insert.getSourceType())
      return failure();
    for (auto [a, n, b, m] : llvm::zip(io, is, eo, es))
      if (!areEqual(a, b) || !areEqual(n, m))
        return failure();
    rewriter.replaceOp(extract, insert.getSource());
    return success();
  }
};

/// Whether `size` is dimension 0 of `batch`, whole.
static bool coversBatch(OpFoldResult size, Value batch) {
  auto type = cast<RankedTensorType>(batch.getType());
  if (!type.isDynamicDim(0))
    return isConstantIntValue(size, type.getDimSize(0));
  FailureOr<bool> equal = ValueBoundsConstraintSet::areEqual(
      ValueBoundsConstraintSet::Variable(size),
      ValueBoundsConstraintSet::Variable(batch, 0));
  return succeeded(equal) && *equal;
}

/// Whether everything that reads `value`, the batch or a slice of it,
/// reads single elements of the batch in a way the folds resolve: by
/// tensor.extract, by a column of the whole batch (`[0, i, ...] [N, 1,
/// ...]`, rank-reduced to tensor<N>), or through slices read so. Indices
/// and offsets must be constants but in the batch's dimension, which is
/// dimension 0 of `value` while `keepsBatch`.
static bool readsOnlyElements(Value value, bool isBatch, bool keepsBatch) {
  auto isLaneDim = [&](size_t d) { return d == 0 && keepsBatch; };
  for (Operation *user : value.getUsers()) {
    if (auto extract = dyn_cast<tensor::ExtractOp>(user)) {
      for (auto [d, index] : llvm::enumerate(extract.getIndices()))
        if (!isLaneDim(d) && !getConstantIntValue(index))
          return false;
      continue;
    }
    auto slice = dyn_cast<tensor::ExtractSliceOp>(user);
    if (!slice || slice.getSource() != value || !slice.hasUnitStride())
      return false;
    SmallVector<OpFoldResult> offsets = slice.getMixedOffsets(),
                              sizes = slice.getMixedSizes();
    for (size_t d = 0; d < offsets.size(); ++d)
      if (!isLaneDim(d) && !getConstantIntValue(offsets[d]))
        return false;
    if (readsOnlyElements(slice.getResult(), /*isBatch=*/false,
                          keepsBatch && !slice.getDroppedDims().test(0)))
      continue;
    if (!isBatch || slice.getType().getRank() != 1 ||
        !isConstantIntValue(offsets[0], 0) || !coversBatch(sizes[0], value))
      return false;
    for (size_t d = 1; d < sizes.size(); ++d)
      if (!isConstantIntValue(sizes[d], 1))
        return false;
  }
  return true;
}

/// A lane loop's batch of small tensors, which it builds one lane's slab at
/// a time: `scf.for %lane = 0 to N` whose iter_arg of type tensor<N x S>
/// (S static, few elements) is only the destination of an insert_slice of
/// the lane's tensor<S> at [%lane, 0, ...], which is yielded.
struct LaneBatch {
  unsigned index;
  tensor::InsertSliceOp insert;
  RankedTensorType type;
};

/// At most this many elements per lane are split into vectors of their own.
constexpr int64_t kMaxLaneElements = 16;

/// The batch shape this pass splits: tensor<N x S> with S static, of 2 to
/// kMaxLaneElements elements.
static bool isSmallLaneBatch(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor || tensor.getRank() < 2 || tensor.getEncoding() ||
      ShapedType::isDynamicShape(tensor.getShape().drop_front()))
    return false;
  int64_t elements = ShapedType::getNumElements(tensor.getShape().drop_front());
  return elements >= 2 && elements <= kMaxLaneElements;
}

/// The positions of a lane's elements, in order.
static SmallVector<SmallVector<int64_t>> lanePositions(RankedTensorType type) {
  ArrayRef<int64_t> shape = type.getShape().drop_front();
  SmallVector<SmallVector<int64_t>> positions;
  SmallVector<int64_t> strides = computeStrides(shape);
  for (int64_t e = 0, n = ShapedType::getNumElements(shape); e < n; ++e)
    positions.push_back(delinearize(e, strides));
  return positions;
}

/// A batch of `type` built from `columns`, one lane vector per element in
/// lanePositions' order; `lanes` is the batch size where it is dynamic.
static Value rebuildBatch(PatternRewriter &rewriter, Location loc,
                          RankedTensorType type, Value lanes,
                          ValueRange columns) {
  Value batch = rewriter.create<tensor::EmptyOp>(
      loc, type, lanes ? ValueRange{lanes} : ValueRange{});
  OpFoldResult one = rewriter.getIndexAttr(1);
  OpFoldResult size =
      lanes ? OpFoldResult(lanes) : rewriter.getIndexAttr(type.getDimSize(0));
  for (auto [position, column] :
       llvm::zip_equal(lanePositions(type), columns)) {
    SmallVector<OpFoldResult> offsets = {rewriter.getIndexAttr(0)};
    for (int64_t index : position)
      offsets.push_back(rewriter.getIndexAttr(index));
    SmallVector<OpFoldResult> sizes(type.getRank(), one);
    sizes[0] = size;
    SmallVector<OpFoldResult> strides(type.getRank(), one);
    batch = rewriter.create<tensor::InsertSliceOp>(loc, column, batch, offsets,
                                                   sizes, strides);
  }
  return batch;
}

static std::optional<LaneBatch> findLaneBatch(scf::ForOp loop, unsigned index) {
  BlockArgument arg = loop.getRegionIterArgs()[index];
  if (!isSmallLaneBatch(arg.getType()) || !arg.hasOneUse())
    return std::nullopt;
  auto type = cast<RankedTensorType>(arg.getType());
  auto insert = dyn_cast<tensor::InsertSliceOp>(*arg.getUsers().begin());
  if (!insert || insert.getDest() != arg || !insert->hasOneUse() ||
      loop.getYieldedValues()[index] != insert.getResult() ||
      !insert.hasUnitStride())
    return std::nullopt;
  SmallVector<OpFoldResult> offsets = insert.getMixedOffsets(),
                            sizes = insert.getMixedSizes();
  if (getAsOpFoldResult(loop.getInductionVar()) != offsets[0] ||
      !isConstantIntValue(sizes[0], 1))
    return std::nullopt;
  for (int64_t d = 1; d < type.getRank(); ++d)
    if (!isConstantIntValue(offsets[d], 0) ||
        !isConstantIntValue(sizes[d], type.getDimSize(d)))
      return std::nullopt;
  // Every lane's slab is written: the result does not depend on the init.
  if (!isConstantIntValue(loop.getLowerBound(), 0) ||
      !isConstantIntValue(loop.getStep(), 1) ||
      !coversBatch(loop.getUpperBound(), loop.getInitArgs()[index]))
    return std::nullopt;
  return LaneBatch{index, insert, type};
}

/// Splits a lane loop's batch of small tensors that is only read element by
/// element into one lane vector per element: each trip inserts the lane's
/// elements into the vectors, and the batch is rebuilt after the loop from
/// them by insert_slices, which the other patterns read through. The old
/// iter_arg yields itself, for scf.for's canonicalization to drop.
struct SplitLaneBatch : OpRewritePattern<scf::ForOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(scf::ForOp loop,
                                PatternRewriter &rewriter) const override {
    std::optional<LaneBatch> batch;
    for (unsigned i = 0; i < loop.getNumRegionIterArgs() && !batch; ++i)
      if ((batch = findLaneBatch(loop, i)) &&
          !readsOnlyElements(loop.getResult(i), /*isBatch=*/true,
                             /*keepsBatch=*/true))
        batch.reset();
    if (!batch)
      return failure();
    Location loc = loop.getLoc();
    RankedTensorType type = batch->type;
    SmallVector<SmallVector<int64_t>> positions = lanePositions(type);
    int64_t elements = positions.size();
    auto vectorType =
        RankedTensorType::get({type.getDimSize(0)}, type.getElementType());
    Value lanes;
    if (type.isDynamicDim(0))
      lanes = rewriter.create<tensor::DimOp>(
          loc, loop.getInitArgs()[batch->index], 0);
    SmallVector<Value> inits;
    for (int64_t e = 0; e < elements; ++e)
      inits.push_back(rewriter.create<tensor::EmptyOp>(
          loc, vectorType, lanes ? ValueRange{lanes} : ValueRange{}));
    Value slab = batch->insert.getSource();
    auto yieldVectors = [&](OpBuilder &b, Location loc,
                            ArrayRef<BlockArgument> vectors) {
      SmallVector<Value> yielded;
      Value lane = vectors.front().getOwner()->getArgument(0);
      for (auto [position, vector] : llvm::zip_equal(positions, vectors)) {
        SmallVector<Value> at;
        for (int64_t index : position)
          at.push_back(b.create<arith::ConstantIndexOp>(loc, index));
        Value element = b.create<tensor::ExtractOp>(loc, slab, at);
        yielded.push_back(
            b.create<tensor::InsertOp>(loc, element, vector, ValueRange{lane}));
      }
      return yielded;
    };
    FailureOr<LoopLikeOpInterface> grown = loop.replaceWithAdditionalYields(
        rewriter, inits, /*replaceInitOperandUsesInLoop=*/false, yieldVectors);
    if (failed(grown))
      return failure();
    auto newLoop = cast<scf::ForOp>(grown->getOperation());
    unsigned index = batch->index;
    auto yield = cast<scf::YieldOp>(newLoop.getBody()->getTerminator());
    rewriter.modifyOpInPlace(yield, [&] {
      yield.setOperand(index, newLoop.getRegionIterArgs()[index]);
    });
    // The batch again, for its readers to read through.
    rewriter.setInsertionPointAfter(newLoop);
    Value rebuilt = rebuildBatch(rewriter, loc, type, lanes,
                                 newLoop.getResults().take_back(elements));
    rewriter.replaceAllUsesWith(newLoop.getResult(index), rebuilt);
    return success();
  }
};

/// The vector of element `position` of every lane of `batch` where insert
/// slices built it from such vectors, null elsewhere.
static Value findInsertedColumn(Value batch, ArrayRef<int64_t> position) {
  Builder attrs(batch.getContext());
  SmallVector<OpFoldResult> offsets = {attrs.getIndexAttr(0)};
  for (int64_t index : position)
    offsets.push_back(attrs.getIndexAttr(index));
  while (auto insert = batch.getDefiningOp<tensor::InsertSliceOp>()) {
    if (!insert.hasUnitStride())
      return nullptr;
    SmallVector<OpFoldResult> io = insert.getMixedOffsets(),
                              is = insert.getMixedSizes();
    // The vector spans every lane: only the other dimensions can keep it
    // clear of an insertion.
    SmallVector<OpFoldResult> ones(io.size() - 1, attrs.getIndexAttr(1));
    if (areDisjoint(ArrayRef(io).drop_front(), ArrayRef(is).drop_front(),
                    ArrayRef(offsets).drop_front(), ones)) {
      batch = insert.getDest();
      continue;
    }
    bool column = insert.getSourceType().getRank() == 1 &&
                  isConstantIntValue(io[0], 0) &&
                  coversBatch(is[0], insert.getDest());
    for (size_t d = 1; d < io.size() && column; ++d)
      column = isConstantIntValue(io[d], position[d - 1]) &&
               isConstantIntValue(is[d], 1);
    return column ? insert.getSource() : nullptr;
  }
  return nullptr;
}

/// Whether every element vector of `batch` can be had without reading the
/// batch: inserted ones, or those of a broadcast of one lane's tensor or of
/// a splat constant.
static bool hasColumns(Value batch, bool &inserted) {
  auto type = cast<RankedTensorType>(batch.getType());
  if (auto broadcast = batch.getDefiningOp<linalg::BroadcastOp>())
    return broadcast.getDimensions() == ArrayRef<int64_t>{0};
  DenseElementsAttr dense;
  if (matchPattern(batch, m_Constant(&dense)))
    return dense.isSplat();
  for (ArrayRef<int64_t> position : lanePositions(type))
    if (!findInsertedColumn(batch, position))
      return false;
  inserted = true;
  return true;
}

/// Element vector `position` of `batch`, for which hasColumns holds.
static Value getColumn(PatternRewriter &rewriter, Location loc, Value batch,
                       ArrayRef<int64_t> position, Value lanes) {
  auto type = cast<RankedTensorType>(batch.getType());
  auto vectorType =
      RankedTensorType::get({type.getDimSize(0)}, type.getElementType());
  SmallVector<Value> dynamicSize;
  if (type.isDynamicDim(0))
    dynamicSize.push_back(lanes);
  if (auto broadcast = batch.getDefiningOp<linalg::BroadcastOp>()) {
    SmallVector<Value> at;
    for (int64_t index : position)
      at.push_back(rewriter.create<arith::ConstantIndexOp>(loc, index));
    Value element =
        rewriter.create<tensor::ExtractOp>(loc, broadcast.getInput(), at);
    Value empty =
        rewriter.create<tensor::EmptyOp>(loc, vectorType, dynamicSize);
    return rewriter.create<linalg::FillOp>(loc, element, empty).getResult(0);
  }
  DenseElementsAttr dense;
  if (matchPattern(batch, m_Constant(&dense)))
    return rewriter.create<arith::ConstantOp>(
        loc, vectorType,
        DenseElementsAttr::get(vectorType, dense.getSplatValue<Attribute>()));
  return findInsertedColumn(batch, position);
}

/// An elementwise op on batches of small per-lane tensors whose element
/// vectors are all known (one operand's at least inserted: the others may
/// be broadcasts and splats) runs once per element vector, and its results
/// are rebuilt from theirs for their readers to read through.
struct SplitElementwiseOnLanes : OpTraitRewritePattern<OpTrait::Elementwise> {
  using OpTraitRewritePattern::OpTraitRewritePattern;

  LogicalResult matchAndRewrite(Operation *op,
                                PatternRewriter &rewriter) const override {
    if (op->getNumResults() == 0 || op->getNumRegions() != 0 ||
        !OpTrait::hasElementwiseMappableTraits(op))
      return failure();
    auto type = dyn_cast<RankedTensorType>(op->getResult(0).getType());
    if (!type || !isSmallLaneBatch(type))
      return failure();
    bool inserted = false;
    for (Value operand : op->getOperands()) {
      auto operandType = dyn_cast<RankedTensorType>(operand.getType());
      if (!operandType || operandType.getShape() != type.getShape() ||
          !hasColumns(operand, inserted))
        return failure();
    }
    if (!inserted)
      return failure();
    Location loc = op->getLoc();
    Value lanes;
    if (type.isDynamicDim(0))
      lanes = rewriter.create<tensor::DimOp>(loc, op->getOperand(0), 0);
    SmallVector<SmallVector<int64_t>> positions = lanePositions(type);
    // Per result, its element vectors.
    SmallVector<SmallVector<Value>> columns(op->getNumResults());
    for (ArrayRef<int64_t> position : positions) {
      SmallVector<Value> operands;
      for (Value operand : op->getOperands())
        operands.push_back(getColumn(rewriter, loc, operand, position, lanes));
      SmallVector<Type> resultTypes;
      for (Type result : op->getResultTypes())
        resultTypes.push_back(RankedTensorType::get(
            {type.getDimSize(0)}, cast<ShapedType>(result).getElementType()));
      OperationState state(loc, op->getName().getIdentifier(), operands,
                           resultTypes, op->getAttrs());
      Operation *column = rewriter.create(state);
      for (auto [r, value] : llvm::enumerate(column->getResults()))
        columns[r].push_back(value);
    }
    SmallVector<Value> rebuilt;
    for (auto [result, resultColumns] :
         llvm::zip_equal(op->getResults(), columns))
      rebuilt.push_back(rebuildBatch(rewriter, loc,
                                     cast<RankedTensorType>(result.getType()),
                                     lanes, resultColumns));
    rewriter.replaceOp(op, rebuilt);
    return success();
  }
};

struct LoomSplitLaneTensors
    : loom::impl::LoomSplitLaneTensorsBase<LoomSplitLaneTensors> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<ExtractOfExtractSlice, ExtractOfInsertSlice,
                 ExtractSliceOfInsertSlice, SplitLaneBatch,
                 SplitElementwiseOnLanes>(&getContext());
    tensor::populateMergeConsecutiveInsertExtractSlicePatterns(patterns);
    scf::ForOp::getCanonicalizationPatterns(patterns, &getContext());
    if (failed(
            applyPatternsAndFoldGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
