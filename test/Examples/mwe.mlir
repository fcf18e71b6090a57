// The seed's MWE parses, verifies and round-trips, and keeps its shape: two
// nested while loops driven by per-lane data, mapped over a dynamic batch.
// RUN: loom-opt %examples/mwe/while_of_while.mlir | loom-opt | FileCheck %s

// CHECK-LABEL: func.func @solve
// CHECK: loom.random.randint %{{.*}}, %{{.*}}, %{{.*}} : i32
// CHECK: scf.while
// CHECK:   arith.cmpi slt
// CHECK: } do {
// CHECK:   loom.random.key
// CHECK:   loom.random.uniform {{.*}} : tensor<1xf32>
// CHECK:   scf.while
// CHECK:     arith.cmpf olt
// CHECK-LABEL: func.func @main
// CHECK: loom.vmap @solve(%{{.*}}, %{{.*}}) in_axes [0, 0] out_axes [0] : (tensor<?x1xf32>, tensor<?x2xi32>) -> tensor<?x1xf32>
