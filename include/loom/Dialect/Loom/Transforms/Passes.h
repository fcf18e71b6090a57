//===- Passes.h - Loom dialect passes ---------------------------*- C++ -*-===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//

#ifndef LOOM_DIALECT_LOOM_TRANSFORMS_PASSES_H
#define LOOM_DIALECT_LOOM_TRANSFORMS_PASSES_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::loom {

/// `loom-vmap divergent=`: how loops whose predicate differs per lane lower.
enum class DivergentLoops { Auto, Masked, PerLane };

/// `loom-vmap target=`: where the batched code runs.
enum class VmapTarget { CPU, GPU };

#define GEN_PASS_DECL
#include "loom/Dialect/Loom/Transforms/Passes.h.inc"

/// Gives every function in `roots` the trailing `i64 {loom.context}` shard
/// context argument (unless it has one), then every caller of such a
/// function, transitively, and passes the context along at each call.
void addShardContexts(ModuleOp module, ArrayRef<func::FuncOp> roots);

/// The shard context argument of `func`, or null.
Value getShardContext(func::FuncOp func);

/// True for a loop loom-vmap built masked (it records `loom.strategy<masked>`
/// on it): every carry keeps its old value on a finished lane, so a lane that
/// is done never changes again. A loop written by hand over a batch has no
/// such guarantee, and no lane mask to count.
bool isMaskedByVmap(Operation *loop);

/// Fails, with a located error, when `module` already holds what loom-shard
/// adds: a `loom.context` argument or a mesh collective. Those are Loom's
/// own; a program that brings them would have a value of its caller's read
/// as the runtime's shard context, and loom-shard would shard it twice.
LogicalResult checkNotYetSharded(ModuleOp module);

#define GEN_PASS_REGISTRATION
#include "loom/Dialect/Loom/Transforms/Passes.h.inc"

} // namespace mlir::loom

#endif // LOOM_DIALECT_LOOM_TRANSFORMS_PASSES_H
