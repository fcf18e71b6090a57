// vmap(f)(xs)[b] == f(xs[b]) bit for bit, for every lane b and every
// divergent-loop strategy, through the JIT (vmap_property.py runs the
// vmapped entry under masked, per-lane and auto, and under each --variant's
// loom-run flags, at each --batch size, and the scalar function on each
// lane's inputs, and compares the bytes of every result lane).

// Extra vmapped runs (vmap_property.py --variant NAME:FLAGS) that split the
// batch into parts (shards; gang widths belong here too), for the lines that
// test batch sizes against those parts; the defaults (masked, per-lane, auto
// at one shard) run too.
// Gang runs on every line: a width that divides no batch here, so each
// has a masked tail gang, and widths above the smaller batches.
// Under auto, the second call runs a timed site's alternative (a lock-step
// gang of a refill loop among them: the SDE's at both widths). The -lv
// variants carry the gangs' lane values as vectors (--lane-vectors).
// DEFINE: %{gang_variants} = --variant "gang4:--divergent gang --gang-width 4" --variant "gang4-refill:--divergent gang --gang-width 4 --refill" --variant "gang16-refill:--divergent gang --refill" --variant "auto-second-call:--divergent auto --repeat 2" --variant "auto4-second-call:--divergent auto --gang-width 4 --repeat 2" --variant "gang4-refill-lv:--divergent gang --gang-width 4 --refill --lane-vectors" --variant "auto-lv-second-call:--divergent auto --lane-vectors --repeat 2"
// DEFINE: %{split_variants} = --variant "masked-s2:--divergent masked --shards 2" --variant "masked-s3-global:--divergent masked --shards 3 --loop-sync global" --variant "masked-s3-local:--divergent masked --shards 3 --loop-sync local" --variant "per-lane-s3:--divergent per-lane --shards 3" --variant "gang4-s2:--divergent gang --gang-width 4 --shards 2" --variant "gang4-refill-s3:--divergent gang --gang-width 4 --refill --shards 3"

// The seed's MWE on jax.random.split(PRNGKey(0), 30), and on no lanes and
// one.
// RUN: python3 %S/vmap_property.py loom-run %examples/mwe/while_of_while.mlir --batch 0,1,30 --vmapped main --scalar solve --arg inits/init:f32:0.1:0.1:1 --arg keys/key:key:0 --result y:ys %{gang_variants} | FileCheck %s --check-prefixes=CHECK,GANG

// A single divergent loop; lanes with x <= 1 never enter it.
// RUN: python3 %S/vmap_property.py loom-run %S/Inputs/divergent.mlir --batch 13 --vmapped collatz_vmap --scalar collatz --arg xs/x:i32:-3:60:- --result steps:steps %{gang_variants} | FileCheck %s --check-prefixes=CHECK,GANG

// A while-of-while on floats.
// RUN: python3 %S/vmap_property.py loom-run %S/Inputs/divergent.mlir --batch 9 --vmapped nested_vmap --scalar nested --arg as/a:f32:0:6:- --arg bs/b:f32:0.1:3:- --result acc:acc --result trips:trips %{gang_variants} | FileCheck %s --check-prefixes=CHECK,GANG

// Three levels.
// RUN: python3 %S/vmap_property.py loom-run %S/Inputs/divergent.mlir --batch 11 --vmapped three_vmap --scalar three --arg ns/n:i32:-2:9:- --result total:total %{gang_variants} | FileCheck %s --check-prefixes=CHECK,GANG

// A key split every trip of a divergent loop (the SDE's Brownian tree):
// the batched random ops run lane by lane on the words of the keys, which
// loom-split-lane-tensors keeps as one lane vector per word.
// RUN: python3 %S/vmap_property.py loom-run %S/Inputs/divergent.mlir --batch 0,1,13,37 --vmapped descend_vmap --scalar descend --arg keys/key:key:3 --arg ns/n:i32:-2:7:- --result acc:acc --result last:last --result pair:pair %{split_variants} %{gang_variants} | FileCheck %s --check-prefixes=CHECK,GANG,SHARDS

// A three-component state stepped to a per-lane end time (the Lorenz
// system): batches of tensor<3xf32> in elementwise ops, which
// loom-split-lane-tensors runs on one lane vector per component.
// RUN: python3 %S/vmap_property.py loom-run %S/Inputs/divergent.mlir --batch 0,1,13,37 --vmapped lorenz_vmap --scalar lorenz --arg y0s/y0:f32:-2:2:3 --arg tends/tend:f32:-0.1:0.5:- --result y:y --result steps:steps %{split_variants} %{gang_variants} | FileCheck %s --check-prefixes=CHECK,GANG,SHARDS

