// RUN: loom-opt %s -split-input-file -loom-vmap=divergent=masked 2>/dev/null | FileCheck %s

// In a masked loop, the divisor of arith.divsi is 1 on lanes the active
// mask clears; the dividend and active lanes are untouched. The loop is
// elementwise, so it runs as one loop over lanes per iteration, on scalars.
// CHECK-LABEL: func.func private @f_vmap_b(
// CHECK: scf.while
// CHECK: scf.for %[[LANE:.*]] = {{.*}} iter_args(%[[DS:.*]] = %{{.*}}, %{{.*}} = %{{.*}}, %{{.*}} = %{{.*}})
// CHECK-NEXT: %[[D:.*]] = tensor.extract %[[DS]][%[[LANE]]] : tensor<?xi32>
// CHECK: %[[ACTIVE:.*]] = arith.cmpi sgt, %[[D]], %{{.*}} : i32
// CHECK-NEXT: %[[ONE:.*]] = arith.constant 1 : i32
// CHECK-NEXT: %[[SAFE:.*]] = arith.select %[[ACTIVE]], %[[D]], %[[ONE]] : i32
// CHECK-NEXT: arith.divsi %{{.*}}, %[[SAFE]] : i32
func.func @f(%x: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c100 = arith.constant 100 : i32
  %r:2 = scf.while (%d = %x, %acc = %c0) : (i32, i32) -> (i32, i32) {
    %go = arith.cmpi sgt, %d, %c0 : i32
    scf.condition(%go) %d, %acc : i32, i32
  } do {
  ^bb0(%d: i32, %acc: i32):
    %q = arith.divsi %c100, %d : i32
    %a = arith.addi %acc, %q : i32
    %d1 = arith.subi %d, %c1 : i32
    scf.yield %d1, %a : i32, i32
  }
  return %r#1 : i32
}
func.func @main(%a: tensor<?xi32>) -> tensor<?xi32> {
  %r = loom.vmap @f(%a) in_axes [0] out_axes [0] : (tensor<?xi32>) -> tensor<?xi32>
  return %r : tensor<?xi32>
}

// -----

// Both sides of a per-lane branch run on every lane: each side's divisor is
// selected under that side's mask (then: c, else: !c); a division outside
// any mask is left alone, as every lane runs it in the scalar program too,
// and so is one by a constant that traps on no lane (7; but not -1, whose
// signed division traps on INT_MIN).
// CHECK-LABEL: func.func private @g_vmap_bb(
// CHECK-SAME: %[[X:[^:]*]]: tensor<?xi32>
// CHECK: %[[SEVEN:.*]] = linalg.fill ins(%c7_i32 : i32)
// CHECK: %[[C:.*]] = arith.cmpi ne, %[[X]], %{{.*}} : tensor<?xi32>
// CHECK: %[[NOTC:.*]] = arith.xori %[[C]], %{{.*}} : tensor<?xi1>
// CHECK: %[[T:.*]] = linalg.generic {{.*}} ins(%[[C]], %[[X]] : tensor<?xi1>, tensor<?xi32>)
// CHECK: arith.select
// CHECK: arith.ceildivsi %{{.*}}, %[[T]] : tensor<?xi32>
// CHECK: %[[E:.*]] = linalg.generic {{.*}} ins(%[[NOTC]], %{{.*}} : tensor<?xi1>, tensor<?xi32>)
// CHECK: arith.select
// CHECK: %[[Q0:.*]] = arith.floordivsi %{{.*}}, %[[E]] : tensor<?xi32>
// CHECK-NEXT: arith.floordivsi %[[Q0]], %[[SEVEN]] : tensor<?xi32>
// CHECK: arith.remui %{{.*}}, %[[X]] : tensor<?xi32>
func.func @g(%x: i32, %n: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %c7 = arith.constant 7 : i32
  %cm1 = arith.constant -1 : i32
  %nz = arith.cmpi ne, %x, %c0 : i32
  %r = scf.if %nz -> i32 {
    %q = arith.ceildivsi %n, %x : i32
    scf.yield %q : i32
  } else {
    %q0 = arith.floordivsi %n, %cm1 : i32
    %q = arith.floordivsi %q0, %c7 : i32
    scf.yield %q : i32
  }
  %u = arith.remui %r, %x : i32
  return %u : i32
}
func.func @g_main(%a: tensor<?xi32>, %b: tensor<?xi32>) -> tensor<?xi32> {
  %r = loom.vmap @g(%a, %b) in_axes [0, 0] out_axes [0] : (tensor<?xi32>, tensor<?xi32>) -> tensor<?xi32>
  return %r : tensor<?xi32>
}

// -----

// A division every lane shares, in a per-lane branch that no lane may
// take: its divisor is 1 unless some lane takes the branch.
// CHECK-LABEL: func.func private @h_vmap_bu(
// CHECK-SAME: %[[X:[^:]*]]: tensor<?xi32> {{.*}}, %[[N:[^:]*]]: i32
// CHECK: %[[BIG:.*]] = arith.cmpi sgt, %[[X]], %{{.*}} : tensor<?xi32>
// CHECK: %[[ANY:.*]] = loom.any %[[BIG]] along 0 : tensor<?xi1> -> i1
// CHECK: %[[ONE:.*]] = arith.constant 1 : i32
// CHECK: %[[SAFE:.*]] = arith.select %[[ANY]], %[[N]], %[[ONE]] : i32
// CHECK: arith.divsi %{{.*}}, %[[SAFE]] : i32
func.func @h(%x: i32, %n: i32) -> i32 {
  %c100 = arith.constant 100 : i32
  %big = arith.cmpi sgt, %x, %c100 : i32
  %r = scf.if %big -> i32 {
    %q = arith.divsi %c100, %n : i32
    %s = arith.addi %x, %q : i32
    scf.yield %s : i32
  } else {
    scf.yield %x : i32
  }
  return %r : i32
}
func.func @h_main(%a: tensor<?xi32>, %n: i32) -> tensor<?xi32> {
  %r = loom.vmap @h(%a, %n) in_axes [0, none] out_axes [0] : (tensor<?xi32>, i32) -> tensor<?xi32>
  return %r : tensor<?xi32>
}
