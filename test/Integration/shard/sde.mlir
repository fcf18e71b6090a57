// The seed's diffrax SDE solve through loom-run: every sharded variant writes result
// files identical, byte for byte, to those of --shards 1 (shard_compare.py).
// Variants: divergent=masked under each loop-sync, and divergent=per-lane
// once (per-lane loops are scalar per lane: no predicate is reduced across
// lanes, so loop-sync has nothing to decide). This covers the command-line
// path; the full matrix (shards 1, 2, 3, 10, more batch sizes, the vmap
// issue's divergent programs) runs through the API in
// test/unit/API/ShardTest.cpp, which compiles each variant once for all
// batch sizes.

// jax.random.split(PRNGKey(0), 7), t1 = 1.0: 7 lanes on 2 shards (4/3).
// RUN: python3 %S/shard_compare.py loom-run %examples/diffrax/sde.mlir --input inits=fill:0.1:7x1xf32 --input keys=jax-split:0:7 --input t1=fill:1.0:f32 --input max_steps=fill:10000:i32 --shards 2 | FileCheck %s

// CHECK: shards={{[0-9]+}} divergent=masked loop-sync=global: {{[1-9][0-9]*}} files identical
// CHECK: shards={{[0-9]+}} divergent=masked loop-sync=local: {{[1-9][0-9]*}} files identical
// CHECK: shards={{[0-9]+}} divergent=masked loop-sync=auto: {{[1-9][0-9]*}} files identical
// CHECK: shards={{[0-9]+}} divergent=per-lane loop-sync=auto: {{[1-9][0-9]*}} files identical
// CHECK: PASS
