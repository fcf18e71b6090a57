// RUN: loom-opt %s -loom-vector-variants -split-input-file | FileCheck %s

// A callee of 35 elementwise ops with two i32 results, called from two loops
// over lanes: both calls go to one out-of-line copy, kept from LLVM's
// inliner, that returns the words packed into an i64 (the first in the low
// half), declared with variants on 4, 8 and 16 lanes; each call site
// unpacks. The call outside a loop keeps the original, for LLVM to inline.
// CHECK-LABEL: func.func @two_loops
// CHECK: scf.for
// CHECK: %[[P:.*]] = func.call @mix_lanewise(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) : (i32, i32, i32, i32) -> i64
// CHECK: %[[LO:.*]] = arith.trunci %[[P]] : i64 to i32
// CHECK: %[[SH:.*]] = arith.shrui %[[P]], %{{.*}} : i64
// CHECK: %[[HI:.*]] = arith.trunci %[[SH]] : i64 to i32
// CHECK: memref.store %[[HI]]
// CHECK: scf.for
// CHECK: func.call @mix_lanewise
// CHECK: %[[OUT:.*]]:2 = call @mix(
// CHECK: return %[[OUT]]#0
// CHECK: func.func private @mix(
// CHECK-LABEL: func.func private @mix_lanewise(
// CHECK-SAME: -> i64 attributes {passthrough = ["noinline", ["vector-function-abi-variant", "_ZGV_LLVM_N4vvvv_mix_lanewise(mix_v4),_ZGV_LLVM_N8vvvv_mix_lanewise(mix_v8),_ZGV_LLVM_N16vvvv_mix_lanewise(mix_v16)"]]}
// CHECK-COUNT-11: arith.xori
// CHECK: %[[W0:.*]] = arith.extui %{{.*}} : i32 to i64
// CHECK: %[[A:.*]] = arith.ori %{{.*}}, %[[W0]] : i64
// CHECK: %[[W1:.*]] = arith.extui %{{.*}} : i32 to i64
// CHECK: %[[W1S:.*]] = arith.shli %[[W1]], %{{.*}} : i64
// CHECK: %[[B:.*]] = arith.ori %[[A]], %[[W1S]] : i64
// CHECK: return %[[B]] : i64
// CHECK-LABEL: func.func private @mix_v4(
// CHECK-SAME: vector<4xi32>, %{{.*}}: vector<4xi32>, %{{.*}}: vector<4xi32>, %{{.*}}: vector<4xi32>) -> vector<4xi64>
// CHECK-LABEL: func.func private @mix_v8(
// CHECK: arith.constant dense<13> : vector<8xi32>
// CHECK-COUNT-11: arith.xori {{.*}} : vector<8xi32>
// CHECK: arith.extui {{.*}} : vector<8xi32> to vector<8xi64>
// CHECK: return {{.*}} : vector<8xi64>
// CHECK-LABEL: func.func private @mix_v16(
// CHECK-SAME: -> vector<16xi64>
func.func @two_loops(%keys: memref<?xi32>) -> i32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c0_i32 = arith.constant 0 : i32
  %c1_i32 = arith.constant 1 : i32
  %n = memref.dim %keys, %c0 : memref<?xi32>
  scf.for %i = %c0 to %n step %c1 {
    %k = memref.load %keys[%i] : memref<?xi32>
    %r:2 = func.call @mix(%k, %k, %c0_i32, %c1_i32) : (i32, i32, i32, i32) -> (i32, i32)
    memref.store %r#1, %keys[%i] : memref<?xi32>
  }
  scf.for %i = %c0 to %n step %c1 {
    %k = memref.load %keys[%i] : memref<?xi32>
    %r:2 = func.call @mix(%k, %k, %c0_i32, %c1_i32) : (i32, i32, i32, i32) -> (i32, i32)
    memref.store %r#1, %keys[%i] : memref<?xi32>
  }
  %out:2 = func.call @mix(%c0_i32, %c1_i32, %c0_i32, %c1_i32) : (i32, i32, i32, i32) -> (i32, i32)
  return %out#0 : i32
}
func.func private @mix(%k0: i32, %k1: i32, %x0: i32, %x1: i32) -> (i32, i32) {
  %c13 = arith.constant 13 : i32
  %a0 = arith.addi %x0, %x1 : i32
  %s0 = arith.shli %x1, %c13 : i32
  %b0 = arith.xori %s0, %a0 : i32
  %a1 = arith.addi %a0, %b0 : i32
  %s1 = arith.shli %b0, %c13 : i32
  %b1 = arith.xori %s1, %a1 : i32
  %a2 = arith.addi %a1, %b1 : i32
  %s2 = arith.shli %b1, %c13 : i32
  %b2 = arith.xori %s2, %a2 : i32
  %a3 = arith.addi %a2, %b2 : i32
  %s3 = arith.shli %b2, %c13 : i32
  %b3 = arith.xori %s3, %a3 : i32
  %a4 = arith.addi %a3, %b3 : i32
  %s4 = arith.shli %b3, %c13 : i32
  %b4 = arith.xori %s4, %a4 : i32
  %a5 = arith.addi %a4, %b4 : i32
  %s5 = arith.shli %b4, %c13 : i32
  %b5 = arith.xori %s5, %a5 : i32
  %a6 = arith.addi %a5, %b5 : i32
  %s6 = arith.shli %b5, %c13 : i32
  %b6 = arith.xori %s6, %a6 : i32
  %a7 = arith.addi %a6, %b6 : i32
  %s7 = arith.shli %b6, %c13 : i32
  %b7 = arith.xori %s7, %a7 : i32
  %a8 = arith.addi %a7, %b7 : i32
  %s8 = arith.shli %b7, %c13 : i32
  %b8 = arith.xori %s8, %a8 : i32
  %a9 = arith.addi %a8, %b8 : i32
  %s9 = arith.shli %b8, %c13 : i32
  %b9 = arith.xori %s9, %a9 : i32
  %a10 = arith.addi %a9, %b9 : i32
  %s10 = arith.shli %b9, %c13 : i32
  %b10 = arith.xori %s10, %a10 : i32
  %y0 = arith.addi %a10, %k0 : i32
  %y1 = arith.addi %b10, %k1 : i32
  return %y0, %y1 : i32, i32
}

