// RUN: loom-opt %s -loom-lane-tensors-to-vectors -split-input-file | FileCheck %s

// A gang's lane values and their elementwise ops become vectors: a fill is a
// broadcast, an empty tensor zeros, a copy its source, a carry of scf.while
// a vector carry, the any() reduction a vector.reduction.
// CHECK-LABEL: func.func @gang_step(
// CHECK-SAME: %[[X:.*]]: tensor<8xf32>, %[[S:.*]]: f32)
// CHECK: %[[XV:.*]] = vector.transfer_read %[[X]][%{{.*}}], %{{.*}} {in_bounds = [true]} : tensor<8xf32>, vector<8xf32>
// CHECK: %[[B:.*]] = vector.broadcast %[[S]] : f32 to vector<8xf32>
// CHECK: %[[W:.*]]:2 = scf.while (%[[Y:.*]] = %[[XV]], %[[M:.*]] = %{{.*}}) : (vector<8xf32>, vector<8xi1>)
// CHECK: %[[LT:.*]] = arith.cmpf olt, %[[Y]], %[[B]] : vector<8xf32>
// CHECK: vector.reduction <or>, %[[LT]], %{{.*}} : vector<8xi1> into i1
// CHECK: scf.condition(
// CHECK: arith.addf %{{.*}}, %[[B]] : vector<8xf32>
// CHECK: arith.select %{{.*}}, %{{.*}}, %{{.*}} : vector<8xi1>, vector<8xf32>
// CHECK: %[[OUT:.*]] = vector.transfer_write %[[W]]#0, %{{.*}}[%{{.*}}] {in_bounds = [true]} : vector<8xf32>, tensor<8xf32>
// CHECK: return %[[OUT]] : tensor<8xf32>
func.func @gang_step(%x: tensor<8xf32>, %s: f32) -> tensor<8xf32> {
  %e = tensor.empty() : tensor<8xf32>
  %b = linalg.fill ins(%s : f32) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  %m0 = bufferization.alloc_tensor() : tensor<8xi1>
  %r:2 = scf.while (%y = %x, %m = %m0) : (tensor<8xf32>, tensor<8xi1>) -> (tensor<8xf32>, tensor<8xi1>) {
    %lt = arith.cmpf olt, %y, %b : tensor<8xf32>
    %false = arith.constant false
    %init = tensor.from_elements %false : tensor<i1>
    %any = linalg.reduce { arith.ori } ins(%lt : tensor<8xi1>) outs(%init : tensor<i1>) dimensions = [0]
    %a = tensor.extract %any[] : tensor<i1>
    scf.condition(%a) %y, %lt : tensor<8xf32>, tensor<8xi1>
  } do {
  ^bb0(%y: tensor<8xf32>, %m: tensor<8xi1>):
    %n = arith.addf %y, %b : tensor<8xf32>
    %k = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%m, %n : tensor<8xi1>, tensor<8xf32>) outs(%y : tensor<8xf32>) {
    ^bb0(%in: i1, %in_0: f32, %out: f32):
      %v = arith.select %in, %in_0, %out : f32
      linalg.yield %v : f32
    } -> tensor<8xf32>
    %c = linalg.copy ins(%k : tensor<8xf32>) outs(%y : tensor<8xf32>) -> tensor<8xf32>
    scf.yield %c, %m : tensor<8xf32>, tensor<8xi1>
  }
  return %r#0 : tensor<8xf32>
}

// -----

// A loop over the lanes that reads a lane of tensors and of its own carry,
// calls an elementwise function and folds a scalar over the lanes: ops on
// the lanes, a call of the function's lane copy, an ordered reduction.
// CHECK-LABEL: func.func @lanewise(
// CHECK-NOT: scf.for
// CHECK: %[[R:.*]]:2 = call @step_lanes(%{{.*}}, %{{.*}}) : (vector<4xf32>, vector<4xf32>) -> (vector<4xf32>, vector<4xi1>)
// CHECK: arith.select %[[R]]#1, %[[R]]#0, %{{.*}} : vector<4xi1>, vector<4xf32>
// CHECK: vector.reduction <or>, %[[R]]#1, %{{.*}} : vector<4xi1> into i1
// CHECK: func.func private @step_lanes(%{{.*}}: vector<4xf32>, %{{.*}}: vector<4xf32>) -> (vector<4xf32>, vector<4xi1>)
// CHECK-SAME: passthrough = ["noinline"]
// CHECK: arith.mulf %{{.*}}, %{{.*}} : vector<4xf32>
func.func @lanewise(%x: tensor<4xf32>, %y: tensor<4xf32>) -> (tensor<4xf32>, i1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %false = arith.constant false
  %r:2 = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %y, %any = %false) -> (tensor<4xf32>, i1) {
    %a = tensor.extract %x[%i] : tensor<4xf32>
    %old = tensor.extract %acc[%i] : tensor<4xf32>
    %v:2 = func.call @step(%a, %old) : (f32, f32) -> (f32, i1)
    %new = arith.select %v#1, %v#0, %old : f32
    %ins = tensor.insert %new into %acc[%i] : tensor<4xf32>
    %any1 = arith.ori %any, %v#1 : i1
    scf.yield %ins, %any1 : tensor<4xf32>, i1
  }
  return %r#0, %r#1 : tensor<4xf32>, i1
}
func.func private @step(%a: f32, %b: f32) -> (f32, i1) {
  %m = arith.mulf %a, %b : f32
  %p = arith.cmpf ogt, %m, %a : f32
  return %m, %p : f32, i1
}

