// RUN: loom-opt %s -loom-exact-math-to-llvm | FileCheck %s

// libdevice calls of exact or correctly rounded math become intrinsics
// (NVPTX: sqrt.rn, abs, cvt.rmi, ...); the rest stay calls.
// CHECK-LABEL: llvm.func @kernel(
// CHECK: %[[S:.*]] = llvm.intr.sqrt(%arg0) : (f32) -> f32
// CHECK: %[[A:.*]] = llvm.intr.fabs(%[[S]]) : (f32) -> f32
// CHECK: %[[F:.*]] = llvm.intr.floor(%arg1) : (f64) -> f64
// CHECK: %[[C:.*]] = llvm.intr.ceil(%[[F]]) : (f64) -> f64
// CHECK: llvm.call @__nv_sinf(%[[A]])
// CHECK-NOT: llvm.call @__nv_sqrtf
llvm.func @__nv_sqrtf(f32) -> f32
llvm.func @__nv_fabsf(f32) -> f32
llvm.func @__nv_floor(f64) -> f64
llvm.func @__nv_ceil(f64) -> f64
llvm.func @__nv_sinf(f32) -> f32
llvm.func @kernel(%x: f32, %y: f64) -> f32 {
  %s = llvm.call @__nv_sqrtf(%x) : (f32) -> f32
  %a = llvm.call @__nv_fabsf(%s) : (f32) -> f32
  %f = llvm.call @__nv_floor(%y) : (f64) -> f64
  %c = llvm.call @__nv_ceil(%f) : (f64) -> f64
  %t = llvm.call @__nv_sinf(%a) : (f32) -> f32
  llvm.return %t : f32
}