// An outer level with code around two inner loops (masked: one pass over
// the lanes before them, one between, one after), dividing by a carry that
// is 0 on finished lanes; lanes with n <= 0 never enter.
// RUN: python3 %S/vmap_property.py loom-run %S/Inputs/divergent.mlir --batch 0,1,13 --vmapped stages_vmap --scalar stages --arg ns/n:i32:-2:11:- --result total:total --result last:last %{split_variants} | FileCheck %s

// A loop some lanes never enter, with a shared (unbatched) argument.
// RUN: python3 %S/vmap_property.py loom-run %S/Inputs/divergent.mlir --batch 0,1,10 --vmapped grow_vmap --scalar grow --arg xs/x:f32:0:20:- --arg scale:shared-f32:1.5 --result y:y --result n:n %{gang_variants} | FileCheck %s --check-prefixes=CHECK,GANG

// A buffer written at per-lane indices (diffrax's SaveAt loop), also on no
// lanes and one.
// RUN: python3 %S/vmap_property.py loom-run %S/Inputs/divergent.mlir --batch 0,1,10 --vmapped save_vmap --scalar save --arg rates/rate:f32:0.3:3:- --result ys:ys --result saved:saved %{gang_variants} | FileCheck %s --check-prefixes=CHECK,GANG

// A buffer the outer level builds anew each iteration (a splat, then an
// inner loop's writes): finished lanes keep theirs by a select.
// RUN: python3 %S/vmap_property.py loom-run %S/Inputs/divergent.mlir --batch 0,1,11 --vmapped rebuild_vmap --scalar rebuild --arg rates/rate:f32:-0.5:2.5:- --result buf:buf --result trips:trips %{split_variants} %{gang_variants} | FileCheck %s --check-prefixes=CHECK,GANG,SHARDS

// A per-lane branch writing a buffer inside a divergent loop.
// RUN: python3 %S/vmap_property.py loom-run %S/Inputs/divergent.mlir --batch 10 --vmapped branchy_vmap --scalar branchy --arg xs/x:f32:-2:12:- --result buf:buf --result y:y %{gang_variants} | FileCheck %s --check-prefixes=CHECK,GANG

// An scf.for with a per-lane trip count, calling a helper per signature.
// RUN: python3 %S/vmap_property.py loom-run %S/Inputs/divergent.mlir --batch 10 --vmapped trips_vmap --scalar trips --arg ns/n:i32:-1:9:- --arg xs/x:f32:-1:1:- --result sum:sum %{gang_variants} | FileCheck %s --check-prefixes=CHECK,GANG

// Calls inside a divergent loop: one callee with a divergent loop of its
// own, run under the caller's mask, and one of plain arithmetic.
// RUN: python3 %S/vmap_property.py loom-run %S/Inputs/divergent.mlir --batch 12 --vmapped calls_vmap --scalar calls --arg xs/x:f32:0:40:- --arg limits/limit:f32:2:900:- --result y:y --result halvings:halvings %{gang_variants} | FileCheck %s --check-prefixes=CHECK,GANG

// The seed's diffrax ODE solve (Heun, PID controller, SaveAt at 100 times):
// the saves write a buffer at a per-lane index inside two divergent levels.
// RUN: python3 %S/vmap_property.py loom-run %examples/diffrax/ode.mlir --batch 8 --vmapped main --scalar solve_ode --arg inits/y0:f32:0.05:0.5:1 --arg t1:shared-f32:1.0 --arg dt0:shared-f32:0.05 --result ys:ys --result num_steps:num_steps --result num_accepted_steps:num_accepted_steps --result num_rejected_steps:num_rejected_steps --result result:result %{gang_variants} | FileCheck %s --check-prefixes=CHECK,GANG

// The seed's diffrax SDE solve (virtual Brownian tree on the lane's key).
// RUN: python3 %S/vmap_property.py loom-run %examples/diffrax/sde.mlir --batch 8 --vmapped main --scalar solve_sde --arg inits/y0:f32:0.1:0.1:1 --arg keys/key:key:0 --arg t1:shared-f32:1.0 --result ys:ys --result num_steps:num_steps --result num_rejected_steps:num_rejected_steps --result result:result %{gang_variants} | FileCheck %s --check-prefixes=CHECK,GANG

