// The shard context (`i64 {loom.context}`) and the collectives are Loom's
// own: a program that brings them is refused with one located line, never
// run with the caller's value read as the runtime's mesh (issue 11: these
// aborted with "free(): invalid pointer" or returned nothing).

// A loom.context argument written by hand.
// RUN: not loom-run %s --shards 2 --input a=fill:3:5xf32 --input arg1=fill:77:i64 > %t.ctx 2>&1
// RUN: FileCheck %s --check-prefix=CTX < %t.ctx && count 1 < %t.ctx
// CTX: {{^}}loom-run: {{.*}}already-sharded.mlir:[[@LINE+5]]:54: error: argument #1 of @main carries loom.context, which only Loom's own sharding adds (the shard context is not a program input): remove it, and give Loom the program from before loom-shard{{$}}
func.func @sq(%x: f32) -> f32 {
  %r = arith.mulf %x, %x : f32
  return %r : f32
}
func.func @main(%a: tensor<?xf32> {loom.name = "a"}, %c: i64 {loom.context}) -> (tensor<?xf32> {loom.name = "r"}) {
  %r = loom.vmap @sq(%a) in_axes [0] out_axes [0] : (tensor<?xf32>) -> tensor<?xf32>
  return %r : tensor<?xf32>
}

// A program that already went through loom-shard (here the MWE, masked, so
// it holds collectives as well as the context), offered to loom-run again.
// RUN: loom-opt %examples/mwe/while_of_while.mlir -loom-annotate-batch-axes -loom-vmap=divergent=masked -loom-shard=shards=3 -o %t.sharded.mlir
// RUN: not loom-run %t.sharded.mlir --input inits=fill:0.1:6x1xf32 --input keys=jax-split:0:6 --input arg2=fill:0:i64 > %t.pre 2>&1
// RUN: FileCheck %s --check-prefix=PRE < %t.pre && count 1 < %t.pre
// PRE: {{^}}loom-run: {{.*}}sharded.mlir:{{[0-9]+}}:{{[0-9]+}}: error: {{.*}} only Loom's own sharding adds{{.*}}: give Loom the program from before loom-shard{{$}}

// loom-shard itself refuses to shard twice.
// RUN: not loom-opt %t.sharded.mlir -loom-shard=shards=2 2>&1 | FileCheck %s --check-prefix=TWICE
// TWICE: error: {{.*}} only Loom's own sharding adds{{.*}}: give Loom the program from before loom-shard
