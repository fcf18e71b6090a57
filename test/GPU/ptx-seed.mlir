// REQUIRES: libdevice
// The seed's programs compile to PTX with --backend gpu: each per-lane loop
// nest is one kernel entry, and libdevice is linked in, so no __nv_ function
// (nor any other extern) is left for a driver to resolve.
// RUN: loom-compile %examples/mwe/while_of_while.mlir --backend gpu --emit=ptx -o %t.mwe.ptx
// RUN: FileCheck %s --input-file=%t.mwe.ptx --implicit-check-not=__nv_ --implicit-check-not=.extern
// RUN: loom-compile %examples/diffrax/sde.mlir --backend gpu --emit=ptx -o %t.sde.ptx
// RUN: FileCheck %s --input-file=%t.sde.ptx --implicit-check-not=__nv_ --implicit-check-not=.extern
// RUN: loom-compile %examples/diffrax/sde_f64.mlir --backend gpu --emit=ptx -o %t.sde64.ptx
// RUN: FileCheck %s --input-file=%t.sde64.ptx --implicit-check-not=__nv_ --implicit-check-not=.extern
// RUN: loom-compile %examples/diffrax/ode.mlir --backend gpu --emit=ptx -o %t.ode.ptx
// RUN: FileCheck %s --input-file=%t.ode.ptx --implicit-check-not=__nv_ --implicit-check-not=.extern
// RUN: loom-compile %examples/diffrax/ode_f64.mlir --backend gpu --emit=ptx -o %t.ode64.ptx
// RUN: FileCheck %s --input-file=%t.ode64.ptx --implicit-check-not=__nv_ --implicit-check-not=.extern
// Sharded: the same kernel, launched per shard from host code.
// RUN: loom-compile %examples/diffrax/sde.mlir --backend gpu --shards 4 --emit=ptx -o %t.sde4.ptx
// RUN: FileCheck %s --input-file=%t.sde4.ptx --implicit-check-not=__nv_ --implicit-check-not=.extern
// sqrt is correctly rounded, as on the CPU (libdevice's is approximate).
// RUN: FileCheck %s --input-file=%t.sde.ptx --check-prefix=SQRT
// The seed's A100.
// RUN: loom-compile %examples/diffrax/sde.mlir --backend gpu --gpu-arch=sm_80 --emit=ptx -o %t.sm80.ptx
// RUN: FileCheck %s --input-file=%t.sm80.ptx --check-prefix=SM80
// The file is text for ptxas: no NUL at its end (the driver's copy has one).
// RUN: tail -c 1 %t.sde.ptx | od -An -c | FileCheck %s --check-prefix=END

// CHECK: .target sm_90
// CHECK: .visible .entry main_kernel(
// CHECK-NOT: .entry
// SQRT: sqrt.rn.f32
// SQRT-NOT: sqrt.approx
// SM80: .target sm_80
// END: \n
