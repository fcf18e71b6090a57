// --backend gpu refuses divergent=gang: a GPU's warps already are gangs,
// one thread per lane. One-line errors and a non-zero exit, from the tools
// and from loom-vmap itself (target=gpu), and at a loop pinned to gang.
// RUN: not loom-compile %examples/mwe/while_of_while.mlir --backend gpu --divergent gang --emit=ptx -o %t.ptx 2>&1 | FileCheck %s --check-prefix=GANG
// RUN: not loom-opt %examples/mwe/while_of_while.mlir -loom-vmap="divergent=gang target=gpu" 2>&1 | FileCheck %s --check-prefix=PASS
// RUN: not loom-opt %s -loom-vmap=target=gpu -mlir-print-op-on-diagnostic=false 2>&1 | FileCheck %s --check-prefix=PIN

// GANG: loom-compile: --divergent gang is not available with --backend gpu: a GPU's warps already run lanes in gangs, one thread per lane (use auto or per-lane)
// PASS: error: divergent=gang is not available with target=gpu: a GPU's warps already run lanes in gangs, and each lane is a thread (use auto or per-lane)
// PIN: refusals-gang.mlir:[[@LINE+5]]:8: error: loop is pinned to loom.strategy<gang>, which is not available with target=gpu: a GPU's warps already run lanes in gangs

func.func @f(%x0: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %r = scf.while (%x = %x0) : (i32) -> i32 {
    %go = arith.cmpi sgt, %x, %c0 : i32
    scf.condition(%go) %x : i32
  } do {
  ^bb0(%x: i32):
    %x1 = arith.subi %x, %c1 : i32
    scf.yield %x1 : i32
  } attributes {loom.strategy = #loom.strategy<gang>}
  return %r : i32
}
func.func @main(%xs: tensor<?xi32>) -> tensor<?xi32> {
  %r = loom.vmap @f(%xs) in_axes [0] out_axes [0] : (tensor<?xi32>) -> tensor<?xi32>
  return %r : tensor<?xi32>
}
