// Random draws inside loop bodies, shaped like the seed's programs, lower
// through loom-to-llvm without any heap buffer: keys, splits and draws of a
// few elements become scalars, so a loop iteration allocates nothing.
// Structure is checked on the loops just before they become branches; the
// final LLVM dialect must allocate nowhere, since these functions return
// scalars only.
// RUN: loom-opt %s --loom-to-llvm -mlir-print-ir-before=convert-scf-to-cf \
// RUN:   -o /dev/null 2>&1 | FileCheck %s
// RUN: loom-opt %s --loom-to-llvm | FileCheck %s --check-prefix=LLVM \
// RUN:   --implicit-check-not=loom.random --implicit-check-not=memref. \
// RUN:   --implicit-check-not=@malloc --implicit-check-not=@aligned_alloc

// LLVM: llvm.func @mwe_like
// LLVM: llvm.func @descent
// LLVM: llvm.func @fold_in_steps
// LLVM: llvm.func @randint_steps

// The MWE: a key made from the outer loop's counter and a (1,)-shaped
// uniform restarting the inner loop's carry.
// CHECK-LABEL: func.func @mwe_like(
// CHECK: scf.while
// CHECK: } do {
// CHECK: {{(func\.)?}}call @__loom_threefry2x32
// CHECK: scf.while
// CHECK-NOT: memref.alloc
// CHECK-NOT: memref.copy
func.func @mwe_like(%init: tensor<1xf32>, %key: tensor<2xi32>) -> f32 {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %ten = arith.constant 10.0 : f32
  %lo = arith.constant -2 : i32
  %hi = arith.constant 2 : i32
  %five = arith.constant 5 : i32
  %c1 = arith.constant 1 : i32
  %count0 = loom.random.randint %key, %lo, %hi : i32
  %out:2 = scf.while (%y = %init, %count = %count0)
      : (tensor<1xf32>, i32) -> (tensor<1xf32>, i32) {
    %go = arith.cmpi slt, %count, %five : i32
    scf.condition(%go) %y, %count : tensor<1xf32>, i32
  } do {
  ^bb0(%y: tensor<1xf32>, %count: i32):
    %k = loom.random.key %count : i32
    %y1 = loom.random.uniform %k, %zero, %one : tensor<1xf32>
    %in = scf.while (%yi = %y1) : (tensor<1xf32>) -> tensor<1xf32> {
      %ys = tensor.extract %yi[%c0] : tensor<1xf32>
      %more = arith.cmpf olt, %ys, %ten : f32
      scf.condition(%more) %yi : tensor<1xf32>
    } do {
    ^bb0(%yi: tensor<1xf32>):
      %ys = tensor.extract %yi[%c0] : tensor<1xf32>
      %yn = arith.addf %ys, %one : f32
      %yt = tensor.from_elements %yn : tensor<1xf32>
      scf.yield %yt : tensor<1xf32>
    }
    %next = arith.addi %count, %c1 : i32
    scf.yield %in, %next : tensor<1xf32>, i32
  }
  %r = tensor.extract %out#0[%c0] : tensor<1xf32>
  return %r : f32
}

// The SDE's Brownian-tree descent: the carried key is split in three on
// every level and one part feeds a normal draw.
// CHECK-LABEL: func.func @descent(
// CHECK: scf.while
// CHECK: } do {
// CHECK: {{(func\.)?}}call @__loom_threefry2x32
// CHECK: {{(func\.)?}}call @__loom_erfinv_f32
// CHECK-NOT: memref.alloc
// CHECK-NOT: memref.copy
func.func @descent(%key: tensor<2xi32>, %levels: i32) -> (f32, i32) {
  %c0 = arith.constant 0 : index
  %i0 = arith.constant 0 : i32
  %i1 = arith.constant 1 : i32
  %zero = arith.constant 0.0 : f32
  %r:3 = scf.while (%l = %i0, %w = %zero, %k = %key)
      : (i32, f32, tensor<2xi32>) -> (i32, f32, tensor<2xi32>) {
    %go = arith.cmpi slt, %l, %levels : i32
    scf.condition(%go) %l, %w, %k : i32, f32, tensor<2xi32>
  } do {
  ^bb0(%l: i32, %w: f32, %k: tensor<2xi32>):
    %s = loom.random.split %k : tensor<3x2xi32>
    %k0 = tensor.extract_slice %s[0, 0] [1, 2] [1, 1]
        : tensor<3x2xi32> to tensor<2xi32>
    %k1 = tensor.extract_slice %s[1, 0] [1, 2] [1, 1]
        : tensor<3x2xi32> to tensor<2xi32>
    %z = loom.random.normal %k1 : f32
    %w2 = arith.addf %w, %z : f32
    %l2 = arith.addi %l, %i1 : i32
    scf.yield %l2, %w2, %k0 : i32, f32, tensor<2xi32>
  }
  %word = tensor.extract %r#2[%c0] : tensor<2xi32>
  return %r#1, %word : f32, i32
}

// Per-step keys from fold_in of the induction variable, partitionable, each
// drawing a few uniforms and normals.
// CHECK-LABEL: func.func @fold_in_steps(
// CHECK: scf.for
// CHECK: {{(func\.)?}}call @__loom_threefry2x32
// CHECK-NOT: memref.alloc
// CHECK-NOT: memref.copy
func.func @fold_in_steps(%key: tensor<2xi32>) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c100 = arith.constant 100 : index
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %r = scf.for %i = %c0 to %c100 step %c1 iter_args(%s = %zero) -> f32 {
    %d = arith.index_cast %i : index to i32
    %k = loom.random.fold_in %key, %d {partitionable} : i32
    %u = loom.random.uniform %k, %zero, %one {partitionable} : tensor<3xf32>
    %n = loom.random.normal %k {partitionable} : tensor<3xf32>
    %a = tensor.extract %u[%c2] : tensor<3xf32>
    %b = tensor.extract %n[%c1] : tensor<3xf32>
    %ab = arith.mulf %a, %b : f32
    %s2 = arith.addf %s, %ab : f32
    scf.yield %s2 : f32
  }
  return %r : f32
}

// randint draws two words per sample from the halves of a split key.
// CHECK-LABEL: func.func @randint_steps(
// CHECK: scf.for
// CHECK: {{(func\.)?}}call @__loom_threefry2x32
// CHECK-NOT: memref.alloc
// CHECK-NOT: memref.copy
// CHECK-LABEL: func.func private @__loom_threefry2x32
func.func @randint_steps(%key: tensor<2xi32>) -> i32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c50 = arith.constant 50 : index
  %lo = arith.constant -7 : i32
  %hi = arith.constant 100 : i32
  %i0 = arith.constant 0 : i32
  %r = scf.for %i = %c0 to %c50 step %c1 iter_args(%s = %i0) -> i32 {
    %d = arith.index_cast %i : index to i32
    %k = loom.random.fold_in %key, %d : i32
    %v = loom.random.randint %k, %lo, %hi : tensor<4xi32>
    %x = tensor.extract %v[%c0] : tensor<4xi32>
    %y = tensor.extract %v[%c3] : tensor<4xi32>
    %xy = arith.addi %x, %y : i32
    %s2 = arith.addi %s, %xy : i32
    scf.yield %s2 : i32
  }
  return %r : i32
}
