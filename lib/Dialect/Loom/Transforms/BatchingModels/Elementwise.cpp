//===- Elementwise.cpp - Batching rules of arith and math -----------------===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//
//
// Every elementwise op of arith and math batches the same way: the op itself
// on the batched operands, unbatched ones broadcast to every lane. One model
// serves both dialects.
//
//===----------------------------------------------------------------------===//

#include "BatchingModels.h"

#include "loom/Dialect/Loom/Utils/BatchingUtils.h"
#include "loom/Interfaces/BatchingOpInterface.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/IRMapping.h"

using namespace mlir;
using namespace mlir::loom;

/// True when the mapped value of `original` carries the lane axis.
static bool isMappedBatched(BatchingContext &context, Value original) {
  return context.lookup(original).getType() != original.getType();
}

namespace {
// vmap(op(x, y)) => op(x', y')   with unbatched operands broadcast
struct ElementwiseBatchingModel
    : public BatchingOpInterface::FallbackModel<ElementwiseBatchingModel> {
  LogicalResult batch(Operation *op, BatchingContext &context,
                      OpBuilder &builder) const {
    Location loc = op->getLoc();
    Type laneResult = op->getResult(0).getType();
    Type batchedResult = context.getBatchedType(laneResult);
    bool tensorLanes = isa<RankedTensorType>(laneResult);
    // A lane's shape, from an operand that has it (elementwise ops keep
    // shapes), for a per-lane scalar broadcast to it.
    auto getResultLaneSizes = [&]() -> SmallVector<OpFoldResult> {
      for (Value operand : op->getOperands()) {
        if (!isa<RankedTensorType>(operand.getType()))
          continue;
        Value value = context.lookup(operand);
        if (isMappedBatched(context, operand))
          return getLaneSizes(builder, loc, value);
        return tensor::getMixedSizes(builder, loc, value);
      }
      return {};
    };
    IRMapping mapping;
    for (Value operand : op->getOperands()) {
      bool scalarOperand = !isa<RankedTensorType>(operand.getType());
      Value value;
      if (isMappedBatched(context, operand))
        // A per-lane scalar among tensor lanes (select's condition) needs
        // the lane's shape; on the lane axis alone it would not line up.
        value = tensorLanes && scalarOperand
                    ? broadcastTrailing(context, builder, loc,
                                        context.lookup(operand), batchedResult,
                                        getResultLaneSizes())
                    : context.lookup(operand);
      else if (tensorLanes && scalarOperand)
        // arith.select with one condition for the whole tensor stays so.
        value = context.lookup(operand);
      else
        value = context.lookupBatched(builder, loc, operand);
      mapping.map(operand, value);
    }
    // Lanes the mask clears run the op too, on values the scalar program
    // never divides by: they get a divisor that cannot trap.
    if (std::optional<TrapGuard> guard = getTrapGuard(op)) {
      Value operand = op->getOperand(guard->operand);
      mapping.map(operand,
                  selectOnInactive(context, builder, loc,
                                   mapping.lookup(operand), guard->safeValue));
    }
    Operation *batched = builder.clone(*op, mapping);
    for (auto [result, newResult] :
         llvm::zip(op->getResults(), batched->getResults())) {
      newResult.setType(context.getBatchedType(result.getType()));
      context.map(result, newResult);
    }
    return success();
  }
};

} // namespace

/// Attaches the elementwise model to every registered op of `dialect` that is
/// ElementwiseMappable, so new upstream ops are covered without a list.
static void attachElementwiseModels(MLIRContext *context, Dialect *dialect) {
  for (RegisteredOperationName name : context->getRegisteredOperations()) {
    if (&name.getDialect() != dialect)
      continue;
    if (!name.hasTrait<OpTrait::Elementwise>() ||
        !name.hasTrait<OpTrait::Tensorizable>())
      continue;
    if (name.hasInterface<BatchingOpInterface>())
      continue;
    name.attachInterface<ElementwiseBatchingModel>();
  }
}

void mlir::loom::registerArithBatchingModels(DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *ctx, arith::ArithDialect *dialect) {
    attachElementwiseModels(ctx, dialect);
  });
}

void mlir::loom::registerMathBatchingModels(DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *ctx, math::MathDialect *dialect) {
    attachElementwiseModels(ctx, dialect);
  });
}
