// RUN: loom-opt %s -loom-vmap=divergent=masked -split-input-file -mlir-print-op-on-diagnostic=false 2>/dev/null | FileCheck %s --check-prefixes=CHECK,MASKED
// RUN: loom-opt %s -loom-vmap=divergent=per-lane -split-input-file -mlir-print-op-on-diagnostic=false 2>/dev/null | FileCheck %s --check-prefixes=CHECK,PERLANE

// One divergent loop. Masked, its body being elementwise: one loop over
// lanes per iteration computes each lane's predicate, selects its new
// carries into the old ones and writes the predicate on the new carries
// into the mask that loom.any reduces (a buffer that starts uninitialised);
// the after region only passes the carries on. Per-lane: a loop over lanes
// around the scalar loop, results written into the carry's init (read from
// the same tensor).
// CHECK-LABEL: func.func private @count_vmap_bu(
// CHECK-SAME: %[[X:.*]]: tensor<?xf32> {bufferization.writable = false}, %[[LIM:.*]]: f32)
// MASKED: %[[BUF:.*]] = bufferization.alloc_tensor(%{{.*}}) : tensor<?xi1>
// MASKED: %[[R:.*]]:2 = scf.while (%[[V:.*]] = %[[X]], %[[N:.*]] = %{{.*}}) : (tensor<?xf32>, tensor<?xi32>) -> (tensor<?xf32>, tensor<?xi32>) {
// MASKED: %[[F:.*]]:3 = scf.for %[[L:.*]] = {{.*}} iter_args(%[[VS:.*]] = %[[V]], %[[NS:.*]] = %[[N]], %[[M:.*]] = %[[BUF]])
// MASKED-NEXT: %[[VL:.*]] = tensor.extract %[[VS]][%[[L]]] : tensor<?xf32>
// MASKED-NEXT: %[[NL:.*]] = tensor.extract %[[NS]][%[[L]]] : tensor<?xi32>
// MASKED-NEXT: %[[A:.*]] = arith.cmpf olt, %[[VL]], %[[LIM]] : f32
// MASKED-NEXT: %[[V1:.*]] = arith.mulf %[[VL]], %{{.*}} : f32
// MASKED-NEXT: %[[N1:.*]] = arith.addi %[[NL]], %{{.*}} : i32
// MASKED-NEXT: %[[V2:.*]] = arith.select %[[A]], %[[V1]], %[[VL]] : f32
// MASKED-NEXT: %[[N2:.*]] = arith.select %[[A]], %[[N1]], %[[NL]] : i32
// MASKED-NEXT: %[[AGAIN:.*]] = arith.cmpf olt, %[[V2]], %[[LIM]] : f32
// MASKED-NEXT: %[[VI:.*]] = tensor.insert %[[V2]] into %[[VS]][%[[L]]]
// MASKED-NEXT: %[[NI:.*]] = tensor.insert %[[N2]] into %[[NS]][%[[L]]]
// MASKED-NEXT: %[[MI:.*]] = tensor.insert %[[AGAIN]] into %[[M]][%[[L]]]
// MASKED-NEXT: scf.yield %[[VI]], %[[NI]], %[[MI]]
// MASKED: %[[ANY:.*]] = loom.any %[[F]]#2 along 0 : tensor<?xi1> -> i1
// MASKED-NEXT: scf.condition(%[[ANY]]) %[[F]]#0, %[[F]]#1 : tensor<?xf32>, tensor<?xi32>
// MASKED: ^bb0(%[[V:.*]]: tensor<?xf32>, %[[N:.*]]: tensor<?xi32>):
// MASKED-NEXT: scf.yield %[[V]], %[[N]] : tensor<?xf32>, tensor<?xi32>
// MASKED: return %[[R]]#0, %[[R]]#1
// PERLANE: %[[R:.*]]:2 = scf.for %[[L:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACCV:.*]] = %[[X]], %[[ACCN:.*]] = %{{.*}}) -> (tensor<?xf32>, tensor<?xi32>) {
// PERLANE-NEXT: %[[XL:.*]] = tensor.extract %[[ACCV]][%[[L]]] : tensor<?xf32>
// PERLANE-NEXT: %[[S:.*]]:2 = scf.while (%{{.*}} = %[[XL]], %{{.*}} = %c0_i32) : (f32, i32) -> (f32, i32) {
// PERLANE: arith.cmpf olt, %{{.*}}, %[[LIM]] : f32
// PERLANE: %[[I0:.*]] = tensor.insert %[[S]]#0 into %[[ACCV]][%[[L]]] : tensor<?xf32>
// PERLANE: %[[I1:.*]] = tensor.insert %[[S]]#1 into %[[ACCN]][%[[L]]] : tensor<?xi32>
// PERLANE: scf.yield %[[I0]], %[[I1]]
// PERLANE: return %[[R]]#0, %[[R]]#1
func.func private @count(%x: f32, %lim: f32) -> (f32, i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %two = arith.constant 2.0 : f32
  %r:2 = scf.while (%v = %x, %n = %c0) : (f32, i32) -> (f32, i32) {
    %go = arith.cmpf olt, %v, %lim : f32
    scf.condition(%go) %v, %n : f32, i32
  } do {
  ^bb0(%v: f32, %n: i32):
    %v1 = arith.mulf %v, %two : f32
    %n1 = arith.addi %n, %c1 : i32
    scf.yield %v1, %n1 : f32, i32
  }
  return %r#0, %r#1 : f32, i32
}
func.func @main(%xs: tensor<?xf32>, %lim: f32) -> (tensor<?xf32>, tensor<?xi32>) {
  %r:2 = loom.vmap @count(%xs, %lim) in_axes [0, none] out_axes [0, 0]
      : (tensor<?xf32>, f32) -> (tensor<?xf32>, tensor<?xi32>)
  return %r#0, %r#1 : tensor<?xf32>, tensor<?xi32>
}

