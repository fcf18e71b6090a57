// vmap(f)(xs)[b] == f(xs[b]) bit for bit, for every lane b and every
// divergent-loop strategy, through the JIT (vmap_property.py runs the
// vmapped entry under masked, per-lane and auto, and the scalar function on
// each lane's inputs, and compares the bytes of every result lane).

// The seed's MWE on jax.random.split(PRNGKey(0), 30).
// RUN: python3 %S/vmap_property.py loom-run %examples/mwe/while_of_while.mlir --batch 30 --vmapped main --scalar solve --arg inits/init:f32:0.1:0.1:1 --arg keys/key:key:0 --result y:ys | FileCheck %s

// A single divergent loop; lanes with x <= 1 never enter it.
// RUN: python3 %S/vmap_property.py loom-run %S/Inputs/divergent.mlir --batch 13 --vmapped collatz_vmap --scalar collatz --arg xs/x:i32:-3:60:- --result steps:steps | FileCheck %s

// A while-of-while on floats.
// RUN: python3 %S/vmap_property.py loom-run %S/Inputs/divergent.mlir --batch 9 --vmapped nested_vmap --scalar nested --arg as/a:f32:0:6:- --arg bs/b:f32:0.1:3:- --result acc:acc --result trips:trips | FileCheck %s

// Three levels.
// RUN: python3 %S/vmap_property.py loom-run %S/Inputs/divergent.mlir --batch 11 --vmapped three_vmap --scalar three --arg ns/n:i32:-2:9:- --result total:total | FileCheck %s

// A loop some lanes never enter, with a shared (unbatched) argument.
// RUN: python3 %S/vmap_property.py loom-run %S/Inputs/divergent.mlir --batch 10 --vmapped grow_vmap --scalar grow --arg xs/x:f32:0:20:- --arg scale:shared-f32:1.5 --result y:y --result n:n | FileCheck %s

// A buffer written at per-lane indices (diffrax's SaveAt loop).
// RUN: python3 %S/vmap_property.py loom-run %S/Inputs/divergent.mlir --batch 10 --vmapped save_vmap --scalar save --arg rates/rate:f32:0.3:3:- --result ys:ys --result saved:saved | FileCheck %s

// A per-lane branch writing a buffer inside a divergent loop.
// RUN: python3 %S/vmap_property.py loom-run %S/Inputs/divergent.mlir --batch 10 --vmapped branchy_vmap --scalar branchy --arg xs/x:f32:-2:12:- --result buf:buf --result y:y | FileCheck %s

// An scf.for with a per-lane trip count, calling a helper per signature.
// RUN: python3 %S/vmap_property.py loom-run %S/Inputs/divergent.mlir --batch 10 --vmapped trips_vmap --scalar trips --arg ns/n:i32:-1:9:- --arg xs/x:f32:-1:1:- --result sum:sum | FileCheck %s

// Calls inside a divergent loop: one callee with a divergent loop of its
// own, run under the caller's mask, and one of plain arithmetic.
// RUN: python3 %S/vmap_property.py loom-run %S/Inputs/divergent.mlir --batch 12 --vmapped calls_vmap --scalar calls --arg xs/x:f32:0:40:- --arg limits/limit:f32:2:900:- --result y:y --result halvings:halvings | FileCheck %s

// The seed's diffrax ODE solve (Heun, PID controller, SaveAt at 100 times):
// the saves write a buffer at a per-lane index inside two divergent levels.
// RUN: python3 %S/vmap_property.py loom-run %examples/diffrax/ode.mlir --batch 8 --vmapped main --scalar solve_ode --arg inits/y0:f32:0.05:0.5:1 --arg t1:shared-f32:1.0 --arg dt0:shared-f32:0.05 --result ys:ys --result num_steps:num_steps --result num_accepted_steps:num_accepted_steps --result num_rejected_steps:num_rejected_steps --result result:result | FileCheck %s

// The seed's diffrax SDE solve (virtual Brownian tree on the lane's key).
// RUN: python3 %S/vmap_property.py loom-run %examples/diffrax/sde.mlir --batch 8 --vmapped main --scalar solve_sde --arg inits/y0:f32:0.1:0.1:1 --arg keys/key:key:0 --arg t1:shared-f32:1.0 --result ys:ys --result num_steps:num_steps --result num_rejected_steps:num_rejected_steps --result result:result | FileCheck %s

// CHECK: masked: {{[0-9]+}} lanes checked
// CHECK: per-lane: {{[0-9]+}} lanes checked
// CHECK: auto: {{[0-9]+}} lanes checked
// CHECK: PASS
