// Programs for ../lane-local.mlir: a lane's own tensor carried through a
// divergent loop, reduced, read and written inside it and after it.

// loom.sum of the lane's 8-vector in the loop's predicate and after it.
func.func @sumloop(%v0: tensor<8xf32>, %limit: f32) -> f32 {
  %out = scf.while (%v = %v0) : (tensor<8xf32>) -> (tensor<8xf32>) {
    %s = loom.sum %v along 0 : tensor<8xf32> -> f32
    %small = arith.cmpf olt, %s, %limit : f32
    scf.condition(%small) %v : tensor<8xf32>
  } do {
  ^bb0(%v: tensor<8xf32>):
    %e = arith.constant dense<2.0> : tensor<8xf32>
    %v1 = arith.mulf %v, %e : tensor<8xf32>
    scf.yield %v1 : tensor<8xf32>
  }
  %r = loom.sum %out along 0 : tensor<8xf32> -> f32
  return %r : f32
}
func.func @sumloop_main(%a: tensor<?x8xf32> {loom.name = "a"}, %limit: f32 {loom.name = "limit", loom.default = 20.0 : f32})
    -> (tensor<?xf32> {loom.name = "r"}) {
  %r = loom.vmap @sumloop(%a, %limit) in_axes [0, none] out_axes [0]
      : (tensor<?x8xf32>, f32) -> tensor<?xf32>
  return %r : tensor<?xf32>
}

// The same with a lane shape only known at run time.
func.func @sumloop_dyn(%v0: tensor<?xf32>, %limit: f32) -> f32 {
  %out = scf.while (%v = %v0) : (tensor<?xf32>) -> (tensor<?xf32>) {
    %s = loom.sum %v along 0 : tensor<?xf32> -> f32
    %small = arith.cmpf olt, %s, %limit : f32
    scf.condition(%small) %v : tensor<?xf32>
  } do {
  ^bb0(%v: tensor<?xf32>):
    %v1 = arith.addf %v, %v : tensor<?xf32>
    scf.yield %v1 : tensor<?xf32>
  }
  %r = loom.sum %out along 0 : tensor<?xf32> -> f32
  return %r : f32
}
func.func @sumloop_dyn_main(%a: tensor<?x?xf32> {loom.name = "a"}, %limit: f32 {loom.name = "limit", loom.default = 20.0 : f32})
    -> (tensor<?xf32> {loom.name = "r"}) {
  %r = loom.vmap @sumloop_dyn(%a, %limit) in_axes [0, none] out_axes [0]
      : (tensor<?x?xf32>, f32) -> tensor<?xf32>
  return %r : tensor<?xf32>
}

// A static 2-d lane tensor: sums along each axis, max in the predicate,
// the carried tensor itself returned.
func.func @grid(%g0: tensor<3x4xf32>, %limit: f32) -> (tensor<3x4xf32>, tensor<4xf32>, f32) {
  %out = scf.while (%g = %g0) : (tensor<3x4xf32>) -> (tensor<3x4xf32>) {
    %rows = loom.sum %g along 1 : tensor<3x4xf32> -> tensor<3xf32>
    %m = loom.max %rows along 0 : tensor<3xf32> -> f32
    %small = arith.cmpf olt, %m, %limit : f32
    scf.condition(%small) %g : tensor<3x4xf32>
  } do {
  ^bb0(%g: tensor<3x4xf32>):
    %e = arith.constant dense<1.5> : tensor<3x4xf32>
    %g1 = arith.mulf %g, %e : tensor<3x4xf32>
    scf.yield %g1 : tensor<3x4xf32>
  }
  %cols = loom.sum %out along 0 : tensor<3x4xf32> -> tensor<4xf32>
  %t = loom.sum %cols along 0 : tensor<4xf32> -> f32
  return %out, %cols, %t : tensor<3x4xf32>, tensor<4xf32>, f32
}
func.func @grid_main(%a: tensor<?x3x4xf32> {loom.name = "a"}, %limit: f32 {loom.name = "limit", loom.default = 20.0 : f32})
    -> (tensor<?x3x4xf32> {loom.name = "g"}, tensor<?x4xf32> {loom.name = "cols"}, tensor<?xf32> {loom.name = "t"}) {
  %g, %c, %t = loom.vmap @grid(%a, %limit) in_axes [0, none] out_axes [0, 0, 0]
      : (tensor<?x3x4xf32>, f32) -> (tensor<?x3x4xf32>, tensor<?x4xf32>, tensor<?xf32>)
  return %g, %c, %t : tensor<?x3x4xf32>, tensor<?x4xf32>, tensor<?xf32>
}

