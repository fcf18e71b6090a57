//===- ShardUtils.h - The shard context and Loom's collectives --*- C++ -*-===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//
//
// What loom-shard adds to a program, and what the passes after it
// (loom-localize-loops, loom-count-loop-iterations, convert-mesh-to-loom-
// runtime) and the API read back: the `i64 {loom.context}` argument that
// carries a shard's runtime context, the one 1-d mesh, and the scalar
// collective `extract(all_reduce(from_elements(x)))` that decides a loop on
// every shard. Built and matched in one place, so that a change to one side
// cannot leave the other behind.
//
//===----------------------------------------------------------------------===//

#ifndef LOOM_DIALECT_LOOM_UTILS_SHARDUTILS_H
#define LOOM_DIALECT_LOOM_UTILS_SHARDUTILS_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Mesh/IR/MeshOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinOps.h"

#include <optional>

namespace mlir::loom {

//===----------------------------------------------------------------------===//
// The shard context
//===----------------------------------------------------------------------===//

/// The shard context argument of `func` (the one with `loom.context`), or
/// null.
Value getShardContext(func::FuncOp func);

/// The shard context of the function that holds `op`, or null.
Value getEnclosingShardContext(Operation *op);

/// Gives every function in `roots` the trailing `i64 {loom.context}` shard
/// context argument (unless it has one), then every caller of such a
/// function, transitively, and passes the context along at each call.
void addShardContexts(ModuleOp module, ArrayRef<func::FuncOp> roots);

/// The number of shards of the module's mesh: the size of its one 1-d
/// `mesh.mesh` (loom-shard's), or 1 when it has none.
int64_t getNumShards(ModuleOp module);

/// Fails, with a located error, when `module` already holds what loom-shard
/// adds: a `loom.context` argument or a mesh collective. Those are Loom's
/// own; a program that brings them would have a value of its caller's read
/// as the runtime's shard context, and loom-shard would shard it twice.
LogicalResult checkNotYetSharded(ModuleOp module);

//===----------------------------------------------------------------------===//
// Collectives
//===----------------------------------------------------------------------===//

/// The collectives loom-shard inserts: `mesh.all_reduce` and
/// `mesh.all_gather`.
bool isShardCollective(Operation *op);

/// Ops whose lowering calls the runtime with the shard's context: the
/// collectives, and loom.variant_begin / loom.variant_end (a shard's own
/// choice of variant lives in its context).
bool needsShardContext(Operation *op);

/// A scalar reduced across shards, as loom-shard writes it (a mesh
/// collective takes a tensor): `extract(all_reduce(from_elements(local)))`.
struct ScalarAllReduce {
  tensor::FromElementsOp wrap;
  mesh::AllReduceOp reduce;
  tensor::ExtractOp extract;
  /// This shard's own value.
  Value local;
  /// The value every shard sees: the extract's result.
  Value whole() { return extract.getResult(); }
};

/// Builds `extract(all_reduce(from_elements(local)))` over axis 0 of
/// `meshName` at `b`'s insertion point.
ScalarAllReduce buildScalarAllReduce(OpBuilder &b, Location loc, Value local,
                                     StringRef meshName,
                                     mesh::ReductionKind kind);

/// Recognises what buildScalarAllReduce builds, from its result.
std::optional<ScalarAllReduce> matchScalarAllReduce(Value whole);

/// `value` seen through a scalar all-reduce: its local operand if `value` is
/// one's result, else `value` itself.
Value lookThroughScalarAllReduce(Value value);

//===----------------------------------------------------------------------===//
// Loops
//===----------------------------------------------------------------------===//

/// True for a loop loom-vmap built masked (it records `loom.strategy<masked>`
/// on it): every carry keeps its old value on a finished lane, so a lane that
/// is done never changes again. A loop written by hand over a batch has no
/// such guarantee, and no lane mask to count.
bool isMaskedByVmap(Operation *loop);

} // namespace mlir::loom

#endif // LOOM_DIALECT_LOOM_UTILS_SHARDUTILS_H
