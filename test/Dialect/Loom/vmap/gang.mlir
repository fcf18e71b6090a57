// RUN: loom-opt %s -loom-vmap="divergent=gang gang-width=4" -split-input-file -verify-diagnostics | FileCheck %s
// RUN: loom-opt %s -loom-vmap="divergent=gang gang-width=4 refill=1" -split-input-file -mlir-print-op-on-diagnostic=false -o %t 2>&1 | FileCheck %s --check-prefix=REFILL-REMARK
// RUN: FileCheck %s --check-prefix=REFILL < %t

// divergent=gang: the outermost divergent loop runs in gangs of gang-width
// lanes. The loop is outlined and batched at 4 lanes under a mask; each gang
// gathers its lanes (the index clamped to the last lane, so padding lanes of
// the tail gang hold a real lane's state), calls that clone under the mask
// (lane < n), and writes its kept lanes back into the results, which start
// from the carries' inits. The outlined scalar function is erased.

// CHECK-NOT: func.func private @count_gang(
// CHECK-LABEL: func.func private @count_gang_vmap_bu_4_masked_gang(
// CHECK-SAME: %{{.*}}: tensor<4xi32> {bufferization.writable = false}, %{{.*}}: i32, %[[M:.*]]: tensor<4xi1>) -> (tensor<4xi32>, tensor<4xi32>)
// CHECK: scf.while
// CHECK: tensor.extract %[[M]]
// CHECK: } attributes {loom.strategy = #loom.strategy<masked>}
// With 3 lanes, static, one gang holds them all: one masked loop.
// CHECK-LABEL: func.func private @count_vmap_b_3(
// CHECK-NOT: func.call
// CHECK: } attributes {loom.strategy = #loom.strategy<masked>}
// CHECK-LABEL: func.func private @count_vmap_b(
// CHECK-SAME: %[[XS:.*]]: tensor<?xi32>
// CHECK-DAG: %[[C4:.*]] = arith.constant 4 : index
// CHECK-DAG: %[[N:.*]] = tensor.dim %[[XS]], %c0
// CHECK: scf.for %[[START:.*]] = %{{.*}} to %[[N]] step %[[C4]] iter_args(
// CHECK: %[[LAST:.*]] = arith.subi %[[N]], %c1
// CHECK: %[[G:.*]]:2 = scf.for %[[I:.*]] = {{.*}} iter_args({{.*}}) -> (tensor<4xi32>, tensor<4xi1>)
// CHECK: %[[LANE:.*]] = arith.addi %[[START]], %[[I]]
// CHECK: %[[SRC:.*]] = arith.minui %[[LANE]], %[[LAST]]
// CHECK: tensor.extract %[[XS]][%[[SRC]]]
// CHECK: arith.cmpi ult, %[[LANE]], %[[N]]
// CHECK: %[[R:.*]]:2 = func.call @count_gang_vmap_bu_4_masked_gang(%[[G]]#0, %{{.*}}, %[[G]]#1)
// CHECK: scf.for
// CHECK: %[[KEEP:.*]] = tensor.extract %[[G]]#1
// CHECK: scf.if %[[KEEP]]
// CHECK: tensor.extract %[[R]]#0
// CHECK: tensor.insert

