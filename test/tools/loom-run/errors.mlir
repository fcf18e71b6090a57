// Bad input to loom-run: each case ends with exactly one line (on stdout and
// stderr together) that names the problem, and a non-zero exit; `not` fails
// the test on a crash as well as on success. One case per mistake listed in
// the CPU JIT issue ("Bad input"), plus the option words.

// Shorthands for the MWE's scalar entry with good inputs.
// DEFINE: %{mwe} = %examples/mwe/while_of_while.mlir --entry solve
// DEFINE: %{lane} = --input init=fill:0.1:1xf32 --input key=jax-split:0:30:0

//===----------------------------------------------------------------------===//
// The program
//===----------------------------------------------------------------------===//

// A file that does not exist.
// RUN: not loom-run %t.does-not-exist.mlir > %t.nofile 2>&1
// RUN: FileCheck %s --check-prefix=NOFILE < %t.nofile && count 1 < %t.nofile
// NOFILE: {{^}}loom-run: {{.*}}does-not-exist.mlir: No such file or directory{{$}}

// IR that does not parse: the message carries file, line and column.
// RUN: echo 'func.func @solve( {' > %t.syntax.mlir
// RUN: not loom-run %t.syntax.mlir --entry solve > %t.syntax 2>&1
// RUN: FileCheck %s --check-prefix=SYNTAX < %t.syntax && count 1 < %t.syntax
// SYNTAX: {{^}}loom-run: {{.*}}syntax.mlir:1:18: error: expected non-function type{{$}}

// IR that parses but does not verify.
// RUN: echo 'func.func @solve(%%a: f32) -> f64 { return %%a : f32 }' > %t.verify.mlir
// RUN: not loom-run %t.verify.mlir --entry solve > %t.verify 2>&1
// RUN: FileCheck %s --check-prefix=VERIFY < %t.verify && count 1 < %t.verify
// VERIFY: {{^}}loom-run: {{.*}}verify.mlir:1:{{[0-9]+}}: error: type of return operand 0 ('f32') doesn't match function result type ('f64') in function @solve{{$}}

// An entry the program does not define, and one it only declares.
// RUN: not loom-run %examples/mwe/while_of_while.mlir --entry nope > %t.noentry 2>&1
// RUN: FileCheck %s --check-prefix=NOENTRY < %t.noentry && count 1 < %t.noentry
// NOENTRY: {{^}}loom-run: no entry function @nope in the program{{$}}
// RUN: echo 'func.func private @solve(f32) -> f32' > %t.decl.mlir
// RUN: not loom-run %t.decl.mlir --entry solve > %t.decl 2>&1
// RUN: FileCheck %s --check-prefix=DECL < %t.decl && count 1 < %t.decl
// DECL: {{^}}loom-run: no entry function @solve in the program{{$}}

// An entry whose signature cannot be called with host buffers.
// RUN: echo 'func.func @solve(%%m: memref<4xf32>) { return }' > %t.memref.mlir
// RUN: not loom-run %t.memref.mlir --entry solve > %t.memref 2>&1
// RUN: FileCheck %s --check-prefix=MEMREF < %t.memref && count 1 < %t.memref
// MEMREF: {{^}}loom-run: @solve: argument #0 has type memref<4xf32>: entry functions take and return scalars and ranked tensors{{$}}
// A 0-d tensor, argument or result, is refused by name (it was passed as
// the scalar it holds and read as a descriptor: a crash, or a wrong value).
// RUN: echo 'func.func @solve(%%x: tensor<i32>) -> tensor<i32> { return %%x : tensor<i32> }' > %t.rank0.mlir
// RUN: not loom-run %t.rank0.mlir --entry solve --input x=fill:3:i32 > %t.rank0 2>&1
// RUN: FileCheck %s --check-prefix=RANK0 < %t.rank0 && count 1 < %t.rank0
// RANK0: {{^}}loom-run: @solve: argument #0 has type tensor<i32>: entry functions take and return scalars and tensors of rank 1 or more (use i32 or tensor<1xi32>){{$}}
// RUN: echo 'func.func @solve(%%x: f32) -> tensor<f32> { %%t = tensor.from_elements %%x : tensor<f32> return %%t : tensor<f32> }' > %t.rank0r.mlir
// RUN: not loom-run %t.rank0r.mlir --entry solve --input x=fill:3:f32 > %t.rank0r 2>&1
// RUN: FileCheck %s --check-prefix=RANK0R < %t.rank0r && count 1 < %t.rank0r
// RANK0R: {{^}}loom-run: @solve: result #0 has type tensor<f32>: entry functions take and return scalars and tensors of rank 1 or more (use f32 or tensor<1xf32>){{$}}