// -----

// A shared predicate: a scalar loop around a batched body; the counter and
// a carry that only meets shared values stay scalars. The vmap broadcasts
// the shared result its out_axes asks to batch.
// CHECK-LABEL: func.func private @uni_vmap_bu(
// CHECK: %[[R:.*]]:3 = scf.while (%{{.*}} = %c0_i32, %{{.*}} = %{{.*}}, %{{.*}} = %c0_i32) : (i32, tensor<?xf32>, i32) -> (i32, tensor<?xf32>, i32) {
// CHECK: arith.cmpi slt, %{{.*}}, %{{.*}} : i32
// CHECK: arith.mulf %{{.*}}, %{{.*}} : tensor<?xf32>
// CHECK: arith.addi %{{.*}}, %{{.*}} : i32
// CHECK: return %[[R]]#1, %[[R]]#2 : tensor<?xf32>, i32
// CHECK-LABEL: func.func @main
// CHECK: %[[C:.*]]:2 = call @uni_vmap_bu
// CHECK: linalg.fill ins(%[[C]]#1 : i32) outs(%{{.*}} : tensor<?xi32>)
func.func private @uni(%x: f32, %n: i32) -> (f32, i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %r:3 = scf.while (%i = %c0, %acc = %x, %k = %c0) : (i32, f32, i32) -> (i32, f32, i32) {
    %go = arith.cmpi slt, %i, %n : i32
    scf.condition(%go) %i, %acc, %k : i32, f32, i32
  } do {
  ^bb0(%i: i32, %acc: f32, %k: i32):
    %a = arith.mulf %acc, %acc : f32
    %i1 = arith.addi %i, %c1 : i32
    %k1 = arith.addi %k, %i : i32
    scf.yield %i1, %a, %k1 : i32, f32, i32
  }
  return %r#1, %r#2 : f32, i32
}
func.func @main(%xs: tensor<?xf32>, %n: i32) -> (tensor<?xf32>, tensor<?xi32>) {
  %r:2 = loom.vmap @uni(%xs, %n) in_axes [0, none] out_axes [0, 0]
      : (tensor<?xf32>, i32) -> (tensor<?xf32>, tensor<?xi32>)
  return %r#0, %r#1 : tensor<?xf32>, tensor<?xi32>
}

// -----

