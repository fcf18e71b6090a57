// RUN: loom-opt %s -split-input-file -loom-annotate-batch-axes -verify-diagnostics | FileCheck %s

// What loom.vmap batches, and what it returns batched, is recorded on the
// function that maps its own arguments; unbatched arguments stay unmarked.
// CHECK-LABEL: func.func @main
// CHECK-SAME: (%{{.*}}: tensor<?x1xf32> {loom.batch_axis = 0 : i64}, %{{.*}}: f32)
// CHECK-SAME: -> (tensor<?x1xf32> {loom.batch_axis = 0 : i64})
func.func private @f(tensor<1xf32>, f32) -> tensor<1xf32>
func.func @main(%x: tensor<?x1xf32>, %t: f32) -> tensor<?x1xf32> {
  %y = loom.vmap @f(%x, %t) in_axes [0, none] out_axes [0]
      : (tensor<?x1xf32>, f32) -> tensor<?x1xf32>
  return %y : tensor<?x1xf32>
}

// -----

// One argument batched along two axes is a contradiction.
func.func private @g(tensor<3xf32>) -> tensor<3xf32>
func.func @two_axes(%x: tensor<3x3xf32>) -> (tensor<3x3xf32>, tensor<3x3xf32>) {
  %a = loom.vmap @g(%x) in_axes [0] out_axes [0] : (tensor<3x3xf32>) -> tensor<3x3xf32>
  // expected-error @+1 {{'loom.vmap' op batches argument #0 of @two_axes along axis 1, but it is batched along axis 0 elsewhere}}
  %b = loom.vmap @g(%x) in_axes [1] out_axes [0] : (tensor<3x3xf32>) -> tensor<3x3xf32>
  return %a, %b : tensor<3x3xf32>, tensor<3x3xf32>
}

// -----

// A loom.vmap outside any function (the pass used to dereference its missing
// function) no longer verifies, so no pass sees one.
func.func @lane(%x: tensor<1xf32>) -> tensor<1xf32> {
  return %x : tensor<1xf32>
}
%a = arith.constant dense<1.0> : tensor<2x1xf32>
// expected-error @+1 {{'loom.vmap' op must be inside a func.func: it stands for a call, and only a function body runs}}
%r = loom.vmap @lane(%a) in_axes [0] out_axes [0]
    : (tensor<2x1xf32>) -> tensor<2x1xf32>
