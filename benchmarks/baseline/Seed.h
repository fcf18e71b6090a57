//===- Seed.h - Hand-written scalar baseline of the seed --------*- C++ -*-===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//
//
// One lane of each of the seed's programs, written by hand in plain C++ to
// compute exactly what JAX and diffrax compute in float32: the pure-JAX
// while-of-while MWE (google/jax#20968) and the diffrax Heun + PIDController +
// SaveAt(ts) ODE and VirtualBrownianTree SDE solves. They are the reference
// the compiled programs are checked against (every value in
// shared/reference/golden.md) and the baseline the benchmarks compare with.
//
// Random numbers follow jax.random with JAX < 0.5 defaults
// (jax_threefry_partitionable=False, x64 off). Arithmetic is float32 with no
// contraction into fused multiply-adds (the library is compiled with
// -ffp-contract=off). sin, log1p and pow are correctly rounded by default, as
// in golden.md's reference; MathMode::Libm uses the C library's float
// functions instead, which is what compiled code calling libm computes (glibc
// 2.36's sinf is off by one ulp on a few of the SDE's arguments, which moves
// the 300-lane SDE total from 25616 to 25624 steps).
//
//===----------------------------------------------------------------------===//

#ifndef LOOM_BENCHMARKS_BASELINE_SEED_H
#define LOOM_BENCHMARKS_BASELINE_SEED_H

#include "loom/Support/Threefry.h"

#include <array>
#include <cstdint>
#include <vector>

namespace loom::baseline {

using Key = loom::threefry::Key;

/// How sin, log1p and pow are evaluated.
enum class MathMode {
  /// Evaluated in double and rounded once: golden.md's reference.
  CorrectlyRounded,
  /// sinf, log1pf, powf of the C library.
  Libm,
};

//===----------------------------------------------------------------------===//
// jax.random, one sample
//===----------------------------------------------------------------------===//

/// `jax.random.bits(key, (1,))`.
uint32_t randomBits(Key key);

/// `jax.random.uniform(key, (1,), float32, minval, maxval)`.
float uniform(Key key, float minval, float maxval);

/// XLA's float32 ErfInv (Giles' polynomial on w = -log1p(-x*x)).
float erfInv(float x, MathMode math = MathMode::CorrectlyRounded);

/// `jax.random.normal(key, (1,), float32)`.
float normal(Key key, MathMode math = MathMode::CorrectlyRounded);

/// `jax.random.randint(key, (), minval, maxval, int32)`.
int32_t randint(Key key, int32_t minval, int32_t maxval);

/// Element `i` of `jax.random.split(key, n)`.
Key splitAt(Key key, size_t n, size_t i);

//===----------------------------------------------------------------------===//
// The pure-JAX MWE
//===----------------------------------------------------------------------===//

struct MweResult {
  float y = 0.0f;
  /// Outer iterations this lane ran (5 - count_initial).
  int outer = 0;
  /// Inner iterations summed over the outer ones.
  int inner = 0;
  /// Inner iterations of each outer iteration, in order.
  std::vector<int> innerPerOuter;
};

/// One lane of the MWE: theta 5, f = |sin t| + theta*y, count starts at
/// randint(key, -2, 2) and each outer iteration restarts y from
/// uniform(PRNGKey(count), (1,)).
MweResult mweSolve(float init, Key key,
                   MathMode math = MathMode::CorrectlyRounded);

/// Trip counts of the masked (lock-step) lowering of a batch, where a lane
/// takes part in an inner loop only while its outer loop is active.
struct MaskedTrips {
  int outer = 0;
  /// Inner trips of each outer trip: the most any active lane needs.
  std::vector<int> innerPerOuter;
  int inner = 0;
  /// Inner lane-iterations that did useful work (the sum over lanes).
  int usefulInner = 0;
};
MaskedTrips mweMaskedTrips(const std::vector<MweResult> &lanes);

//===----------------------------------------------------------------------===//
// diffrax: Heun + PIDController(1e-3, 1e-6) + SaveAt(ts = linspace(t0, t1,
// 100))
//===----------------------------------------------------------------------===//

constexpr int kNumSaves = 100;

/// diffrax's RESULTS, the two this configuration can produce.
enum SolveCode : int32_t { kSuccessful = 0, kMaxStepsReached = 1 };

/// Scalar parameters. The defaults are golden.md's configuration (t1 1,
/// dt0 0.05) with diffrax's default max_steps, which the SDE's slowest lane
/// (284 steps) needs; the seed ran t1 = 0.1 (dt0 0.01 for the ODE, 0.05 for
/// the SDE) and max_steps = 100.
struct SolveParams {
  float t0 = 0.0f;
  float t1 = 1.0f;
  float dt0 = 0.05f;
  float theta = 0.1f;
  int32_t maxSteps = 4096;
  MathMode math = MathMode::CorrectlyRounded;
};

struct SolveResult {
  /// sol.ys[:, 0]: slots never written stay +inf (throw=False semantics).
  std::array<float, kNumSaves> ys;
  int32_t numSteps = 0;
  int32_t numAccepted = 0;
  int32_t numRejected = 0;
  /// A SolveCode. EQX_ON_ERROR is applied by the caller, over a batch.
  int32_t result = kSuccessful;
};

/// y' = sin t + theta*y.
SolveResult odeSolve(float y0, const SolveParams &params);

/// dy = (sin t + theta*y) dt + 0.1 dW, W a VirtualBrownianTree(t0, t1,
/// tol = dt0/2) built from this lane's key.
SolveResult sdeSolve(float y0, Key key, const SolveParams &params);

/// diffrax's VirtualBrownianTree with BrownianIncrement (the default), for a
/// scalar path: `evaluate(ta, tb)` is W(tb) - W(ta).
class VirtualBrownianTree {
public:
  VirtualBrownianTree(float t0, float t1, float tol, Key key,
                      MathMode math = MathMode::CorrectlyRounded);

  /// W(t) - W(t0) on the normalised interval, before rescaling: r in [0, 1].
  float normalisedW(float r) const;
  float evaluate(float ta, float tb) const;
  /// Levels the descent takes: min{L : 2^-L <= tol/(t1 - t0)}.
  int levels() const { return numLevels; }

private:
  float t0, t1;
  float tolNormalised;
  Key leafKey;
  int numLevels;
  MathMode math;
};

} // namespace loom::baseline

#endif // LOOM_BENCHMARKS_BASELINE_SEED_H
