//===- AnnotateBatchAxes.cpp - Record loom.vmap's batch axes --------------===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//

#include "loom/Dialect/Loom/IR/LoomOps.h"
#include "loom/Dialect/Loom/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace mlir::loom {
#define GEN_PASS_DEF_LOOMANNOTATEBATCHAXES
#include "loom/Dialect/Loom/Transforms/Passes.h.inc"
} // namespace mlir::loom

using namespace mlir;
using namespace mlir::loom;

namespace {

struct LoomAnnotateBatchAxes
    : mlir::loom::impl::LoomAnnotateBatchAxesBase<LoomAnnotateBatchAxes> {
  void runOnOperation() override {
    Builder b(&getContext());
    StringRef name = LoomDialect::kBatchAxisAttrName;
    WalkResult result = getOperation().walk([&](VmapOp vmap) {
      // Only a function's arguments and results carry batch axes. The
      // verifier keeps vmaps inside functions; this stays safe without it.
      auto func = vmap->getParentOfType<func::FuncOp>();
      if (!func)
        return WalkResult::advance();
      Block *entry = &func.getBody().front();
      for (auto [i, operand, axis] :
           llvm::enumerate(vmap.getInputs(), vmap.getInAxes())) {
        auto arg = dyn_cast<BlockArgument>(operand);
        if (axis == VmapOp::kNotBatched || !arg || arg.getOwner() != entry)
          continue;
        unsigned n = arg.getArgNumber();
        if (auto old = func.getArgAttrOfType<IntegerAttr>(n, name)) {
          if (old.getInt() == axis)
            continue;
          vmap.emitOpError()
              << "batches argument #" << n << " of @" << func.getSymName()
              << " along axis " << axis << ", but it is batched along axis "
              << old.getInt() << " elsewhere";
          return WalkResult::interrupt();
        }
        func.setArgAttr(n, name, b.getI64IntegerAttr(axis));
      }
      // A result returned as is keeps its out axis.
      for (OpOperand &use : vmap->getUses()) {
        auto ret = dyn_cast<func::ReturnOp>(use.getOwner());
        int64_t axis =
            vmap.getOutAxes()[cast<OpResult>(use.get()).getResultNumber()];
        if (!ret || ret->getParentOp() != func || axis == VmapOp::kNotBatched)
          continue;
        func.setResultAttr(use.getOperandNumber(), name,
                           b.getI64IntegerAttr(axis));
      }
      return WalkResult::advance();
    });
    if (result.wasInterrupted())
      signalPassFailure();
  }
};

} // namespace
