//===- VmapFunctionBatcher.cpp - Builds one batched function --------------===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//
//
// The BatchingContext that loom-vmap's batching rules see while it builds
// one batched clone: the value mapping, the batch size, broadcasts built
// once per value, and the recursion into blocks and callees. An op that
// reads no per-lane value is cloned as it is.
//
//===----------------------------------------------------------------------===//

#include "Vmap.h"

#include "loom/Dialect/Loom/IR/LoomDialect.h"
#include "loom/Dialect/Loom/Utils/BatchingUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::loom;
using namespace mlir::loom::vmap;

LogicalResult FunctionBatcher::run(func::FuncOp source, func::FuncOp target,
                                   bool masked) {
  Block *entry = target.addEntryBlock();
  OpBuilder builder = OpBuilder::atBlockBegin(entry);
  Location loc = source.getLoc();
  if (masked)
    narrowMask(entry->getArguments().back());
  if (!ShapedType::isDynamic(batch)) {
    batchSize = builder.create<arith::ConstantIndexOp>(loc, batch);
  } else {
    for (auto [arg, isArgBatched] :
         llvm::zip(entry->getArguments(), analysis.getArgBatched())) {
      if (isArgBatched) {
        batchSize = builder.create<tensor::DimOp>(loc, arg, 0);
        break;
      }
    }
    if (!batchSize && masked)
      batchSize =
          builder.create<tensor::DimOp>(loc, entry->getArguments().back(), 0);
  }
  for (auto [arg, newArg] :
       llvm::zip(source.getArguments(), entry->getArguments()))
    map(arg, newArg);
  if (failed(batchBlock(source.front(), builder)))
    return failure();
  Operation *ret = source.front().getTerminator();
  SmallVector<Value> results;
  for (auto [value, isResultBatched] :
       llvm::zip(ret->getOperands(), analysis.getResultBatched()))
    results.push_back(lookupAs(builder, ret->getLoc(), value, isResultBatched));
  builder.create<func::ReturnOp>(ret->getLoc(), results);
  return success();
}

// d in trapping op(x, d) under a mask that may be empty
//   => select(any(mask), d, safe)
/// Makes every op in `clone` (an unbatched op, cloned as it is) that can
/// trap safe when no lane of the current mask is set: the scalar program
/// would not have run it at all (a per-lane branch no lane takes). With one
/// lane set, it runs as in the scalar program, which that lane runs too.
static void guardUnbatchedTraps(BatchingContext &context, OpBuilder &builder,
                                Operation *clone) {
  if (context.isMaskNonEmpty())
    return;
  SmallVector<Operation *> trapping;
  clone->walk([&](Operation *op) {
    if (getTrapGuard(op))
      trapping.push_back(op);
  });
  if (trapping.empty())
    return;
  OpBuilder::InsertionGuard guard(builder);
  Location loc = clone->getLoc();
  builder.setInsertionPoint(clone);
  Value any = builder.create<AnyOp>(loc, builder.getI1Type(), context.getMask(),
                                    builder.getI64IntegerAttr(0));
  for (Operation *op : trapping) {
    TrapGuard trap = *getTrapGuard(op);
    Value divisor = op->getOperand(trap.operand);
    builder.setInsertionPoint(op);
    Location opLoc = op->getLoc();
    Type element = getElementTypeOrSelf(divisor.getType());
    TypedAttr safe = builder.getIntegerAttr(element, trap.safeValue);
    Value safeValue;
    if (auto tensor = dyn_cast<RankedTensorType>(divisor.getType())) {
      Value scalar = builder.create<arith::ConstantOp>(opLoc, safe);
      SmallVector<Value> sizes;
      for (int64_t dim = 0; dim < tensor.getRank(); ++dim)
        if (tensor.isDynamicDim(dim))
          sizes.push_back(builder.create<tensor::DimOp>(opLoc, divisor, dim));
      safeValue = builder.create<tensor::SplatOp>(opLoc, scalar, tensor, sizes);
    } else {
      safeValue = builder.create<arith::ConstantOp>(opLoc, safe);
    }
    op->setOperand(trap.operand, builder.create<arith::SelectOp>(
                                     opLoc, any, divisor, safeValue));
  }
}

LogicalResult FunctionBatcher::batchBlock(Block &original, OpBuilder &builder) {
  for (Operation &op : original.without_terminator())
    if (failed(batchOp(op, builder)))
      return failure();
  return success();
}

LogicalResult FunctionBatcher::batchOp(Operation &op, OpBuilder &builder) {
  // An op that reads nothing per-lane computes the same on every lane:
  // it is cloned as it is, and its results stay unbatched.
  if (!analysis.usesBatched(&op)) {
    Operation *clone = builder.clone(op, mapping);
    guardUnbatchedTraps(*this, builder, clone);
    recordDecided(clone, LoopStrategy::Uniform);
    remarkNestedLoops(&op, /*includeSelf=*/true,
                      "loop is uniform: it reads no per-lane value");
    return success();
  }
  auto rule = dyn_cast<BatchingOpInterface>(&op);
  if (!rule)
    return op.emitError()
           << "no batching rule for '" << op.getName()
           << "': loom-vmap cannot batch it when it reads a per-lane value";
  if (failed(rule.batch(*this, builder)))
    return failure();
  for (OpResult result : op.getResults()) {
    Value batched = mapping.lookupOrNull(result);
    Type expected =
        isBatched(result) ? getBatchedType(result.getType()) : result.getType();
    if (batched && batched.getType() == expected)
      continue;
    // A rule may leave a batched result unbatched when it happens to be
    // the same on every lane; anything else is a broken rule.
    if (batched && batched.getType() == result.getType()) {
      map(result, broadcast(builder, op.getLoc(), batched));
      continue;
    }
    return op.emitError() << "batching rule of '" << op.getName()
                          << "' gave result #" << result.getResultNumber()
                          << (batched ? " the wrong type" : " no value");
  }
  return success();
}