// -----

// One f32 result travels as itself; the variants compute on vectors of f32
// with splat constants.
// CHECK-LABEL: func.func @float_result
// CHECK: %[[Y:.*]] = func.call @poly_lanewise(%{{.*}}) : (f32) -> f32
// CHECK: memref.store %[[Y]]
// CHECK: func.call @poly_lanewise
// CHECK-LABEL: func.func private @poly_v8(
// CHECK-SAME: %[[X:.*]]: vector<8xf32>) -> vector<8xf32>
// CHECK: %[[C:.*]] = arith.constant dense<5.000000e-01> : vector<8xf32>
// CHECK: %[[M:.*]] = arith.mulf %[[X]], %[[X]] : vector<8xf32>
// CHECK: arith.addf %[[M]], %[[C]] : vector<8xf32>
func.func @float_result(%xs: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %xs, %c0 : memref<?xf32>
  scf.for %i = %c0 to %n step %c1 {
    %x = memref.load %xs[%i] : memref<?xf32>
    %y = func.call @poly(%x) : (f32) -> f32
    memref.store %y, %xs[%i] : memref<?xf32>
  }
  scf.for %i = %c0 to %n step %c1 {
    %x = memref.load %xs[%i] : memref<?xf32>
    %y = func.call @poly(%x) : (f32) -> f32
    memref.store %y, %xs[%i] : memref<?xf32>
  }
  return
}
func.func private @poly(%x: f32) -> f32 {
  %c = arith.constant 0.5 : f32
  %m0 = arith.mulf %x, %x : f32
  %p0 = arith.addf %m0, %c : f32
  %m1 = arith.mulf %p0, %x : f32
  %p1 = arith.addf %m1, %c : f32
  %m2 = arith.mulf %p1, %x : f32
  %p2 = arith.addf %m2, %c : f32
  %m3 = arith.mulf %p2, %x : f32
  %p3 = arith.addf %m3, %c : f32
  %m4 = arith.mulf %p3, %x : f32
  %p4 = arith.addf %m4, %c : f32
  %m5 = arith.mulf %p4, %x : f32
  %p5 = arith.addf %m5, %c : f32
  %m6 = arith.mulf %p5, %x : f32
  %p6 = arith.addf %m6, %c : f32
  %m7 = arith.mulf %p6, %x : f32
  %p7 = arith.addf %m7, %c : f32
  %m8 = arith.mulf %p7, %x : f32
  %p8 = arith.addf %m8, %c : f32
  %m9 = arith.mulf %p8, %x : f32
  %p9 = arith.addf %m9, %c : f32
  %m10 = arith.mulf %p9, %x : f32
  %p10 = arith.addf %m10, %c : f32
  %m11 = arith.mulf %p10, %x : f32
  %p11 = arith.addf %m11, %c : f32
  %m12 = arith.mulf %p11, %x : f32
  %p12 = arith.addf %m12, %c : f32
  %m13 = arith.mulf %p12, %x : f32
  %p13 = arith.addf %m13, %c : f32
  %m14 = arith.mulf %p13, %x : f32
  %p14 = arith.addf %m14, %c : f32
  %m15 = arith.mulf %p14, %x : f32
  %p15 = arith.addf %m15, %c : f32
  return %p15 : f32
}

