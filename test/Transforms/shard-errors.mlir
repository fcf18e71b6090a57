// Shard counts that mean nothing are errors, and so is asking for shards
// with nothing batched.
// RUN: not loom-opt %s -loom-shard=shards=-2 2>&1 | FileCheck %s --check-prefix=NEG
// NEG: error: shards must be 1 to 1024 (0: from the mesh), got -2
// More shards than the runtime's mesh can run (loom/Support/Limits.h) are
// refused here, with the limit loom-run and the API use, not accepted and
// left for the runtime to refuse.
// RUN: not loom-opt %s -loom-shard=shards=1025 2>&1 | FileCheck %s --check-prefix=MANY
// MANY: shard-errors.mlir:{{[0-9]+}}:{{[0-9]+}}: error: shards must be 1 to 1024 (0: from the mesh), got 1025
// RUN: not loom-opt %s -loom-shard=shards=9223372036854775807 2>&1 | FileCheck %s --check-prefix=HUGE
// HUGE: error: shards must be 1 to 1024 (0: from the mesh), got 9223372036854775807
// RUN: not loom-opt %s -loom-shard=shards=3 2>&1 | FileCheck %s --check-prefix=NONE
// NONE: error: nothing to shard over 3 shards: no function argument carries loom.batch_axis
// Without shards=N and without batch axes there is nothing to do.
// RUN: loom-opt %s -loom-shard | FileCheck %s --check-prefix=NOOP
// NOOP-NOT: mesh.mesh
func.func @scalar(%x: f32) -> f32 {
  return %x : f32
}
