// RUN: loom-opt %s -loom-vmap -split-input-file -allow-unregistered-dialect -mlir-print-op-on-diagnostic=false 2>/dev/null | FileCheck %s

// Elementwise ops (one generic model for every ElementwiseMappable arith and
// math op): the same op on tensors, unbatched operands broadcast once.
// CHECK-LABEL: func.func private @ew_vmap_bub(
// CHECK-SAME: %[[X:.*]]: tensor<?xf32> {bufferization.writable = false}, %[[Y:.*]]: f32, %[[C:.*]]: tensor<?xi1>
// CHECK: %[[B:.*]] = tensor.dim %[[X]], %c0
// CHECK: %[[E:.*]] = tensor.empty(%[[B]]) : tensor<?xf32>
// CHECK: %[[YS:.*]] = linalg.fill ins(%[[Y]] : f32) outs(%[[E]] : tensor<?xf32>)
// CHECK: %[[S:.*]] = math.sin %[[X]] : tensor<?xf32>
// CHECK: %[[A:.*]] = arith.addf %[[S]], %[[YS]] : tensor<?xf32>
// CHECK: %[[R:.*]] = arith.select %[[C]], %[[A]], %[[YS]] : tensor<?xi1>, tensor<?xf32>
// CHECK: return %[[R]]
// CHECK-LABEL: func.func @main
// CHECK: call @ew_vmap_bub(%{{.*}}, %{{.*}}, %{{.*}}) : (tensor<?xf32>, f32, tensor<?xi1>) -> tensor<?xf32>
func.func private @ew(%x: f32, %y: f32, %c: i1) -> f32 {
  %s = math.sin %x : f32
  %a = arith.addf %s, %y : f32
  %r = arith.select %c, %a, %y : f32
  return %r : f32
}
func.func @main(%xs: tensor<?xf32>, %y: f32, %cs: tensor<?xi1>) -> tensor<?xf32> {
  %r = loom.vmap @ew(%xs, %y, %cs) in_axes [0, none, 0] out_axes [0]
      : (tensor<?xf32>, f32, tensor<?xi1>) -> tensor<?xf32>
  return %r : tensor<?xf32>
}

// -----

// select of whole lane tensors: a per-lane condition is broadcast to the
// lane's shape; a shared one stays a scalar. A static batch stays static.
// CHECK-LABEL: func.func private @sel_vmap_bubu_4(
// CHECK: %[[W:.*]] = linalg.broadcast ins(%{{.*}} : tensor<3xf32>) outs(%{{.*}} : tensor<4x3xf32>) dimensions = [0]
// CHECK: %[[C:.*]] = linalg.broadcast ins(%{{.*}} : tensor<4xi1>) outs(%{{.*}} : tensor<4x3xi1>) dimensions = [1]
// CHECK: arith.select %[[C]], %{{.*}}, %[[W]] : tensor<4x3xi1>, tensor<4x3xf32>
// CHECK: arith.select %{{.*}}, %{{.*}}, %[[W]] : tensor<4x3xf32>
func.func private @sel(%v: tensor<3xf32>, %w: tensor<3xf32>, %c: i1, %d: i1)
    -> (tensor<3xf32>, tensor<3xf32>) {
  %a = arith.select %c, %v, %w : tensor<3xf32>
  %b = arith.select %d, %v, %w : tensor<3xf32>
  return %a, %b : tensor<3xf32>, tensor<3xf32>
}
func.func @main(%vs: tensor<4x3xf32>, %w: tensor<3xf32>, %cs: tensor<4xi1>, %d: i1)
    -> (tensor<4x3xf32>, tensor<4x3xf32>) {
  %r:2 = loom.vmap @sel(%vs, %w, %cs, %d) in_axes [0, none, 0, none] out_axes [0, 0]
      : (tensor<4x3xf32>, tensor<3xf32>, tensor<4xi1>, i1) -> (tensor<4x3xf32>, tensor<4x3xf32>)
  return %r#0, %r#1 : tensor<4x3xf32>, tensor<4x3xf32>
}

// -----

