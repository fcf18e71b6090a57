//===- BenchSupport.h - What the benchmark binaries share -------*- C++ -*-===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//
//
// A benchmark that cannot set up its workload stops with one line naming
// itself (glibc's program_invocation_short_name, "loom-bench-seed") rather
// than timing something else.
//
//===----------------------------------------------------------------------===//

#ifndef LOOM_BENCHMARKS_BENCHSUPPORT_H
#define LOOM_BENCHMARKS_BENCHSUPPORT_H

#include "loom/Support/Status.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace loom::bench {

[[noreturn]] inline void die(const std::string &message) {
  std::fprintf(stderr, "%s: %s\n", program_invocation_short_name,
               message.c_str());
  std::exit(1);
}

template <typename T>
T orDie(loom::Result<T> r, const std::string &what) {
  if (!r)
    die(what + ": " + r.message());
  return r.take();
}

} // namespace loom::bench

#endif // LOOM_BENCHMARKS_BENCHSUPPORT_H
