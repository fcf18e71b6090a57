// A lane loop's call of an out-of-line callee with vector variants
// (loom-vector-variants) is vectorized even where the caller passes
// constants for some of its arguments: the scalar copy stays external to
// LLVM's pipeline, so dead-argument elimination and IPSCCP do not drop
// those arguments and leave a call that no longer matches its variants'
// signature (lib/Compiler/CPU/Optimize.cpp). Here auto compiles a random
// walk per-lane and with refill, to be timed: threefry has two calls (one
// in the per-lane loop, one in refill's lane loop, key words 0 at both),
// which LLVM inlines at neither. Before, refill's lane loop called the
// scalar threefry lane by lane and ran 2.5x slower than refill alone.
// Once every call of the scalar copy is vectorized (refill's gang of 32
// lanes leaves no remainder), the copy is deleted.
// REQUIRES: x86_64
// RUN: loom-compile %s --emit=llvm --divergent=auto -o %t.ll
// RUN: FileCheck %s < %t.ll
// CHECK: call <16 x i64> @__loom_threefry2x32_v16(
// CHECK-NOT: __loom_threefry2x32_lanewise
// CHECK: define hidden <16 x i64> @__loom_threefry2x32_v16(
// CHECK-NOT: __loom_threefry2x32_lanewise
func.func @walk(%seed: i32, %w: f32) -> (f32, i32) {
  %i0 = arith.constant 0 : i32
  %i1 = arith.constant 1 : i32
  %cap = arith.constant 400 : i32
  %zero = arith.constant 0.0 : f32
  %lo = arith.constant -1.0 : f32
  %hi = arith.constant 1.0 : f32
  %r:2 = scf.while (%x = %zero, %n = %i0) : (f32, i32) -> (f32, i32) {
    %ax = math.absf %x : f32
    %in = arith.cmpf olt, %ax, %w : f32
    %room = arith.cmpi slt, %n, %cap : i32
    %go = arith.andi %in, %room : i1
    scf.condition(%go) %x, %n : f32, i32
  } do {
  ^bb0(%x: f32, %n: i32):
    %s = arith.addi %seed, %n : i32
    %k = loom.random.key %s : i32
    %u = loom.random.uniform %k, %lo, %hi : f32
    %x1 = arith.addf %x, %u : f32
    %n1 = arith.addi %n, %i1 : i32
    scf.yield %x1, %n1 : f32, i32
  }
  return %r#0, %r#1 : f32, i32
}
func.func @main(%seeds: tensor<?xi32> {loom.name = "seeds"}, %ws: tensor<?xf32> {loom.name = "widths"})
    -> (tensor<?xf32> {loom.name = "x"}, tensor<?xi32> {loom.name = "n"}) {
  %r:2 = loom.vmap @walk(%seeds, %ws) in_axes [0, 0] out_axes [0, 0]
      : (tensor<?xi32>, tensor<?xf32>) -> (tensor<?xf32>, tensor<?xi32>)
  return %r#0, %r#1 : tensor<?xf32>, tensor<?xi32>
}
