// RUN: loom-opt %s -loom-check-static-bounds -split-input-file -verify-diagnostics

// A constant index one past the end of a static dimension.
func.func @extract_past_end(%t: tensor<4xf32>) -> f32 {
  %c4 = arith.constant 4 : index
  // expected-error @+1 {{'tensor.extract' op index 4 is out of bounds for dimension 0 of size 4}}
  %e = tensor.extract %t[%c4] : tensor<4xf32>
  return %e : f32
}

// -----

// tensor.insert is checked like tensor.extract, dimension by dimension: the
// dynamic row index is left to the program, the constant column is not.
func.func @insert_past_end(%t: tensor<100x1xf64>, %row: index, %x: f64)
    -> tensor<100x1xf64> {
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{'tensor.insert' op index 1 is out of bounds for dimension 1 of size 1}}
  %r = tensor.insert %x into %t[%row, %c1] : tensor<100x1xf64>
  return %r : tensor<100x1xf64>
}

// -----

// A negative index.
func.func @negative_index(%t: tensor<2x3xi32>) -> i32 {
  %c0 = arith.constant 0 : index
  %m1 = arith.constant -1 : index
  // expected-error @+1 {{'tensor.extract' op index -1 is out of bounds for dimension 1 of size 3}}
  %e = tensor.extract %t[%c0, %m1] : tensor<2x3xi32>
  return %e : i32
}

// -----

// 2^32: an index that a 32-bit truncation would bring back in bounds.
func.func @index_2_pow_32(%t: tensor<1xf32>) -> f32 {
  %i = arith.constant 4294967296 : index
  // expected-error @+1 {{'tensor.extract' op index 4294967296 is out of bounds for dimension 0 of size 1}}
  %e = tensor.extract %t[%i] : tensor<1xf32>
  return %e : f32
}

// -----

// Indices folded from constants count too: the i64 constant 2^63 (written
// unsigned, 9223372036854775808) cast to index is the most negative index, and
// a sum of constants past the end is past the end.
func.func @folded_indices(%t: tensor<1xf32>) -> (f32, f32) {
  %w = arith.constant 9223372036854775808 : i64
  %i = arith.index_cast %w : i64 to index
  // expected-error @+1 {{'tensor.extract' op index -9223372036854775808 is out of bounds for dimension 0 of size 1}}
  %a = tensor.extract %t[%i] : tensor<1xf32>
  %c1 = arith.constant 1 : index
  %j = arith.addi %c1, %c1 : index
  // expected-error @+1 {{'tensor.extract' op index 2 is out of bounds for dimension 0 of size 1}}
  %b = tensor.extract %t[%j] : tensor<1xf32>
  return %a, %b : f32, f32
}

// -----

// INT32_MIN, the mutant's index, inside a loop body.
func.func @in_a_loop(%y: tensor<1xf32>, %go: i1) -> tensor<1xf32> {
  %c = arith.constant -2147483648 : index
  %r = scf.while (%a = %y) : (tensor<1xf32>) -> tensor<1xf32> {
    scf.condition(%go) %a : tensor<1xf32>
  } do {
  ^bb0(%a: tensor<1xf32>):
    // expected-error @+1 {{'tensor.extract' op index -2147483648 is out of bounds for dimension 0 of size 1}}
    %e = tensor.extract %a[%c] : tensor<1xf32>
    %t = tensor.from_elements %e : tensor<1xf32>
    scf.yield %t : tensor<1xf32>
  }
  return %r : tensor<1xf32>
}

// -----

// A dynamic dimension can be any size: only a negative index is known bad.
func.func @dynamic_dim(%t: tensor<?xf32>) -> (f32, f32) {
  %big = arith.constant 4294967296 : index
  %m1 = arith.constant -1 : index
  %a = tensor.extract %t[%big] : tensor<?xf32>
  // expected-error @+1 {{'tensor.extract' op index -1 is out of bounds for dimension 0 of dynamic size}}
  %b = tensor.extract %t[%m1] : tensor<?xf32>
  return %a, %b : f32, f32
}

// -----

// An extract_slice whose static offset is past the end.
func.func @slice_offset(%t: tensor<3x2xi32>) -> tensor<2xi32> {
  // expected-error @+1 {{'tensor.extract_slice' op slice offset 5 is out of bounds for dimension 0 of size 3}}
  %s = tensor.extract_slice %t[5, 0] [1, 2] [1, 1]
      : tensor<3x2xi32> to tensor<2xi32>
  return %s : tensor<2xi32>
}

// -----

// A huge negative stride steps out backwards.
func.func @slice_int32_min_stride(%t: tensor<3x2xi32>) -> tensor<2xi32> {
  // expected-error @+1 {{'tensor.extract_slice' op slice's last index 0 + (2 - 1) * -2147483648 = -2147483648 is out of bounds for dimension 1 of size 2}}
  %s = tensor.extract_slice %t[1, 0] [1, 2] [1, -2147483648]
      : tensor<3x2xi32> to tensor<2xi32>
  return %s : tensor<2xi32>
}

