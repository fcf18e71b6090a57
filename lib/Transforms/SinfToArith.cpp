//===- SinfToArith.cpp - glibc's sinf as vectorizable arithmetic ----------===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//
//
// glibc's sinf (sysdeps/ieee754/flt-32/s_sinf.c, from Arm's
// optimized-routines) as compiled in its FMA ifunc variant, operation for
// operation: which multiply-adds that build contracted was read from its
// machine code, and every constant is the one in its tables. Its branches
// become selects, each case computed on an argument that keeps the others
// well defined.
//
//===----------------------------------------------------------------------===//

#include "LibmToArith.h"

using namespace mlir;
using namespace mlir::loom::libm;

namespace {

/// The bits of 4/pi after three zero bytes, in 32-bit words: glibc's
/// __inv_pio4[i] is the 32-bit word at byte i of this string.
constexpr uint32_t kInvPio4[7] = {0x000000a2, 0xf9836e4e, 0x441529fc,
                                  0x2757d1f5, 0x34ddc0db, 0x6295993c,
                                  0x43904100};

// __sincosf_table[0]; table[1] negates the cosine's coefficients, which
// negates that polynomial's value exactly (each rounding is symmetric).
constexpr double kHalfPiInv = 0x1.45f306dc9c883p+23; // 2/pi * 2^24
constexpr double kHalfPi = 0x1.921fb54442d18p+0;
constexpr double kPi63 = 0x1.921fb54442d18p-62; // pi/2 / 2^62
constexpr double kC0 = 0x1.0p+0, kC1 = -0x1.ffffffd0c621cp-2,
                 kC2 = 0x1.55553e1068f19p-5, kC3 = -0x1.6c087e89a359dp-10,
                 kC4 = 0x1.99343027bf8c3p-16;
constexpr double kS1 = -0x1.555545995a603p-3, kS2 = 0x1.1107605230bc4p-7,
                 kS3 = -0x1.994eb3774cf24p-13;

/// reduce_large: |x| >= 120 times 4/pi from 96 bits of the table, in 64-bit
/// fixed point. Returns the reduced argument and n in [0, 3]; defined for
/// every bit pattern (every shift stays below the width). The 64-bit
/// integers are kept as pairs of 32-bit words, which AVX2 has twice as many
/// of per register and can convert to double.
std::pair<Value, Value> reduceLarge(Emitter &e, Value bits) {
  OpBuilder &b = e.b;
  Type f64 = b.getF64Type();
  Value idx =
      e.op<arith::AndIOp>(e.op<arith::ShRUIOp>(bits, e.i32(26)), e.i32(15));
  Value shift =
      e.op<arith::AndIOp>(e.op<arith::ShRUIOp>(bits, e.i32(23)), e.i32(7));
  Value m = e.op<arith::OrIOp>(e.op<arith::AndIOp>(bits, e.i32(0x7fffff)),
                               e.i32(0x800000));
  m = e.op<arith::ShLIOp>(m, shift);

  // Table words idx, idx + 4 and idx + 8, the 96 bits at byte idx of
  // kInvPio4, from its words idx / 4 to idx / 4 + 3 by shifts: three loads
  // would each be made lane by lane.
  Value j1 = e.bit(idx, 4), j2 = e.bit(idx, 8);
  auto word = [&](int k) {
    auto at = [&](int i) { return e.i32(i < 7 ? kInvPio4[i] : 0); };
    return e.select(j2, e.select(j1, at(k + 3), at(k + 2)),
                    e.select(j1, at(k + 1), at(k)));
  };
  Value t0 = word(0), t1 = word(1), t2 = word(2), t3 = word(3);
  Value s = e.op<arith::ShLIOp>(e.op<arith::AndIOp>(idx, e.i32(3)), e.i32(3));
  // hi << s | lo >> (32 - s), with s = 0 giving hi: no shift by 32.
  auto window = [&](Value hi, Value lo) {
    Value rest = e.op<arith::ShRUIOp>(e.op<arith::ShRUIOp>(lo, e.i32(1)),
                                      e.op<arith::SubIOp>(e.i32(31), s));
    return e.op<arith::OrIOp>(e.op<arith::ShLIOp>(hi, s), rest);
  };
  Value w0 = window(t0, t1), w4 = window(t1, t2), w8 = window(t2, t3);

  // res0 = (m * w0 << 32) + m * w4 + (m * w8 >> 32), modulo 2^64, as
  // hi:lo.
  auto mul = [&](Value a, Value c) {
    return b.create<arith::MulUIExtendedOp>(e.loc, a, c);
  };
  auto p4 = mul(m, w4);
  Value p8High = mul(m, w8).getHigh();
  Value lo = e.op<arith::AddIOp>(p4.getLow(), p8High);
  Value carry = e.to<arith::ExtUIOp>(b.getI32Type(), e.ult(lo, p8High));
  Value hi = e.op<arith::AddIOp>(
      e.op<arith::AddIOp>(e.op<arith::MulIOp>(m, w0), p4.getHigh()), carry);
  // n = (res0 + 2^61) >> 62, res0 -= n << 62: only hi changes.
  Value n =
      e.op<arith::ShRUIOp>(e.op<arith::AddIOp>(hi, e.i32(1u << 29)), e.i32(30));
  hi = e.op<arith::SubIOp>(hi, e.op<arith::ShLIOp>(n, e.i32(30)));
  // (double)(int64_t)res0 from its exact halves, with one rounding.
  Value x = e.op<arith::AddFOp>(
      e.op<arith::MulFOp>(e.to<arith::SIToFPOp>(f64, hi), e.f64(0x1p32)),
      e.to<arith::UIToFPOp>(f64, lo));
  x = e.op<arith::MulFOp>(x, e.f64(kPi63));
  return {x, n};
}

/// The reduced argument y, n, and the quadrant q of the signs and tables.
struct Reduced {
  Value y, n, q;
};

/// reduce_fast, the argument times 2/pi rounded to the nearest quadrant.
/// glibc skips it below pi/4, where it gives n = 0 and x exactly.
std::pair<Value, Value> reduceFast(Emitter &e, Value xd) {
  OpBuilder &b = e.b;
  Value r = e.op<arith::MulFOp>(xd, e.f64(kHalfPiInv));
  Value n = e.to<arith::FPToSIOp>(b.getI32Type(), r);
  n = e.op<arith::ShRSIOp>(e.op<arith::AddIOp>(n, e.i32(0x800000)), e.i32(24));
  Value nd = e.to<arith::SIToFPOp>(b.getF64Type(), n);
  Value y = e.fma(b.create<arith::NegFOp>(e.loc, nd), e.f64(kHalfPi), xd);
  return {y, n};
}

/// Every lane's reduction: reduce_fast where |x| < 120 (`near`), on 0
/// elsewhere so that its conversion to int is defined, and reduce_large
/// elsewhere.
Reduced reduceEach(Emitter &e, Value bits, Value near, Value xd) {
  auto [yNear, nNear] = reduceFast(e, e.select(near, xd, e.f64(0)));
  auto [yFar, nFar] = reduceLarge(e, bits);
  // Far away, the quadrant of the signs and tables includes x's sign.
  Value sign = e.op<arith::ShRUIOp>(bits, e.i32(31));
  return {e.select(near, yNear, yFar), e.select(near, nNear, nFar),
          e.select(near, nNear, e.op<arith::AddIOp>(nFar, sign))};
}

/// On a vector, reduce_large and the selects between the reductions only
/// when a lane needs it: the arguments of most programs are all near.
Reduced reduce(Emitter &e, Value bits, Value near, Value xd) {
  Value far = e.op<arith::XOrIOp>(near, e.constant(e.b.getBoolAttr(true)));
  Emitter::Values r = e.ifAnyLane(
      far,
      [&](Emitter &te) -> Emitter::Values {
        Reduced each = reduceEach(te, bits, near, xd);
        return {each.y, each.n, each.q};
      },
      [&](Emitter &ne) -> Emitter::Values {
        auto [y, n] = reduceFast(ne, xd);
        return {y, n, n};
      });
  return {r[0], r[1], r[2]};
}

} // namespace

