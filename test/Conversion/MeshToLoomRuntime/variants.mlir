// RUN: loom-opt %s -split-input-file -convert-mesh-to-loom-runtime | FileCheck %s

// Each variant_begin is a site, numbered in module order; the shard's
// context keeps its choice. Only a returned nonzero runs the alternative.
// The module's table names each site's place and variants, for reports; a
// site without names gets "primary" and "alternative".
// CHECK: module attributes {loom.variants = [{alternative = "gang with refill (width 8)", loc = "{{[^"]*}}variants.mlir{{[^"]*}}:23:10", primary = "masked"}, {alternative = "alternative", loc = "{{[^"]*}}variants.mlir{{[^"]*}}:30:11", primary = "primary"}]}
// CHECK-DAG: func.func private @loom_rt_variant_begin(i64, i32, i32) -> i32
// CHECK-DAG: func.func private @loom_rt_variant_end(i64, i32)
// CHECK-LABEL: func.func @two_sites
// CHECK-SAME: %[[CTX:[a-z0-9]+]]: i64 {loom.context}
// CHECK: %[[S0:.*]] = arith.constant 0 : i32
// CHECK: %[[N:.*]] = arith.constant 2 : i32
// CHECK: %[[V:.*]] = call @loom_rt_variant_begin(%[[CTX]], %[[S0]], %[[N]])
// CHECK: %[[ALT:.*]] = arith.cmpi ne, %[[V]], %{{.*}} : i32
// CHECK: scf.if %[[ALT]]
// CHECK: call @loom_rt_variant_end(%[[CTX]], %[[S0]])
// CHECK: %[[S1:.*]] = arith.constant 1 : i32
// CHECK: call @loom_rt_variant_begin(%[[CTX]], %[[S1]], %{{.*}})
// CHECK: call @loom_rt_variant_end(%[[CTX]], %[[S1]])
// CHECK-NOT: loom.variant_
func.func @two_sites(%a: i32, %b: i32, %ctx: i64 {loom.context}) -> i32 {
  %alt = loom.variant_begin {names = ["masked", "gang with refill (width 8)"]}
  %r = scf.if %alt -> (i32) {
    scf.yield %a : i32
  } else {
    scf.yield %b : i32
  }
  loom.variant_end %alt
  %alt2 = loom.variant_begin
  %s = scf.if %alt2 -> (i32) {
    scf.yield %r : i32
  } else {
    scf.yield %b : i32
  }
  loom.variant_end %alt2
  return %s : i32
}

// -----

// Without a shard context nothing keeps a choice across calls: the
// primary runs, and no runtime call is made.
// CHECK-LABEL: func.func @no_context
// CHECK-NOT: call
// CHECK: %[[F:.*]] = arith.constant false
// CHECK: scf.if %[[F]]
// CHECK-NOT: loom.variant_
func.func @no_context(%a: i32, %b: i32) -> i32 {
  %alt = loom.variant_begin
  %r = scf.if %alt -> (i32) {
    scf.yield %a : i32
  } else {
    scf.yield %b : i32
  }
  loom.variant_end %alt
  return %r : i32
}
