// RUN: loom-opt %s -loom-scalarize-small-tensors -split-input-file | FileCheck %s
// RUN: loom-opt %s -loom-scalarize-small-tensors=private-arguments=0 -split-input-file | FileCheck %s --check-prefix=KEEP-ARGS

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
// the carries that stay as they are; loop attributes survive, and
// loom.source_carries says which carry as written each one comes from.
// CHECK-LABEL: func.func @key_and_buffer
// CHECK: scf.while (%{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}) : (i32, i32, tensor<100xf32>) -> (i32, i32, tensor<100xf32>)
// CHECK: } attributes {loom.source_carries = array<i64: 0, 0, 1>, loom.strategy = #loom.strategy<masked>}
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

// -----

// A lane's small result written into its row of a batched tensor: stored
// element by element at the row's (dynamic) offset, with no buffer of its
// own to copy from.
// CHECK-LABEL: func.func @row_of_elements
// CHECK-SAME: (%[[DEST:.*]]: tensor<?x2x2xi32>, %[[L:.*]]: index, %[[A:.*]]: i32, %[[B:.*]]: i32)
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : index
// CHECK: %[[I0:.*]] = tensor.insert %[[A]] into %[[DEST]][%[[L]], %[[C0]], %[[C0]]]
// CHECK: %[[I1:.*]] = tensor.insert %[[B]] into %[[I0]][%[[L]], %[[C0]], %[[C1]]]
// CHECK: %[[I2:.*]] = tensor.insert %[[A]] into %[[I1]][%[[L]], %[[C1]], %[[C0]]]
// CHECK: %[[I3:.*]] = tensor.insert %[[B]] into %[[I2]][%[[L]], %[[C1]], %[[C1]]]
// CHECK-NOT: tensor.insert_slice
// CHECK: return %[[I3]]
func.func @row_of_elements(%dest: tensor<?x2x2xi32>, %lane: index, %a: i32,
                           %b: i32) -> tensor<?x2x2xi32> {
  %e = tensor.from_elements %a, %b, %a, %b : tensor<2x2xi32>
  %r = tensor.insert_slice %e into %dest[%lane, 0, 0] [1, 2, 2] [1, 1, 1]
      : tensor<2x2xi32> into tensor<?x2x2xi32>
  return %r : tensor<?x2x2xi32>
}

// -----

// Strides and a static offset: every other element of row 3.
// CHECK-LABEL: func.func @strided_row
// CHECK-DAG: %[[C3:.*]] = arith.constant 3 : index
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG: %[[C5:.*]] = arith.constant 5 : index
// CHECK: tensor.insert %{{.*}} into %{{.*}}[%[[C3]], %[[C1]]]
// CHECK: tensor.insert %{{.*}} into %{{.*}}[%[[C3]], %[[C3]]]
// CHECK: tensor.insert %{{.*}} into %{{.*}}[%[[C3]], %[[C5]]]
func.func @strided_row(%dest: tensor<4x8xf32>, %a: f32, %b: f32, %c: f32)
    -> tensor<4x8xf32> {
  %e = tensor.from_elements %a, %b, %c : tensor<3xf32>
  %r = tensor.insert_slice %e into %dest[3, 1] [1, 3] [1, 2]
      : tensor<3xf32> into tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}

// -----

// A private helper's small tensor argument is passed as its elements; its
// callers extract them (from a from_elements, they fold away). Public
// functions keep their signatures.
// CHECK-LABEL: func.func private @leaf
// CHECK-SAME: (%[[K0:.*]]: i32, %[[K1:.*]]: i32, %[[R:.*]]: f32) -> f32
// CHECK-NOT: tensor.from_elements
// CHECK: arith.addi %[[K0]], %[[K1]]
// CHECK-LABEL: func.func @caller
// CHECK-SAME: (%[[A:.*]]: i32, %[[B:.*]]: i32, %[[T:.*]]: tensor<2xi32>, %[[X:.*]]: f32)
// CHECK: call @leaf(%[[A]], %[[B]], %[[X]]) : (i32, i32, f32) -> f32
// CHECK: %[[E0:.*]] = tensor.extract %[[T]][%{{.*}}] : tensor<2xi32>
// CHECK: %[[E1:.*]] = tensor.extract %[[T]][%{{.*}}] : tensor<2xi32>
// CHECK: call @leaf(%[[E0]], %[[E1]], %[[X]])
// With private-arguments=0 (as loom-pipeline runs it before loom-vmap,
// whose remarks name arguments by number) the helper keeps its signature.
// KEEP-ARGS-LABEL: func.func private @leaf
// KEEP-ARGS-SAME: (%{{.*}}: tensor<2xi32>, %{{.*}}: f32) -> f32
// KEEP-ARGS: call @leaf(%{{.*}}, %{{.*}}) : (tensor<2xi32>, f32) -> f32
module {
  func.func private @leaf(%key: tensor<2xi32>, %r: f32) -> f32 {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %a = tensor.extract %key[%c0] : tensor<2xi32>
    %b = tensor.extract %key[%c1] : tensor<2xi32>
    %s = arith.addi %a, %b : i32
    %f = arith.sitofp %s : i32 to f32
    %y = arith.addf %f, %r : f32
    return %y : f32
  }
  func.func @caller(%a: i32, %b: i32, %t: tensor<2xi32>, %x: f32) -> (f32, f32) {
    %k = tensor.from_elements %a, %b : tensor<2xi32>
    %y = func.call @leaf(%k, %x) : (tensor<2xi32>, f32) -> f32
    %z = func.call @leaf(%t, %x) : (tensor<2xi32>, f32) -> f32
    return %y, %z : f32, f32
  }
}