// -----

// Left alone: a callee of 11 ops (cheaper inlined), one whose three words
// do not fit in 64 bits, one that one loop calls and nothing else (its one
// inlined copy costs no more), and calls in a loop that holds a loop (LLVM
// vectorizes innermost loops only).
// CHECK-LABEL: func.func @left_alone
// CHECK-COUNT-2: func.call @small(
// CHECK-COUNT-2: func.call @three(
// CHECK: func.call @mix(
// CHECK: scf.for
// CHECK: func.call @mix2(
// CHECK: scf.for
// CHECK: func.call @mix2(
// CHECK-NOT: _lanewise
// CHECK-NOT: _v8
func.func @left_alone(%keys: memref<?xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c0_i32 = arith.constant 0 : i32
  %c1_i32 = arith.constant 1 : i32
  %n = memref.dim %keys, %c0 : memref<?xi32>
  scf.for %i = %c0 to %n step %c1 {
    %k = memref.load %keys[%i] : memref<?xi32>
    %r:2 = func.call @small(%k, %k, %c0_i32, %c1_i32) : (i32, i32, i32, i32) -> (i32, i32)
    memref.store %r#1, %keys[%i] : memref<?xi32>
  }
  scf.for %i = %c0 to %n step %c1 {
    %k = memref.load %keys[%i] : memref<?xi32>
    %r:2 = func.call @small(%k, %k, %c0_i32, %c1_i32) : (i32, i32, i32, i32) -> (i32, i32)
    memref.store %r#1, %keys[%i] : memref<?xi32>
  }
  scf.for %i = %c0 to %n step %c1 {
    %k = memref.load %keys[%i] : memref<?xi32>
    %r:3 = func.call @three(%k, %k, %c0_i32, %c1_i32) : (i32, i32, i32, i32) -> (i32, i32, i32)
    memref.store %r#1, %keys[%i] : memref<?xi32>
  }
  scf.for %i = %c0 to %n step %c1 {
    %k = memref.load %keys[%i] : memref<?xi32>
    %r:3 = func.call @three(%k, %k, %c0_i32, %c1_i32) : (i32, i32, i32, i32) -> (i32, i32, i32)
    memref.store %r#1, %keys[%i] : memref<?xi32>
  }
  scf.for %i = %c0 to %n step %c1 {
    %k = memref.load %keys[%i] : memref<?xi32>
    %r:2 = func.call @mix(%k, %k, %c0_i32, %c1_i32) : (i32, i32, i32, i32) -> (i32, i32)
    memref.store %r#1, %keys[%i] : memref<?xi32>
  }
  scf.for %j = %c0 to %n step %c1 {
    %k = memref.load %keys[%j] : memref<?xi32>
    %r:2 = func.call @mix2(%k, %k, %c0_i32, %c1_i32) : (i32, i32, i32, i32) -> (i32, i32)
    scf.for %i = %c0 to %n step %c1 {
      memref.store %r#1, %keys[%i] : memref<?xi32>
    }
    %s:2 = func.call @mix2(%k, %k, %c0_i32, %c1_i32) : (i32, i32, i32, i32) -> (i32, i32)
    memref.store %s#0, %keys[%j] : memref<?xi32>
  }
  return
}
func.func private @small(%k0: i32, %k1: i32, %x0: i32, %x1: i32) -> (i32, i32) {
  %c13 = arith.constant 13 : i32
  %a0 = arith.addi %x0, %x1 : i32
  %s0 = arith.shli %x1, %c13 : i32
  %b0 = arith.xori %s0, %a0 : i32
  %a1 = arith.addi %a0, %b0 : i32
  %s1 = arith.shli %b0, %c13 : i32
  %b1 = arith.xori %s1, %a1 : i32
  %a2 = arith.addi %a1, %b1 : i32
  %s2 = arith.shli %b1, %c13 : i32
  %b2 = arith.xori %s2, %a2 : i32
  %y0 = arith.addi %a2, %k0 : i32
  %y1 = arith.addi %b2, %k1 : i32
  return %y0, %y1 : i32, i32
}
func.func private @three(%k0: i32, %k1: i32, %x0: i32, %x1: i32) -> (i32, i32, i32) {
  %c13 = arith.constant 13 : i32
  %a0 = arith.addi %x0, %x1 : i32
  %s0 = arith.shli %x1, %c13 : i32
  %b0 = arith.xori %s0, %a0 : i32
  %a1 = arith.addi %a0, %b0 : i32
  %s1 = arith.shli %b0, %c13 : i32
  %b1 = arith.xori %s1, %a1 : i32
  %a2 = arith.addi %a1, %b1 : i32
  %s2 = arith.shli %b1, %c13 : i32
  %b2 = arith.xori %s2, %a2 : i32
  %a3 = arith.addi %a2, %b2 : i32
  %s3 = arith.shli %b2, %c13 : i32
  %b3 = arith.xori %s3, %a3 : i32
  %a4 = arith.addi %a3, %b3 : i32
  %s4 = arith.shli %b3, %c13 : i32
  %b4 = arith.xori %s4, %a4 : i32
  %a5 = arith.addi %a4, %b4 : i32
  %s5 = arith.shli %b4, %c13 : i32
  %b5 = arith.xori %s5, %a5 : i32
  %a6 = arith.addi %a5, %b5 : i32
  %s6 = arith.shli %b5, %c13 : i32
  %b6 = arith.xori %s6, %a6 : i32
  %a7 = arith.addi %a6, %b6 : i32
  %s7 = arith.shli %b6, %c13 : i32
  %b7 = arith.xori %s7, %a7 : i32
  %a8 = arith.addi %a7, %b7 : i32
  %s8 = arith.shli %b7, %c13 : i32
  %b8 = arith.xori %s8, %a8 : i32
  %a9 = arith.addi %a8, %b8 : i32
  %s9 = arith.shli %b8, %c13 : i32
  %b9 = arith.xori %s9, %a9 : i32
  %a10 = arith.addi %a9, %b9 : i32
  %s10 = arith.shli %b9, %c13 : i32
  %b10 = arith.xori %s10, %a10 : i32
  %y0 = arith.addi %a10, %k0 : i32
  %y1 = arith.addi %b10, %k1 : i32
  %y2 = arith.xori %y0, %y1 : i32
  return %y0, %y1, %y2 : i32, i32, i32
}
func.func private @mix(%k0: i32, %k1: i32, %x0: i32, %x1: i32) -> (i32, i32) {
  %c13 = arith.constant 13 : i32
  %a0 = arith.addi %x0, %x1 : i32
  %s0 = arith.shli %x1, %c13 : i32
  %b0 = arith.xori %s0, %a0 : i32
  %a1 = arith.addi %a0, %b0 : i32
  %s1 = arith.shli %b0, %c13 : i32
  %b1 = arith.xori %s1, %a1 : i32
  %a2 = arith.addi %a1, %b1 : i32
  %s2 = arith.shli %b1, %c13 : i32
  %b2 = arith.xori %s2, %a2 : i32
  %a3 = arith.addi %a2, %b2 : i32
  %s3 = arith.shli %b2, %c13 : i32
  %b3 = arith.xori %s3, %a3 : i32
  %a4 = arith.addi %a3, %b3 : i32
  %s4 = arith.shli %b3, %c13 : i32
  %b4 = arith.xori %s4, %a4 : i32
  %a5 = arith.addi %a4, %b4 : i32
  %s5 = arith.shli %b4, %c13 : i32
  %b5 = arith.xori %s5, %a5 : i32
  %a6 = arith.addi %a5, %b5 : i32
  %s6 = arith.shli %b5, %c13 : i32
  %b6 = arith.xori %s6, %a6 : i32
  %a7 = arith.addi %a6, %b6 : i32
  %s7 = arith.shli %b6, %c13 : i32
  %b7 = arith.xori %s7, %a7 : i32
  %a8 = arith.addi %a7, %b7 : i32
  %s8 = arith.shli %b7, %c13 : i32
  %b8 = arith.xori %s8, %a8 : i32
  %a9 = arith.addi %a8, %b8 : i32
  %s9 = arith.shli %b8, %c13 : i32
  %b9 = arith.xori %s9, %a9 : i32
  %a10 = arith.addi %a9, %b9 : i32
  %s10 = arith.shli %b9, %c13 : i32
  %b10 = arith.xori %s10, %a10 : i32
  %y0 = arith.addi %a10, %k0 : i32
  %y1 = arith.addi %b10, %k1 : i32
  return %y0, %y1 : i32, i32
}
func.func private @mix2(%k0: i32, %k1: i32, %x0: i32, %x1: i32) -> (i32, i32) {
  %c13 = arith.constant 13 : i32
  %a0 = arith.addi %x0, %x1 : i32
  %s0 = arith.shli %x1, %c13 : i32
  %b0 = arith.xori %s0, %a0 : i32
  %a1 = arith.addi %a0, %b0 : i32
  %s1 = arith.shli %b0, %c13 : i32
  %b1 = arith.xori %s1, %a1 : i32
  %a2 = arith.addi %a1, %b1 : i32
  %s2 = arith.shli %b1, %c13 : i32
  %b2 = arith.xori %s2, %a2 : i32
  %a3 = arith.addi %a2, %b2 : i32
  %s3 = arith.shli %b2, %c13 : i32
  %b3 = arith.xori %s3, %a3 : i32
  %a4 = arith.addi %a3, %b3 : i32
  %s4 = arith.shli %b3, %c13 : i32
  %b4 = arith.xori %s4, %a4 : i32
  %a5 = arith.addi %a4, %b4 : i32
  %s5 = arith.shli %b4, %c13 : i32
  %b5 = arith.xori %s5, %a5 : i32
  %a6 = arith.addi %a5, %b5 : i32
  %s6 = arith.shli %b5, %c13 : i32
  %b6 = arith.xori %s6, %a6 : i32
  %a7 = arith.addi %a6, %b6 : i32
  %s7 = arith.shli %b6, %c13 : i32
  %b7 = arith.xori %s7, %a7 : i32
  %a8 = arith.addi %a7, %b7 : i32
  %s8 = arith.shli %b7, %c13 : i32
  %b8 = arith.xori %s8, %a8 : i32
  %a9 = arith.addi %a8, %b8 : i32
  %s9 = arith.shli %b8, %c13 : i32
  %b9 = arith.xori %s9, %a9 : i32
  %a10 = arith.addi %a9, %b9 : i32
  %s10 = arith.shli %b9, %c13 : i32
  %b10 = arith.xori %s10, %a10 : i32
  %y0 = arith.addi %a10, %k0 : i32
  %y1 = arith.addi %b10, %k1 : i32
  return %y0, %y1 : i32, i32
}

