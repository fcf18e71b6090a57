// RUN: loom-opt %s -split-input-file -convert-lane-loops-to-gpu -verify-diagnostics

// Allocation in a kernel: only registers and alloca fit there.
func.func @alloc(%x: memref<?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    // expected-error @+1 {{cannot run on the GPU: 'memref.alloc' allocates or frees memory inside the kernel (only registers and alloca fit there)}}
    %b = memref.alloc(%n) : memref<?xf32>
    // expected-error @+1 {{cannot run on the GPU: 'memref.dealloc' allocates or frees memory inside the kernel}}
    memref.dealloc %b : memref<?xf32>
  } {loom_gpu.lane_loop}
  return
}

// -----

// Allocation in a function the kernel calls.
func.func private @helper(%n: index) {
  // expected-error @+1 {{cannot run on the GPU: 'memref.alloc' allocates or frees memory inside the kernel}}
  %b = memref.alloc(%n) : memref<?xf32>
  return
}
func.func @callee_alloc(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    func.call @helper(%n) : (index) -> ()
  } {loom_gpu.lane_loop}
  return
}

// -----

// A function with no body (the runtime's, say) cannot be called from a kernel.
func.func private @loom_rt_thing(i64)
func.func @external(%n: index, %ctx: i64) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    // expected-error @+1 {{cannot run on the GPU: @loom_rt_thing has no body to run in the kernel}}
    func.call @loom_rt_thing(%ctx) : (i64) -> ()
  } {loom_gpu.lane_loop}
  return
}

// -----

// A lane loop may not carry a value from one lane to the next.
func.func @carried(%x: memref<?xf32>, %n: index) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  // expected-error @+1 {{cannot run on the GPU: this lane loop carries a value from one lane to the next}}
  %s = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> f32 {
    %v = memref.load %x[%i] : memref<?xf32>
    %a = arith.addf %acc, %v : f32
    scf.yield %a : f32
  } {loom_gpu.lane_loop}
  return %s : f32
}
