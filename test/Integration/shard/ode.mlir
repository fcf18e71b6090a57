// The seed's diffrax ODE solve through loom-run: every sharded variant writes result
// files identical, byte for byte, to those of --shards 1 (shard_compare.py).
// Variants: divergent=masked under each loop-sync, and divergent=per-lane
// once (per-lane loops are scalar per lane: no predicate is reduced across
// lanes, so loop-sync has nothing to decide). This covers the command-line
// path; the full matrix (shards 1, 2, 3, 10, more batch sizes, the vmap
// issue's divergent programs) runs through the API in
// test/unit/API/ShardTest.cpp, which compiles each variant once for all
// batch sizes.

// Per-lane initial values (a .npy the helper writes), so lanes take
// different step counts: 7 lanes split 3/2/2 on 3 shards, and 10 shards
// leave 3 empty.
// RUN: python3 %S/shard_compare.py loom-run %examples/diffrax/ode.mlir --npy inits=f32:0.05:0.5:7x1 --input t1=fill:1.0:f32 --input dt0=fill:0.05:f32 --input max_steps=fill:10000:i32 --shards 3,10 | FileCheck %s

// CHECK: shards={{[0-9]+}} divergent=masked loop-sync=global: {{[1-9][0-9]*}} files identical
// CHECK: shards={{[0-9]+}} divergent=masked loop-sync=local: {{[1-9][0-9]*}} files identical
// CHECK: shards={{[0-9]+}} divergent=masked loop-sync=auto: {{[1-9][0-9]*}} files identical
// CHECK: shards={{[0-9]+}} divergent=per-lane loop-sync=auto: {{[1-9][0-9]*}} files identical
// CHECK: PASS