// -----

// One lane loop calls the callee, and code outside any loop calls it too
// (a per-lane form next to a gang's lane loop, in timed variants): LLVM
// inlines a large callee at neither of two calls, so the lane loop's call
// goes to the out-of-line copy with variants, and the other keeps the
// original.
// CHECK-LABEL: func.func @one_loop_and_elsewhere
// CHECK: scf.for
// CHECK: func.call @mix_lanewise(
// CHECK: }
// CHECK: {{ }}call @mix(
// CHECK-LABEL: func.func private @mix_lanewise(
// CHECK-SAME: passthrough = ["noinline", ["vector-function-abi-variant",
func.func @one_loop_and_elsewhere(%keys: memref<?xi32>) -> i32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c0_i32 = arith.constant 0 : i32
  %c1_i32 = arith.constant 1 : i32
  %n = memref.dim %keys, %c0 : memref<?xi32>
  scf.for %i = %c0 to %n step %c1 {
    %k = memref.load %keys[%i] : memref<?xi32>
    %r:2 = func.call @mix(%k, %k, %c0_i32, %c1_i32) : (i32, i32, i32, i32) -> (i32, i32)
    memref.store %r#1, %keys[%i] : memref<?xi32>
  }
  %k = memref.load %keys[%c0] : memref<?xi32>
  %s:2 = func.call @mix(%k, %k, %c0_i32, %c1_i32) : (i32, i32, i32, i32) -> (i32, i32)
  return %s#0 : i32
}
func.func private @mix(%k0: i32, %k1: i32, %x0: i32, %x1: i32) -> (i32, i32) {
  %c13 = arith.constant 13 : i32
  %a0 = arith.addi %x0, %x1 : i32
  %s0 = arith.shli %x1, %c13 : i32
  %b0 = arith.xori %s0, %a0 : i32
  %a1 = arith.addi %a0, %b0 : i32
  %s1 = arith.shli %b0, %c13 : i32
  %b1 = arith.xori %s1, %a1 : i32
  %a2 = arith.addi %a1, %b1 : i32
  %s2 = arith.shli %b1, %c13 : i32
  %b2 = arith.xori %s2, %a2 : i32
  %a3 = arith.addi %a2, %b2 : i32
  %s3 = arith.shli %b2, %c13 : i32
  %b3 = arith.xori %s3, %a3 : i32
  %a4 = arith.addi %a3, %b3 : i32
  %s4 = arith.shli %b3, %c13 : i32
  %b4 = arith.xori %s4, %a4 : i32
  %a5 = arith.addi %a4, %b4 : i32
  %s5 = arith.shli %b4, %c13 : i32
  %b5 = arith.xori %s5, %a5 : i32
  %a6 = arith.addi %a5, %b5 : i32
  %s6 = arith.shli %b5, %c13 : i32
  %b6 = arith.xori %s6, %a6 : i32
  %a7 = arith.addi %a6, %b6 : i32
  %s7 = arith.shli %b6, %c13 : i32
  %b7 = arith.xori %s7, %a7 : i32
  %a8 = arith.addi %a7, %b7 : i32
  %s8 = arith.shli %b7, %c13 : i32
  %b8 = arith.xori %s8, %a8 : i32
  %a9 = arith.addi %a8, %b8 : i32
  %s9 = arith.shli %b8, %c13 : i32
  %b9 = arith.xori %s9, %a9 : i32
  %a10 = arith.addi %a9, %b9 : i32
  %s10 = arith.shli %b9, %c13 : i32
  %b10 = arith.xori %s10, %a10 : i32
  %y0 = arith.addi %a10, %k0 : i32
  %y1 = arith.addi %b10, %k1 : i32
  return %y0, %y1 : i32, i32
}

