// Integer division and remainder on lanes the scalar program would not run
// them on must not trap (Inputs/traps.mlir): finished lanes of a masked
// loop, and the branch of a per-lane scf.if a lane does not take, get a
// divisor of 1. Each run compares every lane with the scalar function on
// that lane's inputs (vmap_property.py), under masked, per-lane and auto;
// before the fix each died with SIGFPE.

// The reproducer: 100/d + ... + 100/1 in a loop that ends before d is 0.
// RUN: loom-run %S/Inputs/traps.mlir --entry divloop_main --input a=%S/Inputs/divzero_lanes.npy --divergent masked | FileCheck %s --check-prefix=DIVZERO
// RUN: loom-run %S/Inputs/traps.mlir --entry divloop_main --input a=%S/Inputs/divzero_lanes.npy --divergent per-lane | FileCheck %s --check-prefix=DIVZERO
// DIVZERO: r: 4xi32 {{.*}} [100, 183, 150, 228]
// RUN: python3 %S/vmap_property.py loom-run %S/Inputs/traps.mlir --batch 16 --vmapped divloop_main --scalar divloop --arg a/0:i32:-3:9:- --result result0:r | FileCheck %s

// remsi, remui and divui in the same loop.
// RUN: python3 %S/vmap_property.py loom-run %S/Inputs/traps.mlir --batch 16 --vmapped remloop_main --scalar remloop --arg a/0:i32:-3:9:- --result result0:s --result result1:u --result result2:v | FileCheck %s

// Both sides of a per-lane branch run on every lane: the then side divides
// INT_MIN by x (0 and -1 take the else side), the else side takes the
// remainder by x + 2 (-2 takes the then side). Lanes -3..3 cover all three.
// RUN: python3 %S/vmap_property.py loom-run %S/Inputs/traps.mlir --batch 16 --vmapped branch_main --scalar branch --arg a/0:i32:-3:4:- --result result0:r | FileCheck %s

// A shared division by n = 0 in a branch no lane takes (every x <= 100).
// RUN: python3 %S/vmap_property.py loom-run %S/Inputs/traps.mlir --batch 16 --vmapped shared_main --scalar shared --arg a/0:i32:-3:100:- --result result0:r | FileCheck %s

// A constant table read past its end by the lanes that have left a loop
// masked in one pass (its read is a lane op there, loom-vmap's
// isLaneOp), also in gangs of 4 with and without refill.
// RUN: python3 %S/vmap_property.py loom-run %S/Inputs/traps.mlir --batch 16 --vmapped table_main --scalar table --arg a/0:i32:-3:12:- --result result0:i --result result1:acc --variant "gang:--divergent gang --gang-width 4" --variant "refill:--divergent gang --gang-width 4 --refill" | FileCheck %s --check-prefix=TABLE
// TABLE: masked: 16 lanes checked
// TABLE: per-lane: 16 lanes checked
// TABLE: auto: 16 lanes checked
// TABLE: gang: 16 lanes checked
// TABLE: refill: 16 lanes checked
// TABLE: PASS
// A shared table from an argument, every lane's n from Inputs/traps_lanes.npy
// (8 times 3: acc is 3 * clamp(n, 0, 8)).
// RUN: loom-run %S/Inputs/traps.mlir --entry table_arg_main --input a=%S/Inputs/traps_lanes.npy --input t=fill:3:8xi32 --divergent masked | FileCheck %s --check-prefix=TABLE-ARG
// RUN: loom-run %S/Inputs/traps.mlir --entry table_arg_main --input a=%S/Inputs/traps_lanes.npy --input t=fill:3:8xi32 --divergent per-lane | FileCheck %s --check-prefix=TABLE-ARG
// RUN: loom-run %S/Inputs/traps.mlir --entry table_arg_main --input a=%S/Inputs/traps_lanes.npy --input t=fill:3:8xi32 --divergent gang --gang-width 4 --refill --shards 2 | FileCheck %s --check-prefix=TABLE-ARG
// TABLE-ARG: i: 12xi32 min=0 max=7 mean=1.91666{{[0-9]*}} [1, 3, 2, 5, ...]
// TABLE-ARG: acc: 12xi32 min=0 max=21 mean=5.75 [3, 9, 6, 15, ...]

// CHECK: masked: 16 lanes checked
// CHECK: per-lane: 16 lanes checked
// CHECK: auto: 16 lanes checked
// CHECK: PASS

// Sharded: 2 shards give the bytes of 1, each strategy (lanes with 0, -1,
// -2 and INT_MIN in Inputs/traps_lanes.npy).
// RUN: python3 %S/../shard/shard_compare.py loom-run %S/Inputs/traps.mlir --entry divloop_main --input a=%S/Inputs/traps_lanes.npy --shards 2 --variants masked:auto,per-lane:auto | FileCheck %s --check-prefix=SHARDS
// RUN: python3 %S/../shard/shard_compare.py loom-run %S/Inputs/traps.mlir --entry remloop_main --input a=%S/Inputs/traps_lanes.npy --shards 2 --variants masked:auto,per-lane:auto | FileCheck %s --check-prefix=SHARDS
// RUN: python3 %S/../shard/shard_compare.py loom-run %S/Inputs/traps.mlir --entry branch_main --input a=%S/Inputs/traps_lanes.npy --shards 2 --variants masked:auto,per-lane:auto | FileCheck %s --check-prefix=SHARDS
// RUN: python3 %S/../shard/shard_compare.py loom-run %S/Inputs/traps.mlir --entry shared_main --input a=%S/Inputs/traps_lanes.npy --shards 2 --variants masked:auto,per-lane:auto | FileCheck %s --check-prefix=SHARDS
// SHARDS: shards=2 divergent=masked loop-sync=auto: {{[1-9][0-9]*}} files identical
// SHARDS: shards=2 divergent=per-lane loop-sync=auto: {{[1-9][0-9]*}} files identical
// SHARDS: PASS
