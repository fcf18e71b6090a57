// RUN: loom-opt %s -convert-loom-to-standard -split-input-file | FileCheck %s

// PRNGKey(seed) is (0, seed).
// CHECK-LABEL: func.func @key
// CHECK-SAME: (%[[S:.*]]: i32)
// CHECK: %[[Z:.*]] = arith.constant 0 : i32
// CHECK: tensor.from_elements %[[Z]], %[[S]] : tensor<2xi32>
func.func @key(%seed: i32) -> tensor<2xi32> {
  %k = loom.random.key %seed : i32
  return %k : tensor<2xi32>
}

// -----

// uniform: one threefry block per element, the top 23 bits as a mantissa in
// [1, 2), minus 1, scaled, clamped below by minval. A one-element draw of a
// non-partitionable key hashes the counts (0, 0): the padding of an odd count.
// CHECK-LABEL: func.func @uniform
// CHECK-SAME: (%[[K:.*]]: tensor<2xi32>, %[[LO:.*]]: f32, %[[HI:.*]]: f32)
// CHECK-DAG: %[[K0:.*]] = tensor.extract %[[K]][%{{.*}}] : tensor<2xi32>
// CHECK-DAG: %[[K1:.*]] = tensor.extract %[[K]][%{{.*}}] : tensor<2xi32>
// CHECK: %[[Y:.*]]:2 = {{(func\.)?}}call @__loom_threefry2x32(%[[K0]], %[[K1]], %{{.*}}, %{{.*}})
// CHECK: %[[W:.*]] = arith.select %{{.*}}, %[[Y]]#0, %[[Y]]#1 : i32
// CHECK: %[[SH:.*]] = arith.shrui %[[W]], %{{.*}} : i32
// CHECK: %[[M:.*]] = arith.ori %[[SH]], %{{.*}} : i32
// CHECK: %[[F:.*]] = arith.bitcast %[[M]] : i32 to f32
// CHECK: %[[U:.*]] = arith.subf %[[F]], %{{.*}} : f32
// CHECK: %[[SPAN:.*]] = arith.subf %[[HI]], %[[LO]] : f32
// CHECK: %[[MUL:.*]] = arith.mulf %[[U]], %[[SPAN]] : f32
// CHECK: %[[ADD:.*]] = arith.addf %[[MUL]], %[[LO]] : f32
// CHECK: arith.maximumf %[[LO]], %[[ADD]] : f32
// The helper is created once, private, with the 20 rounds' rotations.
// CHECK: func.func private @__loom_threefry2x32(%{{.*}}: i32, %{{.*}}: i32, %{{.*}}: i32, %{{.*}}: i32) -> (i32, i32)
// CHECK: arith.constant 466688986 : i32
// CHECK: arith.constant 13 : i32
// CHECK: arith.constant 24 : i32
// CHECK-NOT: func.func private @__loom_threefry2x32
func.func @uniform(%k: tensor<2xi32>, %lo: f32, %hi: f32) -> (f32, tensor<2xf32>) {
  %u = loom.random.uniform %k, %lo, %hi : f32
  %v = loom.random.uniform %k, %lo, %hi : tensor<2xf32>
  return %u, %v : f32, tensor<2xf32>
}

// -----

// normal: uniform on [nextafter(-1, 0), 1), erfinv, times sqrt(2).
// CHECK-LABEL: func.func @normal
// CHECK: %[[LO:.*]] = arith.constant -0.99999994 : f32
// CHECK: %[[R2:.*]] = arith.constant 1.41421354 : f32
// CHECK: %[[E:.*]] = {{(func\.)?}}call @__loom_erfinv_f32(%{{.*}}) : (f32) -> f32
// CHECK: arith.mulf %[[R2]], %[[E]] : f32
// CHECK: func.func private @__loom_erfinv_f32
// CHECK: math.log1p
// CHECK: arith.constant 5.000000e+00 : f32
// CHECK: math.sqrt
func.func @normal(%k: tensor<2xi32>) -> f32 {
  %n = loom.random.normal %k : f32
  return %n : f32
}

// -----

// Partitionable bits: word i is y0 ^ y1 of the block (0, i); a large draw
// is a tensor.generate, a small one is unrolled.
// CHECK-LABEL: func.func @bits_partitionable
// CHECK: tensor.generate
// CHECK: %[[Y:.*]]:2 = {{(func\.)?}}call @__loom_threefry2x32
// CHECK: arith.xori %[[Y]]#0, %[[Y]]#1 : i32
func.func @bits_partitionable(%k: tensor<2xi32>) -> tensor<20xi32> {
  %b = loom.random.bits %k {partitionable} : tensor<20xi32>
  return %b : tensor<20xi32>
}

// -----

// randint splits the key, draws two words per sample and combines them
// modulo the span in unsigned arithmetic.
// CHECK-LABEL: func.func @randint
// CHECK: arith.cmpi sle
// CHECK: arith.remui
// CHECK: arith.muli
// CHECK: arith.remui
func.func @randint(%k: tensor<2xi32>, %lo: i32, %hi: i32) -> i32 {
  %r = loom.random.randint %k, %lo, %hi : i32
  return %r : i32
}