//===----------------------------------------------------------------------===//
// The command line
//===----------------------------------------------------------------------===//

// No program at all, and an unknown option: LLVM's parser says these on two
// lines, loom-run on one.
// RUN: not loom-run > %t.noarg 2>&1
// RUN: FileCheck %s --check-prefix=NOARG < %t.noarg && count 1 < %t.noarg
// NOARG: {{^}}loom-run: Not enough positional command line arguments specified!
// RUN: not loom-run %{mwe} %{lane} --no-such-flag > %t.flag 2>&1
// RUN: FileCheck %s --check-prefix=FLAG < %t.flag && count 1 < %t.flag
// FLAG: {{^}}loom-run: Unknown command line argument '--no-such-flag'.

// Every option but --input holds one value: llvm::cl would let the last
// occurrence win silently, so a second one is an error.
// RUN: not loom-run %{mwe} %{lane} --shards 1 --shards 2 > %t.again 2>&1
// RUN: FileCheck %s --check-prefix=AGAIN < %t.again && count 1 < %t.again
// AGAIN: {{^}}loom-run: --shards is given more than once{{$}}
// RUN: not loom-run %{mwe} %{lane} --entry solve > %t.againentry 2>&1
// RUN: FileCheck %s --check-prefix=AGAINENTRY < %t.againentry && count 1 < %t.againentry
// AGAINENTRY: {{^}}loom-run: --entry is given more than once{{$}}
// RUN: not loom-run %{mwe} %{lane} -O2 -O3 > %t.againopt 2>&1
// RUN: FileCheck %s --check-prefix=AGAINOPT < %t.againopt && count 1 < %t.againopt
// AGAINOPT: {{^}}loom-run: -O is given more than once{{$}}
// RUN: not loom-run %{mwe} %{lane} --raise-on y --raise-on=y > %t.againraise 2>&1
// RUN: FileCheck %s --check-prefix=AGAINRAISE < %t.againraise && count 1 < %t.againraise
// AGAINRAISE: {{^}}loom-run: --raise-on is given more than once{{$}}
// RUN: not loom-run %{mwe} %{lane} --time --time > %t.againtime 2>&1
// RUN: FileCheck %s --check-prefix=AGAINTIME < %t.againtime && count 1 < %t.againtime
// AGAINTIME: {{^}}loom-run: --time is given more than once{{$}}
// RUN: not loom-run %{mwe} %{lane} --stats --stats > %t.againstats 2>&1
// RUN: FileCheck %s --check-prefix=AGAINSTATS < %t.againstats && count 1 < %t.againstats
// AGAINSTATS: {{^}}loom-run: --stats is given more than once{{$}}

// An empty value is a mistake, never "option not given".
// RUN: not loom-run %{mwe} %{lane} --raise-on '' > %t.emptyraise 2>&1
// RUN: FileCheck %s --check-prefix=EMPTYRAISE < %t.emptyraise && count 1 < %t.emptyraise
// EMPTYRAISE: {{^}}loom-run: --raise-on needs a value, got ''{{$}}
// RUN: not loom-run %{mwe} %{lane} --output-dir '' > %t.emptydir 2>&1
// RUN: FileCheck %s --check-prefix=EMPTYDIR < %t.emptydir && count 1 < %t.emptydir
// EMPTYDIR: {{^}}loom-run: --output-dir needs a value, got ''{{$}}
// RUN: not loom-run %examples/mwe/while_of_while.mlir --entry= %{lane} > %t.emptyentry 2>&1
// RUN: FileCheck %s --check-prefix=EMPTYENTRY < %t.emptyentry && count 1 < %t.emptyentry
// EMPTYENTRY: {{^}}loom-run: --entry needs a value, got ''{{$}}
// RUN: not loom-run %{mwe} %{lane} --backend '' > %t.emptybackend 2>&1
// RUN: FileCheck %s --check-prefix=EMPTYBACKEND < %t.emptybackend && count 1 < %t.emptybackend
// EMPTYBACKEND: {{^}}loom-run: --backend needs a value, got ''{{$}}
// RUN: not loom-run '' %{lane} > %t.emptyfile 2>&1
// RUN: FileCheck %s --check-prefix=EMPTYFILE < %t.emptyfile && count 1 < %t.emptyfile
// EMPTYFILE: {{^}}loom-run: the program's file name is empty{{$}}

