// RUN: loom-opt %s -loom-carry-in-place -split-input-file | FileCheck %s

#map = affine_map<(d0) -> (d0)>

// The new value of each carry is computed into its old value. The generic
// that overwrites %a moves after the one that still reads the old %a.
// CHECK-LABEL: func.func @uniform_loop
// CHECK: scf.while
// CHECK: ^bb0(%[[A:.*]]: tensor<?xf32>, %[[B:.*]]: tensor<?xf32>, %{{.*}}: i32):
// CHECK: %[[NB:.*]] = linalg.generic {{.*}} ins(%[[A]], %[[B]] : tensor<?xf32>, tensor<?xf32>) outs(%[[B]] : tensor<?xf32>)
// CHECK: %[[NA:.*]] = linalg.generic {{.*}} ins(%[[A]] : tensor<?xf32>) outs(%[[A]] : tensor<?xf32>)
// CHECK: scf.yield %[[NA]], %[[NB]]
func.func @uniform_loop(%a0: tensor<?xf32>, %b0: tensor<?xf32>, %n: i32)
    -> (tensor<?xf32>, tensor<?xf32>) {
  %c0 = arith.constant 0 : index
  %i0 = arith.constant 0 : i32
  %i1 = arith.constant 1 : i32
  %r:3 = scf.while (%a = %a0, %b = %b0, %i = %i0)
      : (tensor<?xf32>, tensor<?xf32>, i32) -> (tensor<?xf32>, tensor<?xf32>, i32) {
    %go = arith.cmpi slt, %i, %n : i32
    scf.condition(%go) %a, %b, %i : tensor<?xf32>, tensor<?xf32>, i32
  } do {
  ^bb0(%a: tensor<?xf32>, %b: tensor<?xf32>, %i: i32):
    %d = tensor.dim %a, %c0 : tensor<?xf32>
    %e = tensor.empty(%d) : tensor<?xf32>
    %na = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]}
        ins(%a : tensor<?xf32>) outs(%e : tensor<?xf32>) {
    ^bb0(%x: f32, %out: f32):
      %y = arith.mulf %x, %x : f32
      linalg.yield %y : f32
    } -> tensor<?xf32>
    %f = tensor.empty(%d) : tensor<?xf32>
    %nb = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel"]}
        ins(%a, %b : tensor<?xf32>, tensor<?xf32>) outs(%f : tensor<?xf32>) {
    ^bb0(%x: f32, %y: f32, %out: f32):
      %z = arith.addf %x, %y : f32
      linalg.yield %z : f32
    } -> tensor<?xf32>
    %j = arith.addi %i, %i1 : i32
    scf.yield %na, %nb, %j : tensor<?xf32>, tensor<?xf32>, i32
  }
  return %r#0, %r#1 : tensor<?xf32>, tensor<?xf32>
}

// -----

#map = affine_map<(d0) -> (d0)>

// The new value is read after it is computed, before the old value's last
// read: moving the generic would break that, so it is left alone (and
// bufferization allocates, as it would have).
// CHECK-LABEL: func.func @cannot_move
// CHECK: %[[E:.*]] = tensor.empty
// CHECK: linalg.generic {{.*}} outs(%[[E]] : tensor<?xf32>)
func.func @cannot_move(%a0: tensor<?xf32>, %go: i1) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %r:2 = scf.while (%a = %a0, %s = %a0)
      : (tensor<?xf32>, tensor<?xf32>) -> (tensor<?xf32>, tensor<?xf32>) {
    scf.condition(%go) %a, %s : tensor<?xf32>, tensor<?xf32>
  } do {
  ^bb0(%a: tensor<?xf32>, %s: tensor<?xf32>):
    %d = tensor.dim %a, %c0 : tensor<?xf32>
    %e = tensor.empty(%d) : tensor<?xf32>
    %na = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]}
        ins(%a : tensor<?xf32>) outs(%e : tensor<?xf32>) {
    ^bb0(%x: f32, %out: f32):
      %y = arith.negf %x : f32
      linalg.yield %y : f32
    } -> tensor<?xf32>
    %sum = arith.addf %na, %a : tensor<?xf32>
    scf.yield %na, %sum : tensor<?xf32>, tensor<?xf32>
  }
  return %r#1 : tensor<?xf32>
}

// -----

#map = affine_map<(d0) -> (d0)>

// A carry the condition does not pass through unchanged has no old value
// in the body to write into.
// CHECK-LABEL: func.func @not_forwarded
// CHECK: %[[E:.*]] = tensor.empty
// CHECK: linalg.generic {{.*}} outs(%[[E]] : tensor<?xf32>)
func.func @not_forwarded(%a0: tensor<?xf32>, %go: i1) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %r = scf.while (%a = %a0) : (tensor<?xf32>) -> tensor<?xf32> {
    %neg = arith.negf %a : tensor<?xf32>
    scf.condition(%go) %neg : tensor<?xf32>
  } do {
  ^bb0(%a: tensor<?xf32>):
    %d = tensor.dim %a, %c0 : tensor<?xf32>
    %e = tensor.empty(%d) : tensor<?xf32>
    %na = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]}
        ins(%a : tensor<?xf32>) outs(%e : tensor<?xf32>) {
    ^bb0(%x: f32, %out: f32):
      %y = arith.negf %x : f32
      linalg.yield %y : f32
    } -> tensor<?xf32>
    scf.yield %na : tensor<?xf32>
  }
  return %r : tensor<?xf32>
}

// -----

#map = affine_map<(d0) -> (d0)>

// scf.for: the iter_arg is the old value.
// CHECK-LABEL: func.func @for_loop
// CHECK: scf.for {{.*}} iter_args(%[[X:.*]] = %{{.*}})
// CHECK: linalg.generic {{.*}} ins(%[[X]] : tensor<8xf32>) outs(%[[X]] : tensor<8xf32>)
func.func @for_loop(%x0: tensor<8xf32>, %n: index) -> tensor<8xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%x = %x0) -> (tensor<8xf32>) {
    %e = tensor.empty() : tensor<8xf32>
    %nx = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]}
        ins(%x : tensor<8xf32>) outs(%e : tensor<8xf32>) {
    ^bb0(%v: f32, %out: f32):
      %w = arith.addf %v, %v : f32
      linalg.yield %w : f32
    } -> tensor<8xf32>
    scf.yield %nx : tensor<8xf32>
  }
  return %r : tensor<8xf32>
}
