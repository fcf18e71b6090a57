//===- ExpandIntegerDivision.cpp - ceil/floor division for LLVM -----------===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//

#include "loom/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::loom {
#define GEN_PASS_DEF_LOOMEXPANDINTEGERDIVISION
#include "loom/Transforms/Passes.h.inc"
} // namespace mlir::loom

using namespace mlir;

namespace {

// ceildivsi(a, b) => q + (q * b != a && (a < 0) == (b < 0)), q = divsi(a, b)
//
// MLIR 19's own expansion divides (a + (b > 0 ? -1 : 1)) and -a by b on
// every input and selects one quotient afterwards: for ceildivsi(INT_MAX,
// -1), a valid division (-INT_MAX), the quotient it throws away is
// INT_MIN / -1, which traps on x86. This form divides once, by b, so it can
// trap only where ceildivsi itself is undefined (b = 0, INT_MIN / -1).
struct CeilDivSIOnce : OpRewritePattern<arith::CeilDivSIOp> {
  // Above upstream's pattern for the same op.
  CeilDivSIOnce(MLIRContext *ctx) : OpRewritePattern(ctx, /*benefit=*/2) {}

  LogicalResult matchAndRewrite(arith::CeilDivSIOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value a = op.getLhs(), b = op.getRhs();
    Type type = a.getType();
    auto constant = [&](int64_t value) -> Value {
      TypedAttr attr = rewriter.getIntegerAttr(type, value);
      return rewriter.create<arith::ConstantOp>(loc, attr);
    };
    Value zero = constant(0), one = constant(1);
    Value q = rewriter.create<arith::DivSIOp>(loc, a, b);
    Value back = rewriter.create<arith::MulIOp>(loc, q, b);
    Value inexact =
        rewriter.create<arith::CmpIOp>(loc, arith::CmpIPredicate::ne, back, a);
    Value aNeg =
        rewriter.create<arith::CmpIOp>(loc, arith::CmpIPredicate::slt, a, zero);
    Value bNeg =
        rewriter.create<arith::CmpIOp>(loc, arith::CmpIPredicate::slt, b, zero);
    Value sameSign = rewriter.create<arith::CmpIOp>(
        loc, arith::CmpIPredicate::eq, aNeg, bNeg);
    Value up = rewriter.create<arith::AndIOp>(loc, inexact, sameSign);
    Value upQ = rewriter.create<arith::AddIOp>(loc, q, one);
    rewriter.replaceOpWithNewOp<arith::SelectOp>(op, up, upQ, q);
    return success();
  }
};

struct LoomExpandIntegerDivision
    : loom::impl::LoomExpandIntegerDivisionBase<LoomExpandIntegerDivision> {
  void runOnOperation() override {
    // Only these ops are rewritten: the rest of the IR is left as it is, so
    // running this late in the pipeline changes nothing else.
    SmallVector<Operation *> ops;
    getOperation()->walk([&](Operation *op) {
      if (isa<arith::CeilDivSIOp, arith::CeilDivUIOp, arith::FloorDivSIOp>(op))
        ops.push_back(op);
    });
    RewritePatternSet patterns(&getContext());
    // floordivsi and ceildivui divide once in upstream's expansion.
    arith::populateCeilFloorDivExpandOpsPatterns(patterns);
    patterns.add<CeilDivSIOnce>(&getContext());
    GreedyRewriteConfig config;
    config.strictMode = GreedyRewriteStrictness::ExistingOps;
    if (failed(applyOpPatternsAndFold(ops, std::move(patterns), config)))
      return signalPassFailure();
  }
};

} // namespace
