// The inner loop of a masked nest reads the outer level's lane mask from
// memory on every iteration. loom-widen-bool-buffers stores that mask as
// bytes, so the loop vectorizer widens its load like any other; a load of
// i1 it would split into one scalar load and insertelement per lane.
// REQUIRES: x86_64
// RUN: loom-opt %s --loom-pipeline='divergent=masked' --loom-to-llvm 2>/dev/null | mlir-translate --mlir-to-llvmir | opt -O3 -S -mtriple=x86_64-unknown-linux-gnu -mcpu=x86-64-v3 | FileCheck %s

// CHECK-LABEL: define {{.*}} @main(
// CHECK-NOT: load i1,
// CHECK: load <{{[0-9]+}} x i8>
// CHECK-NOT: load i1,
// CHECK: ret
func.func private @sum_halvings(%n: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %r:2 = scf.while (%i = %n, %total = %c0) : (i32, i32) -> (i32, i32) {
    %go = arith.cmpi sgt, %i, %c0 : i32
    scf.condition(%go) %i, %total : i32, i32
  } do {
  ^bb0(%i: i32, %total: i32):
    %h:2 = scf.while (%m = %i, %k = %c0) : (i32, i32) -> (i32, i32) {
      %big = arith.cmpi sgt, %m, %c1 : i32
      scf.condition(%big) %m, %k : i32, i32
    } do {
    ^bb0(%m: i32, %k: i32):
      %half = arith.shrsi %m, %c1 : i32
      %k1 = arith.addi %k, %c1 : i32
      scf.yield %half, %k1 : i32, i32
    }
    %t1 = arith.addi %total, %h#1 : i32
    %i1 = arith.subi %i, %c1 : i32
    scf.yield %i1, %t1 : i32, i32
  }
  return %r#1 : i32
}
func.func @main(%ns: tensor<?xi32>) -> tensor<?xi32> {
  %r = loom.vmap @sum_halvings(%ns) in_axes [0] out_axes [0]
      : (tensor<?xi32>) -> tensor<?xi32>
  return %r : tensor<?xi32>
}
