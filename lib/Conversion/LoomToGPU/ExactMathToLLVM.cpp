//===- ExactMathToLLVM.cpp - Correctly rounded math as intrinsics ---------===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//
//
// loom-exact-math-to-llvm: the libdevice calls convert-gpu-to-nvvm made of
// math ops whose result is exact or correctly rounded become LLVM
// intrinsics again. convert-gpu-to-nvvm marks those intrinsics illegal, so
// this runs after it.
//
//===----------------------------------------------------------------------===//

#include "loom/Conversion/LoomToGPU/LoomToGPU.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/Builders.h"

namespace mlir::loom {
#define GEN_PASS_DEF_LOOMEXACTMATHTOLLVM
#include "loom/Conversion/Passes.h.inc"
} // namespace mlir::loom

using namespace mlir;
using namespace mlir::loom;

namespace {

/// The intrinsic for a libdevice function that computes an exact or
/// correctly rounded result, or null.
Operation *createIntrinsic(OpBuilder &b, LLVM::CallOp call) {
  std::optional<StringRef> callee = call.getCallee();
  if (!callee || call.getNumResults() != 1 || !callee->consume_front("__nv_"))
    return nullptr;
  StringRef name = callee->ends_with("f") ? callee->drop_back() : *callee;
  Location loc = call.getLoc();
  Type type = call.getResult().getType();
  ValueRange args = call.getArgOperands();
  if (!isa<FloatType>(type) ||
      llvm::any_of(args, [&](Value arg) { return arg.getType() != type; }))
    return nullptr;
  auto unary = [&](auto tag) -> Operation * {
    using Op = decltype(tag);
    return args.size() == 1 ? b.create<Op>(loc, type, args[0]) : nullptr;
  };
  if (name == "sqrt")
    return unary(LLVM::SqrtOp());
  if (name == "fabs")
    return unary(LLVM::FAbsOp());
  if (name == "floor")
    return unary(LLVM::FFloorOp());
  if (name == "ceil")
    return unary(LLVM::FCeilOp());
  if (name == "trunc")
    return unary(LLVM::FTruncOp());
  if (name == "round")
    return unary(LLVM::RoundOp());
  return nullptr;
}

struct LoomExactMathToLLVMPass
    : public mlir::loom::impl::LoomExactMathToLLVMBase<
          LoomExactMathToLLVMPass> {
  void runOnOperation() override {
    getOperation()->walk([](LLVM::CallOp call) {
      OpBuilder b(call);
      if (Operation *intrinsic = createIntrinsic(b, call)) {
        call.getResult().replaceAllUsesWith(intrinsic->getResult(0));
        call.erase();
      }
    });
  }
};

} // namespace

bool mlir::loom::isExactMathOp(Operation *op) {
  return isa<math::SqrtOp, math::AbsFOp, math::FloorOp, math::CeilOp,
             math::TruncOp, math::RoundOp, math::RoundEvenOp, math::FmaOp,
             math::CopySignOp>(op);
}