// tensor.extract: a shared index reads a column (a view), a per-lane index
// reads lane by lane. tensor.insert: a shared index writes a column, a
// per-lane one writes lane by lane, in place. from_elements of one element
// is a reshape; of several, columns inserted into one tensor.
// CHECK-LABEL: func.func private @elems_vmap_bbb(
// CHECK-SAME: %[[T:.*]]: tensor<?x3xf32> {{.*}}, %[[I:.*]]: tensor<?xindex> {{.*}}, %[[V:.*]]: tensor<?xf32>
// CHECK: %[[COL:.*]] = tensor.extract_slice %[[T]][0, %c1] [%{{.*}}, 1] [1, 1] : tensor<?x3xf32> to tensor<?xf32>
// CHECK: %[[GATHER:.*]] = scf.for %[[L:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %{{.*}}) -> (tensor<?xf32>) {
// CHECK:   %[[TL:.*]] = tensor.extract_slice %[[T]][%[[L]], 0] [1, 3] [1, 1] : tensor<?x3xf32> to tensor<3xf32>
// CHECK:   %[[IL:.*]] = tensor.extract %[[I]][%[[L]]] : tensor<?xindex>
// CHECK:   %[[E:.*]] = tensor.extract %[[TL]][%[[IL]]] : tensor<3xf32>
// CHECK:   tensor.insert %[[E]] into %[[ACC]][%[[L]]] : tensor<?xf32>
// CHECK: %[[W1:.*]] = tensor.insert_slice %[[V]] into %[[T]][0, %c1] [%{{.*}}, 1] [1, 1] : tensor<?xf32> into tensor<?x3xf32>
// CHECK: %[[W2:.*]] = scf.for %[[L:.*]] = %{{.*}} iter_args(%[[ACC:.*]] = %[[W1]]) -> (tensor<?x3xf32>) {
// CHECK:   %[[IL:.*]] = tensor.extract %[[I]][%[[L]]] : tensor<?xindex>
// CHECK:   %[[VL:.*]] = tensor.extract %[[V]][%[[L]]] : tensor<?xf32>
// CHECK:   tensor.insert %[[VL]] into %[[ACC]][%[[L]], %[[IL]]] : tensor<?x3xf32>
// CHECK: tensor.expand_shape %[[COL]] {{\[\[}}0, 1]] output_shape [%{{.*}}, 1] : tensor<?xf32> into tensor<?x1xf32>
// CHECK: %[[E2:.*]] = tensor.empty(%{{.*}}) : tensor<?x2xf32>
// CHECK: %[[P0:.*]] = tensor.insert_slice %[[COL]] into %[[E2]][0, 0] [%{{.*}}, 1] [1, 1] : tensor<?xf32> into tensor<?x2xf32>
// CHECK: tensor.insert_slice %[[GATHER]] into %[[P0]][0, 1] [%{{.*}}, 1] [1, 1] : tensor<?xf32> into tensor<?x2xf32>
func.func private @elems(%t: tensor<3xf32>, %i: index, %v: f32)
    -> (tensor<3xf32>, tensor<1xf32>, tensor<2xf32>) {
  %c1 = arith.constant 1 : index
  %a = tensor.extract %t[%c1] : tensor<3xf32>
  %b = tensor.extract %t[%i] : tensor<3xf32>
  %t1 = tensor.insert %v into %t[%c1] : tensor<3xf32>
  %t2 = tensor.insert %v into %t1[%i] : tensor<3xf32>
  %one = tensor.from_elements %a : tensor<1xf32>
  %two = tensor.from_elements %a, %b : tensor<2xf32>
  return %t2, %one, %two : tensor<3xf32>, tensor<1xf32>, tensor<2xf32>
}
func.func @main(%ts: tensor<?x3xf32>, %is: tensor<?xindex>, %vs: tensor<?xf32>)
    -> (tensor<?x3xf32>, tensor<?x1xf32>, tensor<?x2xf32>) {
  %r:3 = loom.vmap @elems(%ts, %is, %vs) in_axes [0, 0, 0] out_axes [0, 0, 0]
      : (tensor<?x3xf32>, tensor<?xindex>, tensor<?xf32>)
      -> (tensor<?x3xf32>, tensor<?x1xf32>, tensor<?x2xf32>)
  return %r#0, %r#1, %r#2 : tensor<?x3xf32>, tensor<?x1xf32>, tensor<?x2xf32>
}

