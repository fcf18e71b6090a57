//===- ScalarizeSmallTensors.cpp - Small tensors as scalars ---------------===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//

#include "loom/Dialect/Loom/IR/LoomDialect.h"
#include "loom/Transforms/Passes.h"
#include "loom/Transforms/StaticBounds.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include <cstdlib>
#include <limits>

namespace mlir::loom {
#define GEN_PASS_DEF_LOOMSCALARIZESMALLTENSORS
#include "loom/Transforms/Passes.h.inc"
} // namespace mlir::loom

using namespace mlir;

namespace {

/// Splits small static tensors into their elements and back.
struct Scalarizer {
  int64_t maxElements;

  RankedTensorType small(Type type) const {
    auto tensor = dyn_cast<RankedTensorType>(type);
    if (!tensor || !tensor.hasStaticShape() || tensor.getNumElements() == 0 ||
        tensor.getNumElements() > maxElements)
      return {};
    return tensor;
  }

  SmallVector<Type> expandTypes(TypeRange types) const {
    SmallVector<Type> out;
    for (Type t : types) {
      if (auto tensor = small(t))
        out.append(tensor.getNumElements(), tensor.getElementType());
      else
        out.push_back(t);
    }
    return out;
  }

  /// Every element of each small tensor, in row-major order.
  SmallVector<Value> expand(OpBuilder &b, Location loc,
                            ValueRange values) const {
    SmallVector<Value> out;
    for (Value v : values) {
      auto tensor = small(v.getType());
      if (!tensor) {
        out.push_back(v);
        continue;
      }
      for (int64_t flat = 0; flat < tensor.getNumElements(); ++flat) {
        SmallVector<Value> indices(tensor.getRank());
        int64_t rest = flat;
        for (int64_t d = tensor.getRank(); d-- > 0;) {
          indices[d] = b.create<arith::ConstantIndexOp>(
              loc, rest % tensor.getDimSize(d));
          rest /= tensor.getDimSize(d);
        }
        out.push_back(b.create<tensor::ExtractOp>(loc, v, indices));
      }
    }
    return out;
  }

  /// The inverse of expand: rebuilds values of `types` from `scalars`.
  SmallVector<Value> collapse(OpBuilder &b, Location loc, TypeRange types,
                              ValueRange scalars) const {
    SmallVector<Value> out;
    size_t next = 0;
    for (Type t : types) {
      auto tensor = small(t);
      if (!tensor) {
        out.push_back(scalars[next++]);
        continue;
      }
      int64_t n = tensor.getNumElements();
      out.push_back(b.create<tensor::FromElementsOp>(loc, tensor,
                                                     scalars.slice(next, n)));
      next += n;
    }
    return out;
  }

  /// Replaces each small-tensor argument of `block` by its elements.
  void expandArguments(RewriterBase &rewriter, Block &block) const {
    for (unsigned i = block.getNumArguments(); i-- > 0;) {
      BlockArgument arg = block.getArgument(i);
      auto tensor = small(arg.getType());
      if (!tensor)
        continue;
      SmallVector<Value> elements;
      for (int64_t k = 0; k < tensor.getNumElements(); ++k)
        elements.push_back(block.insertArgument(
            i + 1 + k, tensor.getElementType(), arg.getLoc()));
      rewriter.setInsertionPointToStart(&block);
      Value rebuilt = rewriter.create<tensor::FromElementsOp>(arg.getLoc(),
                                                              tensor, elements);
      rewriter.replaceAllUsesWith(arg, rebuilt);
      block.eraseArgument(i);
    }
  }
};

// while(x : tensor<N>) => while(x0..xN-1 : scalars), with from_elements at
// each block entry and extracts at each terminator and before the loop.
struct ScalarizeWhileCarries : OpRewritePattern<scf::WhileOp> {
  ScalarizeWhileCarries(MLIRContext *ctx, Scalarizer scalarizer)
      : OpRewritePattern(ctx), s(scalarizer) {}