// RUN: not loom-run %{mwe} %{lane} --repeat 0 > %t.repeat0 2>&1
// RUN: FileCheck %s --check-prefix=REPEAT0 < %t.repeat0 && count 1 < %t.repeat0
// REPEAT0: {{^}}loom-run: --repeat must be at least 1{{$}}
// RUN: not loom-run %{mwe} %{lane} --repeat -1 > %t.repeatneg 2>&1
// RUN: FileCheck %s --check-prefix=REPEATNEG < %t.repeatneg && count 1 < %t.repeatneg
// REPEATNEG: {{^}}loom-run: for the --repeat option: '-1' value invalid

// Unknown strategy and backend words list the known ones.
// RUN: not loom-run %{mwe} %{lane} --divergent sideways > %t.div 2>&1
// RUN: FileCheck %s --check-prefix=DIV < %t.div && count 1 < %t.div
// DIV: {{^}}loom-run: unknown divergent strategy 'sideways' (expected one of: auto, masked, per-lane, gang){{$}}
// RUN: not loom-run %{mwe} %{lane} --loop-sync sometimes > %t.sync 2>&1
// RUN: FileCheck %s --check-prefix=SYNC < %t.sync && count 1 < %t.sync
// SYNC: {{^}}loom-run: unknown loop-sync mode 'sometimes' (expected one of: auto, global, local){{$}}
// RUN: not loom-run %{mwe} %{lane} --backend tpu > %t.backend 2>&1
// RUN: FileCheck %s --check-prefix=BACKEND < %t.backend && count 1 < %t.backend
// BACKEND: {{^}}loom-run: unknown backend 'tpu' (expected one of: cpu, gpu, mpi){{$}}

// The GPU backend where no driver can be loaded: an error, never a silent
// fallback to the CPU (the rest of that path: test/GPU/no-driver.mlir).
// RUN: env LOOM_CUDA_DRIVER=%t.none/libcuda.so.1 not loom-run %{mwe} %{lane} --backend gpu > %t.gpu 2>&1
// RUN: FileCheck %s --check-prefix=GPU < %t.gpu && count 1 < %t.gpu
// GPU: {{^}}loom-run: no CUDA driver: {{.*}}libcuda.so.1 not found{{$}}
// (--backend mpi's errors: test/MPI/failure.mlir, scripts/check-no-mpi.sh.)

// A shard count below 1 is refused. The API reads 0 as "from the
// program's mesh, or 1" (CompileOptions::shards), which is what leaving
// --shards out means; an explicit 0 is a mistake.
// RUN: not loom-run %{mwe} %{lane} --shards -1 > %t.shardneg 2>&1
// RUN: FileCheck %s --check-prefix=SHARDNEG < %t.shardneg && count 1 < %t.shardneg
// SHARDNEG: {{^}}loom-run: --shards must be 1 to 1024, got -1{{$}}
// RUN: not loom-run %{mwe} %{lane} --shards 0 > %t.shard0 2>&1
// RUN: FileCheck %s --check-prefix=SHARD0 < %t.shard0 && count 1 < %t.shard0
// SHARD0: {{^}}loom-run: --shards must be 1 to 1024, got 0{{$}}

// RUN: not loom-run %{mwe} %{lane} -O7 > %t.opt 2>&1
// RUN: FileCheck %s --check-prefix=OPT < %t.opt && count 1 < %t.opt
// OPT: {{^}}loom-run: optimization level must be 0 to 3, got 7{{$}}

//===----------------------------------------------------------------------===//
// Inputs
//===----------------------------------------------------------------------===//

