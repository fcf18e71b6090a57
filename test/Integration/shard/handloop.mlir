// A batched while loop written by hand in the entry (around a vmap) has no
// lane mask: a lane whose predicate is false goes on adding 1 while any lane
// anywhere runs. loop-sync=auto must keep its predicate global, so every
// shard count gives --shards 1's bytes (issue 11: auto dropped the
// all-reduce of every predicate, and at 2 shards gave 10 15 10 10.5).
// Worked out by hand: the loop runs until the smallest lane reaches 10,
// that is 10 iterations for a = [0, 5, 9, 9.5].
// RUN: python3 %S/shard_compare.py loom-run %S/Inputs/handloop.mlir --input a=%S/Inputs/handloop_a.npy --shards 1,2,3 --variants auto:auto,auto:global,masked:auto,per-lane:auto --print | FileCheck %s
// CHECK: r 4: 10 15 19 19.5
// CHECK-COUNT-12: : 1 files identical
// CHECK-NEXT: PASS

// A loom.strategy<masked> pin on that loop changes nothing.
// RUN: python3 %S/shard_compare.py loom-run %S/Inputs/handloop_pinned.mlir --input a=%S/Inputs/handloop_a.npy --shards 1,2,3 --variants auto:auto,auto:global --print | FileCheck %s --check-prefix=PINNED
// PINNED: r 4: 10 15 19 19.5
// PINNED-COUNT-6: : 1 files identical
// PINNED-NEXT: PASS

// Asking for loop-sync=local on it is refused, at the loop.
// RUN: not loom-run %S/Inputs/handloop.mlir --input a=%S/Inputs/handloop_a.npy --shards 2 --loop-sync local 2>&1 | FileCheck %s --check-prefix=LOCAL
// LOCAL: handloop.mlir:16:{{[0-9]+}}: error: loop-sync=local would change results: this loop is not a masked loop from loom-vmap: finished lanes may still change, so every shard runs every iteration