  LogicalResult matchAndRewrite(scf::WhileOp op,
                                PatternRewriter &rewriter) const override {
    auto isSmall = [&](Type t) { return static_cast<bool>(s.small(t)); };
    if (!llvm::any_of(op.getOperandTypes(), isSmall) &&
        !llvm::any_of(op.getResultTypes(), isSmall))
      return failure();
    Location loc = op.getLoc();
    SmallVector<Value> inits = s.expand(rewriter, loc, op.getInits());
    auto loop = rewriter.create<scf::WhileOp>(
        loc, s.expandTypes(op.getResultTypes()), inits, op->getAttrs());
    loop->setAttr(loom::LoomDialect::kSourceCarriesAttrName,
                  rewriter.getDenseI64ArrayAttr(sourceCarries(op)));
    rewriter.inlineRegionBefore(op.getBefore(), loop.getBefore(),
                                loop.getBefore().end());
    rewriter.inlineRegionBefore(op.getAfter(), loop.getAfter(),
                                loop.getAfter().end());
    s.expandArguments(rewriter, *loop.getBeforeBody());
    s.expandArguments(rewriter, *loop.getAfterBody());

    scf::ConditionOp cond = loop.getConditionOp();
    rewriter.setInsertionPoint(cond);
    SmallVector<Value> forwarded = s.expand(rewriter, loc, cond.getArgs());
    rewriter.modifyOpInPlace(cond,
                             [&] { cond.getArgsMutable().assign(forwarded); });
    scf::YieldOp yield = loop.getYieldOp();
    rewriter.setInsertionPoint(yield);
    SmallVector<Value> yielded = s.expand(rewriter, loc, yield.getResults());
    rewriter.modifyOpInPlace(
        yield, [&] { yield.getResultsMutable().assign(yielded); });

    rewriter.setInsertionPointAfter(loop);
    rewriter.replaceOp(
        op, s.collapse(rewriter, loc, op.getResultTypes(), loop.getResults()));
    return success();
  }

  /// For each carry of the loop replacing `op`, the carry of the loop as
  /// written that it comes from (remarks name carries by that number).
  SmallVector<int64_t> sourceCarries(scf::WhileOp op) const {
    auto written = op->getAttrOfType<DenseI64ArrayAttr>(
        loom::LoomDialect::kSourceCarriesAttrName);
    SmallVector<int64_t> sources;
    for (auto [i, arg] : llvm::enumerate(op.getBeforeArguments())) {
      auto tensor = s.small(arg.getType());
      sources.append(tensor ? tensor.getNumElements() : 1,
                     written ? written[i] : static_cast<int64_t>(i));
    }
    return sources;
  }

  Scalarizer s;
};

// extract_slice(from_elements(e...)) with static offsets, sizes and strides
// => from_elements(the selected e...), so a key sliced out of a split needs
// no buffer either. A slice that reaches outside the source is undefined
// behaviour (loom-check-static-bounds reports it) and is left alone: there
// is no element to pick.
struct SliceOfFromElements : OpRewritePattern<tensor::ExtractSliceOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(tensor::ExtractSliceOp op,
                                PatternRewriter &rewriter) const override {
    auto source = op.getSource().getDefiningOp<tensor::FromElementsOp>();
    auto result = op.getResultType();
    if (!source || !result.hasStaticShape() ||
        ShapedType::isDynamicShape(op.getStaticOffsets()) ||
        ShapedType::isDynamicShape(op.getStaticSizes()) ||
        ShapedType::isDynamicShape(op.getStaticStrides()))
      return failure();
    ArrayRef<int64_t> shape = source.getType().getShape();
    ArrayRef<int64_t> offsets = op.getStaticOffsets();
    ArrayRef<int64_t> sizes = op.getStaticSizes();
    ArrayRef<int64_t> strides = op.getStaticStrides();
    for (size_t d = 0; d < shape.size(); ++d)
      if (!loom::isSliceInBounds(offsets[d], sizes[d], strides[d], shape[d]))
        return rewriter.notifyMatchFailure(op, "slice out of bounds");
    int64_t count = result.getNumElements();
    SmallVector<Value> picked;
    picked.reserve(count);
    for (int64_t n = 0; n < count; ++n) {
      // n in the slice's row-major order -> the source's flat index.
      int64_t rest = n, flat = 0, scale = 1;
      SmallVector<int64_t> index(shape.size());
      for (size_t d = shape.size(); d-- > 0;) {
        index[d] = offsets[d] + (rest % sizes[d]) * strides[d];
        rest /= sizes[d];
      }
      for (size_t d = shape.size(); d-- > 0;) {
        flat += index[d] * scale;
        scale *= shape[d];
      }
      picked.push_back(source.getElements()[flat]);
    }
    rewriter.replaceOpWithNewOp<tensor::FromElementsOp>(op, result, picked);
    return success();
  }
};

