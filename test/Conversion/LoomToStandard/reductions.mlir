// RUN: loom-opt %s -convert-loom-to-standard -split-input-file -verify-diagnostics | FileCheck %s

// any over the batch axis: a linalg.reduce seeded with false and combined
// with ori; convert-linalg-to-loops visits it in index order.
// CHECK-LABEL: func.func @any_scalar
// CHECK-SAME: (%[[M:.*]]: tensor<?xi1>)
// CHECK: %[[E:.*]] = tensor.empty() : tensor<i1>
// CHECK: %[[F:.*]] = arith.constant false
// CHECK: %[[I:.*]] = linalg.fill ins(%[[F]] : i1) outs(%[[E]] : tensor<i1>)
// CHECK: %[[R:.*]] = linalg.reduce { arith.ori } ins(%[[M]] : tensor<?xi1>) outs(%[[I]] : tensor<i1>) dimensions = [0]
// CHECK: %[[S:.*]] = tensor.extract %[[R]][] : tensor<i1>
// CHECK: return %[[S]] : i1
func.func @any_scalar(%m: tensor<?xi1>) -> i1 {
  %a = loom.any %m along 0 : tensor<?xi1> -> i1
  return %a : i1
}

// -----

// The kept dimensions are read from the input, dynamic ones included.
// CHECK-LABEL: func.func @sum_keeps_dynamic
// CHECK-SAME: (%[[X:.*]]: tensor<4x?xf32>)
// CHECK: %[[C1:.*]] = arith.constant 1 : index
// CHECK: %[[D:.*]] = tensor.dim %[[X]], %[[C1]] : tensor<4x?xf32>
// CHECK: tensor.empty(%[[D]]) : tensor<?xf32>
// CHECK: arith.constant 0.000000e+00 : f32
// CHECK: linalg.reduce { arith.addf } ins(%[[X]] : tensor<4x?xf32>) {{.*}} dimensions = [0]
func.func @sum_keeps_dynamic(%x: tensor<4x?xf32>) -> tensor<?xf32> {
  %s = loom.sum %x along 0 : tensor<4x?xf32> -> tensor<?xf32>
  return %s : tensor<?xf32>
}

// -----

// Identities: all starts true, max at -inf / INT_MIN, min at +inf / INT_MAX.
// CHECK-LABEL: func.func @identities
// CHECK: arith.constant true
// CHECK: linalg.reduce { arith.andi }
// CHECK: arith.constant 0xFF800000 : f32
// CHECK: linalg.reduce { arith.maximumf }
// CHECK: arith.constant -2147483648 : i32
// CHECK: linalg.reduce { arith.maxsi }
// CHECK: arith.constant 0x7F800000 : f32
// CHECK: linalg.reduce { arith.minimumf }
// CHECK: arith.constant 2147483647 : i32
// CHECK: linalg.reduce { arith.minsi }
func.func @identities(%m: tensor<3xi1>, %f: tensor<3xf32>, %i: tensor<3xi32>)
    -> (i1, f32, i32, f32, i32) {
  %a = loom.all %m along 0 : tensor<3xi1> -> i1
  %b = loom.max %f along 0 : tensor<3xf32> -> f32
  %c = loom.max %i along 0 : tensor<3xi32> -> i32
  %d = loom.min %f along 0 : tensor<3xf32> -> f32
  %e = loom.min %i along 0 : tensor<3xi32> -> i32
  return %a, %b, %c, %d, %e : i1, f32, i32, f32, i32
}

// -----

// A loom.vmap that reaches lowering is reported at the op.
func.func private @f(f32) -> f32
func.func @unexpanded(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{loom.vmap must be expanded by -loom-vmap before lowering}}
  %y = loom.vmap @f(%x) in_axes [0] out_axes [0] : (tensor<4xf32>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}