Value mlir::loom::libm::expandSinf(OpBuilder &b, Location loc, Value x) {
  Emitter e = Emitter::like(b, loc, x);
  Type f64 = b.getF64Type(), i32 = b.getI32Type();
  Value bits = e.to<arith::BitcastOp>(i32, x);
  // abstop12: the exponent and the top mantissa bits, without the sign.
  Value top =
      e.op<arith::AndIOp>(e.op<arith::ShRUIOp>(bits, e.i32(20)), e.i32(0x7ff));
  Value tiny = e.ult(top, e.i32(0x398));   // |x| < 2^-12: x itself
  Value near = e.ult(top, e.i32(0x42f));   // |x| < 120: reduce_fast
  Value finite = e.ult(top, e.i32(0x7f8)); // else (x - x) / (x - x)
  Value xd = e.to<arith::ExtFOp>(f64, x);
  auto [y, n, q] = reduce(e, bits, near, xd);

  // sinf_poly: the sine's odd polynomial for even n, the cosine's for odd.
  // Both have the form fma(fma(y2, A, B), y2 * u, fma(u, K, v)), with
  //   sine:   u = y2 * y,  v = y,                   A, B, K = S3, S2, S1
  //   cosine: u = y2 * y2, v = fma(y2, C1, C0),     A, B, K = C4, C3, C2
  // so each lane evaluates its own polynomial, operation for operation
  // (multiplication commutes exactly), on operands selected per lane: half
  // the arithmetic of computing both and selecting one.
  Value odd = e.bit(n, 1);
  auto pick = [&](double cosine, double sine) {
    return e.select(odd, e.f64(cosine), e.f64(sine));
  };
  Value y2 = e.op<arith::MulFOp>(y, y);
  Value u = e.op<arith::MulFOp>(y2, e.select(odd, y2, y));
  Value v = e.select(odd, e.fma(y2, e.f64(kC1), e.f64(kC0)), y);
  Value inner = e.fma(y2, pick(kC4, kS3), pick(kC3, kS2));
  Value outer = e.fma(u, pick(kC2, kS1), v);
  Value poly = e.fma(inner, e.op<arith::MulFOp>(y2, u), outer);
  // The sine is negated (its argument times sign[q & 3]) for q & 3 in
  // {1, 2}; the cosine (table[1]) for q & 2. Negating the argument of an
  // odd polynomial negates its value exactly, and rounding to float
  // commutes with negation: the float is negated, half as wide.
  Value flip = e.select(
      odd, e.bit(q, 2),
      e.bit(e.op<arith::XOrIOp>(q, e.op<arith::ShRUIOp>(q, e.i32(1))), 1));
  Value result = b.create<arith::TruncFOp>(loc, x.getType(), poly);
  result = e.select(flip, b.create<arith::NegFOp>(loc, result), result);

  // __math_invalidf's (x - x) / (x - x): the default NaN for an infinity,
  // x quieted for a NaN. The division by itself returns the same NaN, so
  // it is left out: a vector division costs as much as the polynomials.
  Value invalid = e.op<arith::SubFOp>(x, x);
  result = e.select(finite, result, invalid);
  return e.select(tiny, x, result);
}
