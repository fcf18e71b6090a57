// RUN: loom-opt %s -loom-annotate-batch-axes -loom-vmap -loom-to-llvm 2>/dev/null | FileCheck %s
// RUN: loom-opt %s -loom-annotate-batch-axes -loom-vmap=divergent=per-lane -loom-shard=shards=2 -loom-to-llvm 2>/dev/null | FileCheck %s

// No copy reaches the LLVM dialect as a call of memrefCopy, which only
// MLIR's C runner utils define: the vmapped loop below inserts each lane's
// element into a strided column of the batch buffer (the copy that made the
// JIT fail with "Symbols not found: [ memrefCopy ]").
// CHECK-NOT: memrefCopy

func.func private @f(%x: f32) -> tensor<4x1xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %init = arith.constant dense<0.0> : tensor<4x1xf32>
  %r = scf.for %k = %c0 to %c4 step %c1 iter_args(%b = %init) -> (tensor<4x1xf32>) {
    %n = tensor.insert %x into %b[%k, %c0] : tensor<4x1xf32>
    scf.yield %n : tensor<4x1xf32>
  }
  return %r : tensor<4x1xf32>
}
func.func @main(%xs: tensor<?xf32>) -> tensor<?x4x1xf32> {
  %r = loom.vmap @f(%xs) in_axes [0] out_axes [0] : (tensor<?xf32>) -> tensor<?x4x1xf32>
  return %r : tensor<?x4x1xf32>
}

// A copy between contiguous buffers is still one memcpy, not loops.
// CHECK-LABEL: llvm.func @contiguous
// CHECK-NOT: llvm.br
// CHECK: "llvm.intr.memcpy"
// CHECK-NOT: llvm.br
// CHECK: llvm.return
func.func @contiguous(%a: memref<?x8xf32>, %b: memref<?x8xf32>) {
  memref.copy %a, %b : memref<?x8xf32> to memref<?x8xf32>
  return
}
