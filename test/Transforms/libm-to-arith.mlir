// RUN: loom-opt %s -loom-libm-to-arith -split-input-file | FileCheck %s

// sinf on f32 in an innermost counted loop, which LLVM vectorizes, calls the
// C library's sinf, declared with vector variants on 4 and 8 lanes in
// LLVM's vector function ABI and as accessing no memory; no math.sin is
// left. Each variant is glibc's algorithm on vectors: the argument in
// double precision, the fast reduction, the large one and the selects
// between them only in an scf.if taken when some lane needs it, one
// polynomial per lane (the sine's or the cosine's, on coefficients selected
// by quadrant) with llvm.intr.fma, selects between glibc's cases.
// CHECK-LABEL: func.func @lanes
// CHECK: scf.for
// CHECK: %[[X:.*]] = memref.load
// CHECK: %[[Y:.*]] = llvm.call @sinf(%[[X]]) : (f32) -> f32
// CHECK: memref.store %[[Y]]
// CHECK-NOT: math.sin
// CHECK-LABEL: func.func private @__loom_sinf_v4(
// CHECK-SAME: %[[V:.*]]: vector<4xf32>) -> vector<4xf32>
// CHECK: arith.bitcast %[[V]] : vector<4xf32> to vector<4xi32>
// CHECK: %[[XD:.*]] = arith.extf %[[V]] : vector<4xf32> to vector<4xf64>
// CHECK: %[[FAR:.*]] = vector.reduction <or>, %{{.*}} : vector<4xi1> into i1
// CHECK: %[[RED:.*]]:3 = scf.if %[[FAR]] -> (vector<4xf64>, vector<4xi32>, vector<4xi32>)
// CHECK: arith.fptosi {{.*}} : vector<4xf64> to vector<4xi32>
// CHECK: arith.mului_extended
// CHECK: arith.uitofp {{.*}} : vector<4xi32> to vector<4xf64>
// CHECK: } else {
// CHECK: arith.mulf %[[XD]], {{.*}} : vector<4xf64>
// CHECK: arith.fptosi {{.*}} : vector<4xf64> to vector<4xi32>
// CHECK-NOT: arith.select
// CHECK: scf.yield
// CHECK: arith.mulf %[[RED]]#0, %[[RED]]#0 : vector<4xf64>
// CHECK-COUNT-4: llvm.intr.fma
// CHECK-NOT: llvm.intr.fma
// CHECK: %[[T:.*]] = arith.truncf {{.*}} : vector<4xf64> to vector<4xf32>
// CHECK: %[[NEG:.*]] = arith.negf %[[T]] : vector<4xf32>
// CHECK: %[[R:.*]] = arith.select {{.*}}, %[[NEG]], %[[T]] : vector<4xi1>, vector<4xf32>
// CHECK: %[[NAN:.*]] = arith.subf %[[V]], %[[V]] : vector<4xf32>
// CHECK: %[[FIN:.*]] = arith.select {{.*}}, %[[R]], %[[NAN]] : vector<4xi1>, vector<4xf32>
// CHECK: %[[OUT:.*]] = arith.select {{.*}}, %[[V]], %[[FIN]] : vector<4xi1>, vector<4xf32>
// CHECK: return %[[OUT]] : vector<4xf32>
// CHECK-LABEL: func.func private @__loom_sinf_v8(
// CHECK-SAME: vector<8xf32>) -> vector<8xf32>
// CHECK: llvm.func @sinf(f32) -> f32 attributes {memory = #llvm.memory_effects<other = none, argMem = none, inaccessibleMem = none>, no_unwind, passthrough = {{\[\[}}"vector-function-abi-variant", "_ZGV_LLVM_N4v_sinf(__loom_sinf_v4),_ZGV_LLVM_N8v_sinf(__loom_sinf_v8)"]], will_return}
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

// -----

// log1pf likewise: fdlibm's in f32 arithmetic, its reduction to
// 2^k (1 + f) in integers, the division s = f / (2 + f), and selects; its
// rare cases (x <= -1 with its division, infinities and NaNs, tiny x) only
// in an scf.if taken when some lane has one.
// CHECK-LABEL: func.func @log1ps
// CHECK: scf.for
// CHECK: %[[X:.*]] = memref.load
// CHECK: llvm.call @log1pf(%[[X]]) : (f32) -> f32
// CHECK-NOT: math.log1p
// CHECK-LABEL: func.func private @__loom_log1pf_v4(
// CHECK: arith.bitcast %{{.*}} : vector<4xf32> to vector<4xi32>
// CHECK: arith.divf
// CHECK: arith.sitofp {{.*}} : vector<4xi32> to vector<4xf32>
// CHECK: %[[GENERAL:.*]] = arith.divf
// CHECK: %[[RARE:.*]] = vector.reduction <or>, %{{.*}} : vector<4xi1> into i1
// CHECK: %[[R:.*]] = scf.if %[[RARE]] -> (vector<4xf32>) {
// CHECK: arith.divf
// CHECK: } else {
// CHECK-NEXT: scf.yield %{{.*}} : vector<4xf32>
// CHECK-NEXT: }
// CHECK-NEXT: return %[[R]] : vector<4xf32>
// CHECK-LABEL: func.func private @__loom_log1pf_v8(
// CHECK: llvm.func @log1pf(f32) -> f32 attributes {{{.*}}"_ZGV_LLVM_N4v_log1pf(__loom_log1pf_v4),_ZGV_LLVM_N8v_log1pf(__loom_log1pf_v8)"
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

