// RUN: loom-opt %s -test-loom-batchedness -split-input-file | FileCheck %s

// Data dependence: only what is computed from a batched argument is batched.
// CHECK-LABEL: func.func @straight
// CHECK-SAME: test.result_batched = array<i1: true, false>
// CHECK: arith.constant {test.batched = array<i1: false>}
// CHECK: arith.addf {{.*}} {test.batched = array<i1: true>}
// CHECK: arith.mulf {{.*}} {test.batched = array<i1: false>}
func.func @straight(%x: f32, %s: f32) -> (f32, f32) {
  %c = arith.constant 2.0 : f32
  %a = arith.addf %x, %c : f32
  %b = arith.mulf %s, %c : f32
  return %a, %b : f32, f32
}
func.func @main(%xs: tensor<4xf32>, %s: f32) -> (tensor<4xf32>, tensor<4xf32>) {
  %r:2 = loom.vmap @straight(%xs, %s) in_axes [0, none] out_axes [0, 0]
      : (tensor<4xf32>, f32) -> (tensor<4xf32>, tensor<4xf32>)
  return %r#0, %r#1 : tensor<4xf32>, tensor<4xf32>
}

// -----

// The carry fixpoint: %acc starts unbatched and becomes batched through the
// body; %i never meets a batched value and the predicate stays unbatched.
// CHECK-LABEL: func.func @fixpoint
// CHECK: scf.while
// CHECK: arith.cmpi {{.*}} {test.batched = array<i1: false>}
// CHECK: arith.addf {{.*}} {test.batched = array<i1: true>}
// CHECK: arith.addi {{.*}} {test.batched = array<i1: false>}
// CHECK: } attributes {test.args = [array<i1: false, true>, array<i1: false, true>], test.batched = array<i1: false, true>, test.control = false}
func.func @fixpoint(%x: f32) -> f32 {
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c5 = arith.constant 5 : i32
  %r:2 = scf.while (%i = %c0, %acc = %zero) : (i32, f32) -> (i32, f32) {
    %go = arith.cmpi slt, %i, %c5 : i32
    scf.condition(%go) %i, %acc : i32, f32
  } do {
  ^bb0(%i: i32, %acc: f32):
    %a = arith.addf %acc, %x : f32
    %i1 = arith.addi %i, %c1 : i32
    scf.yield %i1, %a : i32, f32
  }
  return %r#1 : f32
}
func.func @main(%xs: tensor<?xf32>) -> tensor<?xf32> {
  %r = loom.vmap @fixpoint(%xs) in_axes [0] out_axes [0]
      : (tensor<?xf32>) -> tensor<?xf32>
  return %r : tensor<?xf32>
}

// -----

// Control dependence: a batched predicate batches every carry, even %k,
// which only ever adds constants.
// CHECK-LABEL: func.func @divergent
// CHECK: } attributes {test.args = [array<i1: true, true>, array<i1: true, true>], test.batched = array<i1: true, true>, test.control = true}
func.func @divergent(%n: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %r:2 = scf.while (%i = %c0, %k = %c0) : (i32, i32) -> (i32, i32) {
    %go = arith.cmpi slt, %i, %n : i32
    scf.condition(%go) %i, %k : i32, i32
  } do {
  ^bb0(%i: i32, %k: i32):
    %i1 = arith.addi %i, %c1 : i32
    %k1 = arith.addi %k, %c1 : i32
    scf.yield %i1, %k1 : i32, i32
  }
  return %r#1 : i32
}
func.func @main(%ns: tensor<?xi32>) -> tensor<?xi32> {
  %r = loom.vmap @divergent(%ns) in_axes [0] out_axes [0]
      : (tensor<?xi32>) -> tensor<?xi32>
  return %r : tensor<?xi32>
}

// -----

