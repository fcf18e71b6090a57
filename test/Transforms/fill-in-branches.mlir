// RUN: loom-opt %s -loom-fill-in-branches -split-input-file | FileCheck %s

// A fill both branches start from: each fills its own, and the one above
// goes.
// CHECK-LABEL: func.func @both
// CHECK-NOT: linalg.fill
// CHECK: scf.if
// CHECK-NEXT: %[[E1:.*]] = tensor.empty(%{{.*}}) : tensor<?xi32>
// CHECK-NEXT: %[[F1:.*]] = linalg.fill ins(%{{.*}} : i32) outs(%[[E1]] : tensor<?xi32>)
// CHECK: tensor.insert %{{.*}} into %[[F1]]
// CHECK: } else {
// CHECK-NEXT: %[[E2:.*]] = tensor.empty(%{{.*}}) : tensor<?xi32>
// CHECK-NEXT: %[[F2:.*]] = linalg.fill ins(%{{.*}} : i32) outs(%[[E2]] : tensor<?xi32>)
// CHECK: scf.yield %[[F2]]
func.func @both(%n: index, %c: i1, %v: i32) -> tensor<?xi32> {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0 : i32
  %e = tensor.empty(%n) : tensor<?xi32>
  %z = linalg.fill ins(%zero : i32) outs(%e : tensor<?xi32>) -> tensor<?xi32>
  %r = scf.if %c -> (tensor<?xi32>) {
    %w = tensor.insert %v into %z[%c0] : tensor<?xi32>
    scf.yield %w : tensor<?xi32>
  } else {
    scf.yield %z : tensor<?xi32>
  }
  return %r : tensor<?xi32>
}

// -----

// A fill also used after the scf.if stays where it is.
// CHECK-LABEL: func.func @also_after
// CHECK: %[[Z:.*]] = linalg.fill
// CHECK: scf.if
// CHECK-NOT: linalg.fill
// CHECK: return %{{.*}}, %[[Z]]
func.func @also_after(%n: index, %c: i1, %v: i32) -> (tensor<?xi32>, tensor<?xi32>) {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0 : i32
  %e = tensor.empty(%n) : tensor<?xi32>
  %z = linalg.fill ins(%zero : i32) outs(%e : tensor<?xi32>) -> tensor<?xi32>
  %r = scf.if %c -> (tensor<?xi32>) {
    %w = tensor.insert %v into %z[%c0] : tensor<?xi32>
    scf.yield %w : tensor<?xi32>
  } else {
    scf.yield %z : tensor<?xi32>
  }
  return %r, %z : tensor<?xi32>, tensor<?xi32>
}

// -----

// A use nested deeper in a branch (here in an inner scf.if) gets the copy
// filled at the start of the outer branch; a fill used in one branch only
// moves into it.
// CHECK-LABEL: func.func @nested
// CHECK: scf.if %{{.*}} -> (tensor<?xf32>) {
// CHECK-NEXT: tensor.empty
// CHECK-NEXT: %[[F:.*]] = linalg.fill
// CHECK-NEXT: scf.if
// CHECK: tensor.insert %{{.*}} into %[[F]]
// CHECK: } else {
// CHECK-NOT: linalg.fill
// CHECK: return
func.func @nested(%n: index, %c: i1, %d: i1, %v: f32, %o: tensor<?xf32>) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty(%n) : tensor<?xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<?xf32>) -> tensor<?xf32>
  %r = scf.if %c -> (tensor<?xf32>) {
    %in = scf.if %d -> (tensor<?xf32>) {
      %w = tensor.insert %v into %z[%c0] : tensor<?xf32>
      scf.yield %w : tensor<?xf32>
    } else {
      scf.yield %o : tensor<?xf32>
    }
    scf.yield %in : tensor<?xf32>
  } else {
    scf.yield %o : tensor<?xf32>
  }
  return %r : tensor<?xf32>
}

// -----

// A fill used by a loop is not in a branch: left alone.
// CHECK-LABEL: func.func @in_loop
// CHECK: linalg.fill
// CHECK-NEXT: scf.for
func.func @in_loop(%n: index, %v: i32) -> tensor<?xi32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0 : i32
  %e = tensor.empty(%n) : tensor<?xi32>
  %z = linalg.fill ins(%zero : i32) outs(%e : tensor<?xi32>) -> tensor<?xi32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> (tensor<?xi32>) {
    %w = tensor.insert %v into %acc[%i] : tensor<?xi32>
    scf.yield %w : tensor<?xi32>
  }
  return %r : tensor<?xi32>
}

// -----

// A tensor.empty used only in branches (a destination) is made in each,
// and the one above goes.
// CHECK-LABEL: func.func @empty_dest
// CHECK-NOT: tensor.empty
// CHECK: scf.if
// CHECK-NEXT: %[[E1:.*]] = tensor.empty(%{{.*}}) : tensor<?xi32>
// CHECK-NEXT: tensor.insert %{{.*}} into %[[E1]]
// CHECK: } else {
// CHECK-NEXT: %[[E2:.*]] = tensor.empty(%{{.*}}) : tensor<?xi32>
// CHECK-NEXT: scf.yield %[[E2]]
func.func @empty_dest(%n: index, %c: i1, %v: i32) -> tensor<?xi32> {
  %c0 = arith.constant 0 : index
  %e = tensor.empty(%n) : tensor<?xi32>
  %r = scf.if %c -> (tensor<?xi32>) {
    %w = tensor.insert %v into %e[%c0] : tensor<?xi32>
    scf.yield %w : tensor<?xi32>
  } else {
    scf.yield %e : tensor<?xi32>
  }
  return %r : tensor<?xi32>
}
