// RUN: loom-opt %s -loom-count-loop-iterations | FileCheck %s

// Only a loop loom-vmap built masked (it records loom.strategy<masked>) has a
// lane mask to count: its active lanes are the sum of the mask. A loop
// written by hand over a batch is decided by a loom.any too, but its
// finished lanes go on running: it counts as one lane, and --stats does not
// call it masked.
// CHECK: module attributes {loom.loops = [{loc = "{{.*}}count-loop-iterations-masked.mlir:[[# @LINE + 13]]:8", masked = false}, {loc = "{{.*}}count-loop-iterations-masked.mlir:[[# @LINE + 26]]:8", masked = true}]}
// CHECK-LABEL: func.func @by_hand
// CHECK: %[[ONE:.*]] = arith.constant 1 : i64
// CHECK: scf.if
// CHECK-NEXT: func.call @loom_rt_count_iteration(%{{.*}}, %{{.*}}, %[[ONE]])
// CHECK-LABEL: func.func @by_vmap
// CHECK: %[[WIDE:.*]] = arith.extui %{{.*}} : tensor<?xi1> to tensor<?xi64>
// CHECK: %[[LANES:.*]] = loom.sum %[[WIDE]] along 0
// CHECK: scf.if
// CHECK-NEXT: func.call @loom_rt_count_iteration(%{{.*}}, %{{.*}}, %[[LANES]])
mesh.mesh @loom_mesh(shape = 2)
func.func @by_hand(%ctx: i64 {loom.context}, %y0: tensor<?xf32>,
                   %lim: tensor<?xf32>) -> tensor<?xf32> {
  %r = scf.while (%y = %y0) : (tensor<?xf32>) -> tensor<?xf32> {
    %m = arith.cmpf olt, %y, %lim : tensor<?xf32>
    %go = loom.any %m along 0 : tensor<?xi1> -> i1
    scf.condition(%go) %y : tensor<?xf32>
  } do {
  ^bb0(%y: tensor<?xf32>):
    %z = arith.addf %y, %y : tensor<?xf32>
    scf.yield %z : tensor<?xf32>
  }
  return %r : tensor<?xf32>
}
func.func @by_vmap(%ctx: i64 {loom.context}, %y0: tensor<?xf32>,
                   %lim: tensor<?xf32>) -> tensor<?xf32> {
  %r = scf.while (%y = %y0) : (tensor<?xf32>) -> tensor<?xf32> {
    %m = arith.cmpf olt, %y, %lim : tensor<?xf32>
    %go = loom.any %m along 0 : tensor<?xi1> -> i1
    scf.condition(%go) %y : tensor<?xf32>
  } do {
  ^bb0(%y: tensor<?xf32>):
    %z = arith.addf %y, %y : tensor<?xf32>
    scf.yield %z : tensor<?xf32>
  } attributes {loom.strategy = #loom.strategy<masked>}
  return %r : tensor<?xf32>
}
