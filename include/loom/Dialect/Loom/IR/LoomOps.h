//===- LoomOps.h - Loom operations ------------------------------*- C++ -*-===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//

#ifndef LOOM_DIALECT_LOOM_IR_LOOMOPS_H
#define LOOM_DIALECT_LOOM_IR_LOOMOPS_H

#include "loom/Dialect/Loom/IR/LoomDialect.h"
#include "loom/Interfaces/BatchingOpInterface.h"
#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "loom/Dialect/Loom/IR/LoomEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "loom/Dialect/Loom/IR/LoomAttrs.h.inc"

#define GET_OP_CLASSES
#include "loom/Dialect/Loom/IR/LoomOps.h.inc"

namespace mlir::loom {

/// The type a lane sees of `type` batched along `axis`: the axis removed, and
/// a rank-1 tensor unbatched to its element type.
Type unbatchType(RankedTensorType type, int64_t axis);

/// `type` with a batch axis of size `batch` inserted at `axis`; a scalar
/// becomes a rank-1 tensor. Returns null when `axis` is out of range.
Type batchType(Type type, int64_t axis, int64_t batch);

} // namespace mlir::loom

#endif // LOOM_DIALECT_LOOM_IR_LOOMOPS_H
