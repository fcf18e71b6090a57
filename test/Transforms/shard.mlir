// RUN: loom-opt %s -split-input-file -loom-shard=shards=4 -verify-diagnostics | FileCheck %s

// A batch split along axis 0: the predicate reduction gets an all-reduce,
// the mask loop carries stay split, and the entry takes a shard context.
// CHECK: mesh.mesh @loom_mesh(shape = 4)
// CHECK-LABEL: func.func @masked
// CHECK-SAME: (%[[X:.*]]: tensor<?xf32> {loom.batch_axis = 0 : i64}, %[[CTX:.*]]: i64 {loom.context})
// CHECK: scf.while
// CHECK:   %[[L:.*]] = loom.any %{{.*}} along 0 : tensor<?xi1> -> i1
// CHECK:   %[[T:.*]] = tensor.from_elements %[[L]] : tensor<1xi1>
// CHECK:   %[[G:.*]] = mesh.all_reduce %[[T]] on @loom_mesh mesh_axes = [0] reduction = <bitwise_or> : tensor<1xi1> -> tensor<1xi1>
// CHECK:   %[[P:.*]] = tensor.extract %[[G]][%{{.*}}] : tensor<1xi1>
// CHECK:   scf.condition(%[[P]])
func.func @masked(%x: tensor<?xf32> {loom.batch_axis = 0 : i64}) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %ten = arith.constant 10.0 : f32
  %one = arith.constant 1.0 : f32
  %n = tensor.dim %x, %c0 : tensor<?xf32>
  %e = tensor.empty(%n) : tensor<?xf32>
  %limit = linalg.fill ins(%ten : f32) outs(%e : tensor<?xf32>) -> tensor<?xf32>
  %r = scf.while (%y = %x) : (tensor<?xf32>) -> tensor<?xf32> {
    %m = arith.cmpf olt, %y, %limit : tensor<?xf32>
    %go = loom.any %m along 0 : tensor<?xi1> -> i1
    scf.condition(%go) %y : tensor<?xf32>
  } do {
  ^bb0(%y: tensor<?xf32>):
    %e2 = tensor.empty(%n) : tensor<?xf32>
    %ones = linalg.fill ins(%one : f32) outs(%e2 : tensor<?xf32>) -> tensor<?xf32>
    %z = arith.addf %y, %ones : tensor<?xf32>
    scf.yield %z : tensor<?xf32>
  }
  return %r : tensor<?xf32>
}

// -----

// A float sum across shards is added over the gathered lanes, in lane order;
// integer sums and maxima all-reduce. Callees that hold collectives take the
// context too, and their callers pass it.
// CHECK-LABEL: func.func private @stats
// CHECK-SAME: (%[[V:.*]]: tensor<?xf32>, %[[I:.*]]: tensor<?xi32>, %[[CTX:.*]]: i64 {loom.context})
// CHECK: %[[ALL:.*]] = mesh.all_gather %[[V]] on @loom_mesh mesh_axes = [0] gather_axis = 0
// CHECK: loom.sum %[[ALL]] along 0
// CHECK: %[[S:.*]] = loom.sum %[[I]] along 0 : tensor<?xi32> -> i32
// CHECK: mesh.all_reduce %{{.*}} on @loom_mesh mesh_axes = [0] : tensor<1xi32> -> tensor<1xi32>
// CHECK: loom.max
// CHECK: mesh.all_reduce %{{.*}} reduction = <max>
// CHECK-LABEL: func.func @entry
// CHECK-SAME: %[[CTX2:[^:]*]]: i64 {loom.context}
// CHECK: call @stats(%{{.*}}, %{{.*}}, %[[CTX2]])
func.func private @stats(%v: tensor<?xf32>, %i: tensor<?xi32>) -> (f32, i32, f32) {
  %s = loom.sum %v along 0 : tensor<?xf32> -> f32
  %n = loom.sum %i along 0 : tensor<?xi32> -> i32
  %m = loom.max %v along 0 : tensor<?xf32> -> f32
  return %s, %n, %m : f32, i32, f32
}
func.func @entry(%v: tensor<?xf32> {loom.batch_axis = 0 : i64},
                 %i: tensor<?xi32> {loom.batch_axis = 0 : i64}) -> (f32, i32, f32) {
  %r:3 = call @stats(%v, %i) : (tensor<?xf32>, tensor<?xi32>) -> (f32, i32, f32)
  return %r#0, %r#1, %r#2 : f32, i32, f32
}

// -----

// A reduction along another axis stays split: no collective.
// CHECK-LABEL: func.func @rows
// CHECK-NOT: mesh.all_reduce
// CHECK: return
func.func @rows(%x: tensor<?x3xf32> {loom.batch_axis = 0 : i64}) -> (tensor<?xf32> {loom.batch_axis = 0 : i64}) {
  %s = loom.sum %x along 1 : tensor<?x3xf32> -> tensor<?xf32>
  return %s : tensor<?xf32>
}

// -----

// The mesh in the IR is the one source of truth; shards=N overrides it.
// CHECK: mesh.mesh @mine(shape = 4)
// CHECK-NOT: mesh.mesh
// CHECK: func.func @resized
mesh.mesh @mine(shape = 8)
func.func @resized(%x: tensor<?xi1> {loom.batch_axis = 0 : i64}) -> i1 {
  %a = loom.any %x along 0 : tensor<?xi1> -> i1
  return %a : i1
}

// -----

// Only axis 0 is split.
// expected-error @+1 {{argument #0 of @axis1 is batched along axis 1, but loom-shard splits axis 0 only}}
func.func @axis1(%x: tensor<3x?xf32> {loom.batch_axis = 1 : i64}) {
  return
}

// -----

// A result said to be batched must come from the batch.
func.func @unbatched_result(%x: tensor<?xf32> {loom.batch_axis = 0 : i64})
    -> (tensor<4xf32> {loom.batch_axis = 0 : i64}) {
  %c = arith.constant dense<1.0> : tensor<4xf32>
  // expected-error @+1 {{result #0 of @unbatched_result is marked batched but does not depend on the batched arguments}}
  return %c : tensor<4xf32>
}

// -----

// One mesh only.
mesh.mesh @a(shape = 2)
// expected-error @+1 {{Loom shards over one mesh, but the module has 2}}
mesh.mesh @b(shape = 2)
func.func @two_meshes(%x: tensor<?xi1> {loom.batch_axis = 0 : i64}) {
  return
}

// -----

// A 1-d mesh only.
// expected-error @+1 {{Loom shards over a 1-d mesh, but @grid has 2 axes}}
mesh.mesh @grid(shape = 2x2)
func.func @on_grid(%x: tensor<?xi1> {loom.batch_axis = 0 : i64}) {
  return
}

// -----

// A result that comes out split is marked batched even when it went through
// other ops after the batched call, so the runtime joins every shard's lanes.
// CHECK-LABEL: func.func @split_result
// CHECK-SAME: -> (tensor<?xf32> {loom.batch_axis = 0 : i64}, f32)
func.func @split_result(%x: tensor<?xf32> {loom.batch_axis = 0 : i64}, %c: i1) -> (tensor<?xf32>, f32) {
  %r = scf.if %c -> tensor<?xf32> {
    %y = arith.addf %x, %x : tensor<?xf32>
    scf.yield %y : tensor<?xf32>
  } else {
    scf.yield %x : tensor<?xf32>
  }
  %m = loom.max %x along 0 : tensor<?xf32> -> f32
  return %r, %m : tensor<?xf32>, f32
}
