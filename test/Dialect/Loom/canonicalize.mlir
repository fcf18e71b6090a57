// RUN: loom-opt %s -canonicalize -split-input-file | FileCheck %s

// Constant keys fold through the host threefry; the values are JAX's
// (jax.random.PRNGKey(-2), jax.random.split(PRNGKey(0)) in golden.md).
// CHECK-LABEL: func.func @fold_keys
// CHECK-DAG: arith.constant dense<[0, -2]> : tensor<2xi32>
// CHECK-DAG: arith.constant dense<{{\[}}[-148943191, 967050713], [-1576124287, 1272950319]]> : tensor<2x2xi32>
// CHECK-NOT: loom.random
func.func @fold_keys() -> (tensor<2xi32>, tensor<2x2xi32>) {
  %m2 = arith.constant -2 : i32
  %z = arith.constant 0 : i32
  %k = loom.random.key %m2 : i32
  %k0 = loom.random.key %z : i32
  %s = loom.random.split %k0 : tensor<2x2xi32>
  return %k, %s : tensor<2xi32>, tensor<2x2xi32>
}

// -----

// A key that is not constant stays.
// CHECK-LABEL: func.func @no_fold_dynamic_key
// CHECK: loom.random.split
func.func @no_fold_dynamic_key(%seed: i32) -> tensor<3x2xi32> {
  %k = loom.random.key %seed : i32
  %s = loom.random.split %k : tensor<3x2xi32>
  return %s : tensor<3x2xi32>
}

// -----

// fold_in and bits of constant keys fold; partitionable bits differ from the
// default ones.
// CHECK-LABEL: func.func @fold_bits
// CHECK-NOT: loom.random
// CHECK: return
func.func @fold_bits() -> (tensor<2xi32>, tensor<3xi32>, tensor<3xi32>) {
  %z = arith.constant 0 : i32
  %d = arith.constant 7 : i32
  %k = loom.random.key %z : i32
  %f = loom.random.fold_in %k, %d : i32
  %b = loom.random.bits %k : tensor<3xi32>
  %p = loom.random.bits %k {partitionable} : tensor<3xi32>
  return %f, %b, %p : tensor<2xi32>, tensor<3xi32>, tensor<3xi32>
}

// -----

// 64-bit words (JAX with x64 on) of a constant key fold too: bits(PRNGKey(1701),
// (3,), uint64) is [3982329540505020460, 16822122385914693683,
// 7882654074788531506] in JAX's tests/random_test.py; the second prints
// signed.
// CHECK-LABEL: func.func @fold_bits64
// CHECK: arith.constant dense<[3982329540505020460, -1624621687794857933, 7882654074788531506]> : tensor<3xi64>
// CHECK-NOT: loom.random
func.func @fold_bits64() -> (tensor<3xi64>, i64) {
  %s = arith.constant 1701 : i32
  %k = loom.random.key %s : i32
  %b = loom.random.bits %k : tensor<3xi64>
  %p = loom.random.bits %k {partitionable} : i64
  return %b, %p : tensor<3xi64>, i64
}

// -----

// Reductions of splats along a static, non-empty axis fold.
// CHECK-LABEL: func.func @fold_splat_reductions
// CHECK-DAG: %[[T:.*]] = arith.constant true
// CHECK-DAG: %[[S:.*]] = arith.constant dense<12> : tensor<3xi32>
// CHECK-DAG: %[[M:.*]] = arith.constant 2.500000e+00 : f32
// CHECK: return %[[T]], %[[T]], %[[S]], %[[M]]
func.func @fold_splat_reductions() -> (i1, i1, tensor<3xi32>, f32) {
  %t = arith.constant dense<true> : tensor<4xi1>
  %i = arith.constant dense<3> : tensor<4x3xi32>
  %f = arith.constant dense<2.5> : tensor<5xf32>
  %a = loom.any %t along 0 : tensor<4xi1> -> i1
  %b = loom.all %t along 0 : tensor<4xi1> -> i1
  %s = loom.sum %i along 0 : tensor<4x3xi32> -> tensor<3xi32>
  %m = loom.max %f along 0 : tensor<5xf32> -> f32
  return %a, %b, %s, %m : i1, i1, tensor<3xi32>, f32
}

// -----

// Over an empty or dynamic axis the answer depends on the size: no fold.
// A float sum of copies is not folded either (n * v is not the float sum).
// CHECK-LABEL: func.func @no_fold_reductions
// CHECK: loom.any
// CHECK: loom.all
// CHECK: loom.sum
func.func @no_fold_reductions() -> (i1, i1, f32) {
  %e = arith.constant dense<true> : tensor<0xi1>
  %t = arith.constant dense<true> : tensor<4xi1>
  %dt = tensor.cast %t : tensor<4xi1> to tensor<?xi1>
  %f = arith.constant dense<0.1> : tensor<3xf32>
  %a = loom.any %e along 0 : tensor<0xi1> -> i1
  %b = loom.all %dt along 0 : tensor<?xi1> -> i1
  %s = loom.sum %f along 0 : tensor<3xf32> -> f32
  return %a, %b, %s : i1, i1, f32
}
