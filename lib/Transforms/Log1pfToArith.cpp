//===- Log1pfToArith.cpp - glibc's log1pf as vectorizable arithmetic ------===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//
//
// glibc 2.36's log1pf (sysdeps/ieee754/flt-32/s_log1pf.c, fdlibm's) in float
// arithmetic with no contraction, as its x86-64 build computes it: the
// order of every operation was checked against its machine code. Each of
// its cases is computed on every lane and the lane's own picked by selects;
// on a vector, the rare ones (x <= -1, infinities and NaNs, tiny x) only
// when a lane has one.
//
//===----------------------------------------------------------------------===//

#include "LibmToArith.h"

#include <limits>

using namespace mlir;
using namespace mlir::loom::libm;
using Pred = arith::CmpIPredicate;

namespace {
// ln2 split so that k * ln2Hi is exact, and the polynomial in s^2 of
// log(1 + f) = log(1 + s) - log(1 - s), s = f / (2 + f).
constexpr float kLn2Hi = 6.9313812256e-01f, kLn2Lo = 9.0580006145e-06f;
constexpr float kLp[7] = {
    6.6666668653e-01f, 4.0000000596e-01f, 2.8571429849e-01f, 2.2222198546e-01f,
    1.8183572590e-01f, 1.5313838422e-01f, 1.4798198640e-01f};
} // namespace

