// RUN: loom-opt %s -loom-vmap=divergent=masked -split-input-file -mlir-print-op-on-diagnostic=false 2>/dev/null | FileCheck %s

// scf.if: a shared condition keeps the scf.if (its branches batched); a
// per-lane condition runs both branches and selects lane by lane (into the
// else value, a linalg.generic that bufferizes in place).
// CHECK-LABEL: func.func private @ifs_vmap_bu(
// CHECK-SAME: %[[X:.*]]: tensor<?xf32> {bufferization.writable = false}, %[[FLAG:.*]]: i1)
// CHECK: %[[A:.*]] = scf.if %[[FLAG]] -> (tensor<?xf32>) {
// CHECK:   %[[S:.*]] = arith.addf %[[X]], %{{.*}} : tensor<?xf32>
// CHECK:   scf.yield %[[S]] : tensor<?xf32>
// CHECK: } else {
// CHECK:   scf.yield %[[X]] : tensor<?xf32>
// CHECK: %[[POS:.*]] = arith.cmpf ogt, %[[X]], %{{.*}} : tensor<?xf32>
// CHECK: %[[T:.*]] = math.sqrt %[[X]] : tensor<?xf32>
// CHECK: %[[E:.*]] = arith.negf %[[X]] : tensor<?xf32>
// CHECK: %[[B:.*]] = linalg.generic {{.*}} ins(%[[POS]], %[[T]] : tensor<?xi1>, tensor<?xf32>) outs(%[[E]] : tensor<?xf32>)
// CHECK:   arith.select
// CHECK: return %[[A]], %[[B]]
func.func private @ifs(%x: f32, %flag: i1) -> (f32, f32) {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %a = scf.if %flag -> f32 {
    %s = arith.addf %x, %one : f32
    scf.yield %s : f32
  } else {
    scf.yield %x : f32
  }
  %pos = arith.cmpf ogt, %x, %zero : f32
  %b = scf.if %pos -> f32 {
    %s = math.sqrt %x : f32
    scf.yield %s : f32
  } else {
    %n = arith.negf %x : f32
    scf.yield %n : f32
  }
  return %a, %b : f32, f32
}
func.func @main(%xs: tensor<?xf32>, %flag: i1) -> (tensor<?xf32>, tensor<?xf32>) {
  %r:2 = loom.vmap @ifs(%xs, %flag) in_axes [0, none] out_axes [0, 0]
      : (tensor<?xf32>, i1) -> (tensor<?xf32>, tensor<?xf32>)
  return %r#0, %r#1 : tensor<?xf32>, tensor<?xf32>
}
// -----

// scf.for: shared bounds keep the scf.for around the batched body; a
// per-lane trip count makes it a while loop first (here masked), the
// induction variable a batched carry.
// CHECK-LABEL: func.func private @fors_vmap_bb(
// CHECK-SAME: %[[X:.*]]: tensor<?xf32> {{.*}}, %[[N:.*]]: tensor<?xindex>
// CHECK: %[[A:.*]] = scf.for %{{.*}} = %{{.*}} to %c4 step %{{.*}} iter_args(%[[ACC:.*]] = %[[X]]) -> (tensor<?xf32>) {
// CHECK:   arith.mulf %[[ACC]], %[[X]] : tensor<?xf32>
// CHECK: %[[R:.*]]:2 = scf.while (%[[I:.*]] = %{{.*}}, %{{.*}} = %[[A]]) : (tensor<?xindex>, tensor<?xf32>)
// CHECK:   scf.for %[[L:.*]] = {{.*}} iter_args(%[[IS:.*]] = %[[I]],
// CHECK-DAG: %[[NL:.*]] = tensor.extract %[[N]][%[[L]]] : tensor<?xindex>
// CHECK-DAG: %[[IL:.*]] = tensor.extract %[[IS]][%[[L]]] : tensor<?xindex>
// CHECK:   arith.cmpi slt, %[[IL]], %[[NL]] : index
// CHECK:   arith.addf %{{.*}}, %{{.*}} : f32
// CHECK:   arith.addi %{{.*}}, %{{.*}} : index
// CHECK:   loom.any
// CHECK: } do {
// CHECK: return %[[R]]#1 : tensor<?xf32>
func.func private @fors(%x: f32, %n: index) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %a = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %x) -> f32 {
    %s = arith.mulf %acc, %x : f32
    scf.yield %s : f32
  }
  %b = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %a) -> f32 {
    %s = arith.addf %acc, %x : f32
    scf.yield %s : f32
  }
  return %b : f32
}
func.func @main(%xs: tensor<?xf32>, %ns: tensor<?xindex>) -> tensor<?xf32> {
  %r = loom.vmap @fors(%xs, %ns) in_axes [0, 0] out_axes [0]
      : (tensor<?xf32>, tensor<?xindex>) -> tensor<?xf32>
  return %r : tensor<?xf32>
}
