// RUN: loom-opt %s -loom-count-loop-iterations | FileCheck %s

// A predicate all-reduced from an empty from_elements is not a lane mask's
// any (it has no element to look through): the loop is counted as one lane,
// and the pass does not read the missing element.
// CHECK: module attributes {loom.loops = [{loc = "{{.*}}count-loop-iterations.mlir:[[# @LINE + 8]]:3", masked = false}]}
// CHECK-LABEL: func.func @empty_wrap
// CHECK: %[[ONE:.*]] = arith.constant 1 : i64
// CHECK: scf.if
// CHECK-NEXT: func.call @loom_rt_count_iteration(%{{.*}}, %{{.*}}, %[[ONE]])
mesh.mesh @loom_mesh(shape = 2)
func.func @empty_wrap(%ctx: i64 {loom.context}) {
  %c0 = arith.constant 0 : index
  scf.while : () -> () {
    %w = tensor.from_elements : tensor<0xi1>
    %r = mesh.all_reduce %w on @loom_mesh mesh_axes = [0]
        reduction = <bitwise_or> : tensor<0xi1> -> tensor<0xi1>
    %p = tensor.extract %r[%c0] : tensor<0xi1>
    scf.condition(%p)
  } do {
    scf.yield
  }
  return
}
