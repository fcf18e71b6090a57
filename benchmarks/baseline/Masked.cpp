//===- Masked.cpp - Hand-written SIMD masked loops ------------------------===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//
//
// Lanes come in vectors of 8 (one AVX2 register of i32 or f32); the tail of
// a batch that is not a multiple of 8 runs through the same vector code on
// a padded copy of the state. Masks are full-width: all ones or zero per
// lane, as the vector compares give them.
//
//===----------------------------------------------------------------------===//

#include "baseline/Masked.h"

#include <cstring>
#include <vector>

namespace {

constexpr int kWidth = 8;
typedef int32_t vi __attribute__((vector_size(4 * kWidth)));
typedef float vf __attribute__((vector_size(4 * kWidth)));

template <typename V>
V load(const void *p) {
  V v;
  std::memcpy(&v, p, sizeof v);
  return v;
}
template <typename V>
void store(void *p, V v) {
  std::memcpy(p, &v, sizeof v);
}

bool anyLane(vi m) {
  vi folded = m;
  int32_t bits = 0;
  for (int i = 0; i < kWidth; ++i)
    bits |= folded[i];
  return bits != 0;
}

/// `n` rounded up to a whole number of vectors.
int64_t padded(int64_t n) { return (n + kWidth - 1) / kWidth * kWidth; }

} // namespace

__attribute__((target("avx2"))) void
loom::baseline::collatzMasked(int32_t *xs, int32_t *steps, int64_t n) {
  int64_t np = padded(n);
  // Padding lanes start at 1: never active.
  std::vector<int32_t> x(np, 1), s(np, 0);
  std::memcpy(x.data(), xs, n * sizeof(int32_t));
  for (bool any = true; any;) {
    vi orAll = {};
    for (int64_t i = 0; i < np; i += kWidth) {
      vi xv = load<vi>(&x[i]), sv = load<vi>(&s[i]);
      vi active = xv > 1;
      vi next = (xv & 1) != 0 ? xv * 3 + 1 : xv >> 1;
      xv = active ? next : xv;
      sv -= active; // active lanes are -1
      store(&x[i], xv);
      store(&s[i], sv);
      orAll |= xv > 1;
    }
    any = anyLane(orAll);
  }
  std::memcpy(xs, x.data(), n * sizeof(int32_t));
  std::memcpy(steps, s.data(), n * sizeof(int32_t));
}

__attribute__((target("avx2"))) void
loom::baseline::nestedMasked(const float *as, const float *bs, float *accOut,
                             int32_t *tripsOut, int64_t n) {
  int64_t np = padded(n);
  // Padding lanes have a = 0: never active.
  std::vector<float> a(np, 0.0f), b(np, 0.0f), t(np, 0.0f), acc(np, 0.0f),
      s(np), limit(np), step(np);
  std::vector<int32_t> k(np, 0), j(np), outer(np);
  std::memcpy(a.data(), as, n * sizeof(float));
  std::memcpy(b.data(), bs, n * sizeof(float));
  for (;;) {
    // The outer predicate, and what the inner loop reads of the outer
    // iteration, in one pass.
    vi orOuter = {};
    for (int64_t i = 0; i < np; i += kWidth) {
      vf tv = load<vf>(&t[i]), bv = load<vf>(&b[i]);
      vi active = tv < load<vf>(&a[i]);
      store(&outer[i], active);
      store(&limit[i], tv * bv);
      store(&step[i], 0.5f * (1.0f + bv));
      store(&s[i], vf{});
      store(&j[i], vi{});
      orOuter |= active;
    }
    if (!anyLane(orOuter))
      break;
    for (bool any = true; any;) {
      vi orInner = {};
      for (int64_t i = 0; i < np; i += kWidth) {
        vf sv = load<vf>(&s[i]), lv = load<vf>(&limit[i]);
        vi jv = load<vi>(&j[i]), ov = load<vi>(&outer[i]);
        vi active = ov & (sv < lv);
        sv = active ? sv + load<vf>(&step[i]) : sv;
        jv -= active;
        store(&s[i], sv);
        store(&j[i], jv);
        orInner |= ov & (sv < lv);
      }
      any = anyLane(orInner);
    }
    for (int64_t i = 0; i < np; i += kWidth) {
      vi ov = load<vi>(&outer[i]);
      vf tv = load<vf>(&t[i]), accv = load<vf>(&acc[i]);
      store(&acc[i], ov ? accv + load<vf>(&s[i]) : accv);
      store(&t[i], ov ? tv + 1.0f : tv);
      store(&k[i], ov ? load<vi>(&k[i]) + load<vi>(&j[i]) : load<vi>(&k[i]));
    }
  }
  std::memcpy(accOut, acc.data(), n * sizeof(float));
  std::memcpy(tripsOut, k.data(), n * sizeof(int32_t));
}
