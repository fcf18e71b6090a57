// RUN: loom-opt %s -loom-split-lane-tensors -split-input-file | FileCheck %s

// A key's words, read lane by lane from the interleaved batch of keys that
// insert_slices build from two word vectors, are read from the vectors.
// CHECK-LABEL: func.func @key_words(
// CHECK-SAME: %[[W0:[^:]*]]: tensor<32xi32>, %[[W1:[^:]*]]: tensor<32xi32>, %[[LANE:[^:]*]]: index
// CHECK-DAG: %[[LO:.*]] = tensor.extract %[[W0]][%[[LANE]]] : tensor<32xi32>
// CHECK-DAG: %[[HI:.*]] = tensor.extract %[[W1]][%[[LANE]]] : tensor<32xi32>
// CHECK: return %[[LO]], %[[HI]]
func.func @key_words(%w0: tensor<32xi32>, %w1: tensor<32xi32>, %lane: index)
    -> (i32, i32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %e = tensor.empty() : tensor<32x2xi32>
  %s0 = tensor.insert_slice %w0 into %e[0, 0] [32, 1] [1, 1]
      : tensor<32xi32> into tensor<32x2xi32>
  %s1 = tensor.insert_slice %w1 into %s0[0, 1] [32, 1] [1, 1]
      : tensor<32xi32> into tensor<32x2xi32>
  %key = tensor.extract_slice %s1[%lane, 0] [1, 2] [1, 1]
      : tensor<32x2xi32> to tensor<2xi32>
  %lo = tensor.extract %key[%c0] : tensor<2xi32>
  %hi = tensor.extract %key[%c1] : tensor<2xi32>
  return %lo, %hi : i32, i32
}

// -----

// The same with a dynamic batch: an insertion over the whole of a dynamic
// dimension holds every index of it.
// CHECK-LABEL: func.func @dynamic_batch(
// CHECK-SAME: %[[W0:[^:]*]]: tensor<?xf32>, %[[W1:[^:]*]]: tensor<?xf32>, %[[LANE:[^:]*]]: index
// CHECK: %[[HI:.*]] = tensor.extract %[[W1]][%[[LANE]]] : tensor<?xf32>
// CHECK: return %[[HI]]
func.func @dynamic_batch(%w0: tensor<?xf32>, %w1: tensor<?xf32>, %lane: index)
    -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = tensor.dim %w0, %c0 : tensor<?xf32>
  %e = tensor.empty(%n) : tensor<?x2xf32>
  %s0 = tensor.insert_slice %w0 into %e[0, 0] [%n, 1] [1, 1]
      : tensor<?xf32> into tensor<?x2xf32>
  %s1 = tensor.insert_slice %w1 into %s0[0, 1] [%n, 1] [1, 1]
      : tensor<?xf32> into tensor<?x2xf32>
  %hi = tensor.extract %s1[%lane, %c1] : tensor<?x2xf32>
  return %hi : f32
}

// -----

// Through a strided slice with a dynamic offset: offset + index * stride.
// CHECK: #[[$MAP:.*]] = affine_map<()[s0, s1] -> (s0 + s1 * 3)>
// CHECK-LABEL: func.func @strided_slice(
// CHECK-SAME: %[[T:[^:]*]]: tensor<64x4xf32>, %[[OFF:[^:]*]]: index, %[[I:[^:]*]]: index
// CHECK: %[[ROW:.*]] = affine.apply #[[$MAP]]()[%[[OFF]], %[[I]]]
// CHECK: %[[X:.*]] = tensor.extract %[[T]][%[[ROW]], %c2] : tensor<64x4xf32>
// CHECK: return %[[X]]
func.func @strided_slice(%t: tensor<64x4xf32>, %off: index, %i: index) -> f32 {
  %v = tensor.extract_slice %t[%off, 2] [8, 1] [3, 1]
      : tensor<64x4xf32> to tensor<8xf32>
  %x = tensor.extract %v[%i] : tensor<8xf32>
  return %x : f32
}

// -----

