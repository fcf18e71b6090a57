// The CPU backend's LLVM pipeline (lib/Compiler/CPU/Optimize.cpp), which the
// JIT runs too, on the MWE compiled masked for an AVX-512 CPU whose
// scheduling model has a loop buffer: only the entry's packed wrapper is
// left (the scalar @solve that batching no longer calls is deleted, not
// compiled), loops are marked against run-time unrolling, and vectors are
// kept to 256 bits.
// REQUIRES: x86_64
// RUN: loom-compile %examples/mwe/while_of_while.mlir --emit=llvm --divergent=masked --target-cpu=znver4 -o %t.ll
// RUN: FileCheck %s < %t.ll
// CHECK-NOT: define {{.*}}@solve(
// CHECK: define hidden void @_mlir_main(ptr
// CHECK-NOT: {{^}}define
// CHECK: "prefer-vector-width"="256"
// Loom's mark has an operand; the one the vectorizer puts on the remainder
// loops it makes has none.
// CHECK: !{!"llvm.loop.unroll.runtime.disable", i32 0}

// A gang's lane loops (32 lanes, known when compiled) carry no mark against
// full unrolling: the MWE's gang calls are 1.4x slower when the loop
// vectorizer takes them instead (lib/Compiler/CPU/Optimize.cpp).
// RUN: loom-compile %s --entry main --divergent=gang --emit=llvm -o %t.gang.ll
// RUN: FileCheck %s --check-prefix=GANG < %t.gang.ll
// GANG: define hidden void @_mlir_main(ptr
// GANG-NOT: llvm.loop.unroll.disable

func.func @halvings(%x0: f32) -> i32 {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %half = arith.constant 0.5 : f32
  %one = arith.constant 1.0 : f32
  %r:2 = scf.while (%x = %x0, %n = %c0) : (f32, i32) -> (f32, i32) {
    %go = arith.cmpf ogt, %x, %one : f32
    scf.condition(%go) %x, %n : f32, i32
  } do {
  ^bb0(%x: f32, %n: i32):
    %y = arith.mulf %x, %half : f32
    %m = arith.addi %n, %c1 : i32
    scf.yield %y, %m : f32, i32
  }
  return %r#1 : i32
}

func.func @main(%xs: tensor<?xf32>) -> tensor<?xi32> {
  %r = loom.vmap @halvings(%xs) in_axes [0] out_axes [0]
      : (tensor<?xf32>) -> tensor<?xi32>
  return %r : tensor<?xi32>
}
