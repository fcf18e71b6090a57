// RUN: loom-opt %s -loom-bit-counts-to-llvm | FileCheck %s
// RUN: loom-run %s --input x=fill:240:i32 --input v=fill:12:4xi32 | FileCheck %s --check-prefix=EXEC

// The bit counts become LLVM's intrinsics, on scalars and vectors; the
// other math ops are left for convert-math-to-libm (which rejects the bit
// counts: it has no C library call for them).
// CHECK-LABEL: func.func private @counts
// CHECK: llvm.intr.ctpop(%{{.*}}) : (i32) -> i32
// CHECK: "llvm.intr.ctlz"(%{{.*}}) <{is_zero_poison = false}> : (i32) -> i32
// CHECK: "llvm.intr.cttz"(%{{.*}}) <{is_zero_poison = false}> : (i32) -> i32
// CHECK: llvm.intr.ctpop(%{{.*}}) : (vector<4xi32>) -> vector<4xi32>
// CHECK: math.sin %{{.*}} : f32
// CHECK: return
func.func private @counts(%x: i32, %v: vector<4xi32>, %f: f32)
    -> (i32, i32, i32, vector<4xi32>, f32) {
  %p = math.ctpop %x : i32
  %l = math.ctlz %x : i32
  %t = math.cttz %x : i32
  %pv = math.ctpop %v : vector<4xi32>
  %s = math.sin %f : f32
  return %p, %l, %t, %pv, %s : i32, i32, i32, vector<4xi32>, f32
}

// A program that counts bits compiles and runs: 240 = 0xf0 has 4 bits set,
// 24 leading and 4 trailing zeros; 12 = 0b1100 has 2 bits set.
// CHECK-LABEL: func.func @main
// CHECK: math.ctpop %{{.*}} : tensor<4xi32>
// EXEC: result0: i32 {{.*}} [4]
// EXEC: result1: i32 {{.*}} [24]
// EXEC: result2: i32 {{.*}} [4]
// EXEC: result3: 4xi32 {{.*}} [2, 2, 2, 2]
func.func @main(%x: i32 {loom.name = "x"}, %v: tensor<4xi32> {loom.name = "v"})
    -> (i32, i32, i32, tensor<4xi32>) {
  %p = math.ctpop %x : i32
  %l = math.ctlz %x : i32
  %t = math.cttz %x : i32
  %pv = math.ctpop %v : tensor<4xi32>
  return %p, %l, %t, %pv : i32, i32, i32, tensor<4xi32>
}
