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
// CHECK: %[[SH:.*]] = arith.shrui %[[Y]]#0, %{{.*}} : i32
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

// -----

// float64 uniform (JAX with x64 on) draws 64-bit words: a one-element draw
// without partitionable joins the two outputs of the block (0, 0 + 1),
// high first, and the top 52 bits become the mantissa of a double in [1, 2).
// CHECK-LABEL: func.func @uniform_f64
// CHECK-SAME: (%[[K:.*]]: tensor<2xi32>, %[[LO:.*]]: f64, %[[HI:.*]]: f64)
// CHECK: %[[Y:.*]]:2 = {{(func\.)?}}call @__loom_threefry2x32
// CHECK: %[[H:.*]] = arith.extui %[[Y]]#0 : i32 to i64
// CHECK: %[[L:.*]] = arith.extui %[[Y]]#1 : i32 to i64
// CHECK: %[[C32:.*]] = arith.constant 32 : i64
// CHECK: %[[S:.*]] = arith.shli %[[H]], %[[C32]] : i64
// CHECK: %[[W:.*]] = arith.ori %[[S]], %[[L]] : i64
// CHECK: %[[C12:.*]] = arith.constant 12 : i64
// CHECK: %[[M:.*]] = arith.shrui %[[W]], %[[C12]] : i64
// CHECK: %[[ONE:.*]] = arith.constant 4607182418800017408 : i64
// CHECK: %[[B:.*]] = arith.ori %[[M]], %[[ONE]] : i64
// CHECK: %[[F:.*]] = arith.bitcast %[[B]] : i64 to f64
// CHECK: %[[U:.*]] = arith.subf %[[F]], %{{.*}} : f64
// CHECK: %[[SPAN:.*]] = arith.subf %[[HI]], %[[LO]] : f64
// CHECK: %[[MUL:.*]] = arith.mulf %[[U]], %[[SPAN]] : f64
// CHECK: %[[ADD:.*]] = arith.addf %[[MUL]], %[[LO]] : f64
// CHECK: arith.maximumf %[[LO]], %[[ADD]] : f64
func.func @uniform_f64(%k: tensor<2xi32>, %lo: f64, %hi: f64) -> f64 {
  %u = loom.random.uniform %k, %lo, %hi : f64
  return %u : f64
}

// -----

// Non-partitionable 64-bit word i of n hashes the counts (i, n + i); the
// partitionable one hashes (0, i), as 32-bit words do.
// CHECK-LABEL: func.func @bits64
// CHECK: %[[C0:.*]] = arith.constant 0 : i32
// CHECK: call @__loom_threefry2x32(%{{.*}}, %{{.*}}, %[[C0]], %{{.*}})
// CHECK: arith.extui
// CHECK: arith.shli
// CHECK: arith.ori {{.*}} : i64
// CHECK: %[[C1:.*]] = arith.constant 1 : i32
// CHECK: %[[C4:.*]] = arith.constant 4 : i32
// CHECK-NEXT: call @__loom_threefry2x32(%{{.*}}, %{{.*}}, %[[C1]], %[[C4]])
// CHECK: tensor.from_elements {{.*}} : tensor<3xi64>
// CHECK-LABEL: func.func @bits64_partitionable
// CHECK: %[[Z:.*]] = arith.constant 0 : i32
// CHECK: call @__loom_threefry2x32(%{{.*}}, %{{.*}}, %{{.*}}, %[[Z]])
// CHECK-NOT: arith.xori
// CHECK: arith.ori {{.*}} : i64
func.func @bits64(%k: tensor<2xi32>) -> tensor<3xi64> {
  %b = loom.random.bits %k : tensor<3xi64>
  return %b : tensor<3xi64>
}
func.func @bits64_partitionable(%k: tensor<2xi32>) -> i64 {
  %b = loom.random.bits %k {partitionable} : i64
  return %b : i64
}

// -----

