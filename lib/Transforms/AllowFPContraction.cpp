//===- AllowFPContraction.cpp - Mark float ops contractable ---------------===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//

#include "loom/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

namespace mlir::loom {
#define GEN_PASS_DEF_LOOMALLOWFPCONTRACTION
#include "loom/Transforms/Passes.h.inc"
} // namespace mlir::loom

using namespace mlir;

namespace {

struct LoomAllowFPContraction
    : loom::impl::LoomAllowFPContractionBase<LoomAllowFPContraction> {
  void runOnOperation() override {
    getOperation()->walk([](arith::ArithFastMathInterface op) {
      arith::FastMathFlags flags = arith::FastMathFlags::none;
      if (auto attr = op.getFastMathFlagsAttr())
        flags = attr.getValue();
      op->setAttr(
          op.getFastMathAttrName(),
          arith::FastMathFlagsAttr::get(
              op->getContext(), flags | arith::FastMathFlags::contract));
    });
  }
};

} // namespace

std::unique_ptr<Pass> mlir::loom::createLoomAllowFPContraction() {
  return std::make_unique<LoomAllowFPContraction>();
}