Value mlir::loom::libm::expandLog1pf(OpBuilder &b, Location loc, Value x) {
  Emitter e = Emitter::like(b, loc, x);
  Type f32 = b.getF32Type(), i32 = b.getI32Type();
  auto fadd = [&](Value a, Value c) { return e.op<arith::AddFOp>(a, c); };
  auto fsub = [&](Value a, Value c) { return e.op<arith::SubFOp>(a, c); };
  auto fmul = [&](Value a, Value c) { return e.op<arith::MulFOp>(a, c); };
  auto fdiv = [&](Value a, Value c) { return e.op<arith::DivFOp>(a, c); };
  auto bits = [&](Value v) { return e.to<arith::BitcastOp>(i32, v); };
  auto real = [&](Value v) { return e.to<arith::BitcastOp>(f32, v); };
  auto feq = [&](Value a, Value c) {
    return b.create<arith::CmpFOp>(loc, arith::CmpFPredicate::OEQ, a, c);
  };
  Value one = e.f32(1.0f), zero = e.f32(0.0f);

  Value hx = bits(x);
  Value ax = e.op<arith::AndIOp>(hx, e.i32(0x7fffffff));
  Value below = e.cmp(Pred::slt, hx, e.i32(0x3ed413d7)); // x < 0.41422
  Value minusOneOrLess = e.cmp(Pred::uge, ax, e.i32(0x3f800000));
  Value tiny = e.ult(ax, e.i32(0x31000000)); // |x| < 2^-29
  // -0.2929 < x < 0.41422: log1p(x) from f = x, no reduction (k = 0).
  Value noReduction = e.op<arith::AndIOp>(
      below, e.op<arith::OrIOp>(e.cmp(Pred::sgt, hx, e.i32(0)),
                                e.cmp(Pred::sle, hx, e.i32(0xbe95f61f))));

  // Otherwise 1 + x = 2^k (1 + f), with c the rounding error of 1 + x
  // (none to correct above 2^53, where 1 + x is x).
  Value huge = e.cmp(Pred::sge, hx, e.i32(0x5a000000));
  Value u1 = fadd(x, one);
  Value u = e.select(huge, x, u1);
  Value hu = bits(u);
  Value k =
      e.op<arith::SubIOp>(e.op<arith::ShRSIOp>(hu, e.i32(23)), e.i32(127));
  Value correction = e.select(e.cmp(Pred::sgt, k, e.i32(0)),
                              fsub(one, fsub(u1, x)), fsub(x, fsub(u1, one)));
  Value c = e.select(huge, zero, fdiv(correction, u1));
  hu = e.op<arith::AndIOp>(hu, e.i32(0x007fffff));
  // Normalize u to [sqrt(2)/2, sqrt(2)): 1 + f, or (1 + f) / 2 with k + 1.
  Value low = e.cmp(Pred::slt, hu, e.i32(0x3504f7));
  Value uN = real(e.op<arith::OrIOp>(
      hu, e.select(low, e.i32(0x3f800000), e.i32(0x3f000000))));
  k = e.select(low, k, e.op<arith::AddIOp>(k, e.i32(1)));
  hu = e.select(low, hu,
                e.op<arith::ShRSIOp>(e.op<arith::SubIOp>(e.i32(0x00800000), hu),
                                     e.i32(2)));
  Value fN = fsub(uN, one);

  Value f = e.select(noReduction, x, fN);
  k = e.select(noReduction, e.i32(0), k);
  hu = e.select(noReduction, e.i32(1), hu);
  c = e.select(noReduction, zero, c);
  Value kZero = e.cmp(Pred::eq, k, e.i32(0));
  Value kf = e.to<arith::SIToFPOp>(f32, k);
  Value kHi = fmul(kf, e.f32(kLn2Hi));
  Value kLoC = fadd(fmul(kf, e.f32(kLn2Lo)), c);
  Value hfsq = fmul(fmul(e.f32(0.5f), f), f);

  // |f| < 2^-20: a short series.
  Value r0 = fmul(hfsq, fsub(one, fmul(e.f32(kLp[0]), f)));
  Value small =
      e.select(kZero, fsub(f, r0), fsub(kHi, fsub(fsub(r0, kLoC), f)));
  small = e.select(feq(f, zero), e.select(kZero, zero, fadd(kLoC, kHi)), small);

  Value s = fdiv(f, fadd(e.f32(2.0f), f));
  Value z = fmul(s, s);
  Value r = e.f32(kLp[6]);
  for (int i = 5; i >= 0; --i)
    r = fadd(fmul(r, z), e.f32(kLp[i]));
  r = fmul(r, z);
  Value t = fmul(fadd(r, hfsq), s);
  Value general = e.select(kZero, fsub(f, fsub(hfsq, t)),
                           fsub(kHi, fsub(fsub(hfsq, fadd(kLoC, t)), f)));
  Value result = e.select(e.cmp(Pred::eq, hu, e.i32(0)), small, general);

  // x <= -1: -inf at -1, else (x - x) / (x - x), NaN. Positive infinity and
  // NaN: x + x. Tiny: x, or x - x^2 / 2 above 2^-54. On a vector, these
  // (a division among them) only when a lane is one of them.
  Value infOrNaN = e.cmp(Pred::sge, hx, e.i32(0x7f800000));
  // Zeros, common inputs, are tiny, but the general results are the same
  // zeros.
  Value rareTiny = e.op<arith::AndIOp>(tiny, e.cmp(Pred::ne, ax, e.i32(0)));
  Value special =
      e.select(below, e.op<arith::OrIOp>(minusOneOrLess, rareTiny), infOrNaN);
  return e
      .ifAnyLane(
          special,
          [&](Emitter &se) -> Emitter::Values {
            Value d = se.op<arith::SubFOp>(x, x);
            Value nonPositive = se.select(
                se.b.create<arith::CmpFOp>(se.loc, arith::CmpFPredicate::OEQ, x,
                                           se.f32(-1.0f)),
                se.f32(-std::numeric_limits<float>::infinity()),
                se.op<arith::DivFOp>(d, d));
            Value tinyResult = se.select(
                se.ult(ax, se.i32(0x24800000)), x,
                se.op<arith::SubFOp>(
                    x, se.op<arith::MulFOp>(se.op<arith::MulFOp>(x, x),
                                            se.f32(0.5f))));
            Value inBelow = se.select(minusOneOrLess, nonPositive,
                                      se.select(tiny, tinyResult, result));
            return {se.select(
                below, inBelow,
                se.select(infOrNaN, se.op<arith::AddFOp>(x, x), result))};
          },
          [&](Emitter &) -> Emitter::Values { return {result}; })
      .front();
}
