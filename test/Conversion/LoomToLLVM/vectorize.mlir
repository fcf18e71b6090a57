// Vectorization where it pays is LLVM's: loom-to-llvm lowers batched
// elementwise work (here a fused multiply-add and the masked select of a
// masked loop body) to plain loops over lanes, and the JIT's O3 pipeline,
// which knows the host, vectorizes them. This runs the same LLVM passes for
// an AVX2 host and checks the lane loops became vector loops. The result's
// buffer comes from aligned_alloc, so LLVM knows it overlaps no argument
// and the vector loop needs no run-time overlap check (with malloc and an
// aligned inttoptr it had 15 lines of them).
// REQUIRES: x86_64
// RUN: loom-opt %s -loom-to-llvm | mlir-translate --mlir-to-llvmir | opt -O3 -S -mtriple=x86_64-unknown-linux-gnu -mcpu=x86-64-v3 | FileCheck %s

// CHECK-LABEL: define {{.*}} @masked_update(
// CHECK: call {{.*}} @aligned_alloc(
// CHECK-NOT: memcheck
// CHECK-NOT: conflict
// CHECK: fmul <8 x float>
// CHECK: fadd <8 x float>
// CHECK: select <8 x i1> %{{.*}}, <8 x float>
func.func @masked_update(%a: f32, %x: tensor<?xf32>, %y: tensor<?xf32>,
                         %active: tensor<?xi1>) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?xf32>
  %e = tensor.empty(%n) : tensor<?xf32>
  %av = linalg.fill ins(%a : f32) outs(%e : tensor<?xf32>) -> tensor<?xf32>
  %m = arith.mulf %av, %x : tensor<?xf32>
  %s = arith.addf %m, %y : tensor<?xf32>
  %r = arith.select %active, %s, %y : tensor<?xi1>, tensor<?xf32>
  return %r : tensor<?xf32>
}
