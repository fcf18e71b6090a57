//===- SeedBaselineTest.cpp - The C++ baseline against golden.md ----------===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//
//
// Every number in shared/reference/golden.md, reproduced by the hand-written
// baseline. Integers and values that are exact by construction are compared
// exactly; floats that pass through sin or log1p within 1e-6 relative (XLA's
// and libm's can differ in the last ulp); the SDE, whose step-size sequence
// amplifies such an ulp, by golden.md's distribution rule.
//
//===----------------------------------------------------------------------===//

#include "baseline/Seed.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

using namespace loom::baseline;
namespace threefry = loom::threefry;

namespace {

Key laneKey(const std::vector<uint32_t> &keys, size_t lane) {
  return {keys[2 * lane], keys[2 * lane + 1]};
}

std::vector<uint32_t> jaxSplit(size_t n) {
  return threefry::split(threefry::prngKey(0), n, /*partitionable=*/false);
}

void expectRelNear(double expected, float actual) {
  EXPECT_NEAR(actual, expected, 1e-6 * std::fabs(expected))
      << "expected " << expected;
}

//===----------------------------------------------------------------------===//
// jax.random
//===----------------------------------------------------------------------===//

TEST(SeedBaseline, RandintGivesGoldenInitialCounts) {
  std::vector<uint32_t> keys = jaxSplit(30);
  EXPECT_EQ(randint(laneKey(keys, 0), -2, 2), -2);
  EXPECT_EQ(randint(laneKey(keys, 1), -2, 2), -1);
  EXPECT_EQ(randint(laneKey(keys, 2), -2, 2), 0);
  EXPECT_EQ(randint(laneKey(keys, 4), -2, 2), 1);
}

// JAX returns minval whenever the range is empty (jax-ml/jax#222).
TEST(SeedBaseline, RandintEmptyRangeIsMinval) {
  Key key = threefry::prngKey(3);
  EXPECT_EQ(randint(key, 5, 5), 5);
  EXPECT_EQ(randint(key, 7, -7), 7);
}

TEST(SeedBaseline, UniformStaysInRange) {
  for (int32_t seed = -5; seed < 50; ++seed) {
    float u = uniform(threefry::prngKey(seed), 0.0f, 1.0f);
    EXPECT_GE(u, 0.0f);
    EXPECT_LT(u, 1.0f);
  }
}

TEST(SeedBaseline, ErfInvMatchesItsDefinition) {
  EXPECT_EQ(erfInv(0.0f), 0.0f);
  EXPECT_EQ(erfInv(1.0f), INFINITY);
  EXPECT_EQ(erfInv(-1.0f), -INFINITY);
  // Both branches of the polynomial (w < 5 and w >= 5) invert erf.
  for (float x : {0.1f, 0.5f, 0.9f, -0.75f, 0.9999f, -0.99999f}) {
    float y = erfInv(x);
    EXPECT_NEAR(std::erf(double(y)), x, 4e-7) << "x = " << x;
  }
}

//===----------------------------------------------------------------------===//
// The pure-JAX MWE
//===----------------------------------------------------------------------===//

TEST(SeedBaseline, MweLanesMatchGolden) {
  std::vector<uint32_t> keys = jaxSplit(30);
  struct Golden {
    size_t lane;
    int outer, inner;
    double y;
  };
  for (Golden g : {Golden{0, 7, 53, 13.51270866394043},
                   Golden{1, 6, 47, 11.670805931091309},
                   Golden{2, 5, 40, 11.079654693603516}}) {
    MweResult r = mweSolve(0.1f, laneKey(keys, g.lane));
    EXPECT_EQ(r.outer, g.outer) << "lane " << g.lane;
    EXPECT_EQ(r.inner, g.inner) << "lane " << g.lane;
    expectRelNear(g.y, r.y);
  }
  MweResult lane4 = mweSolve(0.1f, laneKey(keys, 4));
  EXPECT_EQ(lane4.outer, 4);
  EXPECT_EQ(lane4.inner, 33);
}

TEST(SeedBaseline, MweMaskedTripCountsMatchGolden) {
  std::vector<uint32_t> keys = jaxSplit(30);
  std::vector<MweResult> lanes;
  for (size_t i = 0; i < 30; ++i)
    lanes.push_back(mweSolve(0.1f, laneKey(keys, i)));
  MaskedTrips m = mweMaskedTrips(lanes);
  EXPECT_EQ(m.outer, 7);
  EXPECT_EQ(m.inner, 66);
  EXPECT_EQ(m.innerPerOuter, (std::vector<int>{11, 9, 9, 9, 10, 9, 9}));
  EXPECT_EQ(m.usefulInner, 1284);
}

//===----------------------------------------------------------------------===//
// diffrax ODE
//===----------------------------------------------------------------------===//

struct OdeGolden {
  float t1, dt0;
  int steps, accepted, rejected;
  double ys50, ys99;
};

class SeedBaselineOde : public ::testing::TestWithParam<OdeGolden> {};

TEST_P(SeedBaselineOde, MatchesGolden) {
  const OdeGolden &g = GetParam();
  SolveParams p;
  p.t1 = g.t1;
  p.dt0 = g.dt0;
  p.maxSteps = 100;
  SolveResult r = odeSolve(0.1f, p);
  EXPECT_EQ(r.result, kSuccessful);
  EXPECT_EQ(r.numSteps, g.steps);
  EXPECT_EQ(r.numAccepted, g.accepted);
  EXPECT_EQ(r.numRejected, g.rejected);
  // ts[0] = t0 is saved at s = 0, where the Horner scheme returns y0 exactly.
  EXPECT_EQ(r.ys[0], 0.1f);
  expectRelNear(g.ys50, r.ys[50]);
  expectRelNear(g.ys99, r.ys[99]);
  for (float y : r.ys)
    EXPECT_TRUE(std::isfinite(y));
}

INSTANTIATE_TEST_SUITE_P(
    Golden, SeedBaselineOde,
    ::testing::Values(OdeGolden{1.0f, 0.05f, 54, 53, 1, 0.23217232525348663,
                                0.5864452719688416},
                      OdeGolden{0.1f, 0.01f, 8, 8, 0, 0.10178343951702118,
                                0.10601721704006195}));

// max_steps counts every attempt; slots not reached keep their +inf.
TEST(SeedBaseline, OdeMaxStepsReached) {
  SolveParams p;
  p.maxSteps = 10;
  SolveResult r = odeSolve(0.1f, p);
  EXPECT_EQ(r.result, kMaxStepsReached);
  EXPECT_EQ(r.numSteps, 10);
  EXPECT_EQ(r.numAccepted + r.numRejected, 10);
  EXPECT_EQ(r.ys[0], 0.1f);
  EXPECT_EQ(r.ys[99], INFINITY);
}

//===----------------------------------------------------------------------===//
// diffrax SDE
//===----------------------------------------------------------------------===//

TEST(SeedBaseline, BrownianTreeDepthAndOrigin) {
  Key key = threefry::prngKey(0);
  // tol = dt0/2 = 0.025: normalised 0.025 on [0, 1], 0.25 on [0, 0.1].
  EXPECT_EQ(VirtualBrownianTree(0.0f, 1.0f, 0.025f, key).levels(), 6);
  EXPECT_EQ(VirtualBrownianTree(0.0f, 0.1f, 0.025f, key).levels(), 2);
  VirtualBrownianTree tree(0.0f, 1.0f, 0.025f, key);
  EXPECT_EQ(tree.normalisedW(0.0f), 0.0f);
  // Chen's relation holds to rounding.
  float whole = tree.evaluate(0.0f, 0.7f);
  float parts = tree.evaluate(0.0f, 0.3f) + tree.evaluate(0.3f, 0.7f);
  EXPECT_NEAR(whole, parts, 1e-6f);
}

TEST(SeedBaseline, SdeMatchesGoldenDistribution) {
  std::vector<uint32_t> keys = jaxSplit(300);
  SolveParams p; // t1 = 1, dt0 = 0.05: the tree descends 6 levels.
  struct Lane {
    size_t lane;
    int steps, accepted, rejected;
  };
  for (Lane g :
       {Lane{0, 93, 61, 32}, Lane{1, 75, 52, 23}, Lane{2, 80, 56, 24}}) {
    SolveResult r = sdeSolve(0.1f, laneKey(keys, g.lane), p);
    EXPECT_NEAR(r.numSteps, g.steps, 4) << "lane " << g.lane;
    EXPECT_NEAR(r.numAccepted, g.accepted, 4) << "lane " << g.lane;
    EXPECT_NEAR(r.numRejected, g.rejected, 4) << "lane " << g.lane;
    EXPECT_EQ(r.numSteps, r.numAccepted + r.numRejected);
  }
  long total = 0;
  int lo = INT32_MAX, hi = 0;
  for (size_t i = 0; i < 300; ++i) {
    SolveResult r = sdeSolve(0.1f, laneKey(keys, i), p);
    EXPECT_EQ(r.result, kSuccessful) << "lane " << i;
    EXPECT_EQ(r.ys[0], 0.1f) << "lane " << i;
    EXPECT_TRUE(std::isfinite(r.ys[99])) << "lane " << i;
    total += r.numSteps;
    lo = std::min(lo, int(r.numSteps));
    hi = std::max(hi, int(r.numSteps));
  }
  // golden.md: 25616 steps, mean 85.39, min 48, max 284.
  EXPECT_NEAR(double(total) / 300.0, 25616.0 / 300.0, 1.0);
  EXPECT_NEAR(lo, 48, 4);
  EXPECT_NEAR(hi, 284, 4);
}

// Compiled code that calls the C library's sinf, log1pf and powf computes
// MathMode::Libm; it must still land within golden.md's rules.
TEST(SeedBaseline, LibmMathStaysWithinGolden) {
  SolveParams ode;
  ode.math = MathMode::Libm;
  SolveResult r = odeSolve(0.1f, ode);
  EXPECT_EQ(r.numSteps, 54);
  EXPECT_EQ(r.numAccepted, 53);
  expectRelNear(0.23217232525348663, r.ys[50]);
  expectRelNear(0.5864452719688416, r.ys[99]);

  std::vector<uint32_t> keys = jaxSplit(300);
  SolveParams sde;
  sde.math = MathMode::Libm;
  long total = 0;
  int lo = INT32_MAX, hi = 0;
  for (size_t i = 0; i < 300; ++i) {
    SolveResult lane = sdeSolve(0.1f, laneKey(keys, i), sde);
    EXPECT_EQ(lane.result, kSuccessful) << "lane " << i;
    total += lane.numSteps;
    lo = std::min(lo, int(lane.numSteps));
    hi = std::max(hi, int(lane.numSteps));
  }
  EXPECT_NEAR(double(total) / 300.0, 25616.0 / 300.0, 1.0);
  EXPECT_NEAR(lo, 48, 4);
  EXPECT_NEAR(hi, 284, 4);
}

// The seed's own max_steps = 100 stops the slowest lanes.
TEST(SeedBaseline, SdeSeedMaxStepsStopsSlowLanes) {
  std::vector<uint32_t> keys = jaxSplit(300);
  SolveParams p;
  p.maxSteps = 100;
  int stopped = 0;
  for (size_t i = 0; i < 300; ++i) {
    SolveResult r = sdeSolve(0.1f, laneKey(keys, i), p);
    EXPECT_LE(r.numSteps, 100);
    if (r.result == kMaxStepsReached) {
      EXPECT_EQ(r.numSteps, 100);
      ++stopped;
    }
  }
  EXPECT_GT(stopped, 0);
  EXPECT_LT(stopped, 300);
}

} // namespace
