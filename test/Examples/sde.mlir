// The seed's diffrax SDE solve parses, verifies and round-trips, and keeps its
// shape: the ODE's two divergent loops, plus a Brownian-tree descent whose
// predicate depends only on the level, mapped over a dynamic batch of keys.
// RUN: loom-opt %examples/diffrax/sde.mlir | loom-opt | FileCheck %s
// RUN: loom-opt %examples/diffrax/sde.mlir | FileCheck %s --check-prefix=NEG

// CHECK-LABEL: func.func private @vbt_w(
// CHECK: loom.random.split %{{.*}} : tensor<2x2xi32>
// CHECK: loom.random.normal %{{.*}} : f32
// The descent: 2^-level > tol/(t1 - t0), nothing else.
// CHECK: %[[D:.*]]:6 = scf.while (%[[LEVEL:arg[0-9]+]] = %{{[a-z0-9_]+}}, {{.*}}) : (i32, f32, f32, f32, f32, tensor<2xi32>)
// CHECK:   %[[SU:.*]] = func.call @pow2_neg(%[[LEVEL]])
// CHECK:   %[[FINER:.*]] = arith.cmpf ogt, %[[SU]], %arg2 : f32
// CHECK:   scf.condition(%[[FINER]])
// CHECK: } do {
// CHECK:   loom.random.split %{{.*}} : tensor<3x2xi32>
// CHECK:   loom.random.normal %{{.*}} : f32
// CHECK:   arith.select %{{.*}}, %{{.*}}, %{{.*}} : tensor<2xi32>
// CHECK: loom.random.normal %[[D]]#5 : f32

// CHECK-LABEL: func.func @solve_sde(
// CHECK-SAME: tensor<1xf32> {loom.name = "y0"}, %{{.*}}: tensor<2xi32> {loom.name = "key"}
// CHECK-SAME: f32 {loom.default = 5.000000e-02 : f32, loom.name = "dt0"}
// The tree's leaf key: split(key, 1)[0].
// CHECK: loom.random.split %arg1 : tensor<1x2xi32>
// CHECK: %[[OUT:.*]]:8 = scf.while ({{.*}}) : (f32, f32, f32, i32, i32, i32, i32, tensor<100x1xf32>)
// CHECK:   arith.cmpf olt
// CHECK:   arith.cmpi slt
// CHECK:   scf.condition
// CHECK: } do {
// One dW per attempt, from W at both ends.
// CHECK:   func.call @vbt_w
// CHECK:   func.call @vbt_w
// CHECK:   func.call @vf
// CHECK:   func.call @vf
// CHECK:   math.powf
// CHECK:   %[[SAVED:.*]]:2 = scf.while ({{.*}}) : (i32, tensor<100x1xf32>)
// CHECK:     arith.cmpf ole
// CHECK:     scf.condition
// CHECK:   } do {
// CHECK:     %[[ROW:.*]] = tensor.insert {{.*}} : tensor<100x1xf32>
// CHECK:     scf.yield {{.*}}, %[[ROW]] : i32, tensor<100x1xf32>
// CHECK:   scf.yield {{.*}}, %[[SAVED]]#0, %[[SAVED]]#1 : f32, f32, f32, i32, i32, i32, i32, tensor<100x1xf32>
// CHECK: return %[[OUT]]#7, %[[OUT]]#3, %[[OUT]]#4, %[[OUT]]#5

// CHECK-LABEL: func.func @main(
// CHECK: loom.vmap @solve_sde(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) in_axes [0, 0, none, none, none, none, none] out_axes [0, 0, 0, 0, 0] : (tensor<?x1xf32>, tensor<?x2xi32>, f32, f32, f32, f32, i32) -> (tensor<?x100x1xf32>, tensor<?xi32>, tensor<?xi32>, tensor<?xi32>, tensor<?xi32>)

// NEG-NOT: arith.select {{.*}} : tensor<100x1xf32>
// NEG-NOT: math.fma
