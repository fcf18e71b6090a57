//===- PadAlignedAllocSizes.cpp - aligned_alloc sizes as C asks -----------===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//

#include "loom/Transforms/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"

namespace mlir::loom {
#define GEN_PASS_DEF_LOOMPADALIGNEDALLOCSIZES
#include "loom/Transforms/Passes.h.inc"
} // namespace mlir::loom

using namespace mlir;

namespace {

struct LoomPadAlignedAllocSizes
    : loom::impl::LoomPadAlignedAllocSizesBase<LoomPadAlignedAllocSizes> {
  void runOnOperation() override {
    getOperation()->walk([](LLVM::CallOp call) {
      std::optional<StringRef> callee = call.getCallee();
      if (!callee || *callee != "aligned_alloc" || call.getNumOperands() != 2)
        return;
      // size + (alignment - 1) - (size + (alignment - 1)) % alignment, as
      // finalize-memref-to-llvm pads the sizes it knows need it; LLVM folds
      // the padding of a size that is already a multiple away.
      OpBuilder builder(call);
      Location loc = call.getLoc();
      Value alignment = call.getOperand(0);
      Value size = call.getOperand(1);
      Value one = builder.create<LLVM::ConstantOp>(
          loc, size.getType(), builder.getIntegerAttr(size.getType(), 1));
      Value slack = builder.create<LLVM::SubOp>(loc, alignment, one);
      Value bumped = builder.create<LLVM::AddOp>(loc, size, slack);
      Value excess = builder.create<LLVM::URemOp>(loc, bumped, alignment);
      Value padded = builder.create<LLVM::SubOp>(loc, bumped, excess);
      call->setOperand(1, padded);
    });
  }
};

} // namespace
