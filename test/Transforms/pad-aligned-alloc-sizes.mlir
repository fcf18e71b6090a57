// RUN: loom-opt %s -loom-pad-aligned-alloc-sizes | FileCheck %s
// test/Conversion/LoomToLLVM/aligned-alloc-sizes.mlir runs it in loom-to-llvm.

// Each aligned_alloc's size is rounded up to a multiple of its alignment,
// whatever computed it.
// CHECK-LABEL: llvm.func @padded(
// CHECK-SAME: %[[ALIGN:.*]]: i64, %[[SIZE:.*]]: i64)
// CHECK: %[[ONE:.*]] = llvm.mlir.constant(1 : i64)
// CHECK: %[[SLACK:.*]] = llvm.sub %[[ALIGN]], %[[ONE]]
// CHECK: %[[BUMPED:.*]] = llvm.add %[[SIZE]], %[[SLACK]]
// CHECK: %[[EXCESS:.*]] = llvm.urem %[[BUMPED]], %[[ALIGN]]
// CHECK: %[[PADDED:.*]] = llvm.sub %[[BUMPED]], %[[EXCESS]]
// CHECK: llvm.call @aligned_alloc(%[[ALIGN]], %[[PADDED]])
// Other calls are left alone.
// CHECK: llvm.call @malloc(%[[SIZE]])
llvm.func @aligned_alloc(i64, i64) -> !llvm.ptr
llvm.func @malloc(i64) -> !llvm.ptr
llvm.func @padded(%align: i64, %size: i64) -> !llvm.ptr {
  %p = llvm.call @aligned_alloc(%align, %size) : (i64, i64) -> !llvm.ptr
  %q = llvm.call @malloc(%size) : (i64) -> !llvm.ptr
  llvm.return %p : !llvm.ptr
}
