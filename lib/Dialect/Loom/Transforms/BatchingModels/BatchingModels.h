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

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"

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
/// scf.while, uniform, masked, per lane or in gangs (SCFWhile.cpp).
void registerSCFWhileBatchingModel(DialectRegistry &registry);

//===----------------------------------------------------------------------===//
// scf.while's strategies, shared between its files
//===----------------------------------------------------------------------===//

/// Where a loop run lane by lane (or gang by gang) writes each result: its
/// carry's batched init when the condition passes that carry straight
/// through (so a carried buffer is updated in place and lanes skipped under
/// a mask keep their init; `fromInit` says so), else a tensor.empty. A
/// result of dynamic shape that is not such a carry has no shape before the
/// loop runs: a located error, saying the loop cannot run `how`.
LogicalResult getLoopResultDestinations(scf::WhileOp loop,
                                        BatchingContext &context,
                                        OpBuilder &builder, StringRef how,
                                        SmallVectorImpl<Value> &destinations,
                                        SmallVectorImpl<bool> &fromInit);

/// True when the context's lanes, a static number, fit in one gang: one
/// masked loop is then what the gang strategy runs (SCFWhileGang.cpp).
bool fitsOneGang(BatchingContext &context);

/// A private function named after `op`'s function with `name` appended,
/// not yet in any module, whose arguments are `leading` then the values
/// `op`'s regions capture from above (constants among them are cloned into
/// its entry block instead), and whose results have the types `results`.
/// `operands` receives what the arguments stand for and `mapping` maps them
/// to the arguments; its body is left for the caller to fill, after them.
func::FuncOp outlineScalarRegion(Operation *op, ValueRange leading,
                                 TypeRange results, StringRef name,
                                 SmallVectorImpl<Value> &operands,
                                 IRMapping &mapping);

/// A tensor.empty of `width` lanes shaped like a lane of `batched`.
Value createGangTensor(OpBuilder &builder, Location loc, Value batched,
                       int64_t width);

/// Gathers the gang of `width` lanes from `start` of each of `batched`
/// into W-lane tensors (`gathered`), the lane index clamped to the last
/// lane, and returns the gang's mask: lanes below the batch size that the
/// enclosing mask keeps.
Value gatherGang(BatchingContext &context, OpBuilder &builder, Location loc,
                 Value start, ArrayRef<Value> batched, int64_t width,
                 SmallVectorImpl<Value> &gathered);

/// A divergent loop in gangs of `getGangWidth()` lanes (SCFWhileGang.cpp).
LogicalResult batchWhileInGangs(scf::WhileOp loop, BatchingContext &context,
                                OpBuilder &builder);

/// The same with refill: `getGangWidth()` slots, each taking the next
/// pending lane when its lane leaves the loop (SCFWhileRefill.cpp). With
/// `refillOn` (an i1), they do so only while it holds, and otherwise run
/// lock-step gangs of the next W lanes.
LogicalResult batchWhileRefill(scf::WhileOp loop, BatchingContext &context,
                               OpBuilder &builder, Value refillOn = {});

} // namespace mlir::loom

#endif // LOOM_LIB_DIALECT_LOOM_TRANSFORMS_BATCHINGMODELS_BATCHINGMODELS_H