// An input name the entry does not have; the message lists those it has.
// RUN: not loom-run %{mwe} %{lane} --input seed=fill:0:i32 > %t.name 2>&1
// RUN: FileCheck %s --check-prefix=NAME < %t.name && count 1 < %t.name
// NAME: {{^}}loom-run: the entry has no input 'seed' (inputs: init, key){{$}}
// A position past the last input is not a name either.
// RUN: not loom-run %{mwe} %{lane} --input 2=fill:0:i32 > %t.pos 2>&1
// RUN: FileCheck %s --check-prefix=POS < %t.pos && count 1 < %t.pos
// POS: {{^}}loom-run: the entry has no input '2' (inputs: init, key){{$}}

// A position too large for any integer is an unknown name, not a crash.
// RUN: not loom-run %{mwe} %{lane} --input 99999999999999999999999=fill:0:i32 > %t.huge 2>&1
// RUN: FileCheck %s --check-prefix=HUGE < %t.huge && count 1 < %t.huge
// HUGE: {{^}}loom-run: the entry has no input '99999999999999999999999' (inputs: init, key){{$}}

// RUN: not loom-run %{mwe} --input init > %t.noeq 2>&1
// RUN: FileCheck %s --check-prefix=NOEQ < %t.noeq && count 1 < %t.noeq
// NOEQ: {{^}}loom-run: bad --input 'init' (expected NAME=SPEC){{$}}

// The same input twice, by any mix of name and position: an error, never
// the last one winning.
// RUN: not loom-run %{mwe} %{lane} --input 0=fill:0.1:1xf32 > %t.twice 2>&1
// RUN: FileCheck %s --check-prefix=TWICE < %t.twice && count 1 < %t.twice
// TWICE: {{^}}loom-run: input 'init' is given twice (--input init=... and --input 0=...){{$}}
// RUN: not loom-run %{mwe} %{lane} --input init=fill:0.5:1xf32 > %t.twicename 2>&1
// RUN: FileCheck %s --check-prefix=TWICENAME < %t.twicename && count 1 < %t.twicename
// TWICENAME: {{^}}loom-run: input 'init' is given twice (--input init=... and --input init=...){{$}}
// RUN: not loom-run %{mwe} --input 1=jax-split:0:30:0 --input 0=fill:0.1:1xf32 --input 1=jax-split:0:30:1 > %t.twicepos 2>&1
// RUN: FileCheck %s --check-prefix=TWICEPOS < %t.twicepos && count 1 < %t.twicepos
// TWICEPOS: {{^}}loom-run: input 'key' is given twice (--input 1=... and --input 1=...){{$}}

// An empty SPEC is not a file name.
// RUN: not loom-run %{mwe} %{lane} --input init= > %t.nospec 2>&1
// RUN: FileCheck %s --check-prefix=NOSPEC < %t.nospec && count 1 < %t.nospec
// NOSPEC: {{^}}loom-run: bad --input 'init=' (expected NAME=SPEC){{$}}