// insert_slice(from_elements(e...)) into d, static sizes and strides
// => insert e0 into d[...], insert e1 into ...: a lane's small result written
// into its row of a batched tensor is stored element by element, instead of
// built in a buffer of its own and copied into the row. As for extracts, a
// slice known to reach outside d is left alone, so that no tensor.insert at
// an index past the end (or an overflowing offset + step) is made.
struct InsertSliceOfFromElements : OpRewritePattern<tensor::InsertSliceOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(tensor::InsertSliceOp op,
                                PatternRewriter &rewriter) const override {
    auto source = op.getSource().getDefiningOp<tensor::FromElementsOp>();
    if (!source || ShapedType::isDynamicShape(op.getStaticSizes()) ||
        ShapedType::isDynamicShape(op.getStaticStrides()))
      return failure();
    Location loc = op.getLoc();
    // The slice's row-major order over its sizes in the destination (the
    // dimensions a rank-reducing insert drops have size 1) is the source's.
    ArrayRef<int64_t> sizes = op.getStaticSizes();
    ArrayRef<int64_t> strides = op.getStaticStrides();
    SmallVector<OpFoldResult> offsets = op.getMixedOffsets();
    if (!fitsDestination(op.getDestType().getShape(), offsets, sizes, strides))
      return rewriter.notifyMatchFailure(op, "slice out of bounds");
    Value dest = op.getDest();
    for (auto [n, element] : llvm::enumerate(source.getElements())) {
      SmallVector<Value> indices(sizes.size());
      int64_t rest = n;
      for (size_t d = sizes.size(); d-- > 0;) {
        int64_t step = (rest % sizes[d]) * strides[d];
        rest /= sizes[d];
        if (auto offset = getConstantIntValue(offsets[d])) {
          indices[d] =
              rewriter.create<arith::ConstantIndexOp>(loc, *offset + step);
          continue;
        }
        Value offset = offsets[d].get<Value>();
        indices[d] =
            step == 0 ? offset
                      : rewriter.create<arith::AddIOp>(
                            loc, offset,
                            rewriter.create<arith::ConstantIndexOp>(loc, step));
      }
      dest = rewriter.create<tensor::InsertOp>(loc, element, dest, indices);
    }
    rewriter.replaceOp(op, dest);
    return success();
  }

  /// Whether the slice can lie inside `shape`: in bounds where its offset is
  /// static, and with a span that fits the dimension where it is not.
  static bool fitsDestination(ArrayRef<int64_t> shape,
                              ArrayRef<OpFoldResult> offsets,
                              ArrayRef<int64_t> sizes,
                              ArrayRef<int64_t> strides) {
    for (size_t d = 0; d < shape.size(); ++d) {
      if (std::optional<int64_t> offset = getConstantIntValue(offsets[d])) {
        if (!loom::isSliceInBounds(*offset, sizes[d], strides[d], shape[d]))
          return false;
        continue;
      }
      if (sizes[d] <= 0)
        continue;
      std::optional<int64_t> span = loom::sliceSpan(sizes[d], strides[d]);
      if (!span || *span == std::numeric_limits<int64_t>::min())
        return false;
      if (!ShapedType::isDynamic(shape[d]) && std::abs(*span) >= shape[d])
        return false;
    }
    return true;
  }
};

// select(c, a, b) on small tensors with a scalar c => from_elements of
// select(c, a[i], b[i]): choosing one of two keys must not need a buffer.
struct SelectOfSmallTensors : OpRewritePattern<arith::SelectOp> {
  SelectOfSmallTensors(MLIRContext *ctx, Scalarizer scalarizer)
      : OpRewritePattern(ctx), s(scalarizer) {}

