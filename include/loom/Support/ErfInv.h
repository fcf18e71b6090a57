//===- ErfInv.h - XLA's float64 erfinv on the host ---------------*- C++ -*-===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//
//
// XLA's float64 erfinv (ErfInv64 in xla/client/lib/math.cc), which
// jax.random.normal applies with x64 on: Giles' double-precision
// approximation, three polynomials in w = -log1p(-x*x). The coefficient
// tables are shared by the lowering of `loom.random.normal : f64` and by this
// host implementation, which the tests compare the JIT with bit for bit; the
// tests also hold both to a long-double erfinv, which the coefficients
// decide.
//
//===----------------------------------------------------------------------===//

#ifndef LOOM_SUPPORT_ERFINV_H
#define LOOM_SUPPORT_ERFINV_H

#include <array>

namespace loom::erfinv {

/// For w < 6.25: a polynomial in w - 3.125, highest degree first (Horner
/// order).
extern const std::array<double, 23> kBelow6_25;
/// For 6.25 <= w < 16: a polynomial in sqrt(w) - 3.25.
extern const std::array<double, 19> kBelow16;
/// For w >= 16: a polynomial in sqrt(w) - 5.
extern const std::array<double, 17> kAbove16;

/// XLA's float32 erfinv (ErfInv32), which jax.random.normal applies by
/// default: for w < 5 a polynomial in w - 2.5, else in sqrt(w) - 3, highest
/// degree first. Shared by the f32 lowering, the tests and the C++ baseline.
extern const std::array<float, 9> kFloat32Central;
extern const std::array<float, 9> kFloat32Tail;

/// XLA's ErfInv64 with the C library's log1p, one float64 operation for each
/// of XLA's: erfinv(x) = x * p(w), and +-inf at x = +-1.
double erfInv64(double x);

} // namespace loom::erfinv

#endif // LOOM_SUPPORT_ERFINV_H