// Zero-trip lanes at every nesting level, at batches 0 and 1 and one
// not divisible by 2 or 3 shards (a batch of 1 on 2 or 3 shards leaves a
// shard empty), with the loop predicate synchronised globally and locally.
// RUN: python3 %S/vmap_property.py loom-run %S/Inputs/divergent.mlir --batch 0,1,13 --vmapped zerotrip_vmap --scalar zerotrip --arg ns/n:i32:-2:10:- --arg ms/m:i32:-2:7:- --result total:total --result inner:inner %{split_variants} %{gang_variants} | FileCheck %s --check-prefixes=CHECK,GANG,SHARDS

// NaN predicates (olt and ogt false on NaN, une and ult true on NaN under a
// trip cap), carries turning NaN mid-loop, NaNs of either sign, a signalling
// NaN and infinities on entry, at batch 1 and at 37 lanes (all 36 pairs of the
// 9 x and 4 y values, and a batch that 2 and 3 shards do not divide).
// RUN: python3 %S/vmap_property.py loom-run %S/Inputs/divergent.mlir --batch 1,37 --vmapped nanpred_vmap --scalar nanpred --arg xs/x:f32-list:nan,5,-inf,0.3,inf,-2,0x7fa00000,-nan,40:- --arg ys/y:f32-list:1.5,-0.5,nan,0.25:- --result v:v --result w:w --result u:u --result q:q --result trips:trips %{split_variants} %{gang_variants} | FileCheck %s --check-prefixes=CHECK,GANG,SHARDS
// The same on random finite inputs, where the NaNs come only from the loops.
// RUN: python3 %S/vmap_property.py loom-run %S/Inputs/divergent.mlir --batch 11 --vmapped nanpred_vmap --scalar nanpred --arg xs/x:f32:-3:50:- --arg ys/y:f32:-1:2:- --result v:v --result w:w --result u:u --result q:q --result trips:trips %{gang_variants} | FileCheck %s --check-prefixes=CHECK,GANG

// Branches the masked forms if-convert, dividing by values that are 0 on
// the lanes that do not take them, at every nesting level.
// RUN: python3 %S/vmap_property.py loom-run %S/Inputs/divergent.mlir --batch 0,1,13 --vmapped branches_vmap --scalar branches --arg ns/n:i32:-2:7:- --arg ds/d:i32:-3:4:- --arg fs/f:f32:-2:3:- --result acc:acc --result g:g %{split_variants} %{gang_variants} | FileCheck %s --check-prefixes=CHECK,GANG,SHARDS

// A divergent loop under a branch that the first 40 lanes do not take
// (more than a gang of 4 or 32), then lanes that take it and lanes that do
// not, at 37 lanes (the first gangs and shards all empty) and 90.
// RUN: python3 %S/vmap_property.py loom-run %S/Inputs/divergent.mlir --batch 1,37,90 --vmapped late_vmap --scalar late --arg xs/x:i32-list:1,2,3,4,5,6,7,8,9,10,1,2,3,4,5,6,7,8,9,10,1,2,3,4,5,6,7,8,9,10,1,2,3,4,5,6,7,8,9,10,100,200,5,3000,7,11,9,65536,2,40:- --result steps:steps %{split_variants} %{gang_variants} | FileCheck %s --check-prefixes=CHECK,GANG,SHARDS

// CHECK: masked: {{[0-9]+}} lanes checked
// CHECK: per-lane: {{[0-9]+}} lanes checked
// CHECK: auto: {{[0-9]+}} lanes checked
// SHARDS: masked-s2: {{[0-9]+}} lanes checked
// SHARDS: masked-s3-global: {{[0-9]+}} lanes checked
// SHARDS: masked-s3-local: {{[0-9]+}} lanes checked
// SHARDS: per-lane-s3: {{[0-9]+}} lanes checked
// SHARDS: gang4-s2: {{[0-9]+}} lanes checked
// SHARDS: gang4-refill-s3: {{[0-9]+}} lanes checked
// GANG: gang4: {{[0-9]+}} lanes checked
// GANG: gang4-refill: {{[0-9]+}} lanes checked
// GANG: gang16-refill: {{[0-9]+}} lanes checked
// GANG: auto-second-call: {{[0-9]+}} lanes checked
// GANG: auto4-second-call: {{[0-9]+}} lanes checked
// GANG: gang4-refill-lv: {{[0-9]+}} lanes checked
// GANG: auto-lv-second-call: {{[0-9]+}} lanes checked
// CHECK: PASS
