// RUN: loom-opt %s -loom-count-loop-iterations | FileCheck %s

// A loop of a timed site names the variant it runs in: the branch of the
// scf.if on the loom.variant_begin around it, or, in a function, the one
// every call of the function is in (through calls of calls). A function
// called from both variants names none, and so does a loop outside the
// site.
// CHECK: module attributes {loom.loops = [
// CHECK-SAME: {loc = "{{[^"]*}}count-loop-iterations-variants.mlir:21:{{[0-9]+}}", masked = false, variant = "gang with refill (width 8)"},
// CHECK-SAME: {loc = "{{[^"]*}}count-loop-iterations-variants.mlir:33:{{[0-9]+}}", masked = false, variant = "masked"},
// CHECK-SAME: {loc = "{{[^"]*}}count-loop-iterations-variants.mlir:45:{{[0-9]+}}", masked = false},
// CHECK-SAME: {loc = "{{[^"]*}}count-loop-iterations-variants.mlir:59:{{[0-9]+}}", masked = false, variant = "gang with refill (width 8)"},
// CHECK-SAME: {loc = "{{[^"]*}}count-loop-iterations-variants.mlir:74:{{[0-9]+}}", masked = false, variant = "gang with refill (width 8)"},
// CHECK-SAME: {loc = "{{[^"]*}}count-loop-iterations-variants.mlir:88:{{[0-9]+}}", masked = false}]}
mesh.mesh @loom_mesh(shape = 2)
func.func @entry(%n: i32, %ctx: i64 {loom.context}) -> i32 {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %alt = loom.variant_begin {names = ["masked", "gang with refill (width 8)"]}
  %r = scf.if %alt -> (i32) {
  %a = scf.while (%i = %n) : (i32) -> i32 {  // A
    %go = arith.cmpi sgt, %i, %c0 : i32
    scf.condition(%go) %i : i32
  } do {
  ^bb0(%i: i32):
    %j = arith.subi %i, %c1 : i32
    scf.yield %j : i32
  }
    %b = func.call @in_alternative(%a) : (i32) -> i32
    %c = func.call @in_both(%b) : (i32) -> i32
    scf.yield %c : i32
  } else {
  %a = scf.while (%i = %n) : (i32) -> i32 {  // B
    %go = arith.cmpi sgt, %i, %c0 : i32
    scf.condition(%go) %i : i32
  } do {
  ^bb0(%i: i32):
    %j = arith.subi %i, %c1 : i32
    scf.yield %j : i32
  }
    %c = func.call @in_both(%a) : (i32) -> i32
    scf.yield %c : i32
  }
  loom.variant_end %alt
  %s = scf.while (%i = %r) : (i32) -> i32 {  // C
    %go = arith.cmpi sgt, %i, %c0 : i32
    scf.condition(%go) %i : i32
  } do {
  ^bb0(%i: i32):
    %j = arith.subi %i, %c1 : i32
    scf.yield %j : i32
  }
  return %s : i32
}

func.func private @in_alternative(%n: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %a = scf.while (%i = %n) : (i32) -> i32 {  // D
    %go = arith.cmpi sgt, %i, %c0 : i32
    scf.condition(%go) %i : i32
  } do {
  ^bb0(%i: i32):
    %j = arith.subi %i, %c1 : i32
    scf.yield %j : i32
  }
  %b = func.call @deeper(%a) : (i32) -> i32
  return %b : i32
}

func.func private @deeper(%n: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %a = scf.while (%i = %n) : (i32) -> i32 {  // E
    %go = arith.cmpi sgt, %i, %c0 : i32
    scf.condition(%go) %i : i32
  } do {
  ^bb0(%i: i32):
    %j = arith.subi %i, %c1 : i32
    scf.yield %j : i32
  }
  return %a : i32
}

func.func private @in_both(%n: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %a = scf.while (%i = %n) : (i32) -> i32 {  // F
    %go = arith.cmpi sgt, %i, %c0 : i32
    scf.condition(%go) %i : i32
  } do {
  ^bb0(%i: i32):
    %j = arith.subi %i, %c1 : i32
    scf.yield %j : i32
  }
  return %a : i32
}