// -----

// Slices at shared offsets gain the lane axis; at per-lane offsets they are
// taken lane by lane. splat broadcasts along the lane's axes; dim is shared.
// CHECK-LABEL: func.func private @slices_vmap_bbb(
// CHECK-SAME: %[[T:.*]]: tensor<?x8xf32> {{.*}}, %[[O:.*]]: tensor<?xindex> {{.*}}, %[[X:.*]]: tensor<?xf32>
// CHECK: %[[S:.*]] = tensor.extract_slice %[[T]][0, 2] [%{{.*}}, 4] [1, 1] : tensor<?x8xf32> to tensor<?x4xf32>
// CHECK: scf.for
// CHECK:   tensor.extract_slice %{{.*}}[%{{.*}}] [4] [1] : tensor<8xf32> to tensor<4xf32>
// CHECK:   tensor.insert_slice %{{.*}} into %{{.*}}[%{{.*}}, 0] [1, 4] [1, 1] : tensor<4xf32> into tensor<?x4xf32>
// CHECK: %[[SP:.*]] = linalg.broadcast ins(%[[X]] : tensor<?xf32>) outs(%{{.*}} : tensor<?x4xf32>) dimensions = [1]
// CHECK: tensor.insert_slice %[[SP]] into %[[T]][0, 4] [%{{.*}}, 4] [1, 1] : tensor<?x4xf32> into tensor<?x8xf32>
// CHECK: %[[AXIS:.*]] = arith.constant 1 : index
// CHECK-NEXT: tensor.dim %[[T]], %[[AXIS]] : tensor<?x8xf32>
func.func private @slices(%t: tensor<8xf32>, %o: index, %x: f32)
    -> (tensor<4xf32>, tensor<4xf32>, tensor<8xf32>, index) {
  %c0 = arith.constant 0 : index
  %a = tensor.extract_slice %t[2] [4] [1] : tensor<8xf32> to tensor<4xf32>
  %b = tensor.extract_slice %t[%o] [4] [1] : tensor<8xf32> to tensor<4xf32>
  %s = tensor.splat %x : tensor<4xf32>
  %w = tensor.insert_slice %s into %t[4] [4] [1] : tensor<4xf32> into tensor<8xf32>
  %d = tensor.dim %t, %c0 : tensor<8xf32>
  return %a, %b, %w, %d : tensor<4xf32>, tensor<4xf32>, tensor<8xf32>, index
}
func.func @main(%ts: tensor<?x8xf32>, %os: tensor<?xindex>, %xs: tensor<?xf32>)
    -> (tensor<?x4xf32>, tensor<?x4xf32>, tensor<?x8xf32>, index) {
  %r:4 = loom.vmap @slices(%ts, %os, %xs) in_axes [0, 0, 0] out_axes [0, 0, 0, none]
      : (tensor<?x8xf32>, tensor<?xindex>, tensor<?xf32>)
      -> (tensor<?x4xf32>, tensor<?x4xf32>, tensor<?x8xf32>, index)
  return %r#0, %r#1, %r#2, %r#3 : tensor<?x4xf32>, tensor<?x4xf32>, tensor<?x8xf32>, index
}

// -----

// Loom reductions shift their axis past the lane axis; random numbers on a
// per-lane key are drawn lane by lane with the scalar op (bit-identical to
// the unbatched program), destination-passing.
// CHECK-LABEL: func.func private @loomops_vmap_bb(
// CHECK-SAME: %[[X:.*]]: tensor<?x3xf32> {{.*}}, %[[K:.*]]: tensor<?x2xi32>
// CHECK: loom.sum %[[X]] along 1 : tensor<?x3xf32> -> tensor<?xf32>
// CHECK: scf.for %[[L:.*]] = {{.*}} iter_args(%[[ACC:.*]] = %{{.*}}) -> (tensor<?x2xf32>) {
// CHECK:   %[[KL:.*]] = tensor.extract_slice %[[K]][%[[L]], 0] [1, 2] [1, 1] : tensor<?x2xi32> to tensor<2xi32>
// CHECK:   %[[N:.*]] = loom.random.normal %[[KL]] : tensor<2xf32>
// CHECK:   tensor.insert_slice %[[N]] into %[[ACC]][%[[L]], 0] [1, 2] [1, 1] : tensor<2xf32> into tensor<?x2xf32>
func.func private @loomops(%x: tensor<3xf32>, %k: tensor<2xi32>) -> (f32, tensor<2xf32>) {
  %s = loom.sum %x along 0 : tensor<3xf32> -> f32
  %n = loom.random.normal %k : tensor<2xf32>
  return %s, %n : f32, tensor<2xf32>
}
func.func @main(%xs: tensor<?x3xf32>, %ks: tensor<?x2xi32>) -> (tensor<?xf32>, tensor<?x2xf32>) {
  %r:2 = loom.vmap @loomops(%xs, %ks) in_axes [0, 0] out_axes [0, 0]
      : (tensor<?x3xf32>, tensor<?x2xi32>) -> (tensor<?xf32>, tensor<?x2xf32>)
  return %r#0, %r#1 : tensor<?xf32>, tensor<?x2xf32>
}