// float64 normal: uniform on [nextafter(-1, 0), 1) in float64, XLA's float64
// erfinv, times sqrt(2) rounded to float64. The helper is Giles'
// double-precision erfinv: one Horner chain in w - 3.125 (w < 6.25),
// sqrt(w) - 3.25 (w < 16) or sqrt(w) - 5, whose last six steps apply only
// to the longer polynomials.
// CHECK-LABEL: func.func @normal_f64
// CHECK: %[[LO:.*]] = arith.constant -0.99999999999999988 : f64
// CHECK: %[[R2:.*]] = arith.constant 1.4142135623730951 : f64
// CHECK: %[[E:.*]] = {{(func\.)?}}call @__loom_erfinv_f64(%{{.*}}) : (f64) -> f64
// CHECK: arith.mulf %[[R2]], %[[E]] : f64
// CHECK: func.func private @__loom_erfinv_f64(%[[X:.*]]: f64) -> f64
// CHECK: %[[NX:.*]] = arith.negf %[[X]] : f64
// CHECK: %[[XX:.*]] = arith.mulf %[[NX]], %[[X]] : f64
// CHECK: %[[L:.*]] = math.log1p %[[XX]] : f64
// CHECK: %[[W:.*]] = arith.negf %[[L]] : f64
// CHECK: %[[C625:.*]] = arith.constant 6.250000e+00 : f64
// CHECK: %[[LT625:.*]] = arith.cmpf olt, %[[W]], %[[C625]] : f64
// CHECK: %[[C16:.*]] = arith.constant 1.600000e+01 : f64
// CHECK: %[[LT16:.*]] = arith.cmpf olt, %[[W]], %[[C16]] : f64
// CHECK: math.sqrt %[[W]] : f64
// CHECK: arith.constant 3.250000e+00 : f64
// CHECK: arith.constant 5.000000e+00 : f64
// CHECK: arith.constant 3.125000e+00 : f64
// The first coefficient of each polynomial, selected per lane.
// CHECK: arith.constant -3.6444120640178197E-21 : f64
// CHECK: arith.constant 2.2137376921775787E-9 : f64
// CHECK: arith.select %[[LT625]]
// CHECK: arith.constant -2.7109920616438573E-11 : f64
// CHECK: arith.select %[[LT16]]
// The last coefficient of the far-tail polynomial, then its step is kept
// only where w < 16, and the last of the central one.
// CHECK: arith.constant 4.8499064014085844 : f64
// CHECK: %[[P17:.*]] = arith.addf
// CHECK: arith.select %[[LT16]], %{{.*}}, %[[P17]] : f64
// CHECK: arith.constant 1.6536545626831027 : f64
// CHECK: arith.select %[[LT625]], %{{.*}}, %{{.*}} : f64
// CHECK: %[[INF:.*]] = arith.constant 0x7FF0000000000000 : f64
// CHECK: return
func.func @normal_f64(%k: tensor<2xi32>) -> f64 {
  %n = loom.random.normal %k : f64
  return %n : f64
}

// -----

// Each threefry block is hashed once per op, and every element that shares
// it takes its words from that one call: without partitionable, a split into
// 2 hashes the blocks (0, 2) and (1, 3), whose first outputs are the first
// key and whose second outputs the second; a (2,)-shaped uniform is the two
// outputs of the block (0, 1). randint hashes its split's two blocks and one
// block of each of the two keys.
// CHECK-LABEL: func.func @split2
// CHECK: %[[A:.*]]:2 = call @__loom_threefry2x32
// CHECK: %[[B:.*]]:2 = call @__loom_threefry2x32
// CHECK-NOT: call @__loom_threefry2x32
// CHECK: tensor.from_elements %[[A]]#0, %[[B]]#0, %[[A]]#1, %[[B]]#1 : tensor<2x2xi32>
// CHECK-LABEL: func.func @split2_partitionable
// CHECK: %[[A:.*]]:2 = call @__loom_threefry2x32
// CHECK: %[[B:.*]]:2 = call @__loom_threefry2x32
// CHECK-NOT: call @__loom_threefry2x32
// CHECK: tensor.from_elements %[[A]]#0, %[[A]]#1, %[[B]]#0, %[[B]]#1 : tensor<2x2xi32>
// CHECK-LABEL: func.func @uniform2
// CHECK: %[[Y:.*]]:2 = call @__loom_threefry2x32
// CHECK-NOT: call @__loom_threefry2x32
// CHECK: arith.shrui %[[Y]]#0
// CHECK-NOT: call @__loom_threefry2x32
// CHECK: arith.shrui %[[Y]]#1
// CHECK-NOT: call @__loom_threefry2x32
// CHECK: return
// CHECK-LABEL: func.func @randint2
// CHECK-COUNT-4: call @__loom_threefry2x32
// CHECK-NOT: call @__loom_threefry2x32
// CHECK: return
func.func @split2(%k: tensor<2xi32>) -> tensor<2x2xi32> {
  %s = loom.random.split %k : tensor<2x2xi32>
  return %s : tensor<2x2xi32>
}
func.func @split2_partitionable(%k: tensor<2xi32>) -> tensor<2x2xi32> {
  %s = loom.random.split %k {partitionable} : tensor<2x2xi32>
  return %s : tensor<2x2xi32>
}
func.func @uniform2(%k: tensor<2xi32>, %lo: f32, %hi: f32) -> tensor<2xf32> {
  %u = loom.random.uniform %k, %lo, %hi : tensor<2xf32>
  return %u : tensor<2xf32>
}
func.func @randint2(%k: tensor<2xi32>, %lo: i32, %hi: i32) -> tensor<2xi32> {
  %r = loom.random.randint %k, %lo, %hi : tensor<2xi32>
  return %r : tensor<2xi32>
}
