//===- ErfInv.h - XLA's erfinv on the host ----------------------*- C++ -*-===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//
//
// XLA's erfinv on the host, float32 (ErfInv32, what jax.random.normal applies
// by default) and float64 (ErfInv64 in xla/client/lib/math.cc, with x64 on:
// Giles' double-precision approximation, three polynomials in
// w = -log1p(-x*x)). The coefficient
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

/// How erfInv32 evaluates log1p: in double and rounded once (the correctly
/// rounded value, golden.md's reference), or with the C library's log1pf,
/// which is what the JIT's code computes (convert-math-to-libm).
enum class Log1p { CorrectlyRounded, Libm };

/// XLA's ErfInv32, one float32 operation for each of XLA's: erfinv(x) =
/// x * p(w) with w = -log1p(-x*x), and +-inf at x = +-1. The one host
/// version, shared by the C++ baseline and the tests.
float erfInv32(float x, Log1p log1p);

/// XLA's ErfInv64 with the C library's log1p, one float64 operation for each
/// of XLA's: erfinv(x) = x * p(w), and +-inf at x = +-1.
double erfInv64(double x);

} // namespace loom::erfinv

#endif // LOOM_SUPPORT_ERFINV_H
