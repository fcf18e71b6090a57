// docs/tutorial.md is generated: scripts/make-tutorial.py runs the commands
// of docs/tutorial.md.in against these tools. Regenerate it and hold the
// page in the repository to the result, times aside (the lines `--time`
// prints, TIMING in the script), so that it cannot go stale.
//
// The page shows an x86-64-v3 library, loom-exec's ldd and a run on MPI
// ranks; a sanitizer build links its runtime and runs ten times slower, for
// nothing this test checks.
// REQUIRES: x86_64, ldd, mpi
// UNSUPPORTED: sanitizer
//
// RUN: %python %loom_src/scripts/make-tutorial.py --bin %loom_tools -o %t.md
// RUN: diff -u -I '^compile: ' -I '^call: ' %loom_src/docs/tutorial.md %t.md
//
// The diff does see a changed count.
// RUN: sed -e 's/\[81, /[80, /' %t.md > %t.bad.md
// RUN: not diff -I '^compile: ' -I '^call: ' %loom_src/docs/tutorial.md %t.bad.md