// Masked nesting: a uniform loop inside a masked one stays a scalar loop; a
// divergent loop inside ANDs the enclosing mask into its predicate.
// MASKED-LABEL: func.func private @nest_vmap_bu(
// MASKED: scf.while (%{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}) : (tensor<?xf32>, tensor<?xi1>)
// MASKED: ^bb0(%[[V:.*]]: tensor<?xf32>, %[[A:.*]]: tensor<?xi1>):
// MASKED: %[[U:.*]]:2 = scf.while (%{{.*}} = %c0_i32, %{{.*}} = %[[V]]) : (i32, tensor<?xf32>) -> (i32, tensor<?xf32>)
// MASKED: %[[BUF:.*]] = bufferization.alloc_tensor(%{{.*}}) : tensor<?xi1>
// MASKED: scf.while (%{{.*}} = %[[U]]#1) : (tensor<?xf32>)
// MASKED: scf.for %[[L:.*]] = {{.*}} iter_args(%[[W:.*]] = %{{.*}}, %{{.*}} = %[[BUF]]) -> (tensor<?xf32>, tensor<?xi1>) {
// MASKED-NEXT: %[[EL:.*]] = tensor.extract %[[A]][%[[L]]] : tensor<?xi1>
// MASKED-NEXT: %[[WL:.*]] = tensor.extract %[[W]][%[[L]]] : tensor<?xf32>
// MASKED-NEXT: %[[PL:.*]] = arith.cmpf olt, %[[WL]], %{{.*}} : f32
// MASKED-NEXT: %[[AND:.*]] = arith.andi %[[EL]], %[[PL]] : i1
// MASKED-NEXT: %[[NEW:.*]] = arith.addf %[[WL]], %{{.*}} : f32
// MASKED-NEXT: arith.select %[[AND]], %[[NEW]], %[[WL]] : f32
// PERLANE-LABEL: func.func private @nest_vmap_bu(
// PERLANE: scf.for
// PERLANE: scf.while {{.*}} : (f32) -> f32
// PERLANE: scf.while {{.*}} : (i32, f32) -> (i32, f32)
// PERLANE: scf.while {{.*}} : (f32) -> f32
func.func private @nest(%x: f32, %n: i32) -> f32 {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %one = arith.constant 1.0 : f32
  %r = scf.while (%v = %x) : (f32) -> f32 {
    %go = arith.cmpf olt, %v, %one : f32
    scf.condition(%go) %v : f32
  } do {
  ^bb0(%v: f32):
    %in:2 = scf.while (%i = %c0, %w = %v) : (i32, f32) -> (i32, f32) {
      %more = arith.cmpi slt, %i, %n : i32
      scf.condition(%more) %i, %w : i32, f32
    } do {
    ^bb0(%i: i32, %w: f32):
      %w1 = arith.addf %w, %w : f32
      %i1 = arith.addi %i, %c1 : i32
      scf.yield %i1, %w1 : i32, f32
    }
    %d = scf.while (%u = %in#1) : (f32) -> f32 {
      %more = arith.cmpf olt, %u, %one : f32
      scf.condition(%more) %u : f32
    } do {
    ^bb0(%u: f32):
      %u1 = arith.addf %u, %one : f32
      scf.yield %u1 : f32
    }
    scf.yield %d : f32
  }
  return %r : f32
}
func.func @main(%xs: tensor<?xf32>, %n: i32) -> tensor<?xf32> {
  %r = loom.vmap @nest(%xs, %n) in_axes [0, none] out_axes [0]
      : (tensor<?xf32>, i32) -> tensor<?xf32>
  return %r : tensor<?xf32>
}

// -----

