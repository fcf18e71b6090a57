//===- BatchingModels.h - Batching rules of upstream ops --------*- C++ -*-===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//
//
// One registration function per upstream dialect whose ops get a
// BatchingOpInterface external model, each defined in the file of its
// dialect; registerBatchingOpInterfaceExternalModels calls them all. And the
// base of those models.
//
//===----------------------------------------------------------------------===//

#ifndef LOOM_LIB_DIALECT_LOOM_TRANSFORMS_BATCHINGMODELS_BATCHINGMODELS_H
#define LOOM_LIB_DIALECT_LOOM_TRANSFORMS_BATCHINGMODELS_BATCHINGMODELS_H

#include "loom/Interfaces/BatchingOpInterface.h"

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace mlir::loom {

/// The external model of `OpTy` whose rule is the static
/// `ConcreteModel::batchOp(OpTy, BatchingContext &, OpBuilder &)`.
template <typename ConcreteModel, typename OpTy>
struct OpBatchingModel
    : public BatchingOpInterface::ExternalModel<ConcreteModel, OpTy> {
  LogicalResult batch(Operation *op, BatchingContext &context,
                      OpBuilder &builder) const {
    return ConcreteModel::batchOp(cast<OpTy>(op), context, builder);
  }
};

/// Every elementwise op of arith and of math (Elementwise.cpp).
void registerArithBatchingModels(DialectRegistry &registry);
void registerMathBatchingModels(DialectRegistry &registry);
/// tensor element, slice and shape ops (Tensor.cpp).
void registerTensorBatchingModels(DialectRegistry &registry);
/// func.call (Func.cpp).
void registerFuncBatchingModels(DialectRegistry &registry);
/// scf.if and scf.for (SCF.cpp).
void registerSCFBatchingModels(DialectRegistry &registry);
/// scf.while, uniform, masked or per lane (SCFWhile.cpp).
void registerSCFWhileBatchingModel(DialectRegistry &registry);

} // namespace mlir::loom

#endif // LOOM_LIB_DIALECT_LOOM_TRANSFORMS_BATCHINGMODELS_BATCHINGMODELS_H
