//===- ReductionsToLinalg.cpp - loom reductions to linalg.reduce ----------===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//

#include "loom/Conversion/LoomToStandard/LoomToStandard.h"
#include "loom/Dialect/Loom/IR/LoomOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace mlir::loom;

namespace {

/// How each reduction combines two values, and its identity.
struct Combiner {
  TypedAttr (*identity)(Builder &, Type);
  Value (*combine)(OpBuilder &, Location, Value, Value);
};

TypedAttr floatOrInt(Builder &b, Type type, double f, APInt (*i)(unsigned)) {
  if (auto ft = dyn_cast<FloatType>(type)) {
    APFloat v(f);
    bool lost;
    v.convert(ft.getFloatSemantics(), APFloat::rmNearestTiesToEven, &lost);
    return b.getFloatAttr(ft, v);
  }
  return b.getIntegerAttr(type, i(type.getIntOrFloatBitWidth()));
}

template <typename ReduceOp>
Combiner combinerFor();

template <>
Combiner combinerFor<AnyOp>() {
  return {[](Builder &b, Type t) -> TypedAttr { return b.getBoolAttr(false); },
          [](OpBuilder &b, Location l, Value x, Value y) -> Value {
            return b.create<arith::OrIOp>(l, x, y);
          }};
}
template <>
Combiner combinerFor<AllOp>() {
  return {[](Builder &b, Type t) -> TypedAttr { return b.getBoolAttr(true); },
          [](OpBuilder &b, Location l, Value x, Value y) -> Value {
            return b.create<arith::AndIOp>(l, x, y);
          }};
}
template <>
Combiner combinerFor<SumOp>() {
  return {[](Builder &b, Type t) {
            return floatOrInt(b, t, 0.0,
                              [](unsigned w) { return APInt(w, 0); });
          },
          [](OpBuilder &b, Location l, Value x, Value y) -> Value {
            if (isa<FloatType>(x.getType()))
              return b.create<arith::AddFOp>(l, x, y);
            return b.create<arith::AddIOp>(l, x, y);
          }};
}
template <>
Combiner combinerFor<MaxOp>() {
  return {[](Builder &b, Type t) {
            return floatOrInt(b, t, -INFINITY, APInt::getSignedMinValue);
          },
          [](OpBuilder &b, Location l, Value x, Value y) -> Value {
            if (isa<FloatType>(x.getType()))
              return b.create<arith::MaximumFOp>(l, x, y);
            return b.create<arith::MaxSIOp>(l, x, y);
          }};
}
template <>
Combiner combinerFor<MinOp>() {
  return {[](Builder &b, Type t) {
            return floatOrInt(b, t, INFINITY, APInt::getSignedMaxValue);
          },
          [](OpBuilder &b, Location l, Value x, Value y) -> Value {
            if (isa<FloatType>(x.getType()))
              return b.create<arith::MinimumFOp>(l, x, y);
            return b.create<arith::MinSIOp>(l, x, y);
          }};
}

// loom.R(x along a) => linalg.reduce{R}(x, fill(identity)) along [a]
// (then tensor.extract when the result is a scalar).
template <typename ReduceOp>
struct ReduceToLinalg : OpRewritePattern<ReduceOp> {
  using OpRewritePattern<ReduceOp>::OpRewritePattern;

  LogicalResult matchAndRewrite(ReduceOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto input = cast<RankedTensorType>(op.getInput().getType());
    int64_t axis = op.getAxis();
    Type elem = input.getElementType();
    Combiner c = combinerFor<ReduceOp>();

    SmallVector<OpFoldResult> sizes;
    for (int64_t d = 0; d < input.getRank(); ++d)
      if (d != axis)
        sizes.push_back(tensor::getMixedSize(rewriter, loc, op.getInput(), d));
    Value empty = rewriter.create<tensor::EmptyOp>(loc, sizes, elem);
    Value identity =
        rewriter.create<arith::ConstantOp>(loc, c.identity(rewriter, elem));
    Value init =
        rewriter.create<linalg::FillOp>(loc, identity, empty).getResult(0);
    auto reduce = rewriter.create<linalg::ReduceOp>(
        loc, op.getInput(), init, ArrayRef<int64_t>{axis},
        [&](OpBuilder &b, Location l, ValueRange args) {
          // args = (element, accumulator): accumulate in index order.
          b.create<linalg::YieldOp>(l, c.combine(b, l, args[1], args[0]));
        });
    Value result = reduce.getResult(0);
    if (!isa<RankedTensorType>(op.getType()))
      result = rewriter.create<tensor::ExtractOp>(loc, result, ValueRange{});
    rewriter.replaceOp(op, result);
    return success();
  }
};

} // namespace

void mlir::loom::populateLoomReductionToLinalgPatterns(
    RewritePatternSet &patterns) {
  patterns
      .add<ReduceToLinalg<AnyOp>, ReduceToLinalg<AllOp>, ReduceToLinalg<SumOp>,
           ReduceToLinalg<MaxOp>, ReduceToLinalg<MinOp>>(patterns.getContext());
}