// A buffer written at a per-lane index inside nested masked loops: one
// scalar write per active lane, in place; no select of the buffer at any
// level. A per-lane branch that writes the buffer on one side selects only
// the written column, and the else side chains onto it.
// MASKED-LABEL: func.func private @save_vmap_bb(
// MASKED: %[[OUT:.*]]:4 = scf.while
// MASKED: ^bb0(%[[T:.*]]: tensor<?xf32>, %[[YS:.*]]: tensor<?x8xf32>, %[[I:.*]]: tensor<?xindex>, %[[A:.*]]: tensor<?xi1>):
// MASKED: %[[BUF:.*]] = bufferization.alloc_tensor(%{{.*}}) : tensor<?xi1>
// MASKED: %[[IN:.*]]:3 = scf.while (%{{.*}} = %[[YS]], %{{.*}} = %[[I]], %{{.*}} = %[[BUF]])
// MASKED: ^bb0(%[[YS2:.*]]: tensor<?x8xf32>, %[[J:.*]]: tensor<?xindex>, %[[A2:.*]]: tensor<?xi1>):
// MASKED: %[[W:.*]] = scf.for %[[L:.*]] = %{{.*}} iter_args(%[[ACC:.*]] = %[[YS2]]) -> (tensor<?x8xf32>) {
// MASKED-NEXT: %[[ON:.*]] = tensor.extract %[[A2]][%[[L]]] : tensor<?xi1>
// MASKED-NEXT: scf.if %[[ON]] -> (tensor<?x8xf32>) {
// MASKED-NEXT: %[[JL:.*]] = tensor.extract %[[J]][%[[L]]] : tensor<?xindex>
// MASKED-NEXT: %[[VL:.*]] = tensor.extract %{{.*}}[%[[L]]] : tensor<?xf32>
// MASKED-NEXT: %[[INS:.*]] = tensor.insert %[[VL]] into %[[ACC]][%[[L]], %[[JL]]] : tensor<?x8xf32>
// MASKED-NEXT: scf.yield %[[INS]]
// MASKED-NEXT: } else {
// MASKED-NEXT: scf.yield %[[ACC]]
// MASKED-NOT: outs(%{{.*}} : tensor<?x8xf32>)
// MASKED: scf.yield %[[W]], %{{.*}}, %[[A2]] : tensor<?x8xf32>, tensor<?xindex>, tensor<?xi1>
// MASKED: %[[COL:.*]] = tensor.extract_slice %[[IN]]#0[0, %{{.*}}] [%{{.*}}, 1] [1, 1] : tensor<?x8xf32> to tensor<?xf32>
// MASKED: %[[SEL:.*]] = linalg.generic {{.*}} outs(%[[COL]] : tensor<?xf32>)
// MASKED: %[[BUF:.*]] = tensor.insert_slice %[[SEL]] into %[[IN]]#0
// MASKED: scf.yield %{{.*}}, %[[BUF]], %[[IN]]#1, %[[A]] : tensor<?xf32>, tensor<?x8xf32>, tensor<?xindex>, tensor<?xi1>
func.func private @save(%rate: f32, %x: f32) -> tensor<8xf32> {
  %zero = arith.constant 0.0 : f32
  %end = arith.constant 8.0 : f32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %buf = tensor.splat %zero : tensor<8xf32>
  %r:3 = scf.while (%t = %zero, %ys = %buf, %i = %c0)
      : (f32, tensor<8xf32>, index) -> (f32, tensor<8xf32>, index) {
    %go = arith.cmpf olt, %t, %end : f32
    scf.condition(%go) %t, %ys, %i : f32, tensor<8xf32>, index
  } do {
  ^bb0(%t: f32, %ys: tensor<8xf32>, %i: index):
    %tn = arith.addf %t, %rate : f32
    %in:2 = scf.while (%ys2 = %ys, %j = %i) : (tensor<8xf32>, index) -> (tensor<8xf32>, index) {
      %room = arith.cmpi ult, %j, %c8 : index
      scf.condition(%room) %ys2, %j : tensor<8xf32>, index
    } do {
    ^bb0(%ys2: tensor<8xf32>, %j: index):
      %ys3 = tensor.insert %tn into %ys2[%j] : tensor<8xf32>
      %j1 = arith.addi %j, %c1 : index
      scf.yield %ys3, %j1 : tensor<8xf32>, index
    }
    %big = arith.cmpf ogt, %tn, %x : f32
    %ys4 = scf.if %big -> tensor<8xf32> {
      %w = tensor.insert %x into %in#0[%c0] : tensor<8xf32>
      scf.yield %w : tensor<8xf32>
    } else {
      scf.yield %in#0 : tensor<8xf32>
    }
    scf.yield %tn, %ys4, %in#1 : f32, tensor<8xf32>, index
  }
  return %r#1 : tensor<8xf32>
}
func.func @main(%rates: tensor<?xf32>, %xs: tensor<?xf32>) -> tensor<?x8xf32> {
  %r = loom.vmap @save(%rates, %xs) in_axes [0, 0] out_axes [0]
      : (tensor<?xf32>, tensor<?xf32>) -> tensor<?x8xf32>
  return %r : tensor<?x8xf32>
}

// -----