// -----

// Where no loop can be widened (outside loops, in a while loop, in a for
// loop with a loop inside, in a for loop that carries a float) the calls
// are glibc's, with no variants to compile.
// CHECK-LABEL: func.func @scalar
// CHECK-COUNT-4: llvm.call @sinf(%{{.*}}) : (f32) -> f32
// CHECK-NOT: __loom_sinf
// CHECK: llvm.func @sinf(f32) -> f32 attributes {memory = #llvm.memory_effects<other = none, argMem = none, inaccessibleMem = none>, no_unwind, will_return}
// CHECK-NOT: __loom_sinf
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

// -----

// A function that such a loop calls, through another, is inlined there by
// LLVM: its sine gets the variants.
// CHECK-LABEL: func.func @inner(
// CHECK: llvm.call @sinf(
// CHECK: func.func private @__loom_sinf_v4(
// CHECK: func.func private @__loom_sinf_v8(
// CHECK: llvm.func @sinf(f32) -> f32 attributes {{{.*}}vector-function-abi-variant
func.func @field(%x: f32) -> f32 {
  %z = func.call @inner(%x) : (f32) -> f32
  return %z : f32
}
func.func @inner(%x: f32) -> f32 {
  %y = math.sin %x : f32
  return %y : f32
}
func.func @callers(%xs: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %xs, %c0 : memref<?xf32>
  scf.for %i = %c0 to %n step %c1 {
    %v = memref.load %xs[%i] : memref<?xf32>
    %w = func.call @field(%v) : (f32) -> f32
    memref.store %w, %xs[%i] : memref<?xf32>
  }
  return
}

// -----

// Only f32 and vectors of f32 that the variants' widths divide: glibc's sin
// in double and a sine of 6 lanes are left to convert-math-to-libm and
// math-to-llvm, as is a function that is not sin or log1p.
// CHECK-LABEL: func.func @others
// CHECK: math.sin %{{.*}} : f64
// CHECK: math.sin %{{.*}} : vector<6xf32>
// CHECK: math.cos %{{.*}} : f32
// CHECK-NOT: llvm.func
func.func @others(%x: f64, %v: vector<6xf32>, %c: f32, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    %y = math.sin %x : f64
    %w = math.sin %v : vector<6xf32>
    %d = math.cos %c : f32
  }
  return
}

// -----

// A module with a sinf of its own keeps its sines for convert-math-to-libm,
// which calls that function as it would have.
// CHECK-LABEL: func.func @own
// CHECK: math.sin %{{.*}} : f32
// CHECK-NOT: __loom_sinf
func.func @own(%xs: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %xs, %c0 : memref<?xf32>
  scf.for %i = %c0 to %n step %c1 {
    %v = memref.load %xs[%i] : memref<?xf32>
    %w = math.sin %v : f32
    memref.store %w, %xs[%i] : memref<?xf32>
  }
  return
}
func.func private @sinf(f32) -> f32

// -----

// A GPU kernel's sin is left to libdevice.
// CHECK-LABEL: gpu.module @kernels
// CHECK: math.sin %{{.*}} : f32
// CHECK-NOT: llvm.func @sinf
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

// -----

// A log1p on vectors (a body of loom-vector-variants') calls the variant of
// its width, or of the widest width that divides it, slice by slice; the
// variants are defined though no scalar log1p needs the declaration.
// CHECK-LABEL: func.func @vectors
// CHECK-SAME: %[[A:.*]]: vector<8xf32>, %[[B:.*]]: vector<16xf32>
// CHECK: %[[Y:.*]] = call @__loom_log1pf_v8(%[[A]]) : (vector<8xf32>) -> vector<8xf32>
// CHECK: %[[LO:.*]] = vector.extract_strided_slice %[[B]] {offsets = [0], sizes = [8], strides = [1]}
// CHECK: %[[YLO:.*]] = call @__loom_log1pf_v8(%[[LO]])
// CHECK: %[[Z0:.*]] = vector.insert_strided_slice %[[YLO]], %{{.*}} {offsets = [0], strides = [1]} : vector<8xf32> into vector<16xf32>
// CHECK: %[[HI:.*]] = vector.extract_strided_slice %[[B]] {offsets = [8], sizes = [8], strides = [1]}
// CHECK: %[[YHI:.*]] = call @__loom_log1pf_v8(%[[HI]])
// CHECK: %[[Z:.*]] = vector.insert_strided_slice %[[YHI]], %[[Z0]] {offsets = [8], strides = [1]}
// CHECK: return %[[Y]], %[[Z]]
// CHECK-NOT: math.log1p
// CHECK-NOT: llvm.func @log1pf
// CHECK: func.func private @__loom_log1pf_v4
// CHECK: func.func private @__loom_log1pf_v8
func.func @vectors(%a: vector<8xf32>, %b: vector<16xf32>)
    -> (vector<8xf32>, vector<16xf32>) {
  %y = math.log1p %a : vector<8xf32>
  %z = math.log1p %b : vector<16xf32>
  return %y, %z : vector<8xf32>, vector<16xf32>
}
