// loom-exec prints exactly what loom-run prints and writes the same bytes,
// and loom-run runs a library too.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: loom-compile %examples/diffrax/sde.mlir --shards 3 --divergent masked --counters -o %t/sde.so
// RUN: loom-run %examples/diffrax/sde.mlir --shards 3 --divergent masked --input inits=fill:0.1:20x1xf32 --input keys=jax-split:0:20 --input t1=fill:1.0:f32 --input max_steps=fill:10000:i32 --stats --output-dir %t/jit > %t/jit.txt
// RUN: loom-exec %t/sde.so --input inits=fill:0.1:20x1xf32 --input keys=jax-split:0:20 --input=t1=fill:1.0:f32 --input max_steps=fill:10000:i32 --stats --output-dir %t/aot > %t/aot.txt
// RUN: diff %t/jit.txt %t/aot.txt
// RUN: cmp %t/jit/ys.npy %t/aot/ys.npy
// RUN: cmp %t/jit/num_steps.npy %t/aot/num_steps.npy
// RUN: loom-run %t/sde.so --input inits=fill:0.1:20x1xf32 --input keys=jax-split:0:20 --input t1=fill:1.0:f32 --input max_steps=fill:10000:i32 --stats > %t/run-so.txt
// RUN: diff %t/jit.txt %t/run-so.txt
// RUN: FileCheck %s < %t/aot.txt
// CHECK: ys: 20x100x1xf32
// CHECK: loop {{.*}}sde.mlir{{.*}} (masked): iterations per shard per call [{{[0-9]+}}, {{[0-9]+}}, {{[0-9]+}}]
// CHECK: collectives per shard per call:
//
// RUN: loom-exec %t/sde.so --input inits=fill:0.1:20x1xf32 --input keys=jax-split:0:20 --input t1=fill:1.0:f32 --input max_steps=fill:10000:i32 --repeat 2 --time | FileCheck %s --check-prefix=TIME
// TIME: compile: {{.*}} ms (parse 0.0, lower 0.0, jit {{.*}})
// TIME: call: median {{.*}} over 2 calls
//
// RUN: loom-compile %examples/mwe/while_of_while.mlir -o %t/mwe.so
// RUN: not loom-exec %t/mwe.so --input inits=fill:0.1:4x1xf32 --input keys=jax-split:0:4 --stats 2>&1 | FileCheck %s --check-prefix=NOCOUNTERS
// NOCOUNTERS: {{^}}loom-exec: --stats: {{.*}}mwe.so was compiled without --counters{{$}}
// RUN: not loom-exec %t/mwe.so --input inits=fill:0.1:4x1xf32 --input keys=jax-split:0:4 --repeat 2 --repeat 3 2>&1 | FileCheck %s --check-prefix=AGAIN
// AGAIN: {{^}}loom-exec: --repeat is given more than once{{$}}
// RUN: not loom-exec %t/mwe.so --bogus 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// UNKNOWN: {{^}}loom-exec: unknown option '--bogus'{{$}}
// RUN: not loom-exec %t/mwe.so --input inits=fill:0.1:4x1xf32 --input keys=jax-split:0:5 2>&1 | FileCheck %s --check-prefix=MISMATCH
// MISMATCH: {{^}}loom-exec: inputs 'inits' and 'keys' are mapped together but have batch sizes 4 and 5{{$}}
//
// Bad libraries: one line each, never a crash.
// RUN: head -c 3000 %t/mwe.so > %t/truncated.so
// RUN: not loom-exec %t/truncated.so 2>&1 | FileCheck %s --check-prefix=TRUNC
// TRUNC: {{^}}loom-exec: {{.*}}truncated.so: not a loadable library (truncated: 3000 bytes, its segments need {{[0-9]+}}){{$}}
// RUN: not loom-exec %s 2>&1 | FileCheck %s --check-prefix=TEXT
// TEXT: {{^}}loom-exec: {{.*}}exec.mlir: not a loadable library (not a 64-bit ELF shared library){{$}}
// RUN: not loom-exec %t/missing.so 2>&1 | FileCheck %s --check-prefix=MISSING
// MISSING: {{^}}loom-exec: {{.*}}missing.so: cannot open it{{$}}
// RUN: %python -c "import sys; b = open(sys.argv[1], 'rb').read(); open(sys.argv[2], 'wb').write(b.replace(b'LOOM\x03\x00\x00\x00', b'LOOM\x07\x00\x00\x00', 1))" %t/mwe.so %t/abi.so
// RUN: not loom-exec %t/abi.so 2>&1 | FileCheck %s --check-prefix=ABI
// ABI: {{^}}loom-exec: {{.*}}abi.so: compiled for Loom program ABI version 7, but this runtime loads version 3{{$}}
