// RUN: loom-opt %s --split-input-file --loom-pipeline='divergent=masked' 2>/dev/null | FileCheck %s
// RUN: loom-opt %s --split-input-file --loom-pipeline='divergent=auto' 2>&1 >/dev/null | FileCheck %s --check-prefix=REMARK

// An scf.if on scalars inside a masked loop keeps the loop in one pass over
// the lanes: both branches run on every lane and a select picks each
// result, as an if-converting vectorizer does. The division may trap only
// on the lanes that take its branch, so its divisor is made safe (1) on
// the others: those the loop does not run, and those whose `d` is 0.
// CHECK-LABEL: func.func private @step_vmap_bb(
// CHECK-NOT: scf.if
// CHECK: scf.while
// CHECK: scf.for
// CHECK: %[[X:.*]] = tensor.extract
// CHECK: %[[D:.*]] = tensor.extract
// CHECK: %[[ACTIVE:.*]] = arith.cmpi sgt, %[[X]]
// CHECK: %[[NZ:.*]] = arith.cmpi ne, %[[D]]
// CHECK: %[[TAKEN:.*]] = arith.andi %[[ACTIVE]], %[[NZ]] : i1
// CHECK: %[[SAFE:.*]] = arith.select %[[TAKEN]], %[[D]], %{{.*}} : i32
// CHECK: arith.divsi %{{.*}}, %[[SAFE]] : i32
// CHECK: %[[THEN:.*]] = arith.shrsi
// CHECK: %[[ELSE:.*]] = arith.subi %[[X]]
// CHECK: %[[Y:.*]] = arith.select %[[NZ]], %[[THEN]], %[[ELSE]] : i32
// CHECK: arith.select %[[ACTIVE]], %[[Y]], %[[X]] : i32
// CHECK: loom.any
// CHECK-NOT: scf.if
// CHECK-LABEL: func.func @main(
// REMARK: remark: loop is {{.*}}masked in one pass
func.func private @step(%x0: i32, %d0: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c100 = arith.constant 100 : i32
  %r:2 = scf.while (%x = %x0, %d = %d0) : (i32, i32) -> (i32, i32) {
    %go = arith.cmpi sgt, %x, %c1 : i32
    scf.condition(%go) %x, %d : i32, i32
  } do {
  ^bb0(%x: i32, %d: i32):
    %nz = arith.cmpi ne, %d, %c0 : i32
    %y = scf.if %nz -> (i32) {
      %q = arith.divsi %c100, %d : i32
      %s = arith.addi %x, %q : i32
      %t = arith.shrsi %s, %c1 : i32
      scf.yield %t : i32
    } else {
      %t = arith.subi %x, %c1 : i32
      scf.yield %t : i32
    }
    %d1 = arith.subi %d, %c1 : i32
    scf.yield %y, %d1 : i32, i32
  }
  return %r#0 : i32
}
func.func @main(%xs: tensor<?xi32>, %ds: tensor<?xi32>) -> tensor<?xi32> {
  %r = loom.vmap @step(%xs, %ds) in_axes [0, 0] out_axes [0]
      : (tensor<?xi32>, tensor<?xi32>) -> tensor<?xi32>
  return %r : tensor<?xi32>
}

// -----

// In the outer level of a nest, a branch on the inner loop's result joins
// the lane loop after the inner loop (the nest form), if-converted the same
// way: its remainder is trap-safe off the lanes that take it, and its else
// branch yields the inner loop's result, read at the lane.
// CHECK-LABEL: func.func private @nest_vmap_b(
// CHECK-NOT: scf.if
// CHECK: scf.while
// CHECK: scf.while
// CHECK: scf.condition
// CHECK: scf.for
// CHECK: %[[ACTIVE:.*]] = tensor.extract %{{.*}} : tensor<?xi1>
// CHECK: %[[SUM:.*]] = tensor.extract %{{.*}}#1[
// CHECK: %[[ODD:.*]] = arith.andi %[[SUM]]
// CHECK: %[[ISODD:.*]] = arith.cmpi ne, %[[ODD]]
// CHECK: %[[TAKEN:.*]] = arith.andi %[[ACTIVE]], %[[ISODD]] : i1
// CHECK: %[[SAFE:.*]] = arith.select %[[TAKEN]], %[[ODD]], %{{.*}} : i32
// CHECK: arith.remsi %{{.*}}, %[[SAFE]] : i32
// CHECK: %[[THEN:.*]] = arith.addi %[[SUM]]
// CHECK: arith.select %[[ISODD]], %[[THEN]], %[[SUM]] : i32
// CHECK-NOT: scf.if
// CHECK-LABEL: func.func @main(
// REMARK: remark: loop is {{.*}}masked in one pass
func.func private @nest(%n0: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c7 = arith.constant 7 : i32
  %r:2 = scf.while (%n = %n0, %acc = %c0) : (i32, i32) -> (i32, i32) {
    %go = arith.cmpi sgt, %n, %c0 : i32
    scf.condition(%go) %n, %acc : i32, i32
  } do {
  ^bb0(%n: i32, %acc: i32):
    %m:2 = scf.while (%k = %n, %s = %c0) : (i32, i32) -> (i32, i32) {
      %more = arith.cmpi sgt, %k, %c0 : i32
      scf.condition(%more) %k, %s : i32, i32
    } do {
    ^bb0(%k: i32, %s: i32):
      %k1 = arith.subi %k, %c1 : i32
      %s1 = arith.addi %s, %k : i32
      scf.yield %k1, %s1 : i32, i32
    }
    %odd = arith.andi %m#1, %c1 : i32
    %isodd = arith.cmpi ne, %odd, %c0 : i32
    %v = scf.if %isodd -> (i32) {
      %q = arith.remsi %c7, %odd : i32
      %w = arith.addi %m#1, %q : i32
      scf.yield %w : i32
    } else {
      scf.yield %m#1 : i32
    }
    %acc1 = arith.addi %acc, %v : i32
    %n1 = arith.subi %n, %c1 : i32
    scf.yield %n1, %acc1 : i32, i32
  }
  return %r#1 : i32
}
func.func @main(%ns: tensor<?xi32>) -> tensor<?xi32> {
  %r = loom.vmap @nest(%ns) in_axes [0] out_axes [0]
      : (tensor<?xi32>) -> tensor<?xi32>
  return %r : tensor<?xi32>
}
