// The seed's diffrax ODE and SDE solves under loom-vmap: what each loop
// becomes and why, and the shape of each strategy.
// RUN: loom-opt %examples/diffrax/ode.mlir -loom-vmap -mlir-print-op-on-diagnostic=false -o /dev/null 2>&1 | FileCheck %s --check-prefix=ODE
// RUN: loom-opt %examples/diffrax/sde.mlir -loom-vmap -mlir-print-op-on-diagnostic=false -o /dev/null 2>&1 | FileCheck %s --check-prefix=SDE
// RUN: loom-opt %examples/diffrax/ode.mlir -loom-vmap=divergent=masked -mlir-print-op-on-diagnostic=false 2>/dev/null | FileCheck %s --check-prefix=MASKED
// RUN: loom-opt %examples/diffrax/ode.mlir -loom-vmap=divergent=per-lane -mlir-print-op-on-diagnostic=false 2>/dev/null | FileCheck %s --check-prefix=PERLANE

// The end-of-interval clip loop reads only shared values; the step loop
// diverges through tprev (the step-size controller makes it per-lane); its
// masked form is in sweeps (tensor carries, calls), where a gang's W-lane
// buffers are cheaper than masked's B-lane ones, and its per-lane trip waits
// for a long carried chain, so the cost model (with the fitted defaults,
// docs/vmap.md) runs it in gangs; the save loop then runs masked inside each
// gang, on the gang's lanes.
// ODE: ode.mlir:{{[0-9]+}}:{{[0-9]+}}: remark: loop is uniform: it reads no per-lane value
// ODE: ode.mlir:{{[0-9]+}}:{{[0-9]+}}: remark: loop is gang (width 32): predicate depends on carry #1 (initially t0), batched through argument #0 (y0); cost model: masked {{[0-9]+}} > per-lane {{[0-9]+}} (2 divergent levels, 64 lanes assumed, SIMD width 8, divergence {{[0-9.]+}} a level); 112 ops, 2 lane by lane, 2 libm calls in vector arithmetic, 8 carries, a {{[0-9]+}}-cycle carried chain, masked in sweeps; gang {{[0-9]+}}, gang with refill {{[0-9]+}} (width 32, divergence {{[0-9.]+}} a level): gang is cheapest
// ODE: ode.mlir:{{[0-9]+}}:{{[0-9]+}}: remark: loop is masked: it runs inside a gang of 32 lanes, on the gang's lanes

// Under divergent=masked the save loop diverges because the step loop does;
// the Brownian tree's descent has a trip count fixed by the tolerance, so it
// stays a scalar loop even inside the batched solve.
// RUN: loom-opt %examples/diffrax/ode.mlir -loom-vmap=divergent=masked -mlir-print-op-on-diagnostic=false -o /dev/null 2>&1 | FileCheck %s --check-prefix=ODE-MASKED
// ODE-MASKED: ode.mlir:[[OUTER:[0-9]+]]:{{[0-9]+}}: remark: loop is masked: predicate depends on carry #1 (initially t0), batched through argument #0 (y0); divergent=masked
// ODE-MASKED: ode.mlir:{{[0-9]+}}:{{[0-9]+}}: remark: loop is masked: predicate depends on carry #0 of the enclosing loop at line [[OUTER]], batched through argument #0 (y0); divergent=masked
// RUN: loom-opt %examples/diffrax/sde.mlir -loom-vmap=divergent=masked -mlir-print-op-on-diagnostic=false -o /dev/null 2>&1 | FileCheck %s --check-prefix=SDE-MASKED
// SDE-MASKED: remark: loop is uniform: it reads no per-lane value
// SDE-MASKED: sde.mlir:[[OUTER:[0-9]+]]:{{[0-9]+}}: remark: loop is masked: predicate depends on carry #1 (initially t0), batched through argument #0 (y0)
// SDE-MASKED: remark: loop is uniform: its predicate is the same on every lane
// SDE-MASKED: remark: loop is masked: predicate depends on carry #0 of the enclosing loop at line [[OUTER]], batched through argument #0 (y0)
// SDE: remark: loop is uniform: it reads no per-lane value
// SDE: remark: loop is gang (width 32, refill): predicate depends on carry #1 (initially t0), batched through argument #0 (y0); cost model: masked {{[0-9]+}} > per-lane {{[0-9]+}}{{.*}}: gang with refill is cheapest

// MASKED-LABEL: func.func private @solve_ode_vmap_buuuuu(
// MASKED: scf.while
// MASKED: loom.any
// MASKED: } do {
// MASKED: scf.while
// MASKED: loom.any
// MASKED: } do {
// MASKED: scf.for
// MASKED: scf.if
// MASKED: tensor.insert %{{.*}} into %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}] : tensor<?x100x1xf32>
// MASKED-NOT: outs(%{{.*}} : tensor<?x100x1xf32>)
// MASKED: return

// PERLANE-LABEL: func.func private @solve_ode_vmap_buuuuu(
// PERLANE: scf.for
// PERLANE: scf.while {{.*}} -> (f32, f32, f32, i32, i32, i32, i32, tensor<100x1xf32>)
// PERLANE: scf.while {{.*}} -> (i32, tensor<100x1xf32>)
// PERLANE: tensor.insert_slice %{{.*}} into %{{.*}}[%{{.*}}, 0, 0] [1, 100, 1] [1, 1, 1] : tensor<100x1xf32> into tensor<?x100x1xf32>
