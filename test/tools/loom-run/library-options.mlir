// loom-run given a library refuses loom-compile's options rather than
// ignore them: the library was compiled with its own.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: loom-compile %examples/mwe/while_of_while.mlir -o %t/mwe.so
// RUN: not loom-run %t/mwe.so --shards 2 --input inits=fill:0.1:4x1xf32 --input keys=jax-split:0:4 2>&1 | FileCheck %s --check-prefix=SHARDS
// SHARDS: {{^}}loom-run: --shards is a compile option, and {{.*}}mwe.so is already compiled (give it to loom-compile){{$}}
// RUN: not loom-run %t/mwe.so --divergent per-lane 2>&1 | FileCheck %s --check-prefix=DIVERGENT
// DIVERGENT: {{^}}loom-run: --divergent is a compile option, and {{.*}}mwe.so is already compiled (give it to loom-compile){{$}}
// RUN: not loom-run %t/mwe.so -O0 2>&1 | FileCheck %s --check-prefix=OPT
// OPT: {{^}}loom-run: -O is a compile option, and {{.*}}mwe.so is already compiled (give it to loom-compile){{$}}
// RUN: not loom-run %t/mwe.so --fp-contraction 2>&1 | FileCheck %s --check-prefix=FMA
// FMA: {{^}}loom-run: --fp-contraction is a compile option,
// RUN: not loom-run %t/mwe.so --lane-vectors 2>&1 | FileCheck %s --check-prefix=LANES
// LANES: {{^}}loom-run: --lane-vectors is a compile option,
// RUN: not loom-run %t/mwe.so --verify-each 2>&1 | FileCheck %s --check-prefix=VERIFY
// VERIFY: {{^}}loom-run: --verify-each is a compile option,
// RUN: not loom-run %t/mwe.so --entry main 2>&1 | FileCheck %s --check-prefix=ENTRY
// ENTRY: {{^}}loom-run: --entry is a compile option,
//
// Run options are still taken, --stats among them (the library has no
// counters, which is its own error).
// RUN: loom-run %t/mwe.so --input inits=fill:0.1:4x1xf32 --input keys=jax-split:0:4 --repeat 2 | FileCheck %s --check-prefix=OK
// RUN: not loom-run %t/mwe.so --input inits=fill:0.1:4x1xf32 --input keys=jax-split:0:4 --stats 2>&1 | FileCheck %s --check-prefix=STATS
// OK: ys: 4x1xf32
// STATS: {{^}}loom-run: --stats: {{.*}}mwe.so was compiled without --counters{{$}}