// refill=1: 4 slots. The first gang fills them (lanes 0 .. 3, clamped),
// then each slot that holds no lane (padding, or a lane the enclosing mask
// clears) takes the next lane. While a slot is live, a loop of lane ops
// runs each trip as one pass over the slots (the fused form): a live slot's
// predicate, its step where the predicate holds, selected into the carries
// in place, and whether its lane leaves. Then, over the leaving slots only,
// as the set bits of an i64 (ctpop trips, cttz the slot, the lowest bit
// cleared): the lane's carries, which are its results, are written at its
// lane, and the slot takes the next lane if one is left. A batch of 0
// skips it all.
// REFILL-REMARK: remark: loop is gang (width 4, refill): predicate depends on carry #0, batched through argument #0; divergent=gang
// REFILL-NOT: func.func private @count_gang_before
// REFILL-LABEL: func.func private @count_vmap_b(
// REFILL-SAME: %[[XS:[^:]*]]: tensor<?xi32>
// REFILL: %[[N:.*]] = tensor.dim %[[XS]]
// REFILL: %[[ANY:.*]] = arith.cmpi ugt, %[[N]], %{{.*}} : index
// REFILL: scf.if %[[ANY]]
// REFILL: %[[GATHER:.*]]:3 = scf.for
// REFILL: %[[NEXT:.*]] = arith.minui %{{.*}}, %[[N]] : index
// REFILL: %[[PENDING0:.*]] = arith.cmpi ult, %[[NEXT]], %[[N]] : index
// REFILL: %[[IDLE:.*]] = arith.xori %[[GATHER]]#2, %{{.*}} : tensor<4xi1>
// REFILL: %[[IDLEBITS:.*]] = scf.for {{.*}} -> (i64) {
// REFILL: tensor.extract %[[IDLE]]
// REFILL: %[[NIDLE:.*]] = math.ctpop %[[IDLEBITS]] : i64
// REFILL: %[[NIDLE2:.*]] = arith.index_castui %[[NIDLE]]
// REFILL: %[[TRIPS0:.*]] = arith.select %[[PENDING0]], %[[NIDLE2]], %{{.*}} : index
// REFILL: %[[FILLED:.*]]:6 = scf.for %{{.*}} = %{{.*}} to %[[TRIPS0]] {{.*}} iter_args(%{{.*}} = %[[IDLEBITS]], %{{.*}} = %[[GATHER]]#0, %{{.*}} = %[[GATHER]]#1, %{{.*}}, %{{.*}} = %[[GATHER]]#2, %{{.*}} = %[[NEXT]])
// REFILL: math.cttz
// REFILL: %[[BUSY0:.*]] = loom.any %[[FILLED]]#4 along 0 : tensor<4xi1> -> i1
// REFILL: scf.while ({{.*}}%[[LIVE:[^ ]*]] = %[[FILLED]]#4, %{{.*}} = %[[FILLED]]#5, {{.*}}, %[[BUSYARG:[^ ]*]] = %[[BUSY0]])
// REFILL-NEXT: scf.condition(%[[BUSYARG]])
// REFILL: } do {
// REFILL: ^bb0(%[[C0:[^:]*]]: tensor<4xi32>, %[[C1:[^:]*]]: tensor<4xi32>, %[[LANES:[^:]*]]: tensor<4xindex>, %[[L:[^:]*]]: tensor<4xi1>, %[[PEND:[^:]*]]: index,
// REFILL-NOT: func.call
// REFILL: %[[PASS:[^ ]*]]:5 = scf.for %[[S:[^ ]*]] = {{.*}} iter_args(%[[A0:[^ ]*]] = %[[C0]], %[[A1:[^ ]*]] = %[[C1]], %[[AL:[^ ]*]] = %[[L]], %[[W:[^ ]*]] = %{{.*}}, %[[GO:[^ ]*]] = %false)
// REFILL: %[[LIVE1:.*]] = tensor.extract %[[AL]][%[[S]]] : tensor<4xi1>
// REFILL: %[[X:.*]] = tensor.extract %[[A0]][%[[S]]]
// REFILL: %[[P:.*]] = arith.cmpi sgt, %[[X]]
// REFILL: %[[ACT:.*]] = arith.andi %[[LIVE1]], %[[P]] : i1
// REFILL: arith.select %[[ACT]]
// REFILL: arith.select %[[ACT]]
// REFILL: tensor.insert %[[ACT]] into %[[AL]][%[[S]]]
// REFILL: %[[NOTP:.*]] = arith.xori %[[P]]
// REFILL: %[[LEAVE:.*]] = arith.andi %[[LIVE1]], %[[NOTP]] : i1
// REFILL: %[[LEAVE64:.*]] = arith.extui %[[LEAVE]] : i1 to i64
// REFILL: %[[BIT:.*]] = arith.shli %[[LEAVE64]]
// REFILL: arith.ori %[[W]], %[[BIT]] : i64
// REFILL: arith.ori %[[GO]], %[[ACT]] : i1
// REFILL: %[[COUNT:.*]] = math.ctpop %[[PASS]]#3 : i64
// REFILL: %[[TRIPS:.*]] = arith.index_castui %[[COUNT]]
// REFILL: %[[REFILLED:.*]]:8 = scf.for %{{.*}} = %{{.*}} to %[[TRIPS]] {{.*}} iter_args(%[[B:[^ ]*]] = %[[PASS]]#3, %[[R0:[^ ]*]] = %[[PASS]]#0, %{{.*}} = %[[PASS]]#1, %[[RL:[^ ]*]] = %[[LANES]], %{{.*}} = %[[PASS]]#2, %[[PEND2:[^ ]*]] = %[[PEND]],
// REFILL: %[[LOW:.*]] = math.cttz %[[B]] : i64
// REFILL: %[[LOWI:.*]] = arith.index_castui %[[LOW]]
// REFILL: %[[SL:.*]] = arith.addi %{{.*}}, %[[LOWI]] : index
// REFILL: %[[REST:.*]] = arith.andi %[[B]], %{{.*}} : i64
// REFILL: %[[LANE:.*]] = tensor.extract %[[RL]][%[[SL]]] : tensor<4xindex>
// REFILL: %[[RES:.*]] = tensor.extract %[[R0]][%[[SL]]]
// REFILL: tensor.insert %[[RES]] into %{{.*}}[%[[LANE]]] : tensor<?xi32>
// REFILL: %[[TAKE:.*]] = arith.cmpi ult, %[[PEND2]], %[[N]] : index
// REFILL: scf.if %[[TAKE]]
// REFILL: tensor.extract %[[XS]][%[[PEND2]]] : tensor<?xi32>
// REFILL: tensor.insert %[[PEND2]] into %{{.*}}[%[[SL]]] : tensor<4xindex>
// REFILL: tensor.insert %true into %{{.*}}[%[[SL]]] : tensor<4xi1>
// REFILL: arith.addi %[[PEND2]], %c1
// REFILL: scf.yield %[[REST]],
// REFILL: %[[TOOK:.*]] = arith.cmpi ne, %[[REFILLED]]#5, %[[PEND]] : index
// REFILL: %[[BUSY:.*]] = arith.ori %[[PASS]]#4, %[[TOOK]] : i1
// REFILL: scf.yield {{.*}}, %[[BUSY]] :
// REFILL: } attributes {loom.lane_mask = 3 : i64, loom.strategy = #loom.strategy<gang>}
// REFILL: } else {
// REFILL-NEXT: scf.yield %[[XS]]

