// RUN: loom-opt %s -loom-vmap -split-input-file -mlir-print-op-on-diagnostic=false 2>/dev/null | FileCheck %s

// in_axes / out_axes other than 0: the batch axis is moved to the front for
// the batched clone and back for the result (linalg.transpose); a shared
// operand is passed as it is.
// CHECK-LABEL: func.func private @f_vmap_bu(
// CHECK-SAME: %{{.*}}: tensor<?x3xf32> {bufferization.writable = false}, %{{.*}}: f32) -> tensor<?x3xf32>
// CHECK-LABEL: func.func @main(
// CHECK-SAME: %[[V:.*]]: tensor<3x?xf32>, %[[S:.*]]: f32)
// CHECK: %[[C1:.*]] = arith.constant 1 : index
// CHECK: %[[B:.*]] = tensor.dim %[[V]], %[[C1]] : tensor<3x?xf32>
// CHECK: %[[E:.*]] = tensor.empty(%[[B]]) : tensor<?x3xf32>
// CHECK: %[[IN:.*]] = linalg.transpose ins(%[[V]] : tensor<3x?xf32>) outs(%[[E]] : tensor<?x3xf32>) permutation = [1, 0]
// CHECK: %[[R:.*]] = call @f_vmap_bu(%[[IN]], %[[S]]) : (tensor<?x3xf32>, f32) -> tensor<?x3xf32>
// CHECK: %[[OUT:.*]] = linalg.transpose ins(%[[R]] : tensor<?x3xf32>) outs(%{{.*}} : tensor<3x?xf32>) permutation = [1, 0]
// CHECK: return %[[OUT]] : tensor<3x?xf32>
func.func private @f(%v: tensor<3xf32>, %s: f32) -> tensor<3xf32> {
  %t = tensor.splat %s : tensor<3xf32>
  %r = arith.mulf %v, %t : tensor<3xf32>
  return %r : tensor<3xf32>
}
func.func @main(%vs: tensor<3x?xf32>, %s: f32) -> tensor<3x?xf32> {
  %r = loom.vmap @f(%vs, %s) in_axes [1, none] out_axes [1]
      : (tensor<3x?xf32>, f32) -> tensor<3x?xf32>
  return %r : tensor<3x?xf32>
}

// -----

// A static batch size gives static types and its own clone; an unbatched
// result asked for with out_axes is broadcast along the batch.
// CHECK-LABEL: func.func private @g_vmap_bu_5(
// CHECK-SAME: %{{.*}}: tensor<5xf32> {bufferization.writable = false}, %{{.*}}: f32) -> (tensor<5xf32>, f32)
// CHECK: %[[B:.*]] = arith.constant 5 : index
// CHECK-LABEL: func.func @main(
// CHECK: %[[R:.*]]:2 = call @g_vmap_bu_5(%{{.*}}, %{{.*}}) : (tensor<5xf32>, f32) -> (tensor<5xf32>, f32)
// CHECK: %[[E:.*]] = tensor.empty() : tensor<5xf32>
// CHECK: %[[BC:.*]] = linalg.fill ins(%[[R]]#1 : f32) outs(%[[E]] : tensor<5xf32>)
// CHECK: return %[[R]]#0, %[[BC]]
func.func private @g(%x: f32, %s: f32) -> (f32, f32) {
  %a = arith.addf %x, %s : f32
  %b = arith.mulf %s, %s : f32
  return %a, %b : f32, f32
}
func.func @main(%xs: tensor<5xf32>, %s: f32) -> (tensor<5xf32>, tensor<5xf32>) {
  %r:2 = loom.vmap @g(%xs, %s) in_axes [0, none] out_axes [0, 0]
      : (tensor<5xf32>, f32) -> (tensor<5xf32>, tensor<5xf32>)
  return %r#0, %r#1 : tensor<5xf32>, tensor<5xf32>
}
