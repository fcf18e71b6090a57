// Upstream MLIR 19 parser bug (docs/upstream-bugs.md): the custom parsers of
// linalg.broadcast (`dimensions`), linalg.transpose (`permutation`) and
// linalg.reduce (`dimensions`) store whatever DenseI64ArrayAttr::parse
// returns, without checking it: a malformed array reports its error, then a
// null attribute goes into the op's attribute list, and MLIR 19 segfaults in
// NamedAttrList::set on every run. A fixed parser stops at the error, and
// this test passes unexpectedly: then drop the XFAIL and the entry in
// test/fuzz/known-upstream.txt. Found by loom-ir-fuzzer.
// XFAIL: *
// RUN: not loom-opt %s -split-input-file -o /dev/null 2>&1 | FileCheck %s

// CHECK: error: unexpected character
func.func @broadcast(%x: tensor<4xf32>, %e: tensor<4x5xf32>) -> tensor<4x5xf32> {
  %w = linalg.broadcast ins(%x : tensor<4xf32>) outs(%e : tensor<4x5xf32>) dimensions = /[1]
  return %w : tensor<4x5xf32>
}

// -----

// CHECK: error: expected '['
func.func @transpose(%x: tensor<4x5xf32>, %e: tensor<5x4xf32>) -> tensor<5x4xf32> {
  %w = linalg.transpose ins(%x : tensor<4x5xf32>) outs(%e : tensor<5x4xf32>) permutation = x
  return %w : tensor<5x4xf32>
}

// -----

// CHECK: error: expected '['
func.func @reduce(%x: tensor<4x5xf32>, %e: tensor<4xf32>) -> tensor<4xf32> {
  %r = linalg.reduce ins(%x : tensor<4x5xf32>) outs(%e : tensor<4xf32>) dimensions = oops
    (%a: f32, %b: f32) {
      %s = arith.addf %a, %b : f32
      linalg.yield %s : f32
    }
  return %r : tensor<4xf32>
}
