//===- CopySlicedCallOperands.cpp - Work around a slice-to-call bug -------===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//

#include "loom/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"

namespace mlir::loom {
#define GEN_PASS_DEF_LOOMCOPYSLICEDCALLOPERANDS
#include "loom/Transforms/Passes.h.inc"
} // namespace mlir::loom

using namespace mlir;

namespace {

struct LoomCopySlicedCallOperands
    : loom::impl::LoomCopySlicedCallOperandsBase<LoomCopySlicedCallOperands> {
  void runOnOperation() override {
    getOperation()->walk([](func::CallOp call) {
      OpBuilder builder(call);
      for (OpOperand &operand : call->getOpOperands()) {
        auto slice = operand.get().getDefiningOp<tensor::ExtractSliceOp>();
        // A constant offset still counts: canonicalization has not folded
        // it into the static offsets yet when this pass runs.
        if (!slice || slice.getOffsets().empty())
          continue;
        Location loc = slice.getLoc();
        SmallVector<OpFoldResult> sizes =
            tensor::getMixedSizes(builder, loc, slice.getResult());
        Value empty = builder.create<tensor::EmptyOp>(
            loc, sizes, slice.getResultType().getElementType());
        operand.set(
            builder.create<linalg::CopyOp>(loc, slice.getResult(), empty)
                .getResult(0));
      }
    });
  }
};

} // namespace
