// RUN: loom-opt %s -convert-lane-loops-to-gpu=libdevice=0 -verify-diagnostics
// RUN: loom-opt %s -convert-lane-loops-to-gpu | FileCheck %s

// Math lowers to libdevice: without it (libdevice=0), an error naming the op;
// with it, the op stays for convert-gpu-to-nvvm.
// CHECK: gpu.launch
// CHECK: math.sin
func.func @math(%x: memref<?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    %v = memref.load %x[%i] : memref<?xf32>
    // expected-error-re @+1 {{{{^}}cannot run on the GPU without the CUDA toolkit: 'math.sin' in @math lowers to a libdevice call, and no libdevice was found (point --cuda-path at a CUDA toolkit)}}
    %s = math.sin %v : f32
    %a = arith.addf %s, %v : f32
    memref.store %a, %x[%i] : memref<?xf32>
  } {loom_gpu.lane_loop}
  return
}
