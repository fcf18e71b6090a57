// RUN: loom-opt %s -split-input-file -loom-vmap=divergent=per-lane -mlir-print-op-on-diagnostic=false -verify-diagnostics 2>/dev/null | FileCheck %s

// A per-lane loop over a tensor<?xf32> lane: each lane's slice and its
// write-back are sized by the batch's trailing axis (tensor.dim), not by a
// static size.
// CHECK-LABEL: func.func private @lane_vmap_bu(
// CHECK-SAME: %[[A:.*]]: tensor<?x?xf32>
// CHECK: scf.for %[[L:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %[[A]])
// CHECK: %[[N:.*]] = tensor.dim %[[ACC]], %{{.*}} : tensor<?x?xf32>
// CHECK: %[[LANE:.*]] = tensor.extract_slice %[[ACC]][%[[L]], 0] [1, %[[N]]] [1, 1] : tensor<?x?xf32> to tensor<?xf32>
// CHECK: %[[R:.*]] = scf.while (%{{.*}} = %[[LANE]]) : (tensor<?xf32>) -> tensor<?xf32>
// CHECK: %[[M:.*]] = tensor.dim %[[ACC]], %{{.*}} : tensor<?x?xf32>
// CHECK: tensor.insert_slice %[[R]] into %[[ACC]][%[[L]], 0] [1, %[[M]]] [1, 1] : tensor<?xf32> into tensor<?x?xf32>
func.func @lane(%v0: tensor<?xf32>, %limit: f32) -> f32 {
  // expected-remark @+1 {{loop is per-lane}}
  %out = scf.while (%v = %v0) : (tensor<?xf32>) -> (tensor<?xf32>) {
    %s = loom.sum %v along 0 : tensor<?xf32> -> f32
    %small = arith.cmpf olt, %s, %limit : f32
    scf.condition(%small) %v : tensor<?xf32>
  } do {
  ^bb0(%v: tensor<?xf32>):
    %v1 = arith.addf %v, %v : tensor<?xf32>
    scf.yield %v1 : tensor<?xf32>
  }
  %r = loom.sum %out along 0 : tensor<?xf32> -> f32
  return %r : f32
}
func.func @main(%a: tensor<?x?xf32>, %limit: f32) -> tensor<?xf32> {
  %r = loom.vmap @lane(%a, %limit) in_axes [0, none] out_axes [0]
      : (tensor<?x?xf32>, f32) -> tensor<?xf32>
  return %r : tensor<?xf32>
}

// -----

// A shared tensor of dynamic shape broadcast to every lane, and a per-lane
// scalar broadcast to a dynamic lane shape (select's condition): both
// tensor.empty ops get the lane's size from the value that has it.
// CHECK-LABEL: func.func private @pick_vmap_bbu(
// CHECK-SAME: %[[X:arg[0-9]+]]: tensor<?x?xf32> {{.*}}, %[[C:arg[0-9]+]]: tensor<?xi1> {{.*}}, %[[S:arg[0-9]+]]: tensor<?xf32>
// CHECK-DAG: %[[SN:.*]] = tensor.dim %[[S]], %{{.*}} : tensor<?xf32>
// CHECK-DAG: tensor.empty(%{{.*}}, %[[SN]]) : tensor<?x?xf32>
// CHECK-DAG: %[[XN:.*]] = tensor.dim %[[X]], %c1 : tensor<?x?xf32>
// CHECK-DAG: tensor.empty(%{{.*}}, %[[XN]]) : tensor<?x?xi1>
// CHECK: arith.select %{{.*}}, %[[X]], %{{.*}} : tensor<?x?xi1>, tensor<?x?xf32>
func.func @pick(%x: tensor<?xf32>, %c: i1, %s: tensor<?xf32>) -> tensor<?xf32> {
  %r = arith.select %c, %x, %s : i1, tensor<?xf32>
  return %r : tensor<?xf32>
}
func.func @pick_main(%xs: tensor<?x?xf32>, %cs: tensor<?xi1>, %s: tensor<?xf32>) -> tensor<?x?xf32> {
  %r = loom.vmap @pick(%xs, %cs, %s) in_axes [0, 0, none] out_axes [0]
      : (tensor<?x?xf32>, tensor<?xi1>, tensor<?xf32>) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}

// -----

// A per-lane loop that forwards a value computed in its body, of dynamic
// shape: its lanes' sizes are only known once each lane's loop has run, so
// there is nothing to size the batched result with.
func.func @grow(%v0: tensor<?xf32>, %limit: f32) -> tensor<?xf32> {
  // expected-remark @+2 {{loop is per-lane}}
  // expected-error @+1 {{cannot run this loop lane by lane: result #0 has the dynamic shape 'tensor<?xf32>' and is not a carry passed through the condition, so its shape is not known before the loop runs on each lane (run it masked: loom.strategy = #loom.strategy<masked>)}}
  %out = scf.while (%v = %v0) : (tensor<?xf32>) -> (tensor<?xf32>) {
    %s = loom.sum %v along 0 : tensor<?xf32> -> f32
    %small = arith.cmpf olt, %s, %limit : f32
    %w = arith.addf %v, %v : tensor<?xf32>
    scf.condition(%small) %w : tensor<?xf32>
  } do {
  ^bb0(%v: tensor<?xf32>):
    scf.yield %v : tensor<?xf32>
  }
  return %out : tensor<?xf32>
}
func.func @grow_main(%a: tensor<?x?xf32>, %limit: f32) -> tensor<?x?xf32> {
  %r = loom.vmap @grow(%a, %limit) in_axes [0, none] out_axes [0]
      : (tensor<?x?xf32>, f32) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}
