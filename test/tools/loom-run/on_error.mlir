// EQX_ON_ERROR on the vmapped diffrax SDE: lanes 0-2 of golden.md's keys
// split(PRNGKey(0), 300) need 93, 75 and 80 steps to reach t1 = 1.0, so with
// max_steps = 80 lane 0 stops short (result 1, max_steps_reached) while
// lane 2 finishes on its last allowed step (result 0).

// RUN: %python %S/npy.py write %t.keys.npy '<u4' 3x2 2264043288 330151505 945335751 2658791920 131572300 639162889
// DEFINE: %{sde} = %examples/diffrax/sde.mlir --input inits=fill:0.1:3x1xf32 --input keys=%t.keys.npy --input t1=fill:1.0:f32 --input dt0=fill:0.05:f32

// off (on_error = 2): the outputs as they are, with the per-lane result code;
// the failed lane's unreached save slots stay +inf.
// RUN: rm -rf %t.off
// RUN: loom-run %{sde} --input max_steps=fill:80:i32 --input on_error=fill:2:i32 --output-dir %t.off | FileCheck %s --check-prefix=OFF
// OFF:      {{^}}num_steps: 3xi32 min=75 max=80 mean=78.3333333 [80, 75, 80]{{$}}
// OFF-NEXT: {{^}}num_accepted_steps: 3xi32 {{.*}}
// OFF-NEXT: {{^}}num_rejected_steps: 3xi32 {{.*}}
// OFF-NEXT: {{^}}result: 3xi32 min=0 max=1 mean=0.333333333 [1, 0, 0]{{$}}
// RUN: %python %S/npy.py show %t.off/ys.npy 99 199 299 | FileCheck %s --check-prefix=OFFYS
// OFFYS:      [99] = inf
// OFFYS-NEXT: [199] = {{0\.[0-9]+$}}
// OFFYS-NEXT: [299] = {{0\.[0-9]+$}}

// nan (on_error = 1): one failed lane turns every lane's floats to NaN and
// every lane's integers, the result codes included, to INT32_MAX, as
// equinox's unvmap_any does.
// RUN: rm -rf %t.nan
// RUN: loom-run %{sde} --input max_steps=fill:80:i32 --input on_error=fill:1:i32 --output-dir %t.nan | FileCheck %s --check-prefix=NAN
// NAN:      {{^}}num_steps: 3xi32 min=2.14748365e+09 max=2.14748365e+09 {{.*}}
// NAN-NEXT: {{^}}num_accepted_steps: 3xi32 min=2.14748365e+09 max=2.14748365e+09 {{.*}}
// NAN-NEXT: {{^}}num_rejected_steps: 3xi32 min=2.14748365e+09 max=2.14748365e+09 {{.*}}
// NAN-NEXT: {{^}}result: 3xi32 min=2.14748365e+09 max=2.14748365e+09 {{.*}}
// RUN: %python %S/npy.py show %t.nan/ys.npy 0 150 299 | FileCheck %s --check-prefix=NANYS
// NANYS:      [0] = nan
// NANYS-NEXT: [150] = nan
// NANYS-NEXT: [299] = nan

// nan with every lane successful changes nothing: the same numbers as off.
// RUN: loom-run %{sde} --input max_steps=fill:100:i32 --input on_error=fill:1:i32 | FileCheck %s --check-prefix=NANOK
// NANOK:      {{^}}num_steps: 3xi32 min=75 max=93 mean=82.6666667 [93, 75, 80]{{$}}
// NANOK:      {{^}}result: 3xi32 min=0 max=0 mean=0 [0, 0, 0]{{$}}

