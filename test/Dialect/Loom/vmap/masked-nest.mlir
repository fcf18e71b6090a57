// RUN: loom-opt %s --loom-pipeline='divergent=masked' --loom-bufferize 2>/dev/null | FileCheck %s

// The outer level of a nest whose carries are scalars runs its
// straight-line code as loops over lanes: one pass with the predicate, which
// stores the mask, ORs it into the any() accumulator and stores what the
// inner loop reads of this iteration (t * b and its step); then the inner
// loop (itself one pass per iteration, on that mask); then one pass with
// the code after the inner loop and the selects of all three carries. No
// batched tensor op is left in the loop, so nothing sweeps a carry alone.
// CHECK-LABEL: func.func @main(
// CHECK: scf.while : () -> () {
// CHECK-NEXT: %[[ANY:.*]] = scf.for %{{.*}} iter_args(%[[ACC:.*]] = %{{.*}}) -> (i32) {
// CHECK: %[[P:.*]] = arith.cmpf olt
// CHECK: arith.mulf
// CHECK: arith.addf
// CHECK: arith.mulf
// CHECK: memref.store %[[P]], %{{.*}} : memref<?xi1>
// CHECK-COUNT-2: memref.store %{{.*}} : memref<?xf32>
// CHECK-NEXT: %[[W:.*]] = arith.extui %[[P]] : i1 to i32
// CHECK-NEXT: %[[OR:.*]] = arith.ori %[[ACC]], %[[W]] : i32
// CHECK: %[[GO:.*]] = arith.cmpi ne, %[[ANY]], %{{.*}} : i32
// CHECK-NEXT: scf.condition(%[[GO]])
// CHECK-NEXT: } do {
// CHECK-NOT: linalg.generic
// CHECK: scf.while
// CHECK: } do {
// CHECK-NEXT: scf.yield
// CHECK-NEXT: }
// CHECK-NEXT: scf.for
// CHECK-NOT: linalg.generic
// CHECK-COUNT-3: arith.select
// CHECK-NEXT: memref.store
// CHECK-NEXT: }
// CHECK-NEXT: scf.yield
// CHECK-NEXT: }
// CHECK-NEXT: memref.dealloc

func.func private @nested(%a: f32, %b: f32) -> (f32, i32) {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %half = arith.constant 0.5 : f32
  %i0 = arith.constant 0 : i32
  %i1 = arith.constant 1 : i32
  %r:3 = scf.while (%t = %zero, %acc = %zero, %k = %i0)
      : (f32, f32, i32) -> (f32, f32, i32) {
    %go = arith.cmpf olt, %t, %a : f32
    scf.condition(%go) %t, %acc, %k : f32, f32, i32
  } do {
  ^bb0(%t: f32, %acc: f32, %k: i32):
    %limit = arith.mulf %t, %b : f32
    %step0 = arith.addf %one, %b : f32
    %step = arith.mulf %half, %step0 : f32
    %in:2 = scf.while (%s = %zero, %j = %i0) : (f32, i32) -> (f32, i32) {
      %more = arith.cmpf olt, %s, %limit : f32
      scf.condition(%more) %s, %j : f32, i32
    } do {
    ^bb0(%s: f32, %j: i32):
      %s1 = arith.addf %s, %step : f32
      %j1 = arith.addi %j, %i1 : i32
      scf.yield %s1, %j1 : f32, i32
    }
    %acc1 = arith.addf %acc, %in#0 : f32
    %t1 = arith.addf %t, %one : f32
    %k1 = arith.addi %k, %in#1 : i32
    scf.yield %t1, %acc1, %k1 : f32, f32, i32
  }
  return %r#1, %r#2 : f32, i32
}
func.func @main(%as: tensor<?xf32> {loom.name = "as"},
                %bs: tensor<?xf32> {loom.name = "bs"})
    -> (tensor<?xf32>, tensor<?xi32>) {
  %r:2 = loom.vmap @nested(%as, %bs) in_axes [0, 0] out_axes [0, 0]
      : (tensor<?xf32>, tensor<?xf32>) -> (tensor<?xf32>, tensor<?xi32>)
  return %r#0, %r#1 : tensor<?xf32>, tensor<?xi32>
}
