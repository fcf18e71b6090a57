// RUN: loom-opt %s --loom-pipeline='divergent=masked' --loom-bufferize 2>/dev/null | FileCheck %s

// A masked loop of elementwise scalar ops is one loop over lanes per
// iteration once bufferized: each lane's predicate, the selects of both
// carries, the predicate on the new carries ORed into a full-width (i32)
// accumulator. No mask is stored, none is reduced in a second pass, and
// the after region is empty.
// CHECK-LABEL: func.func @main(
// CHECK-NOT: memref<?xi1>
// CHECK: scf.while : () -> () {
// CHECK-NEXT: %[[ANY:.*]] = scf.for %{{.*}} iter_args(%[[ACC:.*]] = %{{.*}}) -> (i32) {
// CHECK-COUNT-2: memref.load
// CHECK: %[[A:.*]] = arith.cmpi sgt
// CHECK: arith.select %[[A]]
// CHECK: arith.select %[[A]]
// CHECK: %[[P:.*]] = arith.cmpi sgt
// CHECK-COUNT-2: memref.store
// CHECK-NEXT: %[[W:.*]] = arith.extui %[[P]] : i1 to i32
// CHECK-NEXT: %[[OR:.*]] = arith.ori %[[ACC]], %[[W]] : i32
// CHECK-NEXT: scf.yield %[[OR]] : i32
// CHECK: %[[GO:.*]] = arith.cmpi ne, %[[ANY]], %{{.*}} : i32
// CHECK-NEXT: scf.condition(%[[GO]])
// CHECK-NEXT: } do {
// CHECK-NEXT: scf.yield
// CHECK-NOT: linalg.reduce
// CHECK: return
func.func private @collatz(%x0: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c3 = arith.constant 3 : i32
  %r:2 = scf.while (%x = %x0, %n = %c0) : (i32, i32) -> (i32, i32) {
    %go = arith.cmpi sgt, %x, %c1 : i32
    scf.condition(%go) %x, %n : i32, i32
  } do {
  ^bb0(%x: i32, %n: i32):
    %low = arith.andi %x, %c1 : i32
    %odd = arith.cmpi ne, %low, %c0 : i32
    %half = arith.shrsi %x, %c1 : i32
    %t = arith.muli %x, %c3 : i32
    %t1 = arith.addi %t, %c1 : i32
    %next = arith.select %odd, %t1, %half : i32
    %n1 = arith.addi %n, %c1 : i32
    scf.yield %next, %n1 : i32, i32
  }
  return %r#1 : i32
}
func.func @main(%xs: tensor<?xi32>) -> tensor<?xi32> {
  %r = loom.vmap @collatz(%xs) in_axes [0] out_axes [0]
      : (tensor<?xi32>) -> tensor<?xi32>
  return %r : tensor<?xi32>
}