// raise (on_error = 0, the default): the program returns the codes and its
// caller raises; loom-run does with --raise-on, naming the failed lanes and
// writing nothing.
// RUN: rm -rf %t.raise
// RUN: not loom-run %{sde} --input max_steps=fill:80:i32 --raise-on=result --output-dir %t.raise > %t.raise.out 2>&1
// RUN: FileCheck %s --check-prefix=RAISE < %t.raise.out && count 1 < %t.raise.out
// RUN: not ls %t.raise/ys.npy
// RAISE: {{^}}loom-run: 1 of 3 lanes failed: 0 (result=1); 1 = max_steps_reached: The maximum number of solver steps was reached. Try increasing `max_steps`.{{$}}
// RUN: loom-run %{sde} --input max_steps=fill:100:i32 --raise-on=result | FileCheck %s --check-prefix=NANOK
// The same under the masked lowering and two shards: the any-lane reduction
// sits after the loops.
// RUN: loom-run %{sde} --input max_steps=fill:80:i32 --input on_error=fill:1:i32 --divergent masked --shards 2 | FileCheck %s --check-prefix=NAN
// RUN: loom-run %{sde} --input max_steps=fill:80:i32 --input on_error=fill:2:i32 --divergent per-lane --shards 2 | FileCheck %s --check-prefix=OFF
// With the failing lane last, it is alone on the last shard, and still
// poisons every shard's lanes.
// RUN: %python %S/npy.py write %t.keys-r.npy '<u4' 3x2 945335751 2658791920 131572300 639162889 2264043288 330151505
// RUN: loom-run %examples/diffrax/sde.mlir --input inits=fill:0.1:3x1xf32 --input keys=%t.keys-r.npy --input t1=fill:1.0:f32 --input dt0=fill:0.05:f32 --input max_steps=fill:80:i32 --input on_error=fill:1:i32 --shards 3 | FileCheck %s --check-prefix=NAN
// RUN: not loom-run %examples/diffrax/sde.mlir --input inits=fill:0.1:3x1xf32 --input keys=%t.keys-r.npy --input t1=fill:1.0:f32 --input dt0=fill:0.05:f32 --input max_steps=fill:80:i32 --shards 3 --raise-on=result 2>&1 | FileCheck %s --check-prefix=RAISELAST
// RAISELAST: {{^}}loom-run: 1 of 3 lanes failed: 2 (result=1); 1 = max_steps_reached: The maximum number of solver steps was reached. Try increasing `max_steps`.{{$}}

// --raise-on works on any integer result, and names one it does not know.
// RUN: not loom-run %{sde} --input max_steps=fill:80:i32 --raise-on=num_steps 2>&1 | FileCheck %s --check-prefix=RAISESTEPS
// RAISESTEPS: {{^}}loom-run: 3 of 3 lanes failed: 0 (num_steps=80), 1 (num_steps=75), 2 (num_steps=80){{$}}
// RUN: not loom-run %{sde} --raise-on=nope 2>&1 | FileCheck %s --check-prefix=NORESULT
// NORESULT: {{^}}loom-run: --raise-on: the entry has no result 'nope'{{$}}

// on_error carries loom.range = [0, 2] in all four diffrax programs: any
// other mode is refused before the call, naming the argument, the value and
// the range, by the API (so C++ callers get it too), on the mesh as well.
// RUN: not loom-run %{sde} --input on_error=fill:7:i32 > %t.range 2>&1
// RUN: FileCheck %s --check-prefix=RANGE7 < %t.range && count 1 < %t.range
// RANGE7: {{^}}loom-run: input 'on_error' (#7) is 7, outside its loom.range [0, 2]{{$}}
// RUN: not loom-run %examples/diffrax/ode.mlir --input inits=fill:0.1:2x1xf32 --input on_error=fill:-1:i32 --shards 2 2>&1 | FileCheck %s --check-prefix=RANGEODE
// RANGEODE: {{^}}loom-run: input 'on_error' (#6) is -1, outside its loom.range [0, 2]{{$}}
// RUN: not loom-run %examples/diffrax/ode_f64.mlir --input inits=fill:0.1:2x1xf64 --input on_error=fill:3:i32 2>&1 | FileCheck %s --check-prefix=RANGEODE64
// RANGEODE64: {{^}}loom-run: input 'on_error' (#8) is 3, outside its loom.range [0, 2]{{$}}
// RUN: not loom-run %examples/diffrax/sde_f64.mlir --input inits=fill:0.1:2x1xf64 --input keys=jax-split:0:2 --input on_error=fill:3:i32 2>&1 | FileCheck %s --check-prefix=RANGESDE64
// RANGESDE64: {{^}}loom-run: input 'on_error' (#9) is 3, outside its loom.range [0, 2]{{$}}
