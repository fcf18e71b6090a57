// RUN: loom-opt %s -loom-allow-fp-contraction | FileCheck %s
// RUN: loom-opt %s -loom-to-llvm | FileCheck %s --check-prefix=OFF
// RUN: loom-opt %s -loom-to-llvm=fp-contraction=1 | FileCheck %s --check-prefix=ON

// Contraction is per op: every arith float op gets `contract`, and keeps the
// flags it had.
// CHECK-LABEL: func.func @axpy
// CHECK: arith.mulf %{{.*}}, %{{.*}} fastmath<contract> : f32
// CHECK: arith.addf %{{.*}}, %{{.*}} fastmath<nnan,contract> : f32
// By default nothing may be fused, so every strategy computes the same bits.
// OFF: llvm.fmul %{{.*}}, %{{.*}} : f32
// OFF-NOT: contract
// ON: llvm.fmul %{{.*}}, %{{.*}} {fastmathFlags = #llvm.fastmath<contract>} : f32
// ON: llvm.fadd %{{.*}}, %{{.*}} {fastmathFlags = #llvm.fastmath<nnan, contract>} : f32
func.func @axpy(%a: f32, %x: f32, %y: f32) -> f32 {
  %m = arith.mulf %a, %x : f32
  %s = arith.addf %m, %y fastmath<nnan> : f32
  return %s : f32
}