// Malformed specs.
// RUN: not loom-run %{mwe} --input init=fill:0.1 --input key=jax-split:0:30:0 > %t.fill 2>&1
// RUN: FileCheck %s --check-prefix=FILL < %t.fill && count 1 < %t.fill
// FILL: {{^}}loom-run: input 'init': fill spec 'fill:0.1': expected fill:VALUE:TYPE
// RUN: not loom-run %{mwe} --input init=fill:0.1:1xq32 --input key=jax-split:0:30:0 > %t.dtype 2>&1
// RUN: FileCheck %s --check-prefix=FILLTYPE < %t.dtype && count 1 < %t.dtype
// FILLTYPE: {{^}}loom-run: input 'init': {{.*}}q32
// RUN: not loom-run %{mwe} --input init=fill:abc:1xf32 --input key=jax-split:0:30:0 > %t.value 2>&1
// RUN: FileCheck %s --check-prefix=FILLVALUE < %t.value && count 1 < %t.value
// FILLVALUE: {{^}}loom-run: input 'init': {{.*}}abc
// RUN: not loom-run %{mwe} --input init=fill:0.1:1xf32 --input key=jax-split:0:30:30 > %t.index 2>&1
// RUN: FileCheck %s --check-prefix=KEYINDEX < %t.index && count 1 < %t.index
// KEYINDEX: {{^}}loom-run: input 'key': bad key spec 'jax-split:0:30:30' (expected jax-split:SEED:COUNT[:INDEX] with an int32 seed, a positive count and an index below it){{$}}
// RUN: not loom-run %{mwe} --input init=fill:0.1:1xf32 --input key=jax-split:0:0 > %t.count 2>&1
// RUN: FileCheck %s --check-prefix=KEYCOUNT < %t.count && count 1 < %t.count
// KEYCOUNT: {{^}}loom-run: input 'key': bad key spec 'jax-split:0:0'
// RUN: not loom-run %{mwe} --input init=fill:0.1:1xf32 --input key=jax-split-partitionable:x:30:0 > %t.seed 2>&1
// RUN: FileCheck %s --check-prefix=KEYSEED < %t.seed && count 1 < %t.seed
// KEYSEED: {{^}}loom-run: input 'key': bad key spec 'jax-split-partitionable:x:30:0' (expected jax-split-partitionable:SEED:COUNT[:INDEX]
// A seed outside int32 (JAX with x64 off would keep its low 32 bits).
// RUN: not loom-run %{mwe} --input init=fill:0.1:1xf32 --input key=jax-split:2147483648:30:0 > %t.seedrange 2>&1
// RUN: FileCheck %s --check-prefix=KEYSEEDRANGE < %t.seedrange && count 1 < %t.seedrange
// KEYSEEDRANGE: {{^}}loom-run: input 'key': bad key spec 'jax-split:2147483648:30:0' (expected jax-split:SEED:COUNT[:INDEX] with an int32 seed, a positive count and an index below it){{$}}
// A negative count, text after a number, and whitespace before one.
// RUN: not loom-run %{mwe} --input init=fill:0.1:1xf32 --input key=jax-split:0:-30:0 > %t.negcount 2>&1
// RUN: FileCheck %s --check-prefix=KEYNEG < %t.negcount && count 1 < %t.negcount
// KEYNEG: {{^}}loom-run: input 'key': bad key spec 'jax-split:0:-30:0' (expected jax-split:SEED:COUNT[:INDEX]
// RUN: not loom-run %{mwe} --input init=fill:0.1:1xf32 --input key=jax-split:0:30:1x > %t.trailing 2>&1
// RUN: FileCheck %s --check-prefix=KEYTRAIL < %t.trailing && count 1 < %t.trailing
// KEYTRAIL: {{^}}loom-run: input 'key': bad key spec 'jax-split:0:30:1x' (expected jax-split:SEED:COUNT[:INDEX]
// RUN: not loom-run %{mwe} --input init=fill:0.1:1xf32 --input 'key=jax-split: 0:30:0' > %t.space 2>&1
// RUN: FileCheck %s --check-prefix=KEYSPACE < %t.space && count 1 < %t.space
// KEYSPACE: {{^}}loom-run: input 'key': bad key spec 'jax-split: 0:30:0' (expected jax-split:SEED:COUNT[:INDEX]
// A COUNT above kMaxSplitCount (2^30), also with an INDEX, and beyond
// int64: refused by name before anything is allocated.
// RUN: not loom-run %{mwe} --input init=fill:0.1:1xf32 --input key=jax-split:0:1073741825 > %t.bigcount 2>&1
// RUN: FileCheck %s --check-prefix=KEYBIG < %t.bigcount && count 1 < %t.bigcount
// KEYBIG: {{^}}loom-run: input 'key': bad key spec 'jax-split:0:1073741825' (COUNT is at most 1073741824){{$}}
// RUN: not loom-run %{mwe} --input init=fill:0.1:1xf32 --input key=jax-split-partitionable:0:4294967297:0 > %t.bigindex 2>&1
// RUN: FileCheck %s --check-prefix=KEYBIGINDEX < %t.bigindex && count 1 < %t.bigindex
// KEYBIGINDEX: {{^}}loom-run: input 'key': bad key spec 'jax-split-partitionable:0:4294967297:0' (COUNT is at most 1073741824){{$}}
// RUN: not loom-run %{mwe} --input init=fill:0.1:1xf32 --input key=jax-split:0:99999999999999999999:0 > %t.hugecount 2>&1
// RUN: FileCheck %s --check-prefix=KEYHUGE < %t.hugecount && count 1 < %t.hugecount
// KEYHUGE: {{^}}loom-run: input 'key': bad key spec 'jax-split:0:99999999999999999999:0' (COUNT is at most 1073741824){{$}}

