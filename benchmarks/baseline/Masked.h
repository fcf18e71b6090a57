//===- Masked.h - Hand-written SIMD masked loops --------------------------===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//
//
// What loom-vmap's masked strategy computes, written by hand with GCC's
// vector extensions: every lane steps in lock-step, in one pass over the
// lanes per iteration that computes the predicate, updates the carries
// under it and ORs it into the loop's any(), 8 lanes to an AVX2 register.
// Finished lanes keep their values, so the results equal one scalar loop per
// lane, bit for bit. The programs are those of
// test/Integration/vmap/Inputs/divergent.mlir (@collatz and @nested).
//
//===----------------------------------------------------------------------===//

#ifndef LOOM_BENCHMARKS_BASELINE_MASKED_H
#define LOOM_BENCHMARKS_BASELINE_MASKED_H

#include <cstdint>

namespace loom::baseline {

/// Collatz steps to reach 1 of each lane's `xs` (a lane at 1 or below takes
/// none). `xs` is the state, updated in place, as Loom's masked loop does.
void collatzMasked(int32_t *xs, int32_t *steps, int64_t n);

/// The while-of-while @nested: for t = 0, 1, ... while t < a, an inner loop
/// s += 0.5 * (1 + b) while s < t * b; acc sums the inner loops' s, trips
/// their trip counts.
void nestedMasked(const float *as, const float *bs, float *acc, int32_t *trips,
                  int64_t n);

} // namespace loom::baseline

#endif // LOOM_BENCHMARKS_BASELINE_MASKED_H
