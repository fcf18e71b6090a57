// RUN: loom-opt %s -loom-libm-to-arith | FileCheck %s

// sinf on f32 in an innermost counted loop, which LLVM vectorizes, becomes
// glibc's algorithm: the argument in double precision, both reductions,
// both polynomials with llvm.intr.fma, selects between glibc's cases; no
// math.sin is left.
// CHECK-LABEL: func.func @lanes
// CHECK: scf.for
// CHECK: %[[X:.*]] = memref.load
// CHECK-NOT: math.sin
// CHECK: %[[BITS:.*]] = arith.bitcast %[[X]] : f32 to i32
// CHECK: arith.extf %[[X]] : f32 to f64
// CHECK: arith.fptosi {{.*}} : f64 to i32
// CHECK: arith.mului_extended
// CHECK: arith.uitofp {{.*}} : i32 to f64
// CHECK: llvm.intr.fma
// CHECK: %[[R:.*]] = arith.truncf {{.*}} : f64 to f32
// CHECK: %[[NAN:.*]] = arith.subf %[[X]], %[[X]] : f32
// CHECK: %[[FIN:.*]] = arith.select {{.*}}, %[[R]], %[[NAN]] : f32
// CHECK: %[[OUT:.*]] = arith.select {{.*}}, %[[X]], %[[FIN]] : f32
// CHECK-NOT: math.sin
// CHECK: memref.store %[[OUT]]
func.func @lanes(%xs: memref<?xf32>, %ys: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %xs, %c0 : memref<?xf32>
  scf.for %i = %c0 to %n step %c1 {
    %x = memref.load %xs[%i] : memref<?xf32>
    %y = math.sin %x : f32
    memref.store %y, %ys[%i] : memref<?xf32>
  }
  return
}

// log1pf likewise: fdlibm's in f32 arithmetic, its reduction to
// 2^k (1 + f) in integers, the division s = f / (2 + f), and selects.
// CHECK-LABEL: func.func @log1ps
// CHECK: scf.for
// CHECK: %[[X:.*]] = memref.load
// CHECK-NOT: math.log1p
// CHECK: arith.bitcast %[[X]] : f32 to i32
// CHECK: arith.divf
// CHECK: arith.sitofp {{.*}} : i32 to f32
// CHECK: arith.divf
// CHECK-NOT: math.log1p
// CHECK: memref.store
func.func @log1ps(%xs: memref<?xf32>, %ys: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %xs, %c0 : memref<?xf32>
  scf.for %i = %c0 to %n step %c1 {
    %x = memref.load %xs[%i] : memref<?xf32>
    %y = math.log1p %x : f32
    memref.store %y, %ys[%i] : memref<?xf32>
  }
  return
}

// Scalar code keeps the call, whose branches skip what does not apply:
// outside loops, in a while loop, in a for loop with a loop inside, in a
// for loop that carries a float.
// CHECK-LABEL: func.func @scalar
// CHECK-COUNT-4: math.sin %{{.*}} : f32
func.func @scalar(%x: f32, %n: index) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %y = math.sin %x : f32
  %w = scf.while (%a = %y) : (f32) -> f32 {
    %go = arith.cmpf olt, %a, %x : f32
    scf.condition(%go) %a : f32
  } do {
  ^bb0(%a: f32):
    %s = math.sin %a : f32
    scf.yield %s : f32
  }
  %z = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %w) -> f32 {
    %s = math.sin %acc : f32
    %in = scf.for %j = %c0 to %n step %c1 iter_args(%b = %s) -> f32 {
      %t = arith.addf %b, %b : f32
      scf.yield %t : f32
    }
    scf.yield %in : f32
  }
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> f32 {
    %s = math.sin %acc : f32
    scf.yield %s : f32
  }
  return %r : f32
}

// A function called from a vectorizable loop is copied, and the copy's
// sines (and its callees') are rewritten; other callers keep the original.
// CHECK-LABEL: func.func @field(
// CHECK: math.sin
// CHECK-LABEL: func.func private @field__vectorized(
// CHECK-NOT: math.sin
// CHECK: call @inner__vectorized(
// CHECK-NOT: math.sin
// CHECK: return
// CHECK-LABEL: func.func @inner(
// CHECK: math.sin
// CHECK-LABEL: func.func private @inner__vectorized(
// CHECK-NOT: math.sin
// CHECK: return
// CHECK-LABEL: func.func @callers
// CHECK: call @field(
// CHECK: scf.for
// CHECK: call @field__vectorized(
func.func @field(%x: f32) -> f32 {
  %y = math.sin %x : f32
  %z = func.call @inner(%y) : (f32) -> f32
  return %z : f32
}
func.func @inner(%x: f32) -> f32 {
  %y = math.sin %x : f32
  return %y : f32
}
func.func @callers(%xs: memref<?xf32>, %x: f32) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %xs, %c0 : memref<?xf32>
  %s = func.call @field(%x) : (f32) -> f32
  scf.for %i = %c0 to %n step %c1 {
    %v = memref.load %xs[%i] : memref<?xf32>
    %w = func.call @field(%v) : (f32) -> f32
    memref.store %w, %xs[%i] : memref<?xf32>
  }
  return %s : f32
}

// Only f32 scalars: glibc's sin in double and a vector of sines are left to
// convert-math-to-libm and math-to-llvm.
// CHECK-LABEL: func.func @others
// CHECK: math.sin %{{.*}} : f64
// CHECK: math.sin %{{.*}} : vector<4xf32>
// CHECK: math.cos %{{.*}} : f32
func.func @others(%x: f64, %v: vector<4xf32>, %c: f32, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    %y = math.sin %x : f64
    %w = math.sin %v : vector<4xf32>
    %d = math.cos %c : f32
  }
  return
}

// A GPU kernel's sin is left to libdevice.
// CHECK-LABEL: gpu.module @kernels
// CHECK: math.sin %{{.*}} : f32
module attributes {gpu.container_module} {
  gpu.module @kernels {
    func.func @device(%x: f32, %n: index) {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      scf.for %i = %c0 to %n step %c1 {
        %y = math.sin %x : f32
      }
      return
    }
  }
}