/// True when batching `func` under a mask can differ from batching it
/// without one: it has loops or branches (which a mask keeps finished lanes
/// out of), calls, or ops that read or write at an index or can trap (which
/// must not run on a masked-off lane's stale values: getTrapGuard).
/// Straight-line elementwise arithmetic gives the same lanes either way.
static bool needsLaneMask(func::FuncOp func) {
  return func.getBody()
      .walk([](Operation *op) {
        if (isa<func::ReturnOp>(op))
          return WalkResult::advance();
        bool elementwise =
            isa<arith::ArithDialect, math::MathDialect>(op->getDialect()) &&
            !getTrapGuard(op);
        return elementwise ? WalkResult::advance() : WalkResult::interrupt();
      })
      .wasInterrupted();
}

FailureOr<func::FuncOp>
FunctionBatcher::getBatchedCallee(func::CallOp call,
                                  SmallVectorImpl<bool> &resultBatched) {
  func::FuncOp callee = expander.getSolver().lookupCallee(call);
  if (!callee)
    return call.emitError() << "cannot batch the call to @" << call.getCallee()
                            << ": it is not a func.func";
  if (callee.isExternal())
    return call.emitError() << "cannot batch the call to @" << call.getCallee()
                            << ": it is only declared, and vmap needs its body";
  if (expander.isBatchedClone(callee))
    return call.emitError()
           << "cannot batch a nested loom.vmap (now a call to @"
           << call.getCallee()
           << ") whose operands differ per lane: vmap of vmap is not "
              "supported yet";
  SmallVector<bool> signature;
  for (Value operand : call.getOperands())
    signature.push_back(isBatched(operand));
  FailureOr<BatchedFunc> batched =
      expander.getBatched(callee, signature, batch, call,
                          getMask() && needsLaneMask(callee), inGang);
  if (failed(batched))
    return failure();
  resultBatched.assign(batched->resultBatched);
  return batched->func;
}

FailureOr<func::FuncOp>
FunctionBatcher::batchGangBody(func::FuncOp scalar, ArrayRef<bool> signature,
                               Operation *site, bool isGangLoop,
                               SmallVectorImpl<bool> &resultBatched) {
  FailureOr<BatchedFunc> batched =
      expander.batchGangBody(scalar, signature, site, isGangLoop);
  if (failed(batched))
    return failure();
  resultBatched.assign(batched->resultBatched);
  return batched->func;
}

Value FunctionBatcher::broadcast(OpBuilder &builder, Location loc,
                                 Value unbatched) {
  // Broadcast once, right where the value is defined: a constant used in a
  // loop body is then filled once, not on every iteration.
  if (Value cached = broadcasts.lookup(unbatched))
    return cached;
  OpBuilder::InsertionGuard guard(builder);
  Operation *batchSizeDef = batchSize.getDefiningOp();
  if (Operation *def = unbatched.getDefiningOp()) {
    builder.setInsertionPointAfter(def);
  } else {
    Block *owner = cast<BlockArgument>(unbatched).getOwner();
    if (batchSizeDef && batchSizeDef->getBlock() == owner)
      builder.setInsertionPointAfter(batchSizeDef);
    else
      builder.setInsertionPointToStart(owner);
  }
  Value result = buildBroadcast(*this, builder, loc, unbatched);
  broadcasts[unbatched] = result;
  return result;
}

Value FunctionBatcher::getAllTrue(OpBuilder &builder, Location loc) {
  if (allTrue)
    return allTrue;
  // Built once, next to the batch size, so every loop shares it.
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointAfterValue(batchSize);
  Value scalar =
      builder.create<arith::ConstantOp>(loc, builder.getBoolAttr(true));
  allTrue = broadcast(builder, loc, scalar);
  return allTrue;
}

void FunctionBatcher::remarkNestedLoops(Operation *op, bool includeSelf,
                                        StringRef message) {
  op->walk([&](Operation *nested) {
    if ((includeSelf || nested != op) && isa<scf::WhileOp, scf::ForOp>(nested))
      nested->emitRemark(message);
  });
}

void FunctionBatcher::notifyClonedPerLane(Operation *original,
                                          Operation *clone) {
  recordDecided(clone, LoopStrategy::PerLane);
  // A for loop run lane by lane (a uniform one, on a GPU) is marked too:
  // the GPU backend finds its kernels by the loops decided per-lane.
  if (isa<scf::ForOp>(clone))
    clone->setAttr(
        LoomDialect::kStrategyAttrName,
        LoopStrategyAttr::get(clone->getContext(), LoopStrategy::PerLane));
  remarkNestedLoops(original, /*includeSelf=*/false,
                    "loop is per-lane: it runs inside an enclosing per-lane "
                    "loop, on one lane at a time");
}
