//===- Func.cpp - Batching rules of func ops ------------------------------===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//
//
// func.call batches as a call of the callee's clone batched for the call's
// operands, which loom-vmap builds once per signature; a callee batched
// under a mask takes the caller's mask as its last argument.
//
//===----------------------------------------------------------------------===//

#include "BatchingModels.h"

#include "loom/Interfaces/BatchingOpInterface.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/DialectRegistry.h"

using namespace mlir;
using namespace mlir::loom;

namespace {

// vmap(call @f(x, c)) => call @f_vmap(x', c)   (one clone per signature)
struct CallBatchingModel
    : public OpBatchingModel<CallBatchingModel, func::CallOp> {
  static LogicalResult batchOp(func::CallOp call, BatchingContext &context,
                               OpBuilder &builder) {
    SmallVector<bool> resultBatched;
    FailureOr<func::FuncOp> callee =
        context.getBatchedCallee(call, resultBatched);
    if (failed(callee))
      return failure();
    Location loc = call.getLoc();
    SmallVector<Value> operands;
    for (Value operand : call.getOperands()) {
      Value value =
          context.lookupAs(builder, loc, operand, context.isBatched(operand));
      operands.push_back(value);
    }
    // A callee batched under a mask takes it last.
    if (callee->getNumArguments() == operands.size() + 1)
      operands.push_back(context.getMask());
    auto batched = builder.create<func::CallOp>(loc, *callee, operands);
    for (auto [result, newResult] :
         llvm::zip(call.getResults(), batched.getResults()))
      context.map(result, newResult);
    return success();
  }
};

} // namespace

void mlir::loom::registerFuncBatchingModels(DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *ctx, func::FuncDialect *) {
    func::CallOp::attachInterface<CallBatchingModel>(*ctx);
  });
}