// Wrong dtype and wrong shape: the message gives the expected type and the
// one received.
// RUN: not loom-run %{mwe} --input init=fill:0.1:1xf64 --input key=jax-split:0:30:0 > %t.f64 2>&1
// RUN: FileCheck %s --check-prefix=F64 < %t.f64 && count 1 < %t.f64
// F64: {{^}}loom-run: input 'init' (#0) must be 1xf32, got 1xf64{{$}}
// RUN: not loom-run %{mwe} --input init=fill:0.1:1xf32 --input key=fill:1:2xf32 > %t.keytype 2>&1
// RUN: FileCheck %s --check-prefix=KEYTYPE < %t.keytype && count 1 < %t.keytype
// KEYTYPE: {{^}}loom-run: input 'key' (#1) must be 2xi32, got 2xf32{{$}}
// RUN: not loom-run %{mwe} --input init=fill:0.1:2xf32 --input key=jax-split:0:30:0 > %t.size 2>&1
// RUN: FileCheck %s --check-prefix=SIZE < %t.size && count 1 < %t.size
// SIZE: {{^}}loom-run: input 'init' (#0) must be 1xf32, got 2xf32{{$}}
// RUN: not loom-run %{mwe} --input init=fill:0.1:f32 --input key=jax-split:0:30:0 > %t.rank 2>&1
// RUN: FileCheck %s --check-prefix=RANK < %t.rank && count 1 < %t.rank
// RANK: {{^}}loom-run: input 'init' (#0) must be 1xf32, got f32{{$}}
// All 30 keys where one lane's key is expected.
// RUN: not loom-run %{mwe} --input init=fill:0.1:1xf32 --input key=jax-split:0:30 > %t.keys 2>&1
// RUN: FileCheck %s --check-prefix=KEYS < %t.keys && count 1 < %t.keys
// KEYS: {{^}}loom-run: input 'key' (#1) must be 2xi32, got 30x2xu32{{$}}

// An input without a default left out.
// RUN: not loom-run %{mwe} --input init=fill:0.1:1xf32 > %t.missing 2>&1
// RUN: FileCheck %s --check-prefix=MISSING < %t.missing && count 1 < %t.missing
// MISSING: {{^}}loom-run: input 'key' (#1) is missing and has no default{{$}}

//===----------------------------------------------------------------------===//
// .npy files
//===----------------------------------------------------------------------===//

// RUN: %python %S/npy.py write %t.good.npy '<f4' 1 0.1
// RUN: loom-run %{mwe} --input init=%t.good.npy --input key=jax-split:0:30:0 | FileCheck %s --check-prefix=GOOD
// GOOD: {{^}}y: 1xf32 {{.*}}[13.5127087]{{$}}

// A missing file, an empty one, one that is not .npy at all.
// RUN: not loom-run %{mwe} --input init=%t.no-such.npy --input key=jax-split:0:30:0 > %t.npymissing 2>&1
// RUN: FileCheck %s --check-prefix=NPYMISSING < %t.npymissing && count 1 < %t.npymissing
// NPYMISSING: {{^}}loom-run: input 'init': {{.*}}no-such.npy: cannot open: No such file or directory{{$}}
// RUN: rm -f %t.empty.npy && touch %t.empty.npy
// RUN: not loom-run %{mwe} --input init=%t.empty.npy --input key=jax-split:0:30:0 > %t.npyempty 2>&1
// RUN: FileCheck %s --check-prefix=NPYEMPTY < %t.npyempty && count 1 < %t.npyempty
// NPYEMPTY: {{^}}loom-run: input 'init': {{.*}}empty.npy: 
// RUN: echo 'this is not a numpy file' > %t.text.npy
// RUN: not loom-run %{mwe} --input init=%t.text.npy --input key=jax-split:0:30:0 > %t.npytext 2>&1
// RUN: FileCheck %s --check-prefix=NPYTEXT < %t.npytext && count 1 < %t.npytext
// NPYTEXT: {{^}}loom-run: input 'init': {{.*}}text.npy: not a .npy file (bad magic string){{$}}

