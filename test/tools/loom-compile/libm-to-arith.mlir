// The CPU backend computes sinf in arithmetic (loom-libm-to-arith) only for
// a target CPU with FMA and AVX2, where glibc's own sinf is the variant it
// reproduces: the loop over lanes calls the vector variant on 8 lanes, and
// its remainder glibc's sinf (the 4-lane variant, which nothing calls, is
// gone). For an older CPU, the program calls the C library's only.
// REQUIRES: x86_64
// RUN: loom-compile %s --emit=llvm -o %t.v3.ll
// RUN: FileCheck %s --check-prefix=V3 < %t.v3.ll
// RUN: loom-compile %s --emit=llvm --target-cpu=x86-64-v2 -o %t.v2.ll
// RUN: FileCheck %s --check-prefix=V2 < %t.v2.ll
// V3: define hidden <8 x float> @__loom_sinf_v8(<8 x float>
// V3: @llvm.fma.v8f64
// V3: call <8 x float> @__loom_sinf_v8(
// V3: call float @sinf(float
// V3-NOT: define {{.*}}@__loom_sinf_v4
// V2-NOT: __loom_sinf
// V2: call {{.*}}float @sinf(float
// V2-NOT: __loom_sinf
func.func @f(%x: f32) -> f32 {
  %y = math.sin %x : f32
  return %y : f32
}
func.func @main(%xs: tensor<?xf32>) -> tensor<?xf32> {
  %r = loom.vmap @f(%xs) in_axes [0] out_axes [0]
      : (tensor<?xf32>) -> tensor<?xf32>
  return %r : tensor<?xf32>
}