// -----

// func.call: the callee is batched once per batchedness signature; a call
// that reads nothing per-lane keeps calling the scalar function.
// CHECK-LABEL: func.func private @scale_vmap_bb(%{{.*}}: tensor<?xf32> {{.*}}, %{{.*}}: tensor<?xf32> {{.*}}) -> tensor<?xf32>
// CHECK-LABEL: func.func private @scale_vmap_bu(%{{.*}}: tensor<?xf32> {{.*}}, %{{.*}}: f32) -> tensor<?xf32>
// CHECK-LABEL: func.func private @caller_vmap_bb(
// CHECK: call @scale_vmap_bu(%{{.*}}, %{{.*}}) : (tensor<?xf32>, f32) -> tensor<?xf32>
// CHECK: call @scale_vmap_bb(%{{.*}}, %{{.*}}) : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
// CHECK: call @scale(%{{.*}}, %{{.*}}) : (f32, f32) -> f32
// CHECK: call @scale_vmap_bu(%{{.*}}, %{{.*}}) : (tensor<?xf32>, f32) -> tensor<?xf32>
func.func private @scale(%a: f32, %b: f32) -> f32 {
  %r = arith.mulf %a, %b : f32
  return %r : f32
}
func.func private @caller(%x: f32, %y: f32) -> (f32, f32, f32, f32) {
  %two = arith.constant 2.0 : f32
  %a = func.call @scale(%x, %two) : (f32, f32) -> f32
  %b = func.call @scale(%x, %y) : (f32, f32) -> f32
  %c = func.call @scale(%two, %two) : (f32, f32) -> f32
  %d = func.call @scale(%y, %c) : (f32, f32) -> f32
  return %a, %b, %c, %d : f32, f32, f32, f32
}
func.func @main(%xs: tensor<?xf32>, %ys: tensor<?xf32>)
    -> (tensor<?xf32>, tensor<?xf32>, f32, tensor<?xf32>) {
  %r:4 = loom.vmap @caller(%xs, %ys) in_axes [0, 0] out_axes [0, 0, none, 0]
      : (tensor<?xf32>, tensor<?xf32>) -> (tensor<?xf32>, tensor<?xf32>, f32, tensor<?xf32>)
  return %r#0, %r#1, %r#2, %r#3 : tensor<?xf32>, tensor<?xf32>, f32, tensor<?xf32>
}

// -----

// An op without a batching rule is cloned as it is while it reads nothing
// per-lane; its result is broadcast where a batched op needs it.
// CHECK-LABEL: func.func private @opaque_vmap_b(
// CHECK: %[[K:.*]] = "test.opaque"(%{{.*}}) : (f32) -> f32
// CHECK: linalg.fill ins(%[[K]] : f32)
func.func private @opaque(%x: f32) -> f32 {
  %c = arith.constant 1.0 : f32
  %k = "test.opaque"(%c) : (f32) -> f32
  %y = arith.addf %x, %k : f32
  return %y : f32
}
func.func @main(%xs: tensor<?xf32>) -> tensor<?xf32> {
  %r = loom.vmap @opaque(%xs) in_axes [0] out_axes [0]
      : (tensor<?xf32>) -> tensor<?xf32>
  return %r : tensor<?xf32>
}
