// RUN: loom-opt %s -loom-widen-bool-buffers -split-input-file | FileCheck %s

// A mask buffer only loaded and stored: bytes, with a zero-extension before
// each store and a truncation after each load.
// CHECK-LABEL: func.func @mask(
// CHECK: %[[M:.*]] = memref.alloc(%{{.*}}) : memref<?xi8>
// CHECK: %[[W:.*]] = arith.extui %{{.*}} : i1 to i8
// CHECK: memref.store %[[W]], %[[M]][%{{.*}}] : memref<?xi8>
// CHECK: %[[B:.*]] = memref.load %[[M]][%{{.*}}] : memref<?xi8>
// CHECK: %[[T:.*]] = arith.trunci %[[B]] : i8 to i1
// CHECK: arith.select %[[T]]
// CHECK: memref.dealloc %[[M]] : memref<?xi8>
func.func @mask(%x: memref<?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %m = memref.alloc(%n) : memref<?xi1>
  scf.for %i = %c0 to %n step %c1 {
    %v = memref.load %x[%i] : memref<?xf32>
    %p = arith.cmpf olt, %v, %zero : f32
    memref.store %p, %m[%i] : memref<?xi1>
  }
  %d = memref.dim %m, %c0 : memref<?xi1>
  scf.for %i = %c0 to %d step %c1 {
    %p = memref.load %m[%i] : memref<?xi1>
    %v = memref.load %x[%i] : memref<?xf32>
    %s = arith.select %p, %zero, %v : f32
    memref.store %s, %x[%i] : memref<?xf32>
  }
  memref.dealloc %m : memref<?xi1>
  return
}

// -----

// A buffer that leaves the function keeps its type: its reader expects i1.
// CHECK-LABEL: func.func @returned(
// CHECK: memref.alloc(%{{.*}}) : memref<?xi1>
// CHECK-NOT: arith.extui
// CHECK: return %{{.*}} : memref<?xi1>
func.func @returned(%p: i1, %n: index) -> memref<?xi1> {
  %c0 = arith.constant 0 : index
  %m = memref.alloc(%n) : memref<?xi1>
  memref.store %p, %m[%c0] : memref<?xi1>
  return %m : memref<?xi1>
}