// extract/insert at a per-lane index on the carried tensor; the loop also
// counts its iterations.
func.func @carry(%v0: tensor<8xf32>, %limit: f32) -> (tensor<8xf32>, i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c8 = arith.constant 8 : i32
  %two = arith.constant 2.0 : f32
  %out:2 = scf.while (%v = %v0, %k = %c0) : (tensor<8xf32>, i32) -> (tensor<8xf32>, i32) {
    %s = loom.sum %v along 0 : tensor<8xf32> -> f32
    %small = arith.cmpf olt, %s, %limit : f32
    %more = arith.cmpi slt, %k, %c8 : i32
    %go = arith.andi %small, %more : i1
    scf.condition(%go) %v, %k : tensor<8xf32>, i32
  } do {
  ^bb0(%v: tensor<8xf32>, %k: i32):
    %idx = arith.index_cast %k : i32 to index
    %e = tensor.extract %v[%idx] : tensor<8xf32>
    %d = arith.mulf %e, %two : f32
    %v1 = tensor.insert %d into %v[%idx] : tensor<8xf32>
    %k1 = arith.addi %k, %c1 : i32
    scf.yield %v1, %k1 : tensor<8xf32>, i32
  }
  return %out#0, %out#1 : tensor<8xf32>, i32
}
func.func @carry_main(%a: tensor<?x8xf32> {loom.name = "a"}, %limit: f32 {loom.name = "limit", loom.default = 20.0 : f32})
    -> (tensor<?x8xf32> {loom.name = "v"}, tensor<?xi32> {loom.name = "k"}) {
  %v, %k = loom.vmap @carry(%a, %limit) in_axes [0, none] out_axes [0, 0]
      : (tensor<?x8xf32>, f32) -> (tensor<?x8xf32>, tensor<?xi32>)
  return %v, %k : tensor<?x8xf32>, tensor<?xi32>
}

// extract/insert on a dynamic lane tensor, at a per-lane index.
func.func @carry_dyn(%v0: tensor<?xf32>, %limit: f32) -> (tensor<?xf32>, i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %i0 = arith.constant 0 : index
  %two = arith.constant 2.0 : f32
  %n = tensor.dim %v0, %i0 : tensor<?xf32>
  %n32 = arith.index_cast %n : index to i32
  %out:2 = scf.while (%v = %v0, %k = %c0) : (tensor<?xf32>, i32) -> (tensor<?xf32>, i32) {
    %s = loom.sum %v along 0 : tensor<?xf32> -> f32
    %small = arith.cmpf olt, %s, %limit : f32
    %more = arith.cmpi slt, %k, %n32 : i32
    %go = arith.andi %small, %more : i1
    scf.condition(%go) %v, %k : tensor<?xf32>, i32
  } do {
  ^bb0(%v: tensor<?xf32>, %k: i32):
    %idx = arith.index_cast %k : i32 to index
    %e = tensor.extract %v[%idx] : tensor<?xf32>
    %d = arith.mulf %e, %two : f32
    %v1 = tensor.insert %d into %v[%idx] : tensor<?xf32>
    %k1 = arith.addi %k, %c1 : i32
    scf.yield %v1, %k1 : tensor<?xf32>, i32
  }
  return %out#0, %out#1 : tensor<?xf32>, i32
}
func.func @carry_dyn_main(%a: tensor<?x?xf32> {loom.name = "a"}, %limit: f32 {loom.name = "limit", loom.default = 20.0 : f32})
    -> (tensor<?x?xf32> {loom.name = "v"}, tensor<?xi32> {loom.name = "k"}) {
  %v, %k = loom.vmap @carry_dyn(%a, %limit) in_axes [0, none] out_axes [0, 0]
      : (tensor<?x?xf32>, f32) -> (tensor<?x?xf32>, tensor<?xi32>)
  return %v, %k : tensor<?x?xf32>, tensor<?xi32>
}
