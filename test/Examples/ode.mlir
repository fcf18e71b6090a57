// The seed's diffrax ODE solve parses, verifies and round-trips, and keeps its
// shape: an adaptive outer loop whose save loop writes rows of a carried
// buffer in place, mapped over a dynamic batch.
// RUN: loom-opt %examples/diffrax/ode.mlir | loom-opt | FileCheck %s
// RUN: loom-opt %examples/diffrax/ode.mlir | FileCheck %s --check-prefix=NEG

// CHECK-LABEL: func.func @solve_ode(
// CHECK-SAME: tensor<1xf32> {loom.name = "y0"}
// CHECK-SAME: f32 {loom.default = 1.000000e-01 : f32, loom.name = "t1"}
// CHECK-SAME: i32 {loom.default = 100 : i32, loom.name = "max_steps"}
// CHECK-SAME: -> (tensor<100x1xf32> {loom.name = "ys"}, i32 {loom.name = "num_steps"}, i32 {loom.name = "num_accepted_steps"}, i32 {loom.name = "num_rejected_steps"}, i32 {loom.name = "result"})
// The 100-ulp end-clip threshold, before the loop.
// CHECK: scf.for
// CHECK:   func.call @prevbefore
// Outer loop: tprev < t1 && steps < max_steps.
// CHECK: %[[OUT:.*]]:8 = scf.while ({{.*}}) : (f32, f32, f32, i32, i32, i32, i32, tensor<100x1xf32>)
// CHECK:   arith.cmpf olt
// CHECK:   arith.cmpi slt
// CHECK:   %[[GO:.*]] = arith.andi
// CHECK:   scf.condition(%[[GO]])
// CHECK: } do {
// Heun: two stages, then the I-controller's lax.pow.
// CHECK:   func.call @vf
// CHECK:   func.call @vf
// CHECK:   math.powf
// Inner save loop: keep & ts[i] <= tnext & i < 100, one row per trip.
// CHECK:   %[[SAVED:.*]]:2 = scf.while ({{.*}}) : (i32, tensor<100x1xf32>)
// CHECK:     func.call @ts_at
// CHECK:     arith.cmpf ole
// CHECK:     scf.condition
// CHECK:   } do {
// CHECK:     func.call @linear_rescale
// CHECK:     %[[ROW:.*]] = tensor.insert {{.*}} : tensor<100x1xf32>
// CHECK:     scf.yield {{.*}}, %[[ROW]] : i32, tensor<100x1xf32>
// CHECK:   scf.yield {{.*}}, %[[SAVED]]#0, %[[SAVED]]#1 : f32, f32, f32, i32, i32, i32, i32, tensor<100x1xf32>
// CHECK: return %[[OUT]]#7, %[[OUT]]#3, %[[OUT]]#4, %[[OUT]]#5

// CHECK-LABEL: func.func @main(
// CHECK: loom.vmap @solve_ode(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) in_axes [0, none, none, none, none, none] out_axes [0, 0, 0, 0, 0] : (tensor<?x1xf32>, f32, f32, f32, f32, i32) -> (tensor<?x100x1xf32>, tensor<?xi32>, tensor<?xi32>, tensor<?xi32>, tensor<?xi32>)

// The buffer is only ever updated one row at a time, and no multiply-add is
// fused.
// NEG-NOT: arith.select {{.*}} : tensor<100x1xf32>
// NEG-NOT: math.fma