// -----

// A GPU module's functions are left to it, whatever the host has.
// CHECK-LABEL: gpu.module @kernels
// CHECK-COUNT-2: func.call @mix(
// CHECK-NOT: _lanewise
module attributes {gpu.container_module} {
  gpu.module @kernels {
    func.func @device(%keys: memref<?xi32>) {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c0_i32 = arith.constant 0 : i32
      %c1_i32 = arith.constant 1 : i32
      %n = memref.dim %keys, %c0 : memref<?xi32>
      scf.for %i = %c0 to %n step %c1 {
        %k = memref.load %keys[%i] : memref<?xi32>
        %r:2 = func.call @mix(%k, %k, %c0_i32, %c1_i32) : (i32, i32, i32, i32) -> (i32, i32)
        memref.store %r#1, %keys[%i] : memref<?xi32>
      }
      scf.for %i = %c0 to %n step %c1 {
        %k = memref.load %keys[%i] : memref<?xi32>
        %r:2 = func.call @mix(%k, %k, %c0_i32, %c1_i32) : (i32, i32, i32, i32) -> (i32, i32)
        memref.store %r#1, %keys[%i] : memref<?xi32>
      }
      return
    }
    func.func private @mix(%k0: i32, %k1: i32, %x0: i32, %x1: i32) -> (i32, i32) {
      %c13 = arith.constant 13 : i32
      %a0 = arith.addi %x0, %x1 : i32
      %s0 = arith.shli %x1, %c13 : i32
      %b0 = arith.xori %s0, %a0 : i32
      %a1 = arith.addi %a0, %b0 : i32
      %s1 = arith.shli %b0, %c13 : i32
      %b1 = arith.xori %s1, %a1 : i32
      %a2 = arith.addi %a1, %b1 : i32
      %s2 = arith.shli %b1, %c13 : i32
      %b2 = arith.xori %s2, %a2 : i32
      %a3 = arith.addi %a2, %b2 : i32
      %s3 = arith.shli %b2, %c13 : i32
      %b3 = arith.xori %s3, %a3 : i32
      %a4 = arith.addi %a3, %b3 : i32
      %s4 = arith.shli %b3, %c13 : i32
      %b4 = arith.xori %s4, %a4 : i32
      %a5 = arith.addi %a4, %b4 : i32
      %s5 = arith.shli %b4, %c13 : i32
      %b5 = arith.xori %s5, %a5 : i32
      %a6 = arith.addi %a5, %b5 : i32
      %s6 = arith.shli %b5, %c13 : i32
      %b6 = arith.xori %s6, %a6 : i32
      %a7 = arith.addi %a6, %b6 : i32
      %s7 = arith.shli %b6, %c13 : i32
      %b7 = arith.xori %s7, %a7 : i32
      %a8 = arith.addi %a7, %b7 : i32
      %s8 = arith.shli %b7, %c13 : i32
      %b8 = arith.xori %s8, %a8 : i32
      %a9 = arith.addi %a8, %b8 : i32
      %s9 = arith.shli %b8, %c13 : i32
      %b9 = arith.xori %s9, %a9 : i32
      %a10 = arith.addi %a9, %b9 : i32
      %s10 = arith.shli %b9, %c13 : i32
      %b10 = arith.xori %s10, %a10 : i32
      %y0 = arith.addi %a10, %k0 : i32
      %y1 = arith.addi %b10, %k1 : i32
      return %y0, %y1 : i32, i32
    }
  }
  func.func private @mix(%k0: i32, %k1: i32, %x0: i32, %x1: i32) -> (i32, i32) {
    %c13 = arith.constant 13 : i32
    %a0 = arith.addi %x0, %x1 : i32
    %s0 = arith.shli %x1, %c13 : i32
    %b0 = arith.xori %s0, %a0 : i32
    %a1 = arith.addi %a0, %b0 : i32
    %s1 = arith.shli %b0, %c13 : i32
    %b1 = arith.xori %s1, %a1 : i32
    %a2 = arith.addi %a1, %b1 : i32
    %s2 = arith.shli %b1, %c13 : i32
    %b2 = arith.xori %s2, %a2 : i32
    %a3 = arith.addi %a2, %b2 : i32
    %s3 = arith.shli %b2, %c13 : i32
    %b3 = arith.xori %s3, %a3 : i32
    %a4 = arith.addi %a3, %b3 : i32
    %s4 = arith.shli %b3, %c13 : i32
    %b4 = arith.xori %s4, %a4 : i32
    %a5 = arith.addi %a4, %b4 : i32
    %s5 = arith.shli %b4, %c13 : i32
    %b5 = arith.xori %s5, %a5 : i32
    %a6 = arith.addi %a5, %b5 : i32
    %s6 = arith.shli %b5, %c13 : i32
    %b6 = arith.xori %s6, %a6 : i32
    %a7 = arith.addi %a6, %b6 : i32
    %s7 = arith.shli %b6, %c13 : i32
    %b7 = arith.xori %s7, %a7 : i32
    %a8 = arith.addi %a7, %b7 : i32
    %s8 = arith.shli %b7, %c13 : i32
    %b8 = arith.xori %s8, %a8 : i32
    %a9 = arith.addi %a8, %b8 : i32
    %s9 = arith.shli %b8, %c13 : i32
    %b9 = arith.xori %s9, %a9 : i32
    %a10 = arith.addi %a9, %b9 : i32
    %s10 = arith.shli %b9, %c13 : i32
    %b10 = arith.xori %s10, %a10 : i32
    %y0 = arith.addi %a10, %k0 : i32
    %y1 = arith.addi %b10, %k1 : i32
    return %y0, %y1 : i32, i32
  }
}
