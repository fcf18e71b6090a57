//===- TestBatchedness.cpp - Print the batchedness analysis ---------------===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//
//
// `-test-loom-batchedness` analyses the callee of every loom.vmap under its
// in_axes, and the functions those call under their call signatures, and
// writes the result onto the IR as discardable attributes FileCheck can read:
//
//   test.batched = array<i1: ...>        per result of an op
//   test.args = [array<i1: ...>, ...]    per region, its entry block's args
//   test.control = true|false            scf.while / scf.for / scf.if
//   test.result_batched = array<i1: ...> on the analysed function
//
//===----------------------------------------------------------------------===//

#include "loom/Analysis/Batchedness.h"
#include "loom/Dialect/Loom/IR/LoomOps.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassRegistry.h"

using namespace mlir;
using namespace mlir::loom;

namespace {

struct TestBatchednessPass
    : public PassWrapper<TestBatchednessPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TestBatchednessPass)

  StringRef getArgument() const final { return "test-loom-batchedness"; }
  StringRef getDescription() const final {
    return "Annotate vmap callees with the batchedness analysis";
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    BatchednessSolver solver(module);
    DenseSet<const BatchednessAnalysis *> done;
    WalkResult walk = module.walk([&](VmapOp vmap) {
      auto callee = SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(
          vmap, vmap.getCalleeAttr());
      SmallVector<bool> signature;
      for (int64_t axis : vmap.getInAxes())
        signature.push_back(axis != VmapOp::kNotBatched);
      FailureOr<const BatchednessAnalysis *> analysis =
          solver.analyze(callee, signature, vmap);
      if (failed(analysis))
        return WalkResult::interrupt();
      annotate(**analysis, done);
      return WalkResult::advance();
    });
    if (walk.wasInterrupted())
      signalPassFailure();
  }

  void annotate(const BatchednessAnalysis &analysis,
                DenseSet<const BatchednessAnalysis *> &done) {
    if (!done.insert(&analysis).second)
      return;
    func::FuncOp func = analysis.getFunction();
    MLIRContext *ctx = func.getContext();
    auto bools = [&](auto values) {
      SmallVector<bool> flags;
      for (Value v : values)
        flags.push_back(analysis.isBatched(v));
      return DenseBoolArrayAttr::get(ctx, flags);
    };
    func->setAttr("test.result_batched",
                  DenseBoolArrayAttr::get(ctx, analysis.getResultBatched()));
    func.getBody().walk([&](Operation *op) {
      if (op->getNumResults() != 0)
        op->setAttr("test.batched", bools(op->getResults()));
      if (op->getNumRegions() != 0) {
        SmallVector<Attribute> regions;
        for (Region &region : op->getRegions())
          regions.push_back(region.empty()
                                ? DenseBoolArrayAttr::get(ctx, {})
                                : bools(region.front().getArguments()));
        op->setAttr("test.args", ArrayAttr::get(ctx, regions));
      }
      if (isa<scf::WhileOp, scf::ForOp, scf::IfOp>(op))
        op->setAttr("test.control",
                    BoolAttr::get(ctx, analysis.isControlBatched(op)));
      if (auto call = dyn_cast<func::CallOp>(op))
        if (const BatchednessAnalysis *callee =
                analysis.getCalleeAnalysis(call))
          annotate(*callee, done);
    });
  }
};

} // namespace

namespace mlir::loom::test {
void registerTestBatchednessPass() { PassRegistration<TestBatchednessPass>(); }
} // namespace mlir::loom::test
