// vmap(f)(xs)[b] == f(xs[b]) on random divergent loop nests (loopgen.py):
// 1 to 3 levels of scf.while with per-lane trip caps, some lanes never
// entering, scf.for with per-lane bounds, scf.if in loops, a buffer written
// and read at per-lane indices and returned, values the before block
// computes, constant tables read at per-lane indices (404 and 513), libm
// calls, NaN predicates, a shared argument; each under every
// strategy, gang widths, refill, timed variants' later calls, 1 to 3
// shards, at batches 0, 1, 13 and 37. The seeds were picked for what
// their programs hold (seed 404: nine loops, three levels, scf.for, 40
// scf.if; 513: two buffers, four scf.for and a shared argument; 519: a
// returned buffer). `loopgen.py check LOOM_RUN DIR SEED...` takes any
// other seeds: 401 to 520 passed when it was written.
// RUN: python3 %S/loopgen.py check loom-run %t 404 513 519 | FileCheck %s
// CHECK: seed 404: PASS
// CHECK: seed 513: PASS
// CHECK: seed 519: PASS
