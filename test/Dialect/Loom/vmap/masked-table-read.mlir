// RUN: loom-opt %s -split-input-file -loom-vmap=divergent=masked 2>/dev/null | FileCheck %s
// RUN: loom-opt %s -split-input-file -loom-vmap 2>&1 >/dev/null | FileCheck %s --check-prefix=REMARK

// A read at a lane's own index of a table every lane shares is a lane op:
// the masked loop stays one pass over the lanes per trip, the read a load
// on each lane, and a lane that has left the loop (holding the index it
// left with, here one past the table's end) reads element 0 instead.
// First a constant table.
// CHECK-LABEL: func.func private @sum_vmap_b(
// CHECK-DAG: %[[T:.*]] = arith.constant dense<[1, 2, 4, 8, 16, 32, 64, 128]> : tensor<8xi32>
// CHECK: scf.while
// CHECK: scf.for
// CHECK: %[[A:.*]] = arith.cmpi slt
// CHECK: %[[I:.*]] = arith.index_cast
// CHECK: %[[ZERO:.*]] = arith.constant 0 : index
// CHECK: %[[SAFE:.*]] = arith.select %[[A]], %[[I]], %[[ZERO]] : index
// CHECK: tensor.extract %[[T]][%[[SAFE]]] : tensor<8xi32>
// CHECK: loom.any
// CHECK: } do {
// CHECK-NEXT: ^bb0(
// CHECK-NEXT: scf.yield
// The cost model counts it apart, in the pass.
// REMARK: remark: loop is {{.*}}: predicate depends on argument #0; cost model: {{.*}}; 4 ops, 0 lane by lane, 1 table read at a lane's index, 2 carries, {{.*}}, masked in one pass
func.func private @sum(%n: i32) -> i32 {
  %t = arith.constant dense<[1, 2, 4, 8, 16, 32, 64, 128]> : tensor<8xi32>
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %r:2 = scf.while (%i = %c0, %acc = %c0) : (i32, i32) -> (i32, i32) {
    %go = arith.cmpi slt, %i, %n : i32
    scf.condition(%go) %i, %acc : i32, i32
  } do {
  ^bb0(%i: i32, %acc: i32):
    %ix = arith.index_cast %i : i32 to index
    %v = tensor.extract %t[%ix] : tensor<8xi32>
    %acc1 = arith.addi %acc, %v : i32
    %i1 = arith.addi %i, %c1 : i32
    scf.yield %i1, %acc1 : i32, i32
  }
  return %r#1 : i32
}
func.func @main(%ns: tensor<?xi32>) -> tensor<?xi32> {
  %r = loom.vmap @sum(%ns) in_axes [0] out_axes [0] : (tensor<?xi32>) -> tensor<?xi32>
  return %r : tensor<?xi32>
}

// -----

// The same with the table in an argument every lane shares (in_axes none).
// CHECK-LABEL: func.func private @sum_vmap_bu(
// CHECK-SAME: %[[TABLE:[^:]*]]: tensor<8xi32>
// CHECK: scf.while
// CHECK: scf.for
// CHECK: %[[A:.*]] = arith.cmpi slt
// CHECK: %[[I:.*]] = arith.index_cast
// CHECK: %[[ZERO:.*]] = arith.constant 0 : index
// CHECK: %[[SAFE:.*]] = arith.select %[[A]], %[[I]], %[[ZERO]] : index
// CHECK: tensor.extract %[[TABLE]][%[[SAFE]]] : tensor<8xi32>
// CHECK: loom.any
// CHECK: } do {
// CHECK-NEXT: ^bb0(
// CHECK-NEXT: scf.yield
// REMARK: remark: loop is {{.*}}; 4 ops, 0 lane by lane, 1 table read at a lane's index, 2 carries, {{.*}}, masked in one pass
func.func private @sum(%n: i32, %t: tensor<8xi32>) -> i32 {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %r:2 = scf.while (%i = %c0, %acc = %c0) : (i32, i32) -> (i32, i32) {
    %go = arith.cmpi slt, %i, %n : i32
    scf.condition(%go) %i, %acc : i32, i32
  } do {
  ^bb0(%i: i32, %acc: i32):
    %ix = arith.index_cast %i : i32 to index
    %v = tensor.extract %t[%ix] : tensor<8xi32>
    %acc1 = arith.addi %acc, %v : i32
    %i1 = arith.addi %i, %c1 : i32
    scf.yield %i1, %acc1 : i32, i32
  }
  return %r#1 : i32
}
func.func @main(%ns: tensor<?xi32>, %t: tensor<8xi32>) -> tensor<?xi32> {
  %r = loom.vmap @sum(%ns, %t) in_axes [0, none] out_axes [0] : (tensor<?xi32>, tensor<8xi32>) -> tensor<?xi32>
  return %r : tensor<?xi32>
}

// -----

// A table of each lane's own (in_axes 0) is not shared: its read is a lane
// loop of its own between the loop's passes, which skips the lanes the
// mask clears, and a lane-by-lane op to the cost model.
// CHECK-LABEL: func.func private @sum_vmap_bb(
// CHECK-SAME: %[[TABLES:[^:]*]]: tensor<?x8xi32>
// CHECK: scf.while
// CHECK: loom.any
// CHECK: } do {
// CHECK: scf.for
// CHECK: %[[OWN:.*]] = tensor.extract_slice %[[TABLES]]
// CHECK: scf.if
// CHECK: tensor.extract %[[OWN]][%{{.*}}] : tensor<8xi32>
// REMARK: remark: loop is {{.*}}; 4 ops, 1 lane by lane, 2 carries, {{.*}}
func.func private @sum(%n: i32, %t: tensor<8xi32>) -> i32 {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %r:2 = scf.while (%i = %c0, %acc = %c0) : (i32, i32) -> (i32, i32) {
    %go = arith.cmpi slt, %i, %n : i32
    scf.condition(%go) %i, %acc : i32, i32
  } do {
  ^bb0(%i: i32, %acc: i32):
    %ix = arith.index_cast %i : i32 to index
    %v = tensor.extract %t[%ix] : tensor<8xi32>
    %acc1 = arith.addi %acc, %v : i32
    %i1 = arith.addi %i, %c1 : i32
    scf.yield %i1, %acc1 : i32, i32
  }
  return %r#1 : i32
}
func.func @main(%ns: tensor<?xi32>, %ts: tensor<?x8xi32>) -> tensor<?xi32> {
  %r = loom.vmap @sum(%ns, %ts) in_axes [0, 0] out_axes [0] : (tensor<?xi32>, tensor<?x8xi32>) -> tensor<?xi32>
  return %r : tensor<?xi32>
}
