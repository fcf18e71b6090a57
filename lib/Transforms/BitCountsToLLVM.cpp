//===- BitCountsToLLVM.cpp - Integer bit counts to LLVM intrinsics --------===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//

#include "loom/Transforms/Passes.h"

#include "mlir/Conversion/LLVMCommon/ConversionTarget.h"
#include "mlir/Conversion/LLVMCommon/TypeConverter.h"
#include "mlir/Conversion/MathToLLVM/MathToLLVM.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir::loom {
#define GEN_PASS_DEF_LOOMBITCOUNTSTOLLVM
#include "loom/Transforms/Passes.h.inc"
} // namespace mlir::loom

using namespace mlir;

namespace {

struct LoomBitCountsToLLVM
    : loom::impl::LoomBitCountsToLLVMBase<LoomBitCountsToLLVM> {
  void runOnOperation() override {
    MLIRContext *ctx = &getContext();
    LLVMTypeConverter converter(ctx);
    RewritePatternSet patterns(ctx);
    populateMathToLLVMConversionPatterns(converter, patterns);
    // Only the bit counts on scalars and vectors are illegal (on tensors,
    // which LLVM has no type for, they wait for bufferization); every other
    // math op is left, legal, for convert-math-to-libm.
    LLVMConversionTarget target(*ctx);
    target.addLegalDialect<math::MathDialect>();
    target.addDynamicallyLegalOp<math::CountLeadingZerosOp,
                                 math::CountTrailingZerosOp, math::CtPopOp>(
        [](Operation *op) {
          return isa<TensorType>(op->getResult(0).getType());
        });
    if (failed(applyPartialConversion(getOperation(), target,
                                      std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
