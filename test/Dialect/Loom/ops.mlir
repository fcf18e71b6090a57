// RUN: loom-opt %s | FileCheck %s
// Round trip through the generic form too: the custom syntax must lose nothing.
// RUN: loom-opt %s -mlir-print-op-generic | loom-opt | FileCheck %s

// CHECK-LABEL: func.func private @solve
// CHECK-SAME: (tensor<1xf32> {loom.name = "init"}, tensor<2xi32> {loom.name = "key"}, f32 {loom.default = 5.000000e+00 : f32, loom.name = "theta"})
// CHECK-SAME: -> (tensor<100x1xf32> {loom.name = "ys"})
func.func private @solve(tensor<1xf32> {loom.name = "init"},
                         tensor<2xi32> {loom.name = "key"},
                         f32 {loom.name = "theta", loom.default = 5.0 : f32})
    -> (tensor<100x1xf32> {loom.name = "ys"})

// A range on i32 and i64 scalars, a single value, negative bounds, and a
// default inside it.
// CHECK-LABEL: func.func private @ranged
// CHECK-SAME: (i32 {loom.default = 0 : i32, loom.name = "mode", loom.range = [0, 2]}, i64 {loom.range = [-5, -5]}, i32 {loom.range = [-2147483648, 2147483647]})
func.func private @ranged(i32 {loom.name = "mode", loom.default = 0 : i32,
                               loom.range = [0, 2]},
                          i64 {loom.range = [-5, -5]},
                          i32 {loom.range = [-2147483648, 2147483647]})

// CHECK-LABEL: func.func @vmap_dynamic
// CHECK: loom.vmap @solve(%{{.*}}, %{{.*}}, %{{.*}}) in_axes [0, 0, none] out_axes [0] : (tensor<?x1xf32>, tensor<?x2xi32>, f32) -> tensor<?x100x1xf32>
func.func @vmap_dynamic(%inits: tensor<?x1xf32>, %keys: tensor<?x2xi32>,
                        %theta: f32) -> tensor<?x100x1xf32> {
  %ys = loom.vmap @solve(%inits, %keys, %theta) in_axes [0, 0, none]
      out_axes [0] : (tensor<?x1xf32>, tensor<?x2xi32>, f32)
      -> tensor<?x100x1xf32>
  return %ys : tensor<?x100x1xf32>
}

func.func private @lane(f32, tensor<3xf32>) -> (f32, tensor<3xf32>)

// A batch axis that is not the leading one, on inputs and outputs.
// CHECK-LABEL: func.func @vmap_inner_axes
// CHECK: loom.vmap @lane(%{{.*}}, %{{.*}}) in_axes [0, 1] out_axes [0, 1] : (tensor<8xf32>, tensor<3x8xf32>) -> (tensor<8xf32>, tensor<3x8xf32>)
func.func @vmap_inner_axes(%a: tensor<8xf32>, %b: tensor<3x8xf32>)
    -> (tensor<8xf32>, tensor<3x8xf32>) {
  %r:2 = loom.vmap @lane(%a, %b) in_axes [0, 1] out_axes [0, 1]
      : (tensor<8xf32>, tensor<3x8xf32>) -> (tensor<8xf32>, tensor<3x8xf32>)
  return %r#0, %r#1 : tensor<8xf32>, tensor<3x8xf32>
}

// A dynamic operand and a static one agree: the static size wins.
// CHECK-LABEL: func.func @vmap_mixed_static
// CHECK: loom.vmap @lane(%{{.*}}, %{{.*}}) in_axes [0, 1] out_axes [0, 1] : (tensor<?xf32>, tensor<3x8xf32>) -> (tensor<8xf32>, tensor<3x8xf32>)
func.func @vmap_mixed_static(%a: tensor<?xf32>, %b: tensor<3x8xf32>)
    -> (tensor<8xf32>, tensor<3x8xf32>) {
  %r:2 = loom.vmap @lane(%a, %b) in_axes [0, 1] out_axes [0, 1]
      : (tensor<?xf32>, tensor<3x8xf32>) -> (tensor<8xf32>, tensor<3x8xf32>)
  return %r#0, %r#1 : tensor<8xf32>, tensor<3x8xf32>
}

