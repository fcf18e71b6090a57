// RUN: loom-opt %s -loom-inline-batched-callees | FileCheck %s

// Calls of functions marked loom.batched are inlined, also the ones a
// batched callee makes; scalar callees stay calls; batched callees left
// without calls are erased, public or still-called functions are kept.
// CHECK-LABEL: func.func private @scalar(
// CHECK-NOT: func.func private @inner_vmap
// CHECK-NOT: func.func private @outer_vmap
// CHECK-LABEL: func.func @main(
// CHECK-NOT: call @outer_vmap
// CHECK-NOT: call @inner_vmap
// CHECK: arith.mulf {{.*}} : tensor<?xf32>
// CHECK: arith.addf {{.*}} : tensor<?xf32>
// CHECK: call @scalar(
// CHECK: return
func.func private @scalar(%x: f32) -> f32 {
  %y = arith.mulf %x, %x : f32
  return %y : f32
}
func.func private @inner_vmap(%x: tensor<?xf32>) -> tensor<?xf32> attributes {loom.batched} {
  %y = arith.mulf %x, %x : tensor<?xf32>
  return %y : tensor<?xf32>
}
func.func private @outer_vmap(%x: tensor<?xf32>) -> tensor<?xf32> attributes {loom.batched} {
  %y = func.call @inner_vmap(%x) : (tensor<?xf32>) -> tensor<?xf32>
  %z = arith.addf %y, %x : tensor<?xf32>
  return %z : tensor<?xf32>
}
func.func @main(%x: tensor<?xf32>, %s: f32) -> (tensor<?xf32>, f32) {
  %r = func.call @outer_vmap(%x) : (tensor<?xf32>) -> tensor<?xf32>
  %t = func.call @scalar(%s) : (f32) -> f32
  return %r, %t : tensor<?xf32>, f32
}
