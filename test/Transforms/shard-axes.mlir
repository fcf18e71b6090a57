// RUN: loom-opt %s -split-input-file -loom-shard=shards=2 -verify-diagnostics | FileCheck %s

// loom-shard tracks which axis of each value is split across shards; only a
// reduction along that axis crosses shards (issue 11: a lane's own tensor
// got a mesh.all_reduce and the result was silently wrong).

// A lane's own slice, taken at a loop over the shard's lanes, is
// lane-local: reducing it (max, float sum) never meets the other shards.
// CHECK-LABEL: func.func @lane_slice
// CHECK-NOT: mesh.
// CHECK: return
func.func @lane_slice(%x: tensor<?x4xi32> {loom.batch_axis = 0 : i64},
                      %f: tensor<?x4xf32> {loom.batch_axis = 0 : i64})
    -> (tensor<?xi32>, tensor<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = tensor.dim %x, %c0 : tensor<?x4xi32>
  %e = tensor.empty(%n) : tensor<?xi32>
  %ef = tensor.empty(%n) : tensor<?xf32>
  %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %e, %accf = %ef)
      -> (tensor<?xi32>, tensor<?xf32>) {
    %lane = tensor.extract_slice %x[%i, 0] [1, 4] [1, 1] : tensor<?x4xi32> to tensor<4xi32>
    %m = loom.max %lane along 0 : tensor<4xi32> -> i32
    %lanef = tensor.extract_slice %f[%i, 0] [1, 4] [1, 1] : tensor<?x4xf32> to tensor<4xf32>
    %s = loom.sum %lanef along 0 : tensor<4xf32> -> f32
    %a = tensor.insert %m into %acc[%i] : tensor<?xi32>
    %b = tensor.insert %s into %accf[%i] : tensor<?xf32>
    scf.yield %a, %b : tensor<?xi32>, tensor<?xf32>
  }
  return %r#0, %r#1 : tensor<?xi32>, tensor<?xf32>
}

// -----

// A lane's tensor<3x4xf32>, reduced along each of its axes inside a loop
// over the lane: still lane-local. The result is split (it is the batch).
// CHECK-LABEL: func.func @lane_matrix
// CHECK-SAME: -> (tensor<?xf32> {loom.batch_axis = 0 : i64})
// CHECK-NOT: mesh.
// CHECK: return
func.func @lane_matrix(%x: tensor<?x3x4xf32> {loom.batch_axis = 0 : i64}) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = tensor.dim %x, %c0 : tensor<?x3x4xf32>
  %e = bufferization.alloc_tensor(%n) : tensor<?xf32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %e) -> tensor<?xf32> {
    %lane = tensor.extract_slice %x[%i, 0, 0] [1, 3, 4] [1, 1, 1] : tensor<?x3x4xf32> to tensor<3x4xf32>
    %rows = loom.max %lane along 0 : tensor<3x4xf32> -> tensor<4xf32>
    %cols = loom.sum %lane along 1 : tensor<3x4xf32> -> tensor<3xf32>
    %a = loom.min %rows along 0 : tensor<4xf32> -> f32
    %b = loom.sum %cols along 0 : tensor<3xf32> -> f32
    %s = arith.addf %a, %b : f32
    %w = tensor.insert %s into %acc[%i] : tensor<?xf32>
    scf.yield %w : tensor<?xf32>
  }
  return %r : tensor<?xf32>
}

// -----

// Masked form: a reduction along the lane's axis (1) of the batch stays on
// the shard; the predicate's loom.any along the batch axis crosses.
// CHECK-LABEL: func.func @masked_rows
// CHECK: loom.max %{{.*}} along 1
// CHECK-NOT: mesh.
// CHECK: loom.any
// CHECK-NEXT: tensor.from_elements
// CHECK-NEXT: mesh.all_reduce {{.*}} reduction = <bitwise_or>
func.func @masked_rows(%x: tensor<?x4xi32> {loom.batch_axis = 0 : i64},
                       %lim: tensor<?xi32> {loom.batch_axis = 0 : i64}) -> i1 {
  %m = loom.max %x along 1 : tensor<?x4xi32> -> tensor<?xi32>
  %go = arith.cmpi slt, %m, %lim : tensor<?xi32>
  %any = loom.any %go along 0 : tensor<?xi1> -> i1
  return %any : i1
}

// -----