// Where the read lies in neither operand for certain, it stays: a dynamic
// index into a part of a dimension, or a stride other than one.
// CHECK-LABEL: func.func @unknown(
// CHECK: %[[PART:.*]] = tensor.insert_slice %{{.*}} into %{{.*}}[0, 0] [16, 1]
// CHECK: tensor.extract %[[PART]][%{{.*}}, %c0]
// CHECK: %[[STRIDED:.*]] = tensor.insert_slice %{{.*}} into %{{.*}}[0, 1] [16, 1] [2, 1]
// CHECK: tensor.extract %[[STRIDED]][%c4, %c1]
func.func @unknown(%w: tensor<16xi32>, %d: tensor<32x2xi32>, %lane: index)
    -> (i32, i32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %part = tensor.insert_slice %w into %d[0, 0] [16, 1] [1, 1]
      : tensor<16xi32> into tensor<32x2xi32>
  %a = tensor.extract %part[%lane, %c0] : tensor<32x2xi32>
  %strided = tensor.insert_slice %w into %d[0, 1] [16, 1] [2, 1]
      : tensor<16xi32> into tensor<32x2xi32>
  %b = tensor.extract %strided[%c4, %c1] : tensor<32x2xi32>
  return %a, %b : i32, i32
}

// -----

// A constant index outside the insertion in one dimension reads the
// destination, inside it in every dimension the source.
// CHECK-LABEL: func.func @constant_indices(
// CHECK-SAME: %[[W:[^:]*]]: tensor<4xi32>, %[[D:[^:]*]]: tensor<8x3xi32>
// CHECK-DAG: %[[FROM_D:.*]] = tensor.extract %[[D]][%c7, %c2]
// CHECK-DAG: %[[FROM_W:.*]] = tensor.extract %[[W]][%c1]
// CHECK: return %[[FROM_D]], %[[FROM_W]]
func.func @constant_indices(%w: tensor<4xi32>, %d: tensor<8x3xi32>)
    -> (i32, i32) {
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c7 = arith.constant 7 : index
  %s = tensor.insert_slice %w into %d[2, 2] [4, 1] [1, 1]
      : tensor<4xi32> into tensor<8x3xi32>
  %outside = tensor.extract %s[%c7, %c2] : tensor<8x3xi32>
  %inside = tensor.extract %s[%c3, %c2] : tensor<8x3xi32>
  return %outside, %inside : i32, i32
}

// -----

// A lane loop that writes each lane's split keys into a batch whose words
// are then only read one by one or as whole columns writes one vector per
// word instead, and the batch is gone.
// CHECK-LABEL: func.func @split_batch(
// CHECK-SAME: %[[KEYS:[^:]*]]: tensor<32xi32>
// CHECK: %[[E0:.*]] = tensor.empty() : tensor<32xi32>
// CHECK: %[[E1:.*]] = tensor.empty() : tensor<32xi32>
// CHECK: %[[E2:.*]] = tensor.empty() : tensor<32xi32>
// CHECK: %[[E3:.*]] = tensor.empty() : tensor<32xi32>
// CHECK: %[[V:.*]]:4 = scf.for %[[LANE:.*]] = %c0 to %c32 step %c1
// CHECK-SAME: iter_args(%[[A0:.*]] = %[[E0]], %[[A1:.*]] = %[[E1]], %[[A2:.*]] = %[[E2]], %[[A3:.*]] = %[[E3]])
// CHECK-NOT: 32x2x2
// CHECK: %[[I0:.*]] = tensor.insert %{{.*}} into %[[A0]][%[[LANE]]]
// CHECK: %[[I1:.*]] = tensor.insert %{{.*}} into %[[A1]][%[[LANE]]]
// CHECK: %[[I2:.*]] = tensor.insert %{{.*}} into %[[A2]][%[[LANE]]]
// CHECK: %[[I3:.*]] = tensor.insert %{{.*}} into %[[A3]][%[[LANE]]]
// CHECK: scf.yield %[[I0]], %[[I1]], %[[I2]], %[[I3]]
// CHECK-NOT: 32x2x2
// CHECK: %[[X:.*]] = tensor.extract %[[V]]#3[%{{.*}}] : tensor<32xi32>
// CHECK: return %[[V]]#2, %[[X]]
func.func @split_batch(%keys: tensor<32xi32>, %j: index)
    -> (tensor<32xi32>, i32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %e = tensor.empty() : tensor<32x2x2xi32>
  %batch = scf.for %lane = %c0 to %c32 step %c1 iter_args(%acc = %e)
      -> (tensor<32x2x2xi32>) {
    %k = tensor.extract %keys[%lane] : tensor<32xi32>
    %k1 = arith.addi %k, %k : i32
    %k2 = arith.muli %k, %k : i32
    %k3 = arith.xori %k, %k1 : i32
    %split = tensor.from_elements %k, %k1, %k2, %k3 : tensor<2x2xi32>
    %next = tensor.insert_slice %split into %acc[%lane, 0, 0] [1, 2, 2]
        [1, 1, 1] : tensor<2x2xi32> into tensor<32x2x2xi32>
    scf.yield %next : tensor<32x2x2xi32>
  }
  %second = tensor.extract_slice %batch[0, 1, 0] [32, 1, 2] [1, 1, 1]
      : tensor<32x2x2xi32> to tensor<32x2xi32>
  %column = tensor.extract_slice %second[0, 0] [32, 1] [1, 1]
      : tensor<32x2xi32> to tensor<32xi32>
  %lane = tensor.extract_slice %second[%j, 0] [1, 2] [1, 1]
      : tensor<32x2xi32> to tensor<2xi32>
  %x = tensor.extract %lane[%c1] : tensor<2xi32>
  return %column, %x : tensor<32xi32>, i32
}