// -----

// offset + (size - 1) * stride overflows int64: out of bounds, not wrapped
// around into them.
func.func @slice_overflow(%t: tensor<3x2xi32>) -> tensor<2xi32> {
  // expected-error @+1 {{'tensor.extract_slice' op slice's last index 1 + (2 - 1) * 9223372036854775807 overflows int64 and is out of bounds for dimension 1 of size 2}}
  %s = tensor.extract_slice %t[1, 1] [1, 2] [1, 9223372036854775807]
      : tensor<3x2xi32> to tensor<2xi32>
  return %s : tensor<2xi32>
}

// -----

// An insert_slice into a static destination, one column too far.
func.func @insert_slice_end(%d: tensor<4x8xf32>, %s: tensor<2xf32>)
    -> tensor<4x8xf32> {
  // expected-error @+1 {{'tensor.insert_slice' op slice's last index 7 + (2 - 1) * 1 = 8 is out of bounds for dimension 1 of size 8}}
  %r = tensor.insert_slice %s into %d[0, 7] [1, 2] [1, 1]
      : tensor<2xf32> into tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}

// -----

// At a dynamic offset, a static size and stride can still not fit at all.
func.func @insert_slice_dynamic_offset(%d: tensor<4x8xf32>, %s: tensor<2xf32>,
                                       %i: index) -> tensor<4x8xf32> {
  // expected-error @+1 {{'tensor.insert_slice' op slice of size 2 and stride 8 does not fit in dimension 1 of size 8 at any offset}}
  %r = tensor.insert_slice %s into %d[0, %i] [1, 2] [1, 8]
      : tensor<2xf32> into tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}

// -----

// parallel_insert_slice writes into the shared output like insert_slice.
func.func @parallel_insert_slice(%d: tensor<4xf32>, %s: tensor<2xf32>)
    -> tensor<4xf32> {
  %r = scf.forall (%i) in (1) shared_outs(%o = %d) -> (tensor<4xf32>) {
    scf.forall.in_parallel {
      // expected-error @+1 {{'tensor.parallel_insert_slice' op slice offset 4 is out of bounds for dimension 0 of size 4}}
      tensor.parallel_insert_slice %s into %o[4] [2] [1]
          : tensor<2xf32> into tensor<4xf32>
    }
  }
  return %r : tensor<4xf32>
}

// -----

// Every bad op is reported, not only the first.
func.func @two_errors(%t: tensor<2xf32>, %x: f32) -> tensor<2xf32> {
  %c2 = arith.constant 2 : index
  // expected-error @+1 {{'tensor.extract' op index 2 is out of bounds for dimension 0 of size 2}}
  %e = tensor.extract %t[%c2] : tensor<2xf32>
  // expected-error @+1 {{'tensor.insert' op index 2 is out of bounds for dimension 0 of size 2}}
  %r = tensor.insert %e into %t[%c2] : tensor<2xf32>
  return %r : tensor<2xf32>
}

// -----

// In bounds, nothing is reported: the last element, dynamic indices, a
// backwards stride ending at 0, a stride that stays inside, empty slices
// (their offset may be the end), dynamic offsets that can fit, and slices
// of dynamic dimensions.
func.func @in_bounds(%t: tensor<4x8xf32>, %u: tensor<?x8xf32>, %i: index,
                     %x: f32, %s: tensor<2xf32>, %z: tensor<0xf32>)
    -> (f32, f32, tensor<4x8xf32>, tensor<2xf32>, tensor<2xf32>,
        tensor<0xf32>, tensor<4x8xf32>, tensor<2xf32>) {
  %c3 = arith.constant 3 : index
  %c7 = arith.constant 7 : index
  %big = arith.constant 1000000 : index
  %a = tensor.extract %t[%c3, %c7] : tensor<4x8xf32>
  %b = tensor.extract %t[%i, %c7] : tensor<4x8xf32>
  %r = tensor.insert %x into %t[%c3, %i] : tensor<4x8xf32>
  %s0 = tensor.extract_slice %t[3, 7] [1, 2] [1, -7]
      : tensor<4x8xf32> to tensor<2xf32>
  %s1 = tensor.extract_slice %t[0, 1] [1, 2] [1, 6]
      : tensor<4x8xf32> to tensor<2xf32>
  %s2 = tensor.extract_slice %t[4, 8] [1, 0] [1, 1]
      : tensor<4x8xf32> to tensor<0xf32>
  %r1 = tensor.insert_slice %s into %r[%i, %i] [1, 2] [1, 7]
      : tensor<2xf32> into tensor<4x8xf32>
  %s3 = tensor.extract_slice %u[%big, 6] [1, 2] [1, 1]
      : tensor<?x8xf32> to tensor<2xf32>
  return %a, %b, %r, %s0, %s1, %s2, %r1, %s3
      : f32, f32, tensor<4x8xf32>, tensor<2xf32>, tensor<2xf32>,
        tensor<0xf32>, tensor<4x8xf32>, tensor<2xf32>
}
