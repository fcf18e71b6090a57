//===- LoomToStandard.cpp - The convert-loom-to-standard pass -------------===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//

#include "loom/Conversion/LoomToStandard/LoomToStandard.h"
#include "loom/Dialect/Loom/IR/LoomDialect.h"
#include "loom/Dialect/Loom/IR/LoomOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir::loom {
#define GEN_PASS_DEF_CONVERTLOOMTOSTANDARD
#include "loom/Conversion/Passes.h.inc"
} // namespace mlir::loom

using namespace mlir;
using namespace mlir::loom;

namespace {

struct ConvertLoomToStandard
    : loom::impl::ConvertLoomToStandardBase<ConvertLoomToStandard> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    // A loom.vmap left here means loom-vmap did not run: say so at the op
    // rather than failing later with "failed to legalize".
    WalkResult unexpanded = module.walk([](VmapOp op) {
      op.emitError() << "loom.vmap must be expanded by -loom-vmap before "
                     << "lowering";
      return WalkResult::interrupt();
    });
    if (unexpanded.wasInterrupted())
      return signalPassFailure();

    foldAnyOfLaneLoops(module);
    SymbolTable symbols(module);
    RewritePatternSet patterns(&getContext());
    populateLoomReductionToLinalgPatterns(patterns);
    populateLoomRandomToArithPatterns(patterns, symbols);

    ConversionTarget target(getContext());
    target.addIllegalDialect<LoomDialect>();
    target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });
    if (failed(applyPartialConversion(module, target, std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