func.func @count(%x0: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  // expected-remark @+2 {{loop is gang (width 4): predicate depends on carry #0, batched through argument #0; divergent=gang; its 3 lanes fit in one gang: one masked loop}}
  // expected-remark @+1 {{loop is gang (width 4): predicate depends on carry #0, batched through argument #0; divergent=gang}}
  %r:2 = scf.while (%x = %x0, %n = %c0) : (i32, i32) -> (i32, i32) {
    %go = arith.cmpi sgt, %x, %c0 : i32
    scf.condition(%go) %x, %n : i32, i32
  } do {
  ^bb0(%x: i32, %n: i32):
    %x1 = arith.subi %x, %c1 : i32
    %n1 = arith.addi %n, %c1 : i32
    scf.yield %x1, %n1 : i32, i32
  }
  return %r#1 : i32
}
func.func @main(%xs: tensor<?xi32>) -> tensor<?xi32> {
  %r = loom.vmap @count(%xs) in_axes [0] out_axes [0] : (tensor<?xi32>) -> tensor<?xi32>
  return %r : tensor<?xi32>
}
func.func @main3(%xs: tensor<3xi32>) -> tensor<3xi32> {
  %r = loom.vmap @count(%xs) in_axes [0] out_axes [0] : (tensor<3xi32>) -> tensor<3xi32>
  return %r : tensor<3xi32>
}

// -----

// A nest: the gang is decided at the outermost loop; the loops nested in it
// run masked on the gang's 4 lanes, a pin to per-lane is honoured. A gang
// under an enclosing mask (a per-lane branch) ANDs that mask in at each
// gathered lane, and the lanes it clears keep their init.

// refill=1 on a loop that is not all lane ops (a nest): its before and
// after blocks are outlined and batched at the gang's width. The before
// block gives the predicate on the slots; over the leaving slots' set bits,
// each lane's results go to its lane; the after block runs under the slots
// still running; then over the same bits each leaving slot takes the next
// lane.
// REFILL-LABEL: func.func private @nest_vmap_bu(
// REFILL: scf.while
// REFILL: } do {
// REFILL: %[[NP:.*]]:3 = func.call @nest_gang_before_vmap_bbu_4_masked_gang(
// REFILL: %[[NLEAVING:.*]] = arith.andi %{{.*}}, %{{.*}} : tensor<4xi1>
// REFILL: %[[NACTIVE:.*]] = arith.andi %{{.*}}, %[[NP]]#0 : tensor<4xi1>
// REFILL: %[[NBITS:.*]] = scf.for {{.*}} -> (i64) {
// REFILL: tensor.extract %[[NLEAVING]]
// REFILL: math.ctpop %[[NBITS]]
// REFILL: math.cttz
// REFILL: tensor.insert %{{.*}} into %{{.*}}[%{{.*}}] : tensor<?xi32>
// REFILL: func.call @nest_gang_after_vmap_bbu_4_masked_gang(%[[NP]]#1, %[[NP]]#2, %{{.*}}, %[[NACTIVE]])
// REFILL: math.ctpop %[[NBITS]]
// REFILL: math.cttz
// REFILL: } attributes {loom.lane_mask = {{[0-9]+}} : i64, loom.strategy = #loom.strategy<gang>}