// -----

// A loop over the lanes that calls a function with a loop stays on tensors,
// whole, for LLVM's loop vectorizer: the vector is written into a tensor
// for it, and its result read back.
// CHECK-LABEL: func.func @kept(
// CHECK: %[[T:.*]] = vector.transfer_write %{{.*}} : vector<4xi32>, tensor<4xi32>
// CHECK: %[[L:.*]] = scf.for {{.*}} -> (tensor<4xi32>)
// CHECK: tensor.extract %[[T]][
// CHECK: func.call @loop
// CHECK: tensor.insert
// CHECK: vector.transfer_read %[[L]]
func.func @kept(%x: tensor<4xi32>) -> tensor<4xi32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %d = arith.addi %x, %x : tensor<4xi32>
  %e = tensor.empty() : tensor<4xi32>
  %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %e) -> (tensor<4xi32>) {
    %a = tensor.extract %d[%i] : tensor<4xi32>
    %v = func.call @loop(%a) : (i32) -> i32
    %ins = tensor.insert %v into %acc[%i] : tensor<4xi32>
    scf.yield %ins : tensor<4xi32>
  }
  %s = arith.muli %r, %r : tensor<4xi32>
  return %s : tensor<4xi32>
}
func.func private @loop(%a: i32) -> i32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %r = scf.for %i = %c0 to %c3 step %c1 iter_args(%v = %a) -> (i32) {
    %w = arith.muli %v, %v : i32
    scf.yield %w : i32
  }
  return %r : i32
}

// -----

// A mask crosses memory as bytes: LLVM packs a vector of i1 into bits, a
// buffer of i1 holds a byte per lane.
// CHECK-LABEL: func.func @mask_to_memory(
// CHECK: %[[M:.*]] = arith.cmpf olt, %{{.*}}, %{{.*}} : vector<8xf32>
// CHECK: %[[B:.*]] = arith.extui %[[M]] : vector<8xi1> to vector<8xi8>
// CHECK: %[[T:.*]] = vector.transfer_write %[[B]], %{{.*}} : vector<8xi8>, tensor<8xi8>
// CHECK: %[[I:.*]] = arith.trunci %[[T]] : tensor<8xi8> to tensor<8xi1>
// CHECK: linalg.generic {{.*}} ins(%[[I]], %{{.*}} : tensor<8xi1>, tensor<8x3xf32>)
func.func @mask_to_memory(%x: tensor<8xf32>, %y: tensor<8xf32>, %z: tensor<8x3xf32>) -> tensor<8x3xf32> {
  %m = arith.cmpf olt, %x, %y : tensor<8xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%m, %z : tensor<8xi1>, tensor<8x3xf32>) outs(%z : tensor<8x3xf32>) {
  ^bb0(%in: i1, %in_0: f32, %out: f32):
    %cst = arith.constant 0.0 : f32
    %v = arith.select %in, %in_0, %cst : f32
    linalg.yield %v : f32
  } -> tensor<8x3xf32>
  return %r : tensor<8x3xf32>
}

// -----

// A public function keeps its signature (an entry's ABI); a private one
// called only by calls takes and returns vectors. A tensor of one lane, of
// more than 64, or of dynamic size stays a tensor.
// CHECK-LABEL: func.func @entry(
// CHECK-SAME: %{{.*}}: tensor<16xf32>) -> tensor<16xf32>
// CHECK: call @helper(%{{.*}}) : (vector<16xf32>) -> vector<16xf32>
// CHECK: func.func private @helper(%{{.*}}: vector<16xf32>) -> vector<16xf32>
// CHECK: math.sqrt %{{.*}} : vector<16xf32>
// CHECK-LABEL: func.func @not_lanes(
// CHECK: arith.addf %{{.*}}, %{{.*}} : tensor<1xf32>
// CHECK: arith.addf %{{.*}}, %{{.*}} : tensor<65xf32>
// CHECK: arith.addf %{{.*}}, %{{.*}} : tensor<?xf32>
func.func @entry(%x: tensor<16xf32>) -> tensor<16xf32> {
  %r = call @helper(%x) : (tensor<16xf32>) -> tensor<16xf32>
  return %r : tensor<16xf32>
}
func.func private @helper(%x: tensor<16xf32> {bufferization.writable = false}) -> tensor<16xf32> {
  %r = math.sqrt %x : tensor<16xf32>
  return %r : tensor<16xf32>
}
func.func @not_lanes(%a: tensor<1xf32>, %b: tensor<65xf32>, %c: tensor<?xf32>) -> (tensor<1xf32>, tensor<65xf32>, tensor<?xf32>) {
  %x = arith.addf %a, %a : tensor<1xf32>
  %y = arith.addf %b, %b : tensor<65xf32>
  %z = arith.addf %c, %c : tensor<?xf32>
  return %x, %y, %z : tensor<1xf32>, tensor<65xf32>, tensor<?xf32>
}
