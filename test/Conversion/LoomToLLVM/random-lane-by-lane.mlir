// A key carried through a divergent loop and split every trip, under gangs:
// loom-scalarize-small-tensors carries its two words as scalars, so the
// gang holds one 32-lane vector per word, and the lowered random ops read a
// lane's key from a batch of keys. loom-split-lane-tensors makes them read
// the word vectors instead: no trip interleaves the vectors into a 32x2
// batch again (a strided copy per word), and a lane's key is read from the
// two vectors (checked just after bufferization).
// Before loom-split-lane-tensors, each trip copied both vectors into a
// memref<32x2xi32> and the split's lane loop read the key from it.
// RUN: loom-opt %s --loom-pipeline="divergent=gang refill=0 adaptive=0" \
// RUN:   --loom-bufferize | FileCheck %s

// CHECK-LABEL: func.func @main(
// The words are taken out of the input's keys once, before the gangs.
// CHECK: memref.copy {{.*}} : memref<?xi32, strided<[2]>> to memref<?xi32>
// CHECK: scf.while
// No gang buffer of whole keys, nor a copy into one.
// CHECK-NOT: memref<32x2xi32>
// CHECK: call @__loom_threefry2x32
// CHECK-NOT: memref<32x2xi32>
// CHECK: return
func.func @descend(%key: tensor<2xi32>, %n: i32) -> f32 {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %zero = arith.constant 0.0 : f32
  %r:3 = scf.while (%i = %c0, %k = %key, %acc = %zero)
      : (i32, tensor<2xi32>, f32) -> (i32, tensor<2xi32>, f32) {
    %go = arith.cmpi slt, %i, %n : i32
    scf.condition(%go) %i, %k, %acc : i32, tensor<2xi32>, f32
  } do {
  ^bb0(%i: i32, %k: tensor<2xi32>, %acc: f32):
    %s = loom.random.split %k : tensor<2x2xi32>
    %k0 = tensor.extract_slice %s[0, 0] [1, 2] [1, 1]
        : tensor<2x2xi32> to tensor<2xi32>
    %k1 = tensor.extract_slice %s[1, 0] [1, 2] [1, 1]
        : tensor<2x2xi32> to tensor<2xi32>
    %x = loom.random.normal %k1 : f32
    %a = arith.addf %acc, %x : f32
    %in = arith.addi %i, %c1 : i32
    scf.yield %in, %k0, %a : i32, tensor<2xi32>, f32
  }
  return %r#2 : f32
}

func.func @main(%keys: tensor<?x2xi32>, %ns: tensor<?xi32>) -> tensor<?xf32> {
  %r = loom.vmap @descend(%keys, %ns) in_axes [0, 0] out_axes [0]
      : (tensor<?x2xi32>, tensor<?xi32>) -> (tensor<?xf32>)
  return %r : tensor<?xf32>
}