// The split axis moves: transposed, the batch is axis 1. A reduction along
// axis 0 keeps it split (now axis 0), one along axis 1 crosses.
// CHECK-LABEL: func.func @transposed
// CHECK: %[[T:.*]] = linalg.transpose
// CHECK: %[[S:.*]] = loom.sum %[[T]] along 0 : tensor<4x?xi32> -> tensor<?xi32>
// CHECK-NOT: mesh.
// CHECK: %[[M:.*]] = loom.max %[[T]] along 1 : tensor<4x?xi32> -> tensor<4xi32>
// CHECK-NEXT: mesh.all_reduce %[[M]] {{.*}} reduction = <max> : tensor<4xi32> -> tensor<4xi32>
func.func @transposed(%x: tensor<?x4xi32> {loom.batch_axis = 0 : i64})
    -> (tensor<?xi32>, tensor<4xi32>) {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?x4xi32>
  %e = tensor.empty(%n) : tensor<4x?xi32>
  %t = linalg.transpose ins(%x : tensor<?x4xi32>) outs(%e : tensor<4x?xi32>) permutation = [1, 0]
  %s = loom.sum %t along 0 : tensor<4x?xi32> -> tensor<?xi32>
  %m = loom.max %t along 1 : tensor<4x?xi32> -> tensor<4xi32>
  return %s, %m : tensor<?xi32>, tensor<4xi32>
}

// -----

// A slice that keeps the whole split axis (rank-reducing elsewhere), a
// broadcast and a collapse keep it split.
// CHECK-LABEL: func.func @keep_axis
// CHECK: loom.sum %{{.*}} along 1 : tensor<?x3xi32>
// CHECK-NOT: mesh.
// CHECK: loom.sum %{{.*}} along 0 : tensor<?x3xi32>
// CHECK-NEXT: mesh.all_reduce {{.*}} : tensor<3xi32> -> tensor<3xi32>
// CHECK: loom.max %{{.*}} along 1 : tensor<?x5xf32>
// CHECK-NOT: mesh.
// CHECK: %[[G:.*]] = mesh.all_gather %{{.*}} gather_axis = 0 : tensor<?xf32> -> tensor<?xf32>
// CHECK-NEXT: loom.sum %[[G]] along 0
func.func @keep_axis(%x: tensor<?x2x3xi32> {loom.batch_axis = 0 : i64},
                     %y: tensor<?x1xf32> {loom.batch_axis = 0 : i64})
    -> (tensor<?xi32>, tensor<3xi32>, tensor<?xf32>, f32) {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?x2x3xi32>
  %s = tensor.extract_slice %x[0, 1, 0] [%n, 1, 3] [1, 1, 1] : tensor<?x2x3xi32> to tensor<?x3xi32>
  %a = loom.sum %s along 1 : tensor<?x3xi32> -> tensor<?xi32>
  %b = loom.sum %s along 0 : tensor<?x3xi32> -> tensor<3xi32>
  %flat = tensor.collapse_shape %y [[0, 1]] : tensor<?x1xf32> into tensor<?xf32>
  %e = tensor.empty(%n) : tensor<?x5xf32>
  %wide = linalg.broadcast ins(%flat : tensor<?xf32>) outs(%e : tensor<?x5xf32>) dimensions = [1]
  %c = loom.max %wide along 1 : tensor<?x5xf32> -> tensor<?xf32>
  %d = loom.sum %flat along 0 : tensor<?xf32> -> f32
  return %a, %b, %c, %d : tensor<?xi32>, tensor<3xi32>, tensor<?xf32>, f32
}

// -----

