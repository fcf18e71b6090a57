// Upstream MLIR 19 parser bug (docs/upstream-bugs.md): an scf.forall whose
// body ends in a terminator other than scf.forall.in_parallel. The custom
// parser calls ForallOp::ensureTerminator on the parsed body, which takes the
// foreign terminator for a missing one and dereferences null: MLIR 19
// segfaults on every run. A fixed parser (or verifier) reports an error, and
// this test passes unexpectedly: then drop the XFAIL and the entry in
// test/fuzz/known-upstream.txt. Found by loom-ir-fuzzer.
// XFAIL: *
// RUN: not loom-opt %s -o /dev/null 2>&1 | FileCheck %s
// CHECK: error:

func.func @f(%d: tensor<4xf32>) -> tensor<4xf32> {
  %r = scf.forall (%i) in (1) shared_outs(%o = %d) -> (tensor<4xf32>) {
    scf.yield
  }
  return %r : tensor<4xf32>
}