// CHECK-LABEL: func.func private @nest_gang_vmap_buu_4_masked_gang(
// CHECK: } attributes {loom.strategy = #loom.strategy<masked>}
// CHECK: } attributes {loom.strategy = #loom.strategy<per_lane>}
// CHECK: } attributes {loom.strategy = #loom.strategy<masked>}
// CHECK-LABEL: func.func private @under_branch_vmap_b(
// CHECK: scf.for
// CHECK: %[[MASK:.*]] = tensor.extract %{{.*}}[%[[SRC:.*]]] : tensor<?xi1>
// CHECK: arith.andi %{{.*}}, %[[MASK]] : i1
// CHECK: func.call @under_branch_gang_vmap_bb_4_masked_gang(

func.func @nest(%x0: i32, %k: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  // expected-remark @+1 {{loop is gang (width 4): predicate depends on carry #0, batched through argument #0; divergent=gang}}
  %r:2 = scf.while (%x = %x0, %n = %c0) : (i32, i32) -> (i32, i32) {
    %go = arith.cmpi sgt, %x, %c0 : i32
    scf.condition(%go) %x, %n : i32, i32
  } do {
  ^bb0(%x: i32, %n: i32):
    // expected-remark @+1 {{loop is masked: it runs inside a gang of 4 lanes, on the gang's lanes}}
    %m = scf.while (%y = %x) : (i32) -> i32 {
      %more = arith.cmpi sgt, %y, %k : i32
      scf.condition(%more) %y : i32
    } do {
    ^bb0(%y: i32):
      %y1 = arith.subi %y, %c1 : i32
      scf.yield %y1 : i32
    }
    // expected-remark @+1 {{loop is per-lane: predicate depends on carry #0, batched through argument #0; pinned by loom.strategy, inside a gang}}
    %p = scf.while (%y = %x) : (i32) -> i32 {
      %more = arith.cmpi sgt, %y, %c1 : i32
      scf.condition(%more) %y : i32
    } do {
    ^bb0(%y: i32):
      %y1 = arith.subi %y, %c1 : i32
      scf.yield %y1 : i32
    } attributes {loom.strategy = #loom.strategy<per_lane>}
    %x1 = arith.subi %x, %c1 : i32
    %n1 = arith.addi %n, %m : i32
    %n2 = arith.addi %n1, %p : i32
    scf.yield %x1, %n2 : i32, i32
  }
  return %r#1 : i32
}
func.func @under_branch(%x0: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %pos = arith.cmpi sgt, %x0, %c1 : i32
  %r = scf.if %pos -> i32 {
    // expected-remark @+1 {{loop is gang (width 4): predicate depends on carry #0, batched through argument #0; divergent=gang}}
    %w = scf.while (%x = %x0) : (i32) -> i32 {
      %go = arith.cmpi sgt, %x, %c1 : i32
      scf.condition(%go) %x : i32
    } do {
    ^bb0(%x: i32):
      %x1 = arith.divsi %x, %x0 : i32
      scf.yield %x1 : i32
    }
    scf.yield %w : i32
  } else {
    scf.yield %c0 : i32
  }
  return %r : i32
}
func.func @main(%xs: tensor<?xi32>, %k: i32) -> (tensor<?xi32>, tensor<?xi32>) {
  %r = loom.vmap @nest(%xs, %k) in_axes [0, none] out_axes [0] : (tensor<?xi32>, i32) -> tensor<?xi32>
  %s = loom.vmap @under_branch(%xs) in_axes [0] out_axes [0] : (tensor<?xi32>) -> tensor<?xi32>
  return %r, %s : tensor<?xi32>, tensor<?xi32>
}
