// scripts/fuzz-known.py, which decides whether a fuzzer's crash fails a run.
// A sanitizer reports a fault in libc's memmove from its interceptor, a frame
// in the instrumented binary: that frame is the sanitizer's, not Loom's, so a
// crash whose real frames are all in libMLIR's parser is upstream's (a CI run
// once failed on one that the classifier took for Loom's). A crash in a Loom
// pass stays Loom's, interceptor or not.
//
// RUN: not %python %loom_src/scripts/fuzz-known.py %loom_src/test/fuzz/known-upstream.txt %S/Inputs/report-interceptor-in-parser.txt | FileCheck %s --match-full-lines --check-prefix=PARSER
// PARSER: upstream-parser
//
// RUN: not %python %loom_src/scripts/fuzz-known.py %loom_src/test/fuzz/known-upstream.txt %S/Inputs/report-loom-pass.txt | FileCheck %s --match-full-lines --check-prefix=LOOM
// LOOM: loom