// -----

// A batch read whole (here returned) stays as it is.
// CHECK-LABEL: func.func @whole_batch_read(
// CHECK: scf.for {{.*}} -> (tensor<32x2xi32>)
// CHECK: tensor.insert_slice {{.*}} into {{.*}}[%{{.*}}, 0] [1, 2] [1, 1]
func.func @whole_batch_read(%keys: tensor<32xi32>) -> tensor<32x2xi32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %e = tensor.empty() : tensor<32x2xi32>
  %batch = scf.for %lane = %c0 to %c32 step %c1 iter_args(%acc = %e)
      -> (tensor<32x2xi32>) {
    %k = tensor.extract %keys[%lane] : tensor<32xi32>
    %pair = tensor.from_elements %k, %k : tensor<2xi32>
    %next = tensor.insert_slice %pair into %acc[%lane, 0] [1, 2] [1, 1]
        : tensor<2xi32> into tensor<32x2xi32>
    scf.yield %next : tensor<32x2xi32>
  }
  return %batch : tensor<32x2xi32>
}

// -----

// A loop over part of the batch leaves lanes of its init unwritten: stays.
// CHECK-LABEL: func.func @part_of_batch(
// CHECK: scf.for {{.*}} -> (tensor<32x2xi32>)
func.func @part_of_batch(%keys: tensor<32xi32>, %init: tensor<32x2xi32>,
                         %j: index) -> i32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %batch = scf.for %lane = %c0 to %c16 step %c1 iter_args(%acc = %init)
      -> (tensor<32x2xi32>) {
    %k = tensor.extract %keys[%lane] : tensor<32xi32>
    %pair = tensor.from_elements %k, %k : tensor<2xi32>
    %next = tensor.insert_slice %pair into %acc[%lane, 0] [1, 2] [1, 1]
        : tensor<2xi32> into tensor<32x2xi32>
    scf.yield %next : tensor<32x2xi32>
  }
  %x = tensor.extract %batch[%j, %c1] : tensor<32x2xi32>
  return %x : i32
}

// -----

