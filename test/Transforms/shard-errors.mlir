// Shard counts that mean nothing are errors, and so is asking for shards
// with nothing batched.
// RUN: not loom-opt %s -loom-shard=shards=-2 2>&1 | FileCheck %s --check-prefix=NEG
// NEG: error: shards must be positive, got -2
// RUN: not loom-opt %s -loom-shard=shards=3 2>&1 | FileCheck %s --check-prefix=NONE
// NONE: error: nothing to shard over 3 shards: no function argument carries loom.batch_axis
// Without shards=N and without batch axes there is nothing to do.
// RUN: loom-opt %s -loom-shard | FileCheck %s --check-prefix=NOOP
// NOOP-NOT: mesh.mesh
func.func @scalar(%x: f32) -> f32 {
  return %x : f32
}
