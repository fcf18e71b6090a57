//===- BatchingOpInterface.cpp - vmap batching rules ----------------------===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//

#include "loom/Interfaces/BatchingOpInterface.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/DenseSet.h"

using namespace mlir;
using namespace mlir::loom;

#include "loom/Interfaces/BatchingOpInterface.cpp.inc"

BatchingContext::~BatchingContext() = default;

//===----------------------------------------------------------------------===//
// Ops that trap
//===----------------------------------------------------------------------===//

std::optional<TrapGuard> mlir::loom::getTrapGuard(Operation *op) {
  bool isSigned = isa<arith::DivSIOp, arith::RemSIOp, arith::CeilDivSIOp,
                      arith::FloorDivSIOp>(op);
  if (!isSigned && !isa<arith::DivUIOp, arith::RemUIOp, arith::CeilDivUIOp>(op))
    return std::nullopt;
  APInt divisor;
  if (matchPattern(op->getOperand(1), m_ConstantInt(&divisor)) &&
      !divisor.isZero() && !(isSigned && divisor.isAllOnes()))
    return std::nullopt;
  return TrapGuard{/*operand=*/1, /*safeValue=*/1};
}

//===----------------------------------------------------------------------===//
// Mask and masked-write facts
//===----------------------------------------------------------------------===//

Value BatchingContext::narrowMask(Value narrower) {
  Value previous = mask;
  if (narrower != previous)
    maskParents.try_emplace(narrower, previous);
  mask = narrower;
  return previous;
}

/// True when every lane `narrow` sets is set in `wide` as well, as far as the
/// masks recorded by `narrowMask` show. A null mask sets every lane.
bool BatchingContext::isMaskWithin(Value narrow, Value wide) const {
  // A mask narrowed back to one of its ancestors makes the chain a cycle;
  // a revisited mask means `wide` is not on it.
  DenseSet<Value> seen;
  while (seen.insert(narrow).second) {
    if (narrow == wide || !wide)
      return true;
    if (!narrow)
      return false;
    auto it = maskParents.find(narrow);
    if (it == maskParents.end())
      return false;
    narrow = it->second;
  }
  return false;
}

void BatchingContext::recordMaskNonEmpty() {
  if (mask)
    nonEmptyMasks.insert(mask);
}

bool BatchingContext::isMaskNonEmpty() const {
  return !mask || nonEmptyMasks.contains(mask);
}

void BatchingContext::recordUnchangedOnInactive(Value value, Value base) {
  if (value != base)
    unchanged[value] = {base, mask};
}

Value BatchingContext::getUnchangedBase(Value value) const {
  // A fact recorded under a narrower mask says more than the current mask
  // needs (fewer lanes may change), so it still holds; one recorded under a
  // wider mask does not. The chain ends at a revisited value: recorded facts
  // may form a cycle (a carry unchanged relative to itself through a loop).
  DenseSet<Value> seen;
  while (seen.insert(value).second) {
    auto it = unchanged.find(value);
    if (it == unchanged.end() || !isMaskWithin(it->second.mask, mask))
      return value;
    value = it->second.base;
  }
  return value;
}

bool BatchingContext::isUnchangedOnInactive(Value value, Value base) const {
  DenseSet<Value> seen;
  while (seen.insert(value).second) {
    if (value == base)
      return true;
    auto it = unchanged.find(value);
    if (it == unchanged.end() || !isMaskWithin(it->second.mask, mask))
      return false;
    value = it->second.base;
  }
  return false;
}

//===----------------------------------------------------------------------===//
// Values as rules read them
//===----------------------------------------------------------------------===//

Type BatchingContext::getBatchedType(Type laneType) const {
  int64_t batch = getStaticBatchSize();
  if (auto tensor = dyn_cast<RankedTensorType>(laneType)) {
    SmallVector<int64_t> shape{batch};
    llvm::append_range(shape, tensor.getShape());
    return RankedTensorType::get(shape, tensor.getElementType());
  }
  return RankedTensorType::get({batch}, laneType);
}

Value BatchingContext::lookupBatched(OpBuilder &builder, Location loc,
                                     Value original) {
  Value value = lookup(original);
  // Batching always adds the lane axis, so an unchanged type means the value
  // is the same on every lane.
  if (value.getType() != original.getType())
    return value;
  return broadcast(builder, loc, value);
}

Value BatchingContext::lookupAs(OpBuilder &builder, Location loc,
                                Value original, bool batched) {
  return batched ? lookupBatched(builder, loc, original) : lookup(original);
}
