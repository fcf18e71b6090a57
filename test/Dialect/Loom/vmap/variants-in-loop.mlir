// Timed variants are not built for a divergent loop inside another loop:
// the scf.if between them would make bufferization copy the lane buffers
// on every trip of the enclosing one. The constants are gang-auto.mlir's
// VARIANTS run, under which the same nest at the top of a function is
// compiled both ways (gang 3168, refill 5328): here it is the gang alone.
// RUN: loom-opt %s -loom-vmap="one-pass-op-cost=1 gang-one-pass-op-cost=1 divergence-per-doubling=1 carried-latency-cost=100 gang-overhead=0 refill-op-cost=50" -mlir-print-op-on-diagnostic=false 2>&1 | FileCheck %s

// CHECK: remark: loop is uniform: its trip count is the same on every lane
// CHECK: remark: loop is gang (width 32): {{.*}}; gang 3168, gang with refill 5328 (width 32, divergence 6.000 a level): gang is cheapest{{$}}
// CHECK-LABEL: func.func private @sweeps_vmap_b_64(
// CHECK-NOT: loom.variant_begin
// CHECK: scf.for
// CHECK: func.call @sweeps_gang_vmap_bb_32_masked_gang(
// CHECK-NOT: loom.variant_begin

func.func @sweeps(%n: i32 {loom.name = "n"}) -> i32 {
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %sum = scf.for %k = %c0 to %c4 step %c1 iter_args(%s = %zero) -> (i32) {
    %r:2 = scf.while (%i = %n, %acc = %s) : (i32, i32) -> (i32, i32) {
      %go = arith.cmpi sgt, %i, %zero : i32
      scf.condition(%go) %i, %acc : i32, i32
    } do {
    ^bb0(%i: i32, %acc: i32):
      %inner = scf.while (%j = %i) : (i32) -> i32 {
        %more = arith.cmpi sgt, %j, %zero : i32
        scf.condition(%more) %j : i32
      } do {
      ^bb0(%j: i32):
        %j1 = arith.subi %j, %one : i32
        scf.yield %j1 : i32
      }
      %i1 = arith.subi %i, %one : i32
      %acc1 = arith.addi %acc, %i : i32
      scf.yield %i1, %acc1 : i32, i32
    }
    scf.yield %r#1 : i32
  }
  return %sum : i32
}

func.func @main(%ns: tensor<64xi32>) -> tensor<64xi32> {
  %r = loom.vmap @sweeps(%ns) in_axes [0] out_axes [0] : (tensor<64xi32>) -> tensor<64xi32>
  return %r : tensor<64xi32>
}
