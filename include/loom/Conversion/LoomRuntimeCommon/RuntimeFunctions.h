//===- RuntimeFunctions.h - Calls into Loom's runtime -----------*- C++ -*-===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//
//
// How the passes that emit runtime calls declare the callee: name and type
// both come from the C declaration in loom/Runtime/RuntimeFunctions.def, so
// the IR's `func.func private @loom_rt_...` cannot drift from the ABI.
//
//===----------------------------------------------------------------------===//

#ifndef LOOM_CONVERSION_LOOMRUNTIMECOMMON_RUNTIMEFUNCTIONS_H
#define LOOM_CONVERSION_LOOMRUNTIMECOMMON_RUNTIMEFUNCTIONS_H

#include "loom/Runtime/ABI.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"

namespace mlir {
class SymbolTable;
} // namespace mlir

namespace mlir::loom {

using ::loom::RuntimeFunction;

/// The MLIR type of `fn`'s C signature: int32_t and int64_t are i32 and i64,
/// float and double f32 and f64, and a pointer an i64 address (the lowered
/// code computes addresses as integers).
FunctionType getRuntimeFunctionType(MLIRContext *ctx, RuntimeFunction fn);

/// `func.func private @name` for `fn` in `module`: the one already there, or
/// a new declaration at the top, entered into `symbols`.
func::FuncOp declareRuntimeFunction(ModuleOp module, SymbolTable &symbols,
                                    RuntimeFunction fn);

} // namespace mlir::loom

#endif // LOOM_CONVERSION_LOOMRUNTIMECOMMON_RUNTIMEFUNCTIONS_H
