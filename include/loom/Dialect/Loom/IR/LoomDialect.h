//===- LoomDialect.h - Loom dialect -----------------------------*- C++ -*-===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//

#ifndef LOOM_DIALECT_LOOM_IR_LOOMDIALECT_H
#define LOOM_DIALECT_LOOM_IR_LOOMDIALECT_H

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"

#include "loom/Dialect/Loom/IR/LoomDialect.h.inc"

namespace mlir::loom {

/// The type of one threefry key: tensor<2xi32>.
RankedTensorType getKeyType(MLIRContext *ctx);
/// True for tensor<2xi32>.
bool isKeyType(Type type);
/// True for a static tensor<...x2xi32> of rank >= 2.
bool isKeyArrayType(Type type);

} // namespace mlir::loom

#endif // LOOM_DIALECT_LOOM_IR_LOOMDIALECT_H