// One lane by a constant index means a global lane, which a shard does not
// have: refused rather than read from the wrong lane.
func.func @constant_lane(%x: tensor<?xf32> {loom.batch_axis = 0 : i64}) -> f32 {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{'tensor.extract' op cannot be split across shards: it indexes axis 0, which is split across shards, by a value other than a loop over the shard's own lanes}}
  %v = tensor.extract %x[%c0] : tensor<?xf32>
  return %v : f32
}

// -----

// Part of the split axis is a global range, which a shard does not have.
func.func @partial_slice(%x: tensor<?x4xf32> {loom.batch_axis = 0 : i64}) -> tensor<2x4xf32> {
  // expected-error @+1 {{'tensor.extract_slice' op cannot be split across shards: it takes part of axis 0, which is split across shards}}
  %s = tensor.extract_slice %x[0, 0] [2, 4] [1, 1] : tensor<?x4xf32> to tensor<2x4xf32>
  return %s : tensor<2x4xf32>
}

// -----

// A linalg reduction over the split axis has no collective: refused.
#id = affine_map<(d0) -> (d0)>
#none = affine_map<(d0) -> ()>
func.func @linalg_reduction(%x: tensor<?xf32> {loom.batch_axis = 0 : i64}) -> tensor<f32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<f32>
  %i = linalg.fill ins(%z : f32) outs(%e : tensor<f32>) -> tensor<f32>
  // expected-error @+1 {{'linalg.generic' op cannot be split across shards: it reduces along an axis split across shards}}
  %r = linalg.generic {indexing_maps = [#id, #none], iterator_types = ["reduction"]}
      ins(%x : tensor<?xf32>) outs(%i : tensor<f32>) {
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<f32>
  return %r : tensor<f32>
}

// -----

// The local batch size is not the batch size: using it as a number (a mean's
// divisor) would be silently wrong per shard.
func.func @local_size_as_number(%x: tensor<?xf32> {loom.batch_axis = 0 : i64}) -> i64 {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?xf32>
  // expected-error @+1 {{'arith.index_cast' op cannot be split across shards: it reads the shard-local batch size, and loom-shard has no rule for this op}}
  %i = arith.index_cast %n : index to i64
  return %i : i64
}

// -----

// What a function without a body does with a split value is unknown.
func.func private @ext(tensor<?xf32>) -> f32
func.func @external(%x: tensor<?xf32> {loom.batch_axis = 0 : i64}) -> f32 {
  // expected-error @+1 {{'func.call' op cannot be split across shards: it passes a tensor split across shards along axis 0 to a function without a body}}
  %r = func.call @ext(%x) : (tensor<?xf32>) -> f32
  return %r : f32
}

// -----

// An op without a rule that reads a split value is an error, not a guess.
func.func @no_rule(%x: tensor<?xf32> {loom.batch_axis = 0 : i64}) -> tensor<?xf32> {
  %z = arith.constant 0.0 : f32
  // expected-error @+1 {{'tensor.pad' op cannot be split across shards: it reads a tensor split across shards along axis 0, and loom-shard has no rule for this op}}
  %p = tensor.pad %x low[1] high[0] {
  ^bb0(%i: index):
    tensor.yield %z : f32
  } : tensor<?xf32> to tensor<?xf32>
  return %p : tensor<?xf32>
}

// -----

// Lanes of an inner (non-leading) split axis would interleave when merged.
func.func @collapse_inner(%x: tensor<?x4xi32> {loom.batch_axis = 0 : i64}) -> tensor<?xi32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?x4xi32>
  %e = tensor.empty(%n) : tensor<4x?xi32>
  %t = linalg.transpose ins(%x : tensor<?x4xi32>) outs(%e : tensor<4x?xi32>) permutation = [1, 0]
  // expected-error @+1 {{'tensor.collapse_shape' op cannot be split across shards: it merges split axis 1 into an axis it is not the outermost of}}
  %c = tensor.collapse_shape %t [[0, 1]] : tensor<4x?xi32> into tensor<?xi32>
  return %c : tensor<?xi32>
}

// -----

// The runtime joins results along axis 0 only.
func.func @result_axis1(%x: tensor<?x4xi32> {loom.batch_axis = 0 : i64}) -> tensor<4x?xi32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?x4xi32>
  %e = tensor.empty(%n) : tensor<4x?xi32>
  %t = linalg.transpose ins(%x : tensor<?x4xi32>) outs(%e : tensor<4x?xi32>) permutation = [1, 0]
  // expected-error @+1 {{result #0 of @result_axis1 comes out split along axis 1, but the runtime joins the shards along axis 0 only}}
  return %t : tensor<4x?xi32>
}

// -----

// A function called with the batch split along two different axes.
func.func private @id(%v: tensor<?x?xi32>) -> tensor<?x?xi32> {
  return %v : tensor<?x?xi32>
}
func.func @two_axes(%x: tensor<?x4xi32> {loom.batch_axis = 0 : i64}) -> (tensor<?x?xi32>, tensor<?x?xi32>) {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?x4xi32>
  %e = tensor.empty(%n) : tensor<4x?xi32>
  %t = linalg.transpose ins(%x : tensor<?x4xi32>) outs(%e : tensor<4x?xi32>) permutation = [1, 0]
  %a = tensor.cast %x : tensor<?x4xi32> to tensor<?x?xi32>
  %b = tensor.cast %t : tensor<4x?xi32> to tensor<?x?xi32>
  %ra = func.call @id(%a) : (tensor<?x?xi32>) -> tensor<?x?xi32>
  // expected-error @+1 {{'func.call' op cannot be split across shards: it meets a tensor split across shards along axis 0 and a tensor split across shards along axis 1 in one value}}
  %rb = func.call @id(%b) : (tensor<?x?xi32>) -> tensor<?x?xi32>
  return %ra, %rb : tensor<?x?xi32>, tensor<?x?xi32>
}