// CHECK-LABEL: func.func @reductions
// CHECK-NEXT: loom.any %{{.*}} along 0 : tensor<?xi1> -> i1
// CHECK-NEXT: loom.all %{{.*}} along 0 : tensor<?xi1> -> i1
// CHECK-NEXT: loom.sum %{{.*}} along 0 : tensor<?x3xf32> -> tensor<3xf32>
// CHECK-NEXT: loom.max %{{.*}} along 1 : tensor<4x5xi32> -> tensor<4xi32>
// CHECK-NEXT: loom.min %{{.*}} along 0 : tensor<?x3xf32> -> tensor<3xf32>
func.func @reductions(%m: tensor<?xi1>, %x: tensor<?x3xf32>,
                      %n: tensor<4x5xi32>)
    -> (i1, i1, tensor<3xf32>, tensor<4xi32>, tensor<3xf32>) {
  %a = loom.any %m along 0 : tensor<?xi1> -> i1
  %b = loom.all %m along 0 : tensor<?xi1> -> i1
  %s = loom.sum %x along 0 : tensor<?x3xf32> -> tensor<3xf32>
  %mx = loom.max %n along 1 : tensor<4x5xi32> -> tensor<4xi32>
  %mn = loom.min %x along 0 : tensor<?x3xf32> -> tensor<3xf32>
  return %a, %b, %s, %mx, %mn : i1, i1, tensor<3xf32>, tensor<4xi32>, tensor<3xf32>
}

// CHECK-LABEL: func.func @random
// CHECK-NEXT: %[[K:.*]] = loom.random.key %{{.*}} : i32
// CHECK-NEXT: loom.random.split %[[K]] : tensor<30x2xi32>
// CHECK-NEXT: loom.random.split %[[K]] {partitionable} : tensor<2x3x2xi32>
// CHECK-NEXT: loom.random.fold_in %[[K]], %{{.*}} : i32
// CHECK-NEXT: loom.random.bits %[[K]] : tensor<4xi32>
// CHECK-NEXT: loom.random.bits %[[K]] {partitionable} : i32
// CHECK-NEXT: loom.random.uniform %[[K]], %{{.*}}, %{{.*}} : tensor<1xf32>
// CHECK-NEXT: loom.random.normal %[[K]] : f32
// CHECK-NEXT: loom.random.randint %[[K]], %{{.*}}, %{{.*}} : i32
func.func @random(%seed: i32, %lo: f32, %hi: f32, %ilo: i32, %ihi: i32) {
  %k = loom.random.key %seed : i32
  %s = loom.random.split %k : tensor<30x2xi32>
  %sp = loom.random.split %k {partitionable} : tensor<2x3x2xi32>
  %f = loom.random.fold_in %k, %seed : i32
  %b = loom.random.bits %k : tensor<4xi32>
  %b1 = loom.random.bits %k {partitionable} : i32
  %u = loom.random.uniform %k, %lo, %hi : tensor<1xf32>
  %n = loom.random.normal %k : f32
  %r = loom.random.randint %k, %ilo, %ihi : i32
  return
}

// float64 samples and 64-bit words (JAX with x64 on); the bounds' type is
// the samples' element type, so the syntax names only the result type.
// CHECK-LABEL: func.func @random_x64
// CHECK-NEXT: loom.random.bits %{{.*}} : tensor<4xi64>
// CHECK-NEXT: loom.random.bits %{{.*}} {partitionable} : i64
// CHECK-NEXT: loom.random.uniform %{{.*}}, %{{.*}}, %{{.*}} : tensor<2x3xf64>
// CHECK-NEXT: loom.random.normal %{{.*}} {partitionable} : f64
func.func @random_x64(%k: tensor<2xi32>, %lo: f64, %hi: f64) {
  %b = loom.random.bits %k : tensor<4xi64>
  %b1 = loom.random.bits %k {partitionable} : i64
  %u = loom.random.uniform %k, %lo, %hi : tensor<2x3xf64>
  %n = loom.random.normal %k {partitionable} : f64
  return
}

// CHECK-LABEL: func.func @loop_annotations
// CHECK: scf.while
// CHECK: } attributes {loom.loop_sync = #loom.loop_sync<local>, loom.strategy = #loom.strategy<per_lane>}
func.func @loop_annotations(%n: i32) -> i32 {
  %r = scf.while (%i = %n) : (i32) -> i32 {
    %c0 = arith.constant 0 : i32
    %p = arith.cmpi sgt, %i, %c0 : i32
    scf.condition(%p) %i : i32
  } do {
  ^bb0(%i: i32):
    %c1 = arith.constant 1 : i32
    %j = arith.subi %i, %c1 : i32
    scf.yield %j : i32
  } attributes {loom.strategy = #loom.strategy<per_lane>,
                loom.loop_sync = #loom.loop_sync<local>}
  return %r : i32
}

// CHECK-LABEL: func.func @timed_variants
// CHECK: %[[ALT:.*]] = loom.variant_begin
// CHECK: scf.if %[[ALT]] -> (i32)
// CHECK: loom.variant_end %[[ALT]]
// CHECK: loom.variant_begin {names = ["masked", "gang with refill (width 8)"]}
func.func @timed_variants(%a: i32, %b: i32) -> i32 {
  %alt = loom.variant_begin
  %r = scf.if %alt -> (i32) {
    scf.yield %a : i32
  } else {
    scf.yield %b : i32
  }
  loom.variant_end %alt
  %named = loom.variant_begin {names = ["masked", "gang with refill (width 8)"]}
  loom.variant_end %named
  return %r : i32
}
