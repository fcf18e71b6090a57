// RUN: loom-opt %s -loom-pipeline=target=gpu -loom-mark-lane-loops 2>/dev/null | FileCheck %s
// RUN: loom-opt %s -loom-pipeline=target=gpu -loom-mark-lane-loops -loom-bufferize 2>/dev/null | FileCheck %s --check-prefix=BUF
// RUN: loom-opt %s -loom-pipeline=target=gpu 2>&1 >/dev/null | FileCheck %s --check-prefix=REMARK

// On the GPU the cost model always picks per-lane, and says why.
// REMARK: remark: loop is per-lane: predicate depends on carry #0, batched through argument #0; target=gpu: one thread per lane, so no lane waits for another and no grid-wide any

// The lane loop loom-vmap writes around the per-lane while is marked, and
// keeps its mark through bufferization, whose canonicalizations rebuild the
// while and drop its loom.strategy.
// CHECK-LABEL: func.func private @grow_vmap_b(
// CHECK: scf.for
// CHECK: scf.while
// CHECK: } attributes {loom.strategy = #loom.strategy<per_lane>}
// CHECK: } {loom_gpu.lane_loop}
// BUF-LABEL: func.func @main(
// BUF: scf.for
// BUF: scf.while
// BUF-COUNT-1: } {loom_gpu.lane_loop}
// BUF-NOT: lane_loop
func.func @grow(%x0: f32) -> f32 {
  %two = arith.constant 2.0 : f32
  %lim = arith.constant 100.0 : f32
  %r = scf.while (%x = %x0) : (f32) -> f32 {
    %go = arith.cmpf olt, %x, %lim : f32
    scf.condition(%go) %x : f32
  } do {
  ^bb0(%x: f32):
    %n = arith.mulf %x, %two : f32
    scf.yield %n : f32
  }
  return %r : f32
}
func.func @main(%xs: tensor<?xf32> {loom.name = "xs"}) -> (tensor<?xf32> {loom.name = "ys"}) {
  %ys = loom.vmap @grow(%xs) in_axes [0] out_axes [0] : (tensor<?xf32>) -> tensor<?xf32>
  return %ys : tensor<?xf32>
}
