// RUN: loom-opt %s -loom-scalarize-small-tensors -split-input-file | FileCheck %s

// A tensor<1xf32> carry rebuilt each iteration becomes an f32 carry, and the
// extract/from_elements pairs fold away: nothing is left to allocate.
// CHECK-LABEL: func.func @one_element
// CHECK-SAME: (%[[INIT:.*]]: tensor<1xf32>)
// CHECK: %[[E:.*]] = tensor.extract %[[INIT]][%{{.*}}] : tensor<1xf32>
// CHECK: %[[W:.*]] = scf.while (%[[Y:.*]] = %[[E]]) : (f32) -> f32 {
// CHECK:   arith.cmpf olt, %[[Y]]
// CHECK:   scf.condition(%{{.*}}) %[[Y]] : f32
// CHECK: } do {
// CHECK: ^bb0(%[[Z:.*]]: f32):
// CHECK:   %[[N:.*]] = arith.addf %[[Z]], %[[Z]] : f32
// CHECK:   scf.yield %[[N]] : f32
// CHECK: }
// CHECK: %[[R:.*]] = tensor.from_elements %[[W]] : tensor<1xf32>
// CHECK: return %[[R]]
func.func @one_element(%init: tensor<1xf32>) -> tensor<1xf32> {
  %c0 = arith.constant 0 : index
  %ten = arith.constant 10.0 : f32
  %r = scf.while (%y = %init) : (tensor<1xf32>) -> tensor<1xf32> {
    %v = tensor.extract %y[%c0] : tensor<1xf32>
    %p = arith.cmpf olt, %v, %ten : f32
    scf.condition(%p) %y : tensor<1xf32>
  } do {
  ^bb0(%y: tensor<1xf32>):
    %v = tensor.extract %y[%c0] : tensor<1xf32>
    %n = arith.addf %v, %v : f32
    %t = tensor.from_elements %n : tensor<1xf32>
    scf.yield %t : tensor<1xf32>
  }
  return %r : tensor<1xf32>
}

// -----

// Keys (tensor<2xi32>) are carried word by word, in row-major order, next to
// the carries that stay as they are; loop attributes survive.
// CHECK-LABEL: func.func @key_and_buffer
// CHECK: scf.while (%{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}) : (i32, i32, tensor<100xf32>) -> (i32, i32, tensor<100xf32>)
// CHECK: } attributes {loom.strategy = #loom.strategy<masked>}
func.func @key_and_buffer(%k: tensor<2xi32>, %buf: tensor<100xf32>,
                          %go: i1) -> (tensor<2xi32>, tensor<100xf32>) {
  %r:2 = scf.while (%key = %k, %b = %buf)
      : (tensor<2xi32>, tensor<100xf32>) -> (tensor<2xi32>, tensor<100xf32>) {
    scf.condition(%go) %key, %b : tensor<2xi32>, tensor<100xf32>
  } do {
  ^bb0(%key: tensor<2xi32>, %b: tensor<100xf32>):
    %s = loom.random.split %key : tensor<1x2xi32>
    %n = tensor.collapse_shape %s [[0, 1]] : tensor<1x2xi32> into tensor<2xi32>
    scf.yield %n, %b : tensor<2xi32>, tensor<100xf32>
  } attributes {loom.strategy = #loom.strategy<masked>}
  return %r#0, %r#1 : tensor<2xi32>, tensor<100xf32>
}

// -----

// Large or dynamic tensors are left alone.
// CHECK-LABEL: func.func @untouched
// CHECK: scf.while (%{{.*}} = %{{.*}}) : (tensor<?xf32>) -> tensor<?xf32>
func.func @untouched(%x: tensor<?xf32>, %go: i1) -> tensor<?xf32> {
  %r = scf.while (%y = %x) : (tensor<?xf32>) -> tensor<?xf32> {
    scf.condition(%go) %y : tensor<?xf32>
  } do {
  ^bb0(%y: tensor<?xf32>):
    scf.yield %y : tensor<?xf32>
  }
  return %r : tensor<?xf32>
}
