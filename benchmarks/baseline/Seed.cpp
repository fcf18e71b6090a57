//===- Seed.cpp - Hand-written scalar baseline of the seed's programs -----===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//
//
// Written from shared/reference/diffrax-solver-spec.md (diffrax v0.7.2) and
// jax/_src/random.py (JAX < 0.5). Every float operation below is one float32
// operation of the original program, in the original's order: a reordering,
// or a product and a sum fused into one rounding, changes step counts of the
// adaptive solver. Keep it that way when editing; the file must be compiled
// with -ffp-contract=off.
//
//===----------------------------------------------------------------------===//

#include "Seed.h"

#include "loom/Support/ErfInv.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

namespace loom::baseline {

namespace threefry = loom::threefry;
namespace erfinv = loom::erfinv;

//===----------------------------------------------------------------------===//
// Float helpers
//===----------------------------------------------------------------------===//

static constexpr float kInf = std::numeric_limits<float>::infinity();

// golden.md's reference rounds transcendental functions correctly. Evaluating
// in double and rounding once gets there except for a vanishing fraction of
// double-rounding cases, and does not depend on the libm's float versions.
static float sinF(float x, MathMode math) {
  if (math == MathMode::Libm)
    return ::sinf(x);
  return static_cast<float>(std::sin(double(x)));
}
static float powF(float x, float y, MathMode math) {
  if (math == MathMode::Libm)
    return ::powf(x, y);
  return static_cast<float>(std::pow(double(x), double(y)));
}

// XLA's max/min (jnp.maximum, jnp.minimum, jnp.clip) propagate NaN, unlike
// std::max/std::min, which return one operand depending on argument order.
static float maxF(float a, float b) {
  if (std::isnan(a) || std::isnan(b))
    return std::numeric_limits<float>::quiet_NaN();
  return a < b ? b : a;
}
static float minF(float a, float b) {
  if (std::isnan(a) || std::isnan(b))
    return std::numeric_limits<float>::quiet_NaN();
  return b < a ? b : a;
}

static float bitsToFloat(uint32_t bits) {
  float f;
  std::memcpy(&f, &bits, sizeof(f));
  return f;
}

//===----------------------------------------------------------------------===//
// jax.random
//===----------------------------------------------------------------------===//

uint32_t randomBits(Key key) {
  return threefry::randomBits(key, 1, /*partitionable=*/false)[0];
}

Key splitAt(Key key, size_t n, size_t i) {
  std::vector<uint32_t> words =
      threefry::split(key, n, /*partitionable=*/false);
  return {words[2 * i], words[2 * i + 1]};
}

float uniform(Key key, float minval, float maxval) {
  // The top 23 bits become the mantissa of a float in [1, 2).
  uint32_t bits = randomBits(key);
  float unit = bitsToFloat((bits >> 9) | 0x3F800000u) - 1.0f;
  float scaled = unit * (maxval - minval);
  return maxF(minval, scaled + minval);
}

float erfInv(float x, MathMode math) {
  return erfinv::erfInv32(x, math == MathMode::Libm
                                 ? erfinv::Log1p::Libm
                                 : erfinv::Log1p::CorrectlyRounded);
}

float normal(Key key, MathMode math) {
  // uniform on [nextafter(-1, 0), 1) keeps erfinv away from -1.
  float lo = std::nextafter(-1.0f, 0.0f);
  float u = uniform(key, lo, 1.0f);
  // np.sqrt(2) rounded to float32.
  const float sqrt2 = static_cast<float>(1.4142135623730951);
  return sqrt2 * erfInv(u, math);
}

int32_t randint(Key key, int32_t minval, int32_t maxval) {
  // Two words per sample, combined modulo the span to reduce the bias; all
  // arithmetic is uint32 and wraps.
  uint32_t higher = randomBits(splitAt(key, 2, 0));
  uint32_t lower = randomBits(splitAt(key, 2, 1));
  uint32_t span = uint32_t(maxval) - uint32_t(minval);
  if (maxval <= minval)
    span = 1;
  uint32_t multiplier = (uint32_t(1) << 16) % span;
  multiplier = (multiplier * multiplier) % span;
  uint32_t offset = (higher % span) * multiplier + lower % span;
  offset %= span;
  return static_cast<int32_t>(uint32_t(minval) + offset);
}

//===----------------------------------------------------------------------===//
// The pure-JAX MWE
//===----------------------------------------------------------------------===//

MweResult mweSolve(float init, Key key, MathMode math) {
  const float theta = 5.0f;
  MweResult r;
  float t = 0.0f;
  float y = init;
  int32_t count = randint(key, -2, 2);
  while (count < 5) {
    y = uniform(threefry::prngKey(count), 0.0f, 1.0f);
    int n = 0;
    while (y < 10.0f) {
      float dy = std::fabs(sinF(t, math)) + theta * y;
      float step = 0.1f * dy;
      t = t + 0.1f;
      y = y + step;
      ++n;
    }
    r.innerPerOuter.push_back(n);
    r.inner += n;
    ++r.outer;
    ++count;
  }
  r.y = y;
  return r;
}

MaskedTrips mweMaskedTrips(const std::vector<MweResult> &lanes) {
  MaskedTrips m;
  for (const MweResult &lane : lanes) {
    m.outer = std::max(m.outer, lane.outer);
    m.usefulInner += lane.inner;
  }
  m.innerPerOuter.assign(m.outer, 0);
  // Every lane starts at trip 0 and does one outer iteration per trip while
  // active, so its k-th outer iteration runs in trip k.
  for (const MweResult &lane : lanes)
    for (int k = 0; k < lane.outer; ++k)
      m.innerPerOuter[k] = std::max(m.innerPerOuter[k], lane.innerPerOuter[k]);
  for (int n : m.innerPerOuter)
    m.inner += n;
  return m;
}

//===----------------------------------------------------------------------===//
// VirtualBrownianTree
//===----------------------------------------------------------------------===//

// 2^-level, exactly, as jnp.asarray(2.0 ** -level, float32) gives it.
static float pow2Neg(int level) { return std::ldexp(1.0f, -level); }

// diffrax's linear_rescale: (t - t0) / (t1 - t0), 0 on an empty interval.
static float linearRescale(float t0, float t, float t1) {
  if (t0 == t1)
    return 0.0f;
  return (t - t0) / (t1 - t0);
}

VirtualBrownianTree::VirtualBrownianTree(float t0, float t1, float tol, Key key,
                                         MathMode math)
    : t0(t0), t1(t1), tolNormalised(tol / (t1 - t0)),
      // split_by_tree: one key per leaf of the shape, so not `key` itself.
      leafKey(splitAt(key, 1, 0)), numLevels(0), math(math) {
  while (pow2Neg(numLevels) > tolNormalised)
    ++numLevels;
}

float VirtualBrownianTree::normalisedW(float r) const {
  Key stateKey = splitAt(leafKey, 2, 0);
  float w1 = normal(splitAt(leafKey, 2, 1), math);
  float s = 0.0f;
  float wS = 0.0f, wU = w1, wSU = w1;
  Key key = stateKey;
  // Brownian bridge on dyadic cells: the trip count depends only on the
  // tolerance, never on r.
  for (int level = 0; pow2Neg(level) > tolNormalised; ++level) {
    Key keyST = splitAt(key, 3, 0);
    Key keyMid = splitAt(key, 3, 1);
    Key keyTU = splitAt(key, 3, 2);
    float su = pow2Neg(level);
    float st = su / 2.0f;
    float t = s + st;
    float rootSU = std::sqrt(su);
    float mean = 0.5f * wSU;
    float term2 = (rootSU / 2.0f) * normal(keyMid, math);
    float wST = mean + term2;
    float wTU = mean - term2;
    float wT = wS + wST;
    // The right half keeps key_st, the left one key_tu: diffrax's naming.
    bool right = r > t;
    s = right ? t : s;
    key = right ? keyST : keyTU;
    float nS = right ? wT : wS;
    float nU = right ? wU : wT;
    float nSU = right ? wTU : wST;
    wS = nS;
    wU = nU;
    wSU = nSU;
  }
  float su = pow2Neg(numLevels);
  float sr = maxF(r - s, 0.0f);
  // Keeps su = sr + ru whatever the cancellation in r - s.
  float ru = maxF(su - sr, 0.0f);
  float wMean = wS + (sr / su) * wSU;
  float z = normal(key, math);
  float bridge = std::sqrt((sr * ru) / su) * z;
  return wMean + bridge;
}

float VirtualBrownianTree::evaluate(float ta, float tb) const {
  float wa = normalisedW(linearRescale(t0, ta, t1));
  float wb = normalisedW(linearRescale(t0, tb, t1));
  float sqrtLen = std::sqrt(t1 - t0);
  return sqrtLen * (wb - wa);
}

//===----------------------------------------------------------------------===//
// diffeqsolve
//===----------------------------------------------------------------------===//

namespace {
/// The one place the ODE and the SDE differ: the control increment and the
/// solver's error order.
struct Noise {
  const VirtualBrownianTree *tree = nullptr; // null for the ODE
};
} // namespace

// Heun + PIDController + SaveAt(ts), spec §1-§3.
static SolveResult diffeqsolve(float y0, const SolveParams &p, Noise noise) {
  const float t0 = p.t0, t1 = p.t1, theta = p.theta;
  const float rtol = 1e-3f, atol = 1e-6f;
  // error_order: Heun.order() = 2 for an ODE, strong order 0.5 + 0.5 for an
  // SDE; the I-controller's exponent is 1/error_order.
  const float exponent = noise.tree ? 1.0f : 0.5f;

  // jnp.linspace(t0, t1, 100): the last point is t1 itself.
  std::array<float, kNumSaves> ts;
  for (int i = 0; i < kNumSaves - 1; ++i) {
    float step = float(i) / float(kNumSaves - 1);
    ts[i] = t0 * (1.0f - step) + t1 * step;
  }
  ts[kNumSaves - 1] = t1;

  // eqxi.prevbefore applied 100 times.
  float t1ClipFloor = t1;
  for (int i = 0; i < 100; ++i)
    t1ClipFloor = std::nextafter(t1ClipFloor, -kInf);

  // k = Δ f(t, y) (+ g ΔW): diffrax's vf_prod, ODE term first.
  auto vfProd = [&](float t, float y, float dt, float dW) {
    float f = sinF(t, p.math) + theta * y;
    float k = dt * f;
    if (noise.tree) {
      float gdW = 0.1f * dW;
      k = k + gdW;
    }
    return k;
  };

  SolveResult res;
  res.ys.fill(kInf);
  float y = y0;
  float tprev = t0;
  float tnext = minF(t0 + p.dt0, t1);
  int saveIndex = 0;
  while (tprev < t1 && res.numSteps < p.maxSteps) {
    // Heun step on [tprev, tnext]; the control is drawn once per attempt.
    float dt = tnext - tprev;
    float dW = noise.tree ? noise.tree->evaluate(tprev, tnext) : 0.0f;
    float k0 = vfProd(tprev, y, dt, dW);
    float yStage = y + k0;
    float k1 = vfProd(tnext, yStage, dt, dW);
    float y1 = y + (0.5f * k0 + 0.5f * k1);
    float err = 0.5f * k0 + -0.5f * k1;
    if (std::isnan(err))
      err = kInf;

    // PIDController with pcoeff = dcoeff = 0: an I-controller.
    float y1Safe = std::isnan(y1) ? y : y1;
    float scale = atol + maxF(std::fabs(y), std::fabs(y1Safe)) * rtol;
    float scaledError = std::fabs(err / scale);
    bool keep = scaledError < 1.0f;
    float inv = 1.0f / scaledError;
    float factor = 0.9f * powF(inv, exponent, p.math);
    // An accepted step never shrinks dt; a rejected one shrinks it to at
    // most 0.9 and at least 0.2.
    float factorMin = keep ? 1.0f : 0.2f;
    float factorMax = keep ? 10.0f : 0.9f;
    factor = minF(maxF(factor, factorMin), factorMax);
    float dtNew = dt * factor;
    float tpNew = keep ? tnext : tprev;
    float tnNew = tpNew + dtNew;

    // Clip to the end of the interval.
    tpNew = minF(tpNew, t1);
    if (tnNew > t1ClipFloor) {
      float half = 0.5f * (t1 - tpNew);
      tnNew = keep ? t1 : tpNew + half;
    }

    ++res.numSteps;
    res.numAccepted += keep;
    res.numRejected += !keep;

    // Save every ts[i] in the attempted interval through the cubic Hermite
    // interpolant of the step (K1 is the stage increment, not Δ f(tn, y1)).
    if (keep) {
      float a = ((k0 + k1) + 2.0f * y) - 2.0f * y1;
      float b = ((-2.0f * k0 - k1) - 3.0f * y) + 3.0f * y1;
      while (saveIndex < kNumSaves && ts[saveIndex] <= tnext) {
        float t = ts[saveIndex];
        float s = linearRescale(tprev, t, tnext);
        float v = a * s + b;
        v = v * s + k0;
        v = v * s + y;
        res.ys[saveIndex] = v;
        ++saveIndex;
      }
    }

    y = keep ? y1 : y;
    tprev = tpNew;
    tnext = tnNew;
  }
  res.result = tprev < t1 ? kMaxStepsReached : kSuccessful;
  return res;
}

SolveResult odeSolve(float y0, const SolveParams &params) {
  return diffeqsolve(y0, params, Noise{});
}

SolveResult sdeSolve(float y0, Key key, const SolveParams &params) {
  VirtualBrownianTree tree(params.t0, params.t1, params.dt0 / 2.0f, key,
                           params.math);
  return diffeqsolve(y0, params, Noise{&tree});
}

} // namespace loom::baseline
