// The reproducer of a constant tensor.extract index past the end in a
// vmapped helper (2^32 into a tensor<1xf32>): it compiled and segfaulted
// under loom-run, through the batched entry and the scalar one alike.
// RUN: not loom-run %s --entry f --input 0=fill:1:1xf32 > %t.scalar 2>&1
// RUN: FileCheck %s < %t.scalar && count 1 < %t.scalar
// RUN: not loom-run %s --input a=fill:1:3x1xf32 > %t.batched 2>&1
// RUN: FileCheck %s < %t.batched && count 1 < %t.batched
// RUN: not loom-opt %s -loom-vmap -loom-to-llvm 2>&1 | FileCheck %s --check-prefix=OPT

func.func @f(%x: tensor<1xf32>) -> f32 {
  %i = arith.constant 4294967296 : index
  // CHECK: {{^}}loom-run: {{.*}}oob-extract-vmapped.mlir:[[# @LINE + 2]]:8: error: 'tensor.extract' op index 4294967296 is out of bounds for dimension 0 of size 1{{$}}
  // OPT: oob-extract-vmapped.mlir:[[# @LINE + 1]]:8: error: 'tensor.extract' op index 4294967296 is out of bounds for dimension 0 of size 1
  %e = tensor.extract %x[%i] : tensor<1xf32>
  return %e : f32
}
func.func @main(%a: tensor<?x1xf32> {loom.name = "a"}) -> (tensor<?xf32> {loom.name = "r"}) {
  %r = loom.vmap @f(%a) in_axes [0] out_axes [0] : (tensor<?x1xf32>) -> tensor<?xf32>
  return %r : tensor<?xf32>
}
