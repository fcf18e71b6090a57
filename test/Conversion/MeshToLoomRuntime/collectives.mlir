// RUN: loom-opt %s -split-input-file -convert-mesh-to-loom-runtime -verify-diagnostics | FileCheck %s

// A predicate all-reduce is one runtime call with the shard context; only a
// returned 1 is true, so an aborted mesh (-1) ends the loop it decides.
// CHECK-NOT: mesh.mesh
// CHECK: func.func private @loom_rt_all_reduce_i1(i64, i32, i32) -> i32
// CHECK-LABEL: func.func @predicate
// CHECK-SAME: (%[[P:.*]]: i1, %[[CTX:.*]]: i64 {loom.context})
// CHECK: %[[OR:.*]] = arith.constant 7 : i32
// CHECK: %[[V:.*]] = arith.extui %{{.*}} : i1 to i32
// CHECK: %[[R:.*]] = call @loom_rt_all_reduce_i1(%[[CTX]], %[[OR]], %[[V]]) : (i64, i32, i32) -> i32
// CHECK: %[[ONE:.*]] = arith.constant 1 : i32
// CHECK: arith.cmpi eq, %[[R]], %[[ONE]] : i32
mesh.mesh @loom_mesh(shape = 2)
func.func @predicate(%p: i1, %ctx: i64 {loom.context}) -> i1 {
  %c0 = arith.constant 0 : index
  %t = tensor.from_elements %p : tensor<1xi1>
  %g = mesh.all_reduce %t on @loom_mesh mesh_axes = [0] reduction = <bitwise_or> : tensor<1xi1> -> tensor<1xi1>
  %r = tensor.extract %g[%c0] : tensor<1xi1>
  return %r : i1
}

// -----

// Integer sums and float maxima pass their values through.
// CHECK-LABEL: func.func @values
// CHECK: call @loom_rt_all_reduce_i32(%{{.*}}, %{{.*}}, %{{.*}}) : (i64, i32, i32) -> i32
// CHECK: call @loom_rt_all_reduce_f64(%{{.*}}, %{{.*}}, %{{.*}}) : (i64, i32, f64) -> f64
mesh.mesh @loom_mesh(shape = 2)
func.func @values(%n: tensor<1xi32>, %x: tensor<1xf64>, %ctx: i64 {loom.context}) -> (tensor<1xi32>, tensor<1xf64>) {
  %a = mesh.all_reduce %n on @loom_mesh mesh_axes = [0] : tensor<1xi32> -> tensor<1xi32>
  %b = mesh.all_reduce %x on @loom_mesh mesh_axes = [0] reduction = <max> : tensor<1xf64> -> tensor<1xf64>
  return %a, %b : tensor<1xi32>, tensor<1xf64>
}

// -----
// A float sum over gathered lanes is one ordered sum over this shard's lanes,
// read through a pointer at the buffer's offset (read_only: a view is not
// copied into a buffer of its own first). The buffer is taken with any
// layout, and copied into one of unit stride only where its stride is not 1.
// CHECK-LABEL: func.func @ordered
// CHECK-SAME: (%[[X:.*]]: tensor<?xf32>, %[[CTX:.*]]: i64 {loom.context})
// CHECK: %[[M:.*]] = bufferization.to_memref %[[X]] read_only : memref<?xf32, strided<[?], offset: ?>>
// CHECK: %{{.*}}, %{{.*}}, %[[N:.*]], %[[STRIDE:.*]] = memref.extract_strided_metadata %[[M]]
// CHECK: %[[UNIT:.*]] = arith.cmpi eq, %[[STRIDE]], %c1
// CHECK: %[[C:.*]] = scf.if %[[UNIT]]
// CHECK-NEXT: scf.yield %[[M]]
// CHECK-NEXT: } else {
// CHECK-NEXT: %[[COPY:.*]] = memref.alloc(%[[N]]) : memref<?xf32>
// CHECK-NEXT: memref.copy %[[M]], %[[COPY]]
// CHECK: memref.extract_strided_metadata %[[C]]
// CHECK: memref.extract_aligned_pointer_as_index %[[C]]
// CHECK: %[[S:.*]] = call @loom_rt_ordered_sum_f32(%[[CTX]], %{{.*}}, %{{.*}}) : (i64, i64, i64) -> f32
// CHECK: return %[[S]]
// CHECK-NOT: loom.sum
mesh.mesh @loom_mesh(shape = 2)
func.func @ordered(%x: tensor<?xf32>, %ctx: i64 {loom.context}) -> f32 {
  %all = mesh.all_gather %x on @loom_mesh mesh_axes = [0] gather_axis = 0 : tensor<?xf32> -> tensor<?xf32>
  %s = loom.sum %all along 0 : tensor<?xf32> -> f32
  return %s : f32
}