  LogicalResult matchAndRewrite(arith::SelectOp op,
                                PatternRewriter &rewriter) const override {
    auto tensor = s.small(op.getType());
    if (!tensor || !op.getCondition().getType().isInteger(1))
      return failure();
    Location loc = op.getLoc();
    SmallVector<Value> a = s.expand(rewriter, loc, op.getTrueValue());
    SmallVector<Value> b = s.expand(rewriter, loc, op.getFalseValue());
    SmallVector<Value> picked;
    for (auto [x, y] : llvm::zip(a, b))
      picked.push_back(
          rewriter.create<arith::SelectOp>(loc, op.getCondition(), x, y));
    rewriter.replaceOpWithNewOp<tensor::FromElementsOp>(op, tensor, picked);
    return success();
  }

  Scalarizer s;
};

// func.func private @f(tensor<N>) called only by func.call
// => @f(N scalars), with from_elements at entry and extracts at each call:
// a key passed to a helper needs no buffer per call either.
static void scalarizePrivateArguments(ModuleOp module, const Scalarizer &s) {
  IRRewriter rewriter(module.getContext());
  for (auto func : module.getOps<func::FuncOp>()) {
    if (!func.isPrivate() || func.isExternal() ||
        !llvm::any_of(func.getArgumentTypes(),
                      [&](Type t) { return static_cast<bool>(s.small(t)); }))
      continue;
    std::optional<SymbolTable::UseRange> uses = func.getSymbolUses(module);
    if (!uses || !llvm::all_of(*uses, [](const SymbolTable::SymbolUse &use) {
          return isa<func::CallOp>(use.getUser());
        }))
      continue;
    SmallVector<DictionaryAttr> argAttrs;
    for (unsigned i = 0; i < func.getNumArguments(); ++i) {
      auto tensor = s.small(func.getArgumentTypes()[i]);
      DictionaryAttr attrs = func.getArgAttrDict(i);
      argAttrs.append(
          tensor ? tensor.getNumElements() : 1,
          tensor || !attrs ? DictionaryAttr::get(module.getContext()) : attrs);
    }
    s.expandArguments(rewriter, func.front());
    func.setType(FunctionType::get(module.getContext(),
                                   func.front().getArgumentTypes(),
                                   func.getResultTypes()));
    func.setAllArgAttrs(argAttrs);
    for (const SymbolTable::SymbolUse &use : *uses) {
      auto call = cast<func::CallOp>(use.getUser());
      rewriter.setInsertionPoint(call);
      SmallVector<Value> operands =
          s.expand(rewriter, call.getLoc(), call.getOperands());
      rewriter.replaceOpWithNewOp<func::CallOp>(call, func, operands);
    }
  }
}

struct LoomScalarizeSmallTensors
    : loom::impl::LoomScalarizeSmallTensorsBase<LoomScalarizeSmallTensors> {
  using LoomScalarizeSmallTensorsBase::LoomScalarizeSmallTensorsBase;

  void runOnOperation() override {
    if (auto module = dyn_cast<ModuleOp>(getOperation());
        module && privateArguments)
      scalarizePrivateArguments(module, Scalarizer{maxElements});
    RewritePatternSet patterns(&getContext());
    patterns.add<ScalarizeWhileCarries>(&getContext(), Scalarizer{maxElements});
    patterns.add<SliceOfFromElements, InsertSliceOfFromElements>(&getContext());
    patterns.add<SelectOfSmallTensors>(&getContext(), Scalarizer{maxElements});
    // The folds that make the scalars pay off: extract(from_elements) and
    // extract(generate).
    tensor::ExtractOp::getCanonicalizationPatterns(patterns, &getContext());
    tensor::FromElementsOp::getCanonicalizationPatterns(patterns,
                                                        &getContext());
    tensor::GenerateOp::getCanonicalizationPatterns(patterns, &getContext());
    if (failed(
            applyPatternsAndFoldGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
