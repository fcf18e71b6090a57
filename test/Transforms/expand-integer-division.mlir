// RUN: loom-opt %s -loom-expand-integer-division | FileCheck %s

// ceildivsi divides once, by its own divisor (MLIR 19's expansion also
// divides a + 1 by b, which traps for ceildivsi(INT_MAX, -1)).
// CHECK-LABEL: func.func @ceil
// CHECK-SAME: (%[[A:.*]]: i32, %[[B:.*]]: i32)
// CHECK: %[[Q:.*]] = arith.divsi %[[A]], %[[B]] : i32
// CHECK-NOT: arith.divsi
// CHECK-NOT: arith.ceildivsi
// CHECK: return
func.func @ceil(%a: i32, %b: i32) -> i32 {
  %c = arith.ceildivsi %a, %b : i32
  return %c : i32
}

// floordivsi and ceildivui take upstream's expansion; float min/max, which
// arith-expand would also rewrite, are left to convert-arith-to-llvm.
// CHECK-LABEL: func.func @others
// CHECK-NOT: arith.floordivsi
// CHECK-NOT: arith.ceildivui
// CHECK: arith.maximumf
// CHECK: arith.minnumf
func.func @others(%a: index, %b: index, %x: f32, %y: f32) -> (index, index, f32, f32) {
  %f = arith.floordivsi %a, %b : index
  %u = arith.ceildivui %a, %b : index
  %m = arith.maximumf %x, %y : f32
  %n = arith.minnumf %x, %y : f32
  return %f, %u, %m, %n : index, index, f32, f32
}