// -----

// A gather of a static shape (a static batch on one shard) reads the buffer
// through a memref of that shape: to_memref must keep the tensor's shape.
// CHECK-LABEL: func.func @ordered_static
// CHECK-SAME: (%[[X:.*]]: tensor<8xf32>, %[[CTX:.*]]: i64 {loom.context})
// CHECK: %[[M:.*]] = bufferization.to_memref %[[X]] read_only : memref<8xf32, strided<[?], offset: ?>>
// CHECK: memref.alloc() : memref<8xf32>
// CHECK: call @loom_rt_ordered_sum_f32(%[[CTX]], %{{.*}}, %{{.*}}) : (i64, i64, i64) -> f32
mesh.mesh @loom_mesh(shape = 1)
func.func @ordered_static(%x: tensor<8xf32>, %ctx: i64 {loom.context}) -> f32 {
  %all = mesh.all_gather %x on @loom_mesh mesh_axes = [0] gather_axis = 0 : tensor<8xf32> -> tensor<8xf32>
  %s = loom.sum %all along 0 : tensor<8xf32> -> f32
  return %s : f32
}

// -----

// Without a shard context there is nobody to reduce with.
mesh.mesh @loom_mesh(shape = 2)
func.func @no_context(%t: tensor<1xi32>) -> tensor<1xi32> {
  // expected-error @+1 {{collective outside a function with a shard context (run -loom-shard, which adds the loom.context argument)}}
  %a = mesh.all_reduce %t on @loom_mesh mesh_axes = [0] : tensor<1xi32> -> tensor<1xi32>
  return %a : tensor<1xi32>
}

// -----

// Float sums must not be all-reduced: their order would depend on the shards.
mesh.mesh @loom_mesh(shape = 2)
func.func @float_sum(%t: tensor<1xf32>, %ctx: i64 {loom.context}) -> tensor<1xf32> {
  // expected-error @+1 {{a float sum across shards must add in lane order: loom-shard writes it as a sum over mesh.all_gather}}
  %a = mesh.all_reduce %t on @loom_mesh mesh_axes = [0] : tensor<1xf32> -> tensor<1xf32>
  return %a : tensor<1xf32>
}

// -----

// Large or dynamic all-reduces are not lowered.
mesh.mesh @loom_mesh(shape = 2)
func.func @big(%t: tensor<?xi32>, %ctx: i64 {loom.context}) -> tensor<?xi32> {
  // expected-error @+1 {{all-reduce of 'tensor<?xi32>' across shards is not supported (at most 16 elements of static shape)}}
  %a = mesh.all_reduce %t on @loom_mesh mesh_axes = [0] : tensor<?xi32> -> tensor<?xi32>
  return %a : tensor<?xi32>
}

// -----

// A gather is lowered only as the input of a sum.
mesh.mesh @loom_mesh(shape = 2)
func.func @gather_alone(%x: tensor<?xf32>, %ctx: i64 {loom.context}) -> tensor<?xf32> {
  %all = mesh.all_gather %x on @loom_mesh mesh_axes = [0] gather_axis = 0 : tensor<?xf32> -> tensor<?xf32>
  // expected-error @+1 {{a gather across shards is supported only as the input of loom.sum along axis 0}}
  return %all : tensor<?xf32>
}
