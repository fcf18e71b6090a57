// Reductions along every axis of batched values, through loom-run: a lane's
// tensor<3x4xi32> and tensor<3x4xf32> reduced (max, min, sum, any, all)
// along each of its axes, outside and inside a divergent loop, and the
// batch reduced along its batch axis at the entry. Only the last cross
// shards (issue 11: a lane's own tensor got a collective, so results were
// wrong or the compile failed). Every shard count under auto, masked and
// per-lane must write the bytes of --shards 1 masked, and those are the
// values worked out by hand below (v[b][i][j] = (7b + 5i + 3j) mod 11 - 4,
// f[b][i][j] = ((3b + 7i + 5j) mod 9 - 3) / 4, 7 lanes).
// RUN: python3 %S/shard_compare.py loom-run %S/Inputs/reductions.mlir --input v=%S/Inputs/red_v.npy --input f=%S/Inputs/red_f.npy --shards 1,2,3,4,6 --variants auto:auto,masked:auto,per-lane:auto --reference-divergent masked --print | FileCheck %s

// CHECK: acc 7: 24 24 30 24 27 24 27
// CHECK-NEXT: acc_sum scalar: 180
// CHECK-NEXT: allrows 7x3: 0 0 1 1 0 0 0 0 0 1 1 0 0 0 0 0 1 0 0 0 0
// CHECK-NEXT: anycols 7x4: 1 0 0 1 0 1 0 1 0 0 1 0 1 0 1 0 0 1 0 1 0 1 0 1 1 0 1 0
// CHECK-NEXT: anycols_all 4: 0 0 0 0
// CHECK-NEXT: anycols_any 4: 1 1 1 1
// CHECK-NEXT: frows 7x3: 0 2.5 0.5 0.75 1 1.25 1.5 -0.5 2 0 2.5 0.5 0.75 1 1.25 1.5 -0.5 2 0 2.5 0.5
// CHECK-NEXT: k 7: 13 14 17 14 15 14 15
// CHECK-NEXT: k_max scalar: 17
// CHECK-NEXT: k_sum scalar: 102
// CHECK-NEXT: maxcols 7x4: 6 4 2 5 3 6 3 6 4 2 5 2 6 3 6 4 2 5 2 5 3 6 4 6 5 2 5 3
// CHECK-NEXT: maxcols_max1 7: 6 6 5 6 5 6 5
// CHECK-NEXT: maxcols_min 4: 2 2 2 2
// CHECK-NEXT: minrows 7x3: -4 -4 -2 -2 -3 -3 -3 -4 -4 -2 -2 -3 -3 -4 -4 -4 -2 -3 -3 -3 -4
// CHECK-NEXT: sumcols 7x4: 3 1 -1 8 2 11 -2 7 1 -1 8 -5 11 -2 7 5 -1 8 -5 4 -2 7 5 3 8 -5 4 2
// CHECK-NEXT: v_max0 3x4: 6 6 5 5 4 6 6 6 6 5 4 6
// CHECK-NEXT: v_rowsum 7x3: 2 0 9 8 6 4 3 1 -1 9 7 5 4 2 0 -1 8 6 5 3 1
// CHECK-NEXT: vmin 7: 3 4 5 4 4 3 4
// CHECK-COUNT-15: : 18 files identical
// CHECK-NEXT: PASS

// The issue's reproducer: loom.max along 0 of a lane's tensor<4xi32> in a
// divergent loop (per-lane under auto gave all 1s at 2 shards, and
// mismatched collectives at 4).
// RUN: python3 %S/shard_compare.py loom-run %S/Inputs/maxloop.mlir --input a=%S/Inputs/m.npy --shards 1,2,3,4,6 --variants auto:auto,masked:auto,per-lane:auto --reference-divergent masked --print | FileCheck %s --check-prefix=MAXLOOP
// MAXLOOP: k 6: 10 1 8 1 8 1
// MAXLOOP-COUNT-15: : 1 files identical
// MAXLOOP-NEXT: PASS

// And a float loom.sum over a lane's tensor<8xf32> in a divergent loop
// (per-lane: an all_gather, "Dimension size mismatch" at 2 shards or more).
// RUN: python3 %S/shard_compare.py loom-run %S/Inputs/sumloop.mlir --input a=%S/Inputs/c.npy --shards 1,2,4 --variants auto:auto,per-lane:auto --reference-divergent masked | FileCheck %s --check-prefix=SUMLOOP
// SUMLOOP-COUNT-6: : 1 files identical
// SUMLOOP-NEXT: PASS
