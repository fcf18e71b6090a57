// Reductions along every axis of batched values, inside and outside a
// divergent loop, and along the batch axis at the entry (reductions.mlir in
// the parent directory runs it).

// Per lane: v (3x4 ints) and f (3x4 floats, multiples of 1/4 so that every
// sum is exact in any order).
func.func @lane(%v0: tensor<3x4xi32>, %f: tensor<3x4xf32>)
    -> (tensor<4xi32>, tensor<3xi32>, tensor<4xi32>, tensor<3xf32>,
        tensor<4xi1>, tensor<3xi1>, i32, f32, i32) {
  %maxcols = loom.max %v0 along 0 : tensor<3x4xi32> -> tensor<4xi32>
  %minrows = loom.min %v0 along 1 : tensor<3x4xi32> -> tensor<3xi32>
  %sumcols = loom.sum %v0 along 0 : tensor<3x4xi32> -> tensor<4xi32>
  %frows = loom.sum %f along 1 : tensor<3x4xf32> -> tensor<3xf32>
  %four = arith.constant dense<4> : tensor<3x4xi32>
  %big = arith.cmpi sgt, %v0, %four : tensor<3x4xi32>
  %anycols = loom.any %big along 0 : tensor<3x4xi1> -> tensor<4xi1>
  %m3 = arith.constant dense<-3> : tensor<3x4xi32>
  %above = arith.cmpi sgt, %v0, %m3 : tensor<3x4xi32>
  %allrows = loom.all %above along 1 : tensor<3x4xi1> -> tensor<3xi1>

  // A divergent loop: each lane runs until its largest row sum reaches 40,
  // reducing its own tensors along each axis on every trip.
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %lim = arith.constant 40 : i32
  %zero = arith.constant 0.0 : f32
  %ones = arith.constant dense<1> : tensor<3x4xi32>
  %out:4 = scf.while (%v = %v0, %k = %c0, %acc = %zero, %vmin = %c0)
      : (tensor<3x4xi32>, i32, f32, i32) -> (tensor<3x4xi32>, i32, f32, i32) {
    %rows = loom.sum %v along 1 : tensor<3x4xi32> -> tensor<3xi32>
    %m = loom.max %rows along 0 : tensor<3xi32> -> i32
    %go = arith.cmpi slt, %m, %lim : i32
    scf.condition(%go) %v, %k, %acc, %vmin : tensor<3x4xi32>, i32, f32, i32
  } do {
  ^bb0(%v: tensor<3x4xi32>, %k: i32, %acc: f32, %vmin: i32):
    %fc = loom.sum %f along 0 : tensor<3x4xf32> -> tensor<4xf32>
    %fs = loom.sum %fc along 0 : tensor<4xf32> -> f32
    %acc1 = arith.addf %acc, %fs : f32
    %mc = loom.min %v along 0 : tensor<3x4xi32> -> tensor<4xi32>
    %mn = loom.min %mc along 0 : tensor<4xi32> -> i32
    %b = arith.cmpi sgt, %v, %four : tensor<3x4xi32>
    %ac = loom.any %b along 0 : tensor<3x4xi1> -> tensor<4xi1>
    %aa = loom.all %ac along 0 : tensor<4xi1> -> i1
    %extra = arith.extui %aa : i1 to i32
    %k1 = arith.addi %k, %c1 : i32
    %k2 = arith.addi %k1, %extra : i32
    %v1 = arith.addi %v, %ones : tensor<3x4xi32>
    scf.yield %v1, %k2, %acc1, %mn : tensor<3x4xi32>, i32, f32, i32
  }
  return %maxcols, %minrows, %sumcols, %frows, %anycols, %allrows,
         %out#1, %out#2, %out#3
      : tensor<4xi32>, tensor<3xi32>, tensor<4xi32>, tensor<3xf32>,
        tensor<4xi1>, tensor<3xi1>, i32, f32, i32
}

func.func @main(%v: tensor<?x3x4xi32> {loom.name = "v"},
                %f: tensor<?x3x4xf32> {loom.name = "f"})
    -> (tensor<?x4xi32> {loom.name = "maxcols"},
        tensor<?x3xi32> {loom.name = "minrows"},
        tensor<?x4xi32> {loom.name = "sumcols"},
        tensor<?x3xf32> {loom.name = "frows"},
        tensor<?x4xi1> {loom.name = "anycols"},
        tensor<?x3xi1> {loom.name = "allrows"},
        tensor<?xi32> {loom.name = "k"},
        tensor<?xf32> {loom.name = "acc"},
        tensor<?xi32> {loom.name = "vmin"},
        i32 {loom.name = "k_max"},
        i32 {loom.name = "k_sum"},
        f32 {loom.name = "acc_sum"},
        tensor<4xi32> {loom.name = "maxcols_min"},
        tensor<4xi1> {loom.name = "anycols_any"},
        tensor<4xi1> {loom.name = "anycols_all"},
        tensor<?xi32> {loom.name = "maxcols_max1"},
        tensor<?x3xi32> {loom.name = "v_rowsum"},
        tensor<3x4xi32> {loom.name = "v_max0"}) {
  %r:9 = loom.vmap @lane(%v, %f) in_axes [0, 0] out_axes [0, 0, 0, 0, 0, 0, 0, 0, 0]
      : (tensor<?x3x4xi32>, tensor<?x3x4xf32>)
      -> (tensor<?x4xi32>, tensor<?x3xi32>, tensor<?x4xi32>, tensor<?x3xf32>,
          tensor<?x4xi1>, tensor<?x3xi1>, tensor<?xi32>, tensor<?xf32>,
          tensor<?xi32>)
  // Along the batch axis: these cross shards.
  %kmax = loom.max %r#6 along 0 : tensor<?xi32> -> i32
  %ksum = loom.sum %r#6 along 0 : tensor<?xi32> -> i32
  %accsum = loom.sum %r#7 along 0 : tensor<?xf32> -> f32
  %mcmin = loom.min %r#0 along 0 : tensor<?x4xi32> -> tensor<4xi32>
  %acany = loom.any %r#4 along 0 : tensor<?x4xi1> -> tensor<4xi1>
  %acall = loom.all %r#4 along 0 : tensor<?x4xi1> -> tensor<4xi1>
  %vmax0 = loom.max %v along 0 : tensor<?x3x4xi32> -> tensor<3x4xi32>
  // Along a lane's own axes of a batched value: these do not.
  %mcmax = loom.max %r#0 along 1 : tensor<?x4xi32> -> tensor<?xi32>
  %rowsum = loom.sum %v along 2 : tensor<?x3x4xi32> -> tensor<?x3xi32>
  return %r#0, %r#1, %r#2, %r#3, %r#4, %r#5, %r#6, %r#7, %r#8, %kmax, %ksum,
         %accsum, %mcmin, %acany, %acall, %mcmax, %rowsum, %vmax0
      : tensor<?x4xi32>, tensor<?x3xi32>, tensor<?x4xi32>, tensor<?x3xf32>,
        tensor<?x4xi1>, tensor<?x3xi1>, tensor<?xi32>, tensor<?xf32>,
        tensor<?xi32>, i32, i32, f32, tensor<4xi32>, tensor<4xi1>,
        tensor<4xi1>, tensor<?xi32>, tensor<?x3xi32>, tensor<3x4xi32>
}
