// The vector variants that nothing calls before the loop vectorizer runs
// skip LLVM's pipeline (lib/Compiler/CPU/Optimize.cpp): the ones it came
// to call are optimized after it as the pipeline would have optimized them,
// the others deleted. Here the lane loop calls erfinv's 16-lane variant,
// which itself calls log1p's 8-lane one: that call is inlined, the
// per-lane square roots of its tail are vectorized, and the variant keeps
// the attributes that let the loop's optimization treat it as pure. (Under
// auto, whose adaptive form keeps the scalar erfinv a call in its lane
// loops: under the fixed strategies it is inlined.)
// REQUIRES: x86_64
// RUN: loom-compile %s --emit=llvm --divergent=auto -o %t.ll
// RUN: FileCheck %s < %t.ll
// CHECK-NOT: define {{.*}}@__loom_erfinv_f32_v{{4|8}}(
// CHECK: call <16 x float> @__loom_erfinv_f32_v16(
// CHECK: define hidden <16 x float> @__loom_erfinv_f32_v16({{.*}} #[[ATTRS:[0-9]+]]
// CHECK-NOT: call {{.*}}@__loom_log1pf
// CHECK-NOT: call float @sqrtf(
// CHECK: @llvm.sqrt.v
// CHECK: {{^}}}
// CHECK-NOT: define {{.*}}@__loom_log1pf_v{{4|8}}(
// CHECK-NOT: define {{.*}}@__loom_erfinv_f32_v{{4|8}}(
// CHECK: attributes #[[ATTRS]] = { {{.*}}nounwind willreturn memory(none)
// A divergent loop drawing one normal per step.
func.func @f(%k0: i32, %k1: i32, %n: i32) -> f32 {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %f0 = arith.constant 0.0 : f32
  %key0 = tensor.from_elements %k0, %k1 : tensor<2xi32>
  %r:3 = scf.while (%i = %c0, %acc = %f0, %key = %key0)
      : (i32, f32, tensor<2xi32>) -> (i32, f32, tensor<2xi32>) {
    %go = arith.cmpi slt, %i, %n : i32
    scf.condition(%go) %i, %acc, %key : i32, f32, tensor<2xi32>
  } do {
  ^bb0(%i: i32, %acc: f32, %key: tensor<2xi32>):
    %split = loom.random.split %key : tensor<2x2xi32>
    %next = tensor.extract_slice %split[0, 0] [1, 2] [1, 1]
        : tensor<2x2xi32> to tensor<2xi32>
    %sub = tensor.extract_slice %split[1, 0] [1, 2] [1, 1]
        : tensor<2x2xi32> to tensor<2xi32>
    %z = loom.random.normal %sub : f32
    %acc2 = arith.addf %acc, %z : f32
    %i2 = arith.addi %i, %c1 : i32
    scf.yield %i2, %acc2, %next : i32, f32, tensor<2xi32>
  }
  return %r#1 : f32
}
func.func @main(%a: tensor<?xi32>, %b: tensor<?xi32>, %n: tensor<?xi32>)
    -> tensor<?xf32> {
  %r = loom.vmap @f(%a, %b, %n) in_axes [0, 0, 0] out_axes [0]
      : (tensor<?xi32>, tensor<?xi32>, tensor<?xi32>) -> tensor<?xf32>
  return %r : tensor<?xf32>
}