// A dynamic batch, the loop running to its size; the loop keeps its
// attributes (loom-mark-lane-loops' marks, on a GPU).
// CHECK-LABEL: func.func @dynamic_split(
// CHECK: %[[E0:.*]] = tensor.empty(%[[N:.*]]) : tensor<?xi32>
// CHECK: %[[E1:.*]] = tensor.empty(%[[N]]) : tensor<?xi32>
// CHECK: %[[V:.*]]:2 = scf.for {{.*}} iter_args(%{{.*}} = %[[E0]], %{{.*}} = %[[E1]]) -> (tensor<?xi32>, tensor<?xi32>)
// CHECK: } {marked}
// CHECK: return %[[V]]#1
func.func @dynamic_split(%keys: tensor<?xi32>) -> tensor<?xi32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = tensor.dim %keys, %c0 : tensor<?xi32>
  %e = tensor.empty(%n) : tensor<?x2xi32>
  %batch = scf.for %lane = %c0 to %n step %c1 iter_args(%acc = %e)
      -> (tensor<?x2xi32>) {
    %k = tensor.extract %keys[%lane] : tensor<?xi32>
    %k1 = arith.addi %k, %k : i32
    %pair = tensor.from_elements %k, %k1 : tensor<2xi32>
    %next = tensor.insert_slice %pair into %acc[%lane, 0] [1, 2] [1, 1]
        : tensor<2xi32> into tensor<?x2xi32>
    scf.yield %next : tensor<?x2xi32>
  } {marked}
  %column = tensor.extract_slice %batch[0, 1] [%n, 1] [1, 1]
      : tensor<?x2xi32> to tensor<?xi32>
  return %column : tensor<?xi32>
}

// -----

// A batch read at a component that is not a constant could not be read
// from one element vector: it stays.
// CHECK-LABEL: func.func @dynamic_component(
// CHECK: scf.for {{.*}} -> (tensor<32x2xi32>)
// CHECK: tensor.extract %{{.*}}[%{{.*}}, %{{.*}}] : tensor<32x2xi32>
func.func @dynamic_component(%keys: tensor<32xi32>, %j: index, %c: index)
    -> i32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %e = tensor.empty() : tensor<32x2xi32>
  %batch = scf.for %lane = %c0 to %c32 step %c1 iter_args(%acc = %e)
      -> (tensor<32x2xi32>) {
    %k = tensor.extract %keys[%lane] : tensor<32xi32>
    %k1 = arith.addi %k, %k : i32
    %pair = tensor.from_elements %k, %k1 : tensor<2xi32>
    %next = tensor.insert_slice %pair into %acc[%lane, 0] [1, 2] [1, 1]
        : tensor<2xi32> into tensor<32x2xi32>
    scf.yield %next : tensor<32x2xi32>
  }
  %x = tensor.extract %batch[%j, %c] : tensor<32x2xi32>
  return %x : i32
}

// -----

// Elementwise ops on batches of 3-vectors that insert_slices built from
// component vectors, with a broadcast and a splat, run once per component,
// and reading the components of the result reads theirs.
// CHECK-LABEL: func.func @elementwise_on_components(
// CHECK-SAME: %[[X:[^:]*]]: tensor<32xf32>, %[[Y:[^:]*]]: tensor<32xf32>, %[[Z:[^:]*]]: tensor<32xf32>, %[[W:[^:]*]]: tensor<3xf32>
// CHECK-DAG: %[[W0:.*]] = tensor.extract %[[W]][%c0]
// CHECK-DAG: %[[B0:.*]] = linalg.fill ins(%[[W0]] : f32)
// CHECK-DAG: %[[M0:.*]] = arith.mulf %[[X]], %[[B0]] : tensor<32xf32>
// CHECK-DAG: %[[W2:.*]] = tensor.extract %[[W]][%c2]
// CHECK-DAG: %[[B2:.*]] = linalg.fill ins(%[[W2]] : f32)
// CHECK-DAG: %[[M2:.*]] = arith.mulf %[[Z]], %[[B2]] : tensor<32xf32>
// CHECK-DAG: %[[HALF:.*]] = arith.constant dense<5.000000e-01> : tensor<32xf32>
// CHECK-DAG: %[[A0:.*]] = arith.addf %[[M0]], %[[HALF]] : tensor<32xf32>
// CHECK-DAG: %[[A2:.*]] = arith.addf %[[M2]], %[[HALF]] : tensor<32xf32>
// CHECK: return %[[A0]], %[[A2]]
func.func @elementwise_on_components(%x: tensor<32xf32>, %y: tensor<32xf32>,
                                     %z: tensor<32xf32>, %w: tensor<3xf32>)
    -> (tensor<32xf32>, tensor<32xf32>) {
  %e = tensor.empty() : tensor<32x3xf32>
  %s0 = tensor.insert_slice %x into %e[0, 0] [32, 1] [1, 1]
      : tensor<32xf32> into tensor<32x3xf32>
  %s1 = tensor.insert_slice %y into %s0[0, 1] [32, 1] [1, 1]
      : tensor<32xf32> into tensor<32x3xf32>
  %s2 = tensor.insert_slice %z into %s1[0, 2] [32, 1] [1, 1]
      : tensor<32xf32> into tensor<32x3xf32>
  %b = linalg.broadcast ins(%w : tensor<3xf32>) outs(%e : tensor<32x3xf32>)
      dimensions = [0]
  %m = arith.mulf %s2, %b : tensor<32x3xf32>
  %half = arith.constant dense<0.5> : tensor<32x3xf32>
  %a = arith.addf %m, %half : tensor<32x3xf32>
  %c0 = tensor.extract_slice %a[0, 0] [32, 1] [1, 1]
      : tensor<32x3xf32> to tensor<32xf32>
  %c2 = tensor.extract_slice %a[0, 2] [32, 1] [1, 1]
      : tensor<32x3xf32> to tensor<32xf32>
  return %c0, %c2 : tensor<32xf32>, tensor<32xf32>
}

