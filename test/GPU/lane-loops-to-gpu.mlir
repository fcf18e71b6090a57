// RUN: loom-opt %s -split-input-file -convert-lane-loops-to-gpu | FileCheck %s

// A marked lane loop becomes one launch of ceildiv(n, 128) blocks of 128
// threads, skipped when there are no lanes, with the loop nest behind the
// tail guard; the scratch buffer hoisted out of the loop becomes a
// per-thread alloca, and the unmarked loop stays on the host.
// CHECK: module attributes {gpu.container_module}
// CHECK-LABEL: func.func @lanes(
// CHECK-SAME: %[[X:.*]]: memref<?xf32>
// CHECK-NOT: memref.alloc()
// CHECK: %[[C128:.*]] = arith.constant 128 : index
// CHECK: %[[SPAN:.*]] = arith.subi %[[N:.*]], %[[LB:.*]] : index
// CHECK: %[[LANES:.*]] = arith.ceildivsi %[[SPAN]], %[[STEP:.*]] : index
// CHECK: %[[ANY:.*]] = arith.cmpi sgt, %[[LANES]], %{{.*}} : index
// CHECK: scf.if %[[ANY]] {
// CHECK:   %[[GRID:.*]] = arith.ceildivsi %[[LANES]], %[[C128]] : index
// CHECK:   gpu.launch blocks(%[[BX:.*]], %{{.*}}, %{{.*}}) in (%{{.*}} = %[[GRID]], {{.*}}) threads(%[[TX:.*]], %{{.*}}, %{{.*}}) in (%{{.*}} = %[[C128]],
// CHECK:     %[[BASE:.*]] = arith.muli %[[BX]], %[[C128]] : index
// CHECK:     %[[LANE:.*]] = arith.addi %[[BASE]], %[[TX]] : index
// CHECK:     %[[IN:.*]] = arith.cmpi slt, %[[LANE]], %[[LANES]] : index
// CHECK:     scf.if %[[IN]] {
// CHECK:       %[[OFF:.*]] = arith.muli %[[LANE]], %[[STEP]] : index
// CHECK:       %[[I:.*]] = arith.addi %[[LB]], %[[OFF]] : index
// CHECK:       %[[S:.*]] = memref.alloca() : memref<1xf32>
// CHECK:       memref.load %[[X]][%[[I]]]
// CHECK:       scf.while
// CHECK:       memref.store %{{.*}}, %[[X]][%[[I]]]
// CHECK:     }
// CHECK:     gpu.terminator
// CHECK-NOT: memref.dealloc
// CHECK: scf.for
// CHECK: return
func.func @lanes(%x: memref<?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %ten = arith.constant 10.0 : f32
  %scratch = memref.alloc() : memref<1xf32>
  scf.for %i = %c0 to %n step %c1 {
    %v = memref.load %x[%i] : memref<?xf32>
    memref.store %v, %scratch[%c0] : memref<1xf32>
    %w = memref.load %scratch[%c0] : memref<1xf32>
    %r = scf.while (%y = %w) : (f32) -> f32 {
      %go = arith.cmpf olt, %y, %ten : f32
      scf.condition(%go) %y : f32
    } do {
    ^bb0(%y: f32):
      %z = arith.addf %y, %y : f32
      scf.yield %z : f32
    }
    memref.store %r, %x[%i] : memref<?xf32>
  } {loom_gpu.lane_loop}
  memref.dealloc %scratch : memref<1xf32>
  scf.for %i = %c0 to %n step %c1 {
    %v = memref.load %x[%i] : memref<?xf32>
    memref.store %v, %x[%i] : memref<?xf32>
  }
  return
}

// -----

// No lane loop: nothing changes, and the module is no GPU container.
// CHECK-NOT: gpu.container_module
// CHECK-LABEL: func.func @host(
// CHECK-NOT: gpu.launch
func.func @host(%x: memref<?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    %v = memref.load %x[%i] : memref<?xf32>
    memref.store %v, %x[%i] : memref<?xf32>
  }
  return
}