// Truncated inside the header, and inside the data.
// RUN: head -c 40 %t.good.npy > %t.cuthead.npy
// RUN: not loom-run %{mwe} --input init=%t.cuthead.npy --input key=jax-split:0:30:0 > %t.npycuthead 2>&1
// RUN: FileCheck %s --check-prefix=NPYCUTHEAD < %t.npycuthead && count 1 < %t.npycuthead
// NPYCUTHEAD: {{^}}loom-run: input 'init': {{.*}}cuthead.npy: header length 118 runs past the end of the file (40 bytes){{$}}
// RUN: head -c 130 %t.good.npy > %t.cutdata.npy
// RUN: not loom-run %{mwe} --input init=%t.cutdata.npy --input key=jax-split:0:30:0 > %t.npycutdata 2>&1
// RUN: FileCheck %s --check-prefix=NPYCUTDATA < %t.npycutdata && count 1 < %t.npycutdata
// NPYCUTDATA: {{^}}loom-run: input 'init': {{.*}}cutdata.npy: data is truncated: shape 1xf32 needs 4 bytes, the file has 2{{$}}

// Bytes after the data, and a header whose padding does not end in the
// newline numpy writes (byte 127 of this 128-byte preamble).
// RUN: cp %t.good.npy %t.trail.npy && printf 'xyz' >> %t.trail.npy
// RUN: not loom-run %{mwe} --input init=%t.trail.npy --input key=jax-split:0:30:0 > %t.npytrail 2>&1
// RUN: FileCheck %s --check-prefix=NPYTRAIL < %t.npytrail && count 1 < %t.npytrail
// NPYTRAIL: {{^}}loom-run: input 'init': {{.*}}trail.npy: 3 bytes after the data (shape 1xf32 needs 4 bytes){{$}}
// RUN: head -c 127 %t.good.npy > %t.nonl.npy && printf ' ' >> %t.nonl.npy && tail -c 4 %t.good.npy >> %t.nonl.npy
// RUN: not loom-run %{mwe} --input init=%t.nonl.npy --input key=jax-split:0:30:0 > %t.npynonl 2>&1
// RUN: FileCheck %s --check-prefix=NPYNONL < %t.npynonl && count 1 < %t.npynonl
// NPYNONL: {{^}}loom-run: input 'init': {{.*}}nonl.npy: malformed header: it does not end with a newline{{$}}

// A dtype Loom does not take is refused, not converted.
// RUN: %python %S/npy.py write %t.i2.npy '<i2' 1 7
// RUN: not loom-run %{mwe} --input init=%t.i2.npy --input key=jax-split:0:30:0 > %t.npyi2 2>&1
// RUN: FileCheck %s --check-prefix=NPYI2 < %t.npyi2 && count 1 < %t.npyi2
// NPYI2: {{^}}loom-run: input 'init': {{.*}}i2.npy: {{.*}}<i2

// A well-formed file of the wrong dtype reaches the signature check.
// RUN: %python %S/npy.py write %t.f8.npy '<f8' 1 0.1
// RUN: not loom-run %{mwe} --input init=%t.f8.npy --input key=jax-split:0:30:0 > %t.npyf8 2>&1
// RUN: FileCheck %s --check-prefix=F64 < %t.npyf8 && count 1 < %t.npyf8

//===----------------------------------------------------------------------===//
// Outputs
//===----------------------------------------------------------------------===//

// An output directory that cannot be created because a regular file is in
// the way, and one that is a regular file: refused before the program runs,
// so nothing is printed.
// RUN: rm -rf %t.file && touch %t.file
// RUN: not loom-run %{mwe} %{lane} --output-dir %t.file/out > %t.under 2>&1
// RUN: FileCheck %s --check-prefix=UNDER < %t.under && count 1 < %t.under
// UNDER: {{^}}loom-run: cannot create output directory '{{.*}}file/out': Not a directory{{$}}
// RUN: not loom-run %{mwe} %{lane} --output-dir %t.file > %t.isfile 2>&1
// RUN: FileCheck %s --check-prefix=ISFILE < %t.isfile && count 1 < %t.isfile
// ISFILE: {{^}}loom-run: output directory '{{.*}}file' is not a directory{{$}}
