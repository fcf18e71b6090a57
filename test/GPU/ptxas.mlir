// REQUIRES: ptxas, libdevice
// ptxas accepts every kernel of the seed's programs and of the vmap test
// programs, for the H200 (sm_90) and the seed's A100 (sm_80).
// RUN: loom-compile %examples/mwe/while_of_while.mlir --backend gpu --emit=ptx -o %t.mwe.ptx
// RUN: %ptxas -arch=sm_90 %t.mwe.ptx -o %t.cubin
// RUN: loom-compile %examples/diffrax/sde.mlir --backend gpu --emit=ptx -o %t.sde.ptx
// RUN: %ptxas -arch=sm_90 %t.sde.ptx -o %t.cubin
// RUN: loom-compile %examples/diffrax/sde_f64.mlir --backend gpu --emit=ptx -o %t.sde64.ptx
// RUN: %ptxas -arch=sm_90 %t.sde64.ptx -o %t.cubin
// RUN: loom-compile %examples/diffrax/ode.mlir --backend gpu --emit=ptx -o %t.ode.ptx
// RUN: %ptxas -arch=sm_90 %t.ode.ptx -o %t.cubin
// RUN: loom-compile %examples/diffrax/ode_f64.mlir --backend gpu --emit=ptx -o %t.ode64.ptx
// RUN: %ptxas -arch=sm_90 %t.ode64.ptx -o %t.cubin
// RUN: loom-compile %examples/diffrax/sde.mlir --backend gpu --gpu-arch=sm_80 --emit=ptx -o %t.sm80.ptx
// RUN: %ptxas -arch=sm_80 %t.sm80.ptx -o %t.cubin
// RUN: loom-compile %S/../Integration/vmap/Inputs/divergent.mlir --entry collatz_vmap --backend gpu --emit=ptx -o %t.collatz.ptx
// RUN: %ptxas -arch=sm_90 %t.collatz.ptx -o %t.cubin
// RUN: loom-compile %S/../Integration/vmap/Inputs/divergent.mlir --entry nested_vmap --backend gpu --emit=ptx -o %t.nested.ptx
// RUN: %ptxas -arch=sm_90 %t.nested.ptx -o %t.cubin
// RUN: loom-compile %S/../Integration/vmap/Inputs/divergent.mlir --entry three_vmap --backend gpu --emit=ptx -o %t.three.ptx
// RUN: %ptxas -arch=sm_90 %t.three.ptx -o %t.cubin
// RUN: loom-compile %S/../Integration/vmap/Inputs/divergent.mlir --entry grow_vmap --backend gpu --emit=ptx -o %t.grow.ptx
// RUN: %ptxas -arch=sm_90 %t.grow.ptx -o %t.cubin
// RUN: loom-compile %S/../Integration/vmap/Inputs/divergent.mlir --entry save_vmap --backend gpu --emit=ptx -o %t.save.ptx
// RUN: %ptxas -arch=sm_90 %t.save.ptx -o %t.cubin
// RUN: loom-compile %S/../Integration/vmap/Inputs/divergent.mlir --entry branchy_vmap --backend gpu --emit=ptx -o %t.branchy.ptx
// RUN: %ptxas -arch=sm_90 %t.branchy.ptx -o %t.cubin
// RUN: loom-compile %S/../Integration/vmap/Inputs/divergent.mlir --entry trips_vmap --backend gpu --emit=ptx -o %t.trips.ptx
// RUN: %ptxas -arch=sm_90 %t.trips.ptx -o %t.cubin
// RUN: loom-compile %S/../Integration/vmap/Inputs/divergent.mlir --entry calls_vmap --backend gpu --emit=ptx -o %t.calls.ptx
// RUN: %ptxas -arch=sm_90 %t.calls.ptx -o %t.cubin
// RUN: loom-compile %S/../Integration/vmap/Inputs/division.mlir --entry divs_main --backend gpu --emit=ptx -o %t.divs.ptx
// RUN: %ptxas -arch=sm_90 %t.divs.ptx -o %t.cubin
// RUN: loom-compile %S/../Integration/vmap/Inputs/traps.mlir --entry divloop_main --backend gpu --emit=ptx -o %t.divloop.ptx
// RUN: %ptxas -arch=sm_90 %t.divloop.ptx -o %t.cubin
// RUN: loom-compile %S/../Integration/vmap/Inputs/traps.mlir --entry remloop_main --backend gpu --emit=ptx -o %t.remloop.ptx
// RUN: %ptxas -arch=sm_90 %t.remloop.ptx -o %t.cubin
// RUN: loom-compile %S/../Integration/vmap/Inputs/lane_local.mlir --entry sumloop_main --backend gpu --emit=ptx -o %t.sumloop.ptx
// RUN: %ptxas -arch=sm_90 %t.sumloop.ptx -o %t.cubin
// RUN: loom-compile %S/../Integration/vmap/Inputs/lane_local.mlir --entry sumloop_dyn_main --backend gpu --emit=ptx -o %t.sumloopd.ptx
// RUN: %ptxas -arch=sm_90 %t.sumloopd.ptx -o %t.cubin
// RUN: loom-compile %S/../Integration/vmap/Inputs/lane_local.mlir --entry grid_main --backend gpu --emit=ptx -o %t.grid.ptx
// RUN: %ptxas -arch=sm_90 %t.grid.ptx -o %t.cubin
// RUN: loom-compile %S/../Integration/vmap/Inputs/lane_local.mlir --entry carry_main --backend gpu --emit=ptx -o %t.carry.ptx
// RUN: %ptxas -arch=sm_90 %t.carry.ptx -o %t.cubin
// RUN: loom-compile %S/../Integration/vmap/Inputs/lane_local.mlir --entry carry_dyn_main --backend gpu --emit=ptx -o %t.carryd.ptx
// RUN: %ptxas -arch=sm_90 %t.carryd.ptx -o %t.cubin
// Two per-lane loops in a row: two kernels, in one PTX module.
// RUN: loom-compile %S/Inputs/two-loops.mlir --backend gpu --emit=ptx -o %t.two.ptx
// RUN: %ptxas -arch=sm_90 %t.two.ptx -o %t.cubin
// RUN: FileCheck %s --input-file=%t.two.ptx

// A uniform loop run in each lane's thread.
// RUN: loom-compile %S/Inputs/uniform-loops.mlir --backend gpu --emit=ptx -o %t.uniform.ptx
// RUN: %ptxas -arch=sm_90 %t.uniform.ptx -o %t.cubin

// CHECK-COUNT-1: .version
// CHECK: .visible .entry main_kernel(
// CHECK: .visible .entry main_kernel_0(