// A per-lane loop inside a masked one (pinned): lanes the mask clears are
// skipped and keep their value.
// MASKED-LABEL: func.func private @mixed_vmap_b(
// MASKED: scf.while
// MASKED: } do {
// MASKED: scf.for %[[L:.*]] = {{.*}} iter_args(%[[ACC:.*]] = %{{.*}}) -> (tensor<?xf32>) {
// MASKED: %[[ON:.*]] = tensor.extract %{{.*}}[%[[L]]] : tensor<?xi1>
// MASKED: scf.if %[[ON]] -> (f32) {
// MASKED: scf.while {{.*}} : (f32) -> f32
// MASKED: } else {
// MASKED: %[[KEEP:.*]] = tensor.extract %[[ACC]][%[[L]]] : tensor<?xf32>
// MASKED: scf.yield %[[KEEP]] : f32
func.func private @mixed(%x: f32) -> f32 {
  %one = arith.constant 1.0 : f32
  %ten = arith.constant 10.0 : f32
  %r = scf.while (%v = %x) : (f32) -> f32 {
    %go = arith.cmpf olt, %v, %ten : f32
    scf.condition(%go) %v : f32
  } do {
  ^bb0(%v: f32):
    %in = scf.while (%u = %v) : (f32) -> f32 {
      %more = arith.cmpf olt, %u, %one : f32
      scf.condition(%more) %u : f32
    } do {
    ^bb0(%u: f32):
      %u1 = arith.addf %u, %u : f32
      scf.yield %u1 : f32
    } attributes {loom.strategy = #loom.strategy<per_lane>}
    %v1 = arith.addf %in, %one : f32
    scf.yield %v1 : f32
  }
  return %r : f32
}
func.func @main(%xs: tensor<?xf32>) -> tensor<?xf32> {
  %r = loom.vmap @mixed(%xs) in_axes [0] out_axes [0]
      : (tensor<?xf32>) -> tensor<?xf32>
  return %r : tensor<?xf32>
}

// -----

// A call inside a masked loop passes the loop's mask to the callee, whose
// own divergent loop ANDs it into its predicate: lanes done outside never
// run the callee's loop. A callee of plain elementwise arithmetic needs no
// mask and is batched without one.
// MASKED-LABEL: func.func private @halve_vmap_b_masked(
// MASKED-SAME: %[[X:.*]]: tensor<?xf32> {bufferization.writable = false}, %[[M:.*]]: tensor<?xi1>) -> tensor<?xf32>
// MASKED: scf.while
// MASKED: scf.for %[[L:[^ ]*]] = {{.*}} -> (tensor<?xf32>, tensor<?xi1>) {
// MASKED-NEXT: %[[E:.*]] = tensor.extract %[[M]][%[[L]]] : tensor<?xi1>
// MASKED-NEXT: %[[XL:.*]] = tensor.extract %{{.*}}[%[[L]]] : tensor<?xf32>
// MASKED-NEXT: %[[P:.*]] = arith.cmpf ogt, %[[XL]], %{{.*}} : f32
// MASKED-NEXT: arith.andi %[[E]], %[[P]] : i1
// MASKED-LABEL: func.func private @twice_vmap_b(
// MASKED-LABEL: func.func private @outer_vmap_b(
// MASKED: ^bb0(%{{.*}}: tensor<?xf32>, %{{.*}}: tensor<?xi32>, %[[A:.*]]: tensor<?xi1>):
// MASKED: call @halve_vmap_b_masked(%{{.*}}, %[[A]]) : (tensor<?xf32>, tensor<?xi1>) -> tensor<?xf32>
// MASKED: call @twice_vmap_b(%{{.*}}) : (tensor<?xf32>) -> tensor<?xf32>
func.func private @halve(%x0: f32) -> f32 {
  %one = arith.constant 1.0 : f32
  %half = arith.constant 0.5 : f32
  %r = scf.while (%x = %x0) : (f32) -> f32 {
    %go = arith.cmpf ogt, %x, %one : f32
    scf.condition(%go) %x : f32
  } do {
  ^bb0(%x: f32):
    %h = arith.mulf %x, %half : f32
    scf.yield %h : f32
  }
  return %r : f32
}
func.func private @twice(%x: f32) -> f32 {
  %y = arith.addf %x, %x : f32
  return %y : f32
}
func.func private @outer(%x0: f32) -> f32 {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c3 = arith.constant 3 : i32
  %r:2 = scf.while (%x = %x0, %n = %c0) : (f32, i32) -> (f32, i32) {
    %small = arith.cmpi slt, %n, %c3 : i32
    %pos = arith.cmpf ogt, %x, %x0 : f32
    %go = arith.ori %small, %pos : i1
    scf.condition(%go) %x, %n : f32, i32
  } do {
  ^bb0(%x: f32, %n: i32):
    %h = func.call @halve(%x) : (f32) -> f32
    %t = func.call @twice(%h) : (f32) -> f32
    %n1 = arith.addi %n, %c1 : i32
    scf.yield %t, %n1 : f32, i32
  }
  return %r#0 : f32
}
func.func @main(%xs: tensor<?xf32>) -> tensor<?xf32> {
  %r = loom.vmap @outer(%xs) in_axes [0] out_axes [0]
      : (tensor<?xf32>) -> tensor<?xf32>
  return %r : tensor<?xf32>
}
