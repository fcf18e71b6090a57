// A lane's own tensor carried through a divergent loop, reduced, read and
// written in it (Inputs/lane_local.mlir): masked and per-lane write the
// bytes auto writes (shard_compare.py at --shards 1). Before the fix,
// per-lane and auto failed to compile: a bufferization verifier error
// (sumloop, carry: the lowering of the gathered float sum), and "expected 1
// dynamic size values" in loom-vmap (a dynamic lane shape).

// loom.sum of a tensor<8xf32> lane in the predicate and after the loop.
// RUN: python3 %S/../shard/shard_compare.py loom-run %S/Inputs/lane_local.mlir --entry sumloop_main --npy a=f32:0:2:13x8 --shards 1 --variants masked:auto,per-lane:auto | FileCheck %s
// The same on a tensor<?xf32> lane.
// RUN: python3 %S/../shard/shard_compare.py loom-run %S/Inputs/lane_local.mlir --entry sumloop_dyn_main --npy a=f32:0:2:13x7 --shards 1 --variants masked:auto,per-lane:auto | FileCheck %s
// A static 2-d lane: sums along either axis, a max in the predicate.
// RUN: python3 %S/../shard/shard_compare.py loom-run %S/Inputs/lane_local.mlir --entry grid_main --npy a=f32:0:2:9x3x4 --shards 1 --variants masked:auto,per-lane:auto | FileCheck %s
// tensor.extract / tensor.insert at a per-lane index on the carry.
// RUN: python3 %S/../shard/shard_compare.py loom-run %S/Inputs/lane_local.mlir --entry carry_main --npy a=f32:0:2:11x8 --shards 1 --variants masked:auto,per-lane:auto | FileCheck %s
// The same on a tensor<?xf32> carry.
// RUN: python3 %S/../shard/shard_compare.py loom-run %S/Inputs/lane_local.mlir --entry carry_dyn_main --npy a=f32:0:2:11x6 --shards 1 --variants masked:auto,per-lane:auto | FileCheck %s

// CHECK: shards=1 divergent=masked loop-sync=auto: {{[1-9][0-9]*}} files identical
// CHECK: shards=1 divergent=per-lane loop-sync=auto: {{[1-9][0-9]*}} files identical
// CHECK: PASS