// Nested loops: the inner loop's predicate reads the outer loop's batched
// carry, so it is divergent too; its unbatched-init carry follows.
// CHECK-LABEL: func.func @nested
// CHECK: scf.while
// CHECK: scf.while
// CHECK: } attributes {test.args = [array<i1: true>, array<i1: true>], test.batched = array<i1: true>, test.control = true}
// CHECK: } attributes {test.args = [array<i1: true>, array<i1: true>], test.batched = array<i1: true>, test.control = true}
func.func @nested(%x: f32) -> f32 {
  %one = arith.constant 1.0 : f32
  %r = scf.while (%a = %x) : (f32) -> f32 {
    %go = arith.cmpf olt, %a, %one : f32
    scf.condition(%go) %a : f32
  } do {
  ^bb0(%a: f32):
    %zero = arith.constant 0.0 : f32
    %in = scf.while (%b = %zero) : (f32) -> f32 {
      %more = arith.cmpf olt, %b, %a : f32
      scf.condition(%more) %b : f32
    } do {
    ^bb0(%b: f32):
      %b1 = arith.addf %b, %one : f32
      scf.yield %b1 : f32
    }
    %a1 = arith.addf %a, %in : f32
    scf.yield %a1 : f32
  }
  return %r : f32
}
func.func @main(%xs: tensor<?xf32>) -> tensor<?xf32> {
  %r = loom.vmap @nested(%xs) in_axes [0] out_axes [0]
      : (tensor<?xf32>) -> tensor<?xf32>
  return %r : tensor<?xf32>
}

// -----

// scf.if: a batched condition batches the results; a shared condition with
// unbatched branches does not. scf.for: a batched bound is batched control.
// CHECK-LABEL: func.func @branches
// CHECK: scf.if
// CHECK: } {test.args = [array<i1>, array<i1>], test.batched = array<i1: true>, test.control = true}
// CHECK: scf.if
// CHECK: } {test.args = [array<i1>, array<i1>], test.batched = array<i1: false>, test.control = false}
// CHECK: scf.for
// CHECK: } {test.args = [array<i1: true, true>], test.batched = array<i1: true>, test.control = true}
// CHECK: tensor.dim {test.batched = array<i1: false>}
func.func @branches(%x: f32, %n: index, %flag: i1, %t: tensor<3xf32>) -> (f32, f32, f32, index) {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %pos = arith.cmpf ogt, %x, %zero : f32
  %a = scf.if %pos -> f32 {
    scf.yield %one : f32
  } else {
    scf.yield %zero : f32
  }
  %b = scf.if %flag -> f32 {
    scf.yield %one : f32
  } else {
    scf.yield %zero : f32
  }
  %s = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> f32 {
    %acc1 = arith.addf %acc, %one : f32
    scf.yield %acc1 : f32
  }
  %d = tensor.dim %t, %c0 : tensor<3xf32>
  return %a, %b, %s, %d : f32, f32, f32, index
}
func.func @main(%xs: tensor<?xf32>, %ns: tensor<?xindex>, %flag: i1,
                %ts: tensor<?x3xf32>)
    -> (tensor<?xf32>, f32, tensor<?xf32>, index) {
  %r:4 = loom.vmap @branches(%xs, %ns, %flag, %ts) in_axes [0, 0, none, 0]
      out_axes [0, none, 0, none]
      : (tensor<?xf32>, tensor<?xindex>, i1, tensor<?x3xf32>)
      -> (tensor<?xf32>, f32, tensor<?xf32>, index)
  return %r#0, %r#1, %r#2, %r#3 : tensor<?xf32>, f32, tensor<?xf32>, index
}

// -----

// A callee is analysed once per batchedness signature of its calls; a call
// that reads nothing batched is not analysed at all.
// CHECK-LABEL: func.func private @scale
// CHECK-SAME: test.result_batched = array<i1: true>
// CHECK: arith.mulf {{.*}} {test.batched = array<i1: true>}
// CHECK-LABEL: func.func @caller
// CHECK: call @scale({{.*}}) {test.batched = array<i1: true>}
// CHECK: call @scale({{.*}}) {test.batched = array<i1: false>}
func.func private @scale(%a: f32, %b: f32) -> f32 {
  %r = arith.mulf %a, %b : f32
  return %r : f32
}
func.func @caller(%x: f32) -> (f32, f32) {
  %two = arith.constant 2.0 : f32
  %a = func.call @scale(%x, %two) : (f32, f32) -> f32
  %b = func.call @scale(%two, %two) : (f32, f32) -> f32
  return %a, %b : f32, f32
}
func.func @main(%xs: tensor<?xf32>) -> (tensor<?xf32>, tensor<?xf32>) {
  %r:2 = loom.vmap @caller(%xs) in_axes [0] out_axes [0, 0]
      : (tensor<?xf32>) -> (tensor<?xf32>, tensor<?xf32>)
  return %r#0, %r#1 : tensor<?xf32>, tensor<?xf32>
}
