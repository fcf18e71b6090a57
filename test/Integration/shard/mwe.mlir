// The seed's MWE through loom-run: every sharded variant writes result
// files identical, byte for byte, to those of --shards 1 (shard_compare.py).
// Variants: divergent=masked under each loop-sync, and divergent=per-lane
// once (per-lane loops are scalar per lane: no predicate is reduced across
// lanes, so loop-sync has nothing to decide). This covers the command-line
// path; the full matrix (shards 1, 2, 3, 10, more batch sizes, the vmap
// issue's divergent programs) runs through the API in
// test/unit/API/ShardTest.cpp, which compiles each variant once for all
// batch sizes.

// jax.random.split(PRNGKey(0), 30): 30 lanes on 2, 3 and 10 shards.
// RUN: python3 %S/shard_compare.py loom-run %examples/mwe/while_of_while.mlir --input inits=fill:0.1:30x1xf32 --input keys=jax-split:0:30 --shards 2,3,10 | FileCheck %s

// A batch of one lane: nine of ten shards are empty.
// RUN: python3 %S/shard_compare.py loom-run %examples/mwe/while_of_while.mlir --input inits=fill:0.1:1x1xf32 --input keys=jax-split:0:1 --shards 10 --variants masked:local,per-lane:auto | FileCheck %s --check-prefix=ONE

// CHECK: shards={{[0-9]+}} divergent=masked loop-sync=global: {{[1-9][0-9]*}} files identical
// CHECK: shards={{[0-9]+}} divergent=masked loop-sync=local: {{[1-9][0-9]*}} files identical
// CHECK: shards={{[0-9]+}} divergent=masked loop-sync=auto: {{[1-9][0-9]*}} files identical
// CHECK: shards={{[0-9]+}} divergent=per-lane loop-sync=auto: {{[1-9][0-9]*}} files identical
// CHECK: PASS
// ONE: shards=10 divergent=masked loop-sync=local: 1 files identical
// ONE: shards=10 divergent=per-lane loop-sync=auto: 1 files identical
// ONE: PASS