// -----

// A key taken out of a split: the slice picks its elements, in bounds (a
// negative stride walks the row backwards).
// CHECK-LABEL: func.func @slice_of_elements
// CHECK-SAME: (%[[A:.*]]: i32, %[[B:.*]]: i32, %[[C:.*]]: i32, %[[D:.*]]: i32)
// CHECK-NOT: tensor.extract_slice
// CHECK: %[[R0:.*]] = tensor.from_elements %[[C]], %[[D]] : tensor<2xi32>
// CHECK: %[[R1:.*]] = tensor.from_elements %[[D]], %[[C]] : tensor<2xi32>
// CHECK: return %[[R0]], %[[R1]]
func.func @slice_of_elements(%a: i32, %b: i32, %c: i32, %d: i32)
    -> (tensor<2xi32>, tensor<2xi32>) {
  %t = tensor.from_elements %a, %b, %c, %d : tensor<2x2xi32>
  %s0 = tensor.extract_slice %t[1, 0] [1, 2] [1, 1]
      : tensor<2x2xi32> to tensor<2xi32>
  %s1 = tensor.extract_slice %t[1, 1] [1, 2] [1, -1]
      : tensor<2x2xi32> to tensor<2xi32>
  return %s0, %s1 : tensor<2xi32>, tensor<2xi32>
}

// -----

// Out-of-bounds static slices of a from_elements are undefined behaviour
// (loom-check-static-bounds reports them); the rewrite must leave them alone
// instead of reading past the elements: an offset past the end (and one just
// past it), strides that step out (INT32_MIN, a huge one, one whose
// offset + (size - 1) * stride overflows int64, a negative one) .
// CHECK-LABEL: func.func @slice_out_of_bounds
// CHECK-COUNT-7: tensor.extract_slice
func.func @slice_out_of_bounds(%a: i32, %b: i32) -> (tensor<2xi32>,
    tensor<2xi32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>,
    tensor<2xi32>) {
  %t = tensor.from_elements %a, %b, %a, %b, %a, %b : tensor<3x2xi32>
  %s0 = tensor.extract_slice %t[5, 0] [1, 2] [1, 1]
      : tensor<3x2xi32> to tensor<2xi32>
  %s1 = tensor.extract_slice %t[3, 0] [1, 2] [1, 1]
      : tensor<3x2xi32> to tensor<2xi32>
  %s2 = tensor.extract_slice %t[1, 0] [1, 2] [1, -2147483648]
      : tensor<3x2xi32> to tensor<2xi32>
  %s3 = tensor.extract_slice %t[1, 0] [1, 2] [1, 9223372036854775807]
      : tensor<3x2xi32> to tensor<2xi32>
  %s4 = tensor.extract_slice %t[1, 1] [1, 2] [1, 9223372036854775807]
      : tensor<3x2xi32> to tensor<2xi32>
  %s5 = tensor.extract_slice %t[1, 0] [1, 2] [1, -1]
      : tensor<3x2xi32> to tensor<2xi32>
  %s6 = tensor.extract_slice %t[0, 0] [2, 1] [4, 1]
      : tensor<3x2xi32> to tensor<2xi32>
  return %s0, %s1, %s2, %s3, %s4, %s5, %s6 : tensor<2xi32>, tensor<2xi32>,
      tensor<2xi32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>
}

// -----

// The same for insert_slice into a static destination: out-of-bounds static
// slices are left as they are, never turned into tensor.inserts at indices
// past the end (or computed with an overflowing offset + step).
// CHECK-LABEL: func.func @insert_out_of_bounds
// CHECK-NOT: tensor.insert %
// CHECK-COUNT-4: tensor.insert_slice
// CHECK-NOT: tensor.insert %
func.func @insert_out_of_bounds(%dest: tensor<4x8xf32>, %lane: index,
                                %a: f32, %b: f32) -> tensor<4x8xf32> {
  %e = tensor.from_elements %a, %b : tensor<2xf32>
  %r0 = tensor.insert_slice %e into %dest[4, 0] [1, 2] [1, 1]
      : tensor<2xf32> into tensor<4x8xf32>
  %r1 = tensor.insert_slice %e into %r0[0, 7] [1, 2] [1, 1]
      : tensor<2xf32> into tensor<4x8xf32>
  %r2 = tensor.insert_slice %e into %r1[0, 1] [1, 2] [1, 9223372036854775807]
      : tensor<2xf32> into tensor<4x8xf32>
  // A dynamic offset with a step that cannot fit the dimension.
  %r3 = tensor.insert_slice %e into %r2[0, %lane] [1, 2] [1, 8]
      : tensor<2xf32> into tensor<4x8xf32>
  return %r3 : tensor<4x8xf32>
}

// -----

// A loop split before keeps counting carries as they were written.
// CHECK-LABEL: func.func @split_again
// CHECK: } attributes {loom.source_carries = array<i64: 0, 0, 1, 1>}
func.func @split_again(%a: i32, %b: i32, %v: tensor<2xf32>, %go: i1)
    -> tensor<2xf32> {
  %r:3 = scf.while (%x = %a, %y = %b, %w = %v)
      : (i32, i32, tensor<2xf32>) -> (i32, i32, tensor<2xf32>) {
    scf.condition(%go) %x, %y, %w : i32, i32, tensor<2xf32>
  } do {
  ^bb0(%x: i32, %y: i32, %w: tensor<2xf32>):
    scf.yield %y, %x, %w : i32, i32, tensor<2xf32>
  } attributes {loom.source_carries = array<i64: 0, 0, 1>}
  return %r#2 : tensor<2xf32>
}
