// RUN: loom-opt %s -loom-lower-strided-copies | FileCheck %s

// A copy into a strided view (bufferization's insert of a lane's column
// into a batch buffer) becomes a linalg.copy: it would call memrefCopy.
// CHECK-LABEL: func.func @strided_target
// CHECK-NOT: memref.copy
// CHECK: linalg.copy ins(%{{.*}} : memref<?xf32>) outs(%{{.*}} : memref<?xf32, strided<[4], offset: ?>>)
func.func @strided_target(%a: memref<?xf32>, %b: memref<?xf32, strided<[4], offset: ?>>) {
  memref.copy %a, %b : memref<?xf32> to memref<?xf32, strided<[4], offset: ?>>
  return
}

// A strided source, and a 2-d one whose rows are apart.
// CHECK-LABEL: func.func @strided_source
// CHECK-NOT: memref.copy
// CHECK: linalg.copy ins(%{{.*}} : memref<2x3xf32, strided<[6, 1]>>) outs(%{{.*}} : memref<2x3xf32>)
func.func @strided_source(%a: memref<2x3xf32, strided<[6, 1]>>, %b: memref<2x3xf32>) {
  memref.copy %a, %b : memref<2x3xf32, strided<[6, 1]>> to memref<2x3xf32>
  return
}

// A dynamic shape with a layout, even with unit strides, cannot be proven
// contiguous.
// CHECK-LABEL: func.func @dynamic_offset_dynamic_shape
// CHECK-NOT: memref.copy
// CHECK: linalg.copy
func.func @dynamic_offset_dynamic_shape(%a: memref<?xf32, strided<[1], offset: ?>>, %b: memref<?xf32>) {
  memref.copy %a, %b : memref<?xf32, strided<[1], offset: ?>> to memref<?xf32>
  return
}

// An empty static view with a layout is memrefCopy's special case too.
// CHECK-LABEL: func.func @empty_strided
// CHECK-NOT: memref.copy
// CHECK: linalg.copy
func.func @empty_strided(%a: memref<0x3xf32, strided<[6, 1]>>, %b: memref<0x3xf32>) {
  memref.copy %a, %b : memref<0x3xf32, strided<[6, 1]>> to memref<0x3xf32>
  return
}

// Copies that become llvm.memcpy stay: identity layouts (any shape) and
// static row-major views at any offset.
// CHECK-LABEL: func.func @contiguous
// CHECK-NOT: linalg.copy
// CHECK: memref.copy %{{.*}}, %{{.*}} : memref<?x?xf32> to memref<?x?xf32>
// CHECK: memref.copy %{{.*}}, %{{.*}} : memref<2x3xf32, strided<[3, 1], offset: ?>> to memref<2x3xf32>
// CHECK: memref.copy %{{.*}}, %{{.*}} : memref<f32> to memref<f32>
// CHECK-NOT: linalg.copy
func.func @contiguous(%a: memref<?x?xf32>, %b: memref<?x?xf32>,
                      %c: memref<2x3xf32, strided<[3, 1], offset: ?>>, %d: memref<2x3xf32>,
                      %e: memref<f32>, %f: memref<f32>) {
  memref.copy %a, %b : memref<?x?xf32> to memref<?x?xf32>
  memref.copy %c, %d : memref<2x3xf32, strided<[3, 1], offset: ?>> to memref<2x3xf32>
  memref.copy %e, %f : memref<f32> to memref<f32>
  return
}

// An unranked copy has no loops to become; it is left as it is.
// CHECK-LABEL: func.func @unranked
// CHECK: memref.copy
func.func @unranked(%a: memref<*xf32>, %b: memref<*xf32>) {
  memref.copy %a, %b : memref<*xf32> to memref<*xf32>
  return
}
