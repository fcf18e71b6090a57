// RUN: loom-opt %s -inline | FileCheck %s

// Loom ops may be inlined: a callee that draws random numbers, reduces or
// maps with loom.vmap disappears into its caller.
// CHECK-LABEL: func.func @caller
// CHECK-NOT: call
// CHECK: loom.random.split
// CHECK: loom.random.normal
// CHECK: loom.sum
// CHECK: loom.vmap @scale
func.func private @draw(%key: tensor<2xi32>, %xs: tensor<?xf32>) -> (f32, f32, tensor<?xf32>) {
  %k = loom.random.split %key : tensor<2x2xi32>
  %first = tensor.extract_slice %k[0, 0] [1, 2] [1, 1] : tensor<2x2xi32> to tensor<2xi32>
  %z = loom.random.normal %first : f32
  %s = loom.sum %xs along 0 : tensor<?xf32> -> f32
  %m = loom.vmap @scale(%xs, %z) in_axes [0, none] out_axes [0]
      : (tensor<?xf32>, f32) -> tensor<?xf32>
  return %z, %s, %m : f32, f32, tensor<?xf32>
}
func.func private @scale(%x: f32, %a: f32) -> f32 {
  %y = arith.mulf %x, %a : f32
  return %y : f32
}
func.func @caller(%key: tensor<2xi32>, %xs: tensor<?xf32>) -> (f32, f32, tensor<?xf32>) {
  %r:3 = func.call @draw(%key, %xs) : (tensor<2xi32>, tensor<?xf32>) -> (f32, f32, tensor<?xf32>)
  return %r#0, %r#1, %r#2 : f32, f32, tensor<?xf32>
}
