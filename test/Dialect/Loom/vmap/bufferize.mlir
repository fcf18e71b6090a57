// Masked loops bufferize in place: after loom-vmap and Loom's bufferization
// pipeline (which inlines the batched callees and hoists the buffers that die
// within an iteration), no loop allocates or copies: not the innermost
// level, not the outer levels (whose nested loops' masks are computed into
// their own buffers, not copied from the enclosing mask), and not loom.any.
// RUN: loom-opt %s -loom-vmap=divergent=masked -mlir-print-op-on-diagnostic=false 2>/dev/null | loom-opt -loom-bufferize | FileCheck %s

// The first loop nest is @collatz's, the second @save's: every buffer is
// allocated before its nest.
// CHECK-LABEL: func.func @main(
// CHECK: scf.while
// CHECK-NOT: memref.alloc
// CHECK-NOT: memref.copy
// CHECK: scf.yield
// CHECK: memref.alloc
// CHECK: scf.while
// CHECK-NOT: memref.alloc
// CHECK-NOT: memref.copy
// The buffer written at a per-lane index, inside two masked levels: the
// inner loop writes it in place, one element per active lane.
// CHECK: memref.store %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] : memref<?x8xf32>
// CHECK-NOT: memref.alloc
// CHECK-NOT: memref.copy
// CHECK: memref.dealloc

func.func private @collatz(%x0: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c3 = arith.constant 3 : i32
  %r:2 = scf.while (%x = %x0, %n = %c0) : (i32, i32) -> (i32, i32) {
    %go = arith.cmpi sgt, %x, %c1 : i32
    scf.condition(%go) %x, %n : i32, i32
  } do {
  ^bb0(%x: i32, %n: i32):
    %low = arith.andi %x, %c1 : i32
    %odd = arith.cmpi ne, %low, %c0 : i32
    %half = arith.shrsi %x, %c1 : i32
    %t = arith.muli %x, %c3 : i32
    %t1 = arith.addi %t, %c1 : i32
    %next = arith.select %odd, %t1, %half : i32
    %n1 = arith.addi %n, %c1 : i32
    scf.yield %next, %n1 : i32, i32
  }
  return %r#1 : i32
}

func.func private @save(%rate: f32) -> tensor<8xf32> {
  %zero = arith.constant 0.0 : f32
  %two = arith.constant 2.0 : f32
  %end = arith.constant 8.0 : f32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %buf = tensor.splat %zero : tensor<8xf32>
  %r:3 = scf.while (%t = %zero, %ys = %buf, %i = %c0)
      : (f32, tensor<8xf32>, index) -> (f32, tensor<8xf32>, index) {
    %go = arith.cmpf olt, %t, %end : f32
    scf.condition(%go) %t, %ys, %i : f32, tensor<8xf32>, index
  } do {
  ^bb0(%t: f32, %ys: tensor<8xf32>, %i: index):
    %tn = arith.addf %t, %rate : f32
    %in:2 = scf.while (%ys2 = %ys, %j = %i) : (tensor<8xf32>, index)
        -> (tensor<8xf32>, index) {
      %room = arith.cmpi ult, %j, %c8 : index
      %ji = arith.index_cast %j : index to i32
      %tj = arith.sitofp %ji : i32 to f32
      %due = arith.cmpf ole, %tj, %tn : f32
      %go = arith.andi %room, %due : i1
      scf.condition(%go) %ys2, %j : tensor<8xf32>, index
    } do {
    ^bb0(%ys2: tensor<8xf32>, %j: index):
      %v = arith.mulf %tn, %two : f32
      %ys3 = tensor.insert %v into %ys2[%j] : tensor<8xf32>
      %j1 = arith.addi %j, %c1 : index
      scf.yield %ys3, %j1 : tensor<8xf32>, index
    }
    scf.yield %tn, %in#0, %in#1 : f32, tensor<8xf32>, index
  }
  return %r#1 : tensor<8xf32>
}

func.func @main(%xs: tensor<?xi32>, %rates: tensor<?xf32>)
    -> (tensor<?xi32>, tensor<?x8xf32>) {
  %a = loom.vmap @collatz(%xs) in_axes [0] out_axes [0]
      : (tensor<?xi32>) -> tensor<?xi32>
  %b = loom.vmap @save(%rates) in_axes [0] out_axes [0]
      : (tensor<?xf32>) -> tensor<?x8xf32>
  return %a, %b : tensor<?xi32>, tensor<?x8xf32>
}
