// RUN: loom-opt %s -split-input-file -loom-vmap -loom-shard=shards=2 -loom-localize-loops -verify-diagnostics | FileCheck %s

// A loop pinned local that is not a masked loop from loom-vmap is refused
// whatever the pass option says.
func.func @pinned_local(%x: tensor<?xf32> {loom.batch_axis = 0 : i64}) -> tensor<?xf32> {
  // expected-error @+1 {{loop-sync=local would change results: this loop is not a masked loop from loom-vmap}}
  %r = scf.while (%y = %x) : (tensor<?xf32>) -> tensor<?xf32> {
    %m = arith.cmpf olt, %y, %y : tensor<?xf32>
    %go = loom.any %m along 0 : tensor<?xi1> -> i1
    scf.condition(%go) %y : tensor<?xf32>
  } do {
  ^bb0(%y: tensor<?xf32>):
    %z = arith.addf %y, %y : tensor<?xf32>
    scf.yield %z : tensor<?xf32>
  } attributes {loom.loop_sync = #loom.loop_sync<local>}
  return %r : tensor<?xf32>
}

// -----

// The mark loom-localize-loops trusts is the one loom-vmap leaves: a
// loom.strategy<masked> pin on a loop of an entry (which loom-vmap never
// batches) is dropped by loom-vmap with a warning, so the hand-written loop
// below stays global.
// CHECK-LABEL: func.func @pinned_entry
// CHECK: mesh.all_reduce
// CHECK-NOT: loom.strategy
func.func @pinned_entry(%x: tensor<?xf32> {loom.batch_axis = 0 : i64}) -> tensor<?xf32> {
  // expected-warning @+2 {{loom.strategy has no effect here: it pins how loom-vmap batches a loop of a function it batches, and no loom.vmap batches @pinned_entry}}
  // expected-remark @+1 {{loop-sync global: not a masked loop from loom-vmap}}
  %r = scf.while (%y = %x) : (tensor<?xf32>) -> tensor<?xf32> {
    %m = arith.cmpf olt, %y, %y : tensor<?xf32>
    %go = loom.any %m along 0 : tensor<?xi1> -> i1
    scf.condition(%go) %y : tensor<?xf32>
  } do {
  ^bb0(%y: tensor<?xf32>):
    %z = arith.addf %y, %y : tensor<?xf32>
    scf.yield %z : tensor<?xf32>
  } attributes {loom.strategy = #loom.strategy<masked>}
  return %r : tensor<?xf32>
}

// -----

// Each shard times the variants of loom.variant_begin and keeps its own
// choice, so a loop that keeps its all-reduce cannot sit in one: the shards
// that picked the other variant would never join it.
func.func @global_in_variant(%x: tensor<?xf32> {loom.batch_axis = 0 : i64}) -> tensor<?xf32> {
  %alt = loom.variant_begin
  %r = scf.if %alt -> (tensor<?xf32>) {
    // expected-error @+1 {{loop-sync global cannot apply to a loop inside a variant of loom.variant_begin: each shard picks its variant alone, so the shards might not all run this loop (compile with loom-vmap adaptive=0)}}
    %w = scf.while (%y = %x) : (tensor<?xf32>) -> tensor<?xf32> {
      %m = arith.cmpf olt, %y, %y : tensor<?xf32>
      %go = loom.any %m along 0 : tensor<?xi1> -> i1
      scf.condition(%go) %y : tensor<?xf32>
    } do {
    ^bb0(%y: tensor<?xf32>):
      %z = arith.addf %y, %y : tensor<?xf32>
      scf.yield %z : tensor<?xf32>
    }
    scf.yield %w : tensor<?xf32>
  } else {
    scf.yield %x : tensor<?xf32>
  }
  loom.variant_end %alt
  return %r : tensor<?xf32>
}
