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