// -----

// An operand whose components are not known (a function argument), or no
// operand built from components (broadcasts and splats only): the op stays.
// CHECK-LABEL: func.func @elementwise_stays(
// CHECK: arith.mulf %{{.*}}, %{{.*}} : tensor<32x3xf32>
// CHECK: arith.addf %{{.*}}, %{{.*}} : tensor<32x3xf32>
func.func @elementwise_stays(%x: tensor<32xf32>, %t: tensor<32x3xf32>,
                             %w: tensor<3xf32>)
    -> (tensor<32x3xf32>, tensor<32x3xf32>) {
  %e = tensor.empty() : tensor<32x3xf32>
  %s = tensor.insert_slice %x into %t[0, 0] [32, 1] [1, 1]
      : tensor<32xf32> into tensor<32x3xf32>
  %m = arith.mulf %s, %t : tensor<32x3xf32>
  %b = linalg.broadcast ins(%w : tensor<3xf32>) outs(%e : tensor<32x3xf32>)
      dimensions = [0]
  %half = arith.constant dense<0.5> : tensor<32x3xf32>
  %a = arith.addf %b, %half : tensor<32x3xf32>
  return %m, %a : tensor<32x3xf32>, tensor<32x3xf32>
}

// -----

// A later insertion over some lanes of a component hides that component's
// vector: the op stays (it is not taken for the vector inserted before).
// CHECK-LABEL: func.func @partly_overwritten(
// CHECK: %[[M:.*]] = arith.mulf %{{.*}}, %{{.*}} : tensor<32x2xf32>
// CHECK: tensor.extract_slice %[[M]][0, 0] [32, 1] [1, 1]
func.func @partly_overwritten(%x: tensor<32xf32>, %y: tensor<32xf32>,
                              %h: tensor<16xf32>) -> tensor<32xf32> {
  %e = tensor.empty() : tensor<32x2xf32>
  %s0 = tensor.insert_slice %x into %e[0, 0] [32, 1] [1, 1]
      : tensor<32xf32> into tensor<32x2xf32>
  %s1 = tensor.insert_slice %y into %s0[0, 1] [32, 1] [1, 1]
      : tensor<32xf32> into tensor<32x2xf32>
  %p = tensor.insert_slice %h into %s1[16, 0] [16, 1] [1, 1]
      : tensor<16xf32> into tensor<32x2xf32>
  %m = arith.mulf %p, %p : tensor<32x2xf32>
  %c = tensor.extract_slice %m[0, 0] [32, 1] [1, 1]
      : tensor<32x2xf32> to tensor<32xf32>
  return %c : tensor<32xf32>
}
