//===- LibmToArith.h - glibc's float functions as arithmetic ---*- C++ -*-===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//
//
// What loom-libm-to-arith computes in place of a libm call: each function
// as its glibc 2.28+ x86-64 version does, operation for operation, with
// its branches as selects.
//
//===----------------------------------------------------------------------===//

#ifndef LOOM_LIB_TRANSFORMS_LIBMTOARITH_H
#define LOOM_LIB_TRANSFORMS_LIBMTOARITH_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"

namespace mlir::loom::libm {

/// Thin builders over one location, so the algorithm below reads as glibc's.
struct Emitter {
  OpBuilder &b;
  Location loc;

  Value i32(uint32_t v) {
    return b.create<arith::ConstantIntOp>(loc, static_cast<int32_t>(v), 32);
  }
  Value i64(uint64_t v) {
    return b.create<arith::ConstantIntOp>(loc, static_cast<int64_t>(v), 64);
  }
  Value f64(double v) {
    return b.create<arith::ConstantFloatOp>(loc, llvm::APFloat(v),
                                            b.getF64Type());
  }
  Value f32(float v) {
    return b.create<arith::ConstantFloatOp>(loc, llvm::APFloat(v),
                                            b.getF32Type());
  }
  Value cmp(arith::CmpIPredicate predicate, Value a, Value c) {
    return b.create<arith::CmpIOp>(loc, predicate, a, c);
  }
  Value ult(Value a, Value c) { return cmp(arith::CmpIPredicate::ult, a, c); }
  Value uge(Value a, Value c) { return cmp(arith::CmpIPredicate::uge, a, c); }
  Value select(Value c, Value t, Value f) {
    return b.create<arith::SelectOp>(loc, c, t, f);
  }
  template <typename Op>
  Value op(Value a, Value c) {
    return b.create<Op>(loc, a, c);
  }
  // LLVM's, not math.fma: convert-math-to-libm would make that a call.
  Value fma(Value a, Value c, Value d) {
    return b.create<LLVM::FMAOp>(loc, a, c, d);
  }
  Value bit(Value v, uint32_t mask) {
    return cmp(arith::CmpIPredicate::ne, op<arith::AndIOp>(v, i32(mask)),
               i32(0));
  }
};

/// sinf(x) for a scalar f32 `x`, as glibc's FMA variant computes it.
Value expandSinf(OpBuilder &b, Location loc, Value x);

/// log1pf(x) for a scalar f32 `x`, as glibc's (fdlibm's, in float
/// arithmetic) computes it.
Value expandLog1pf(OpBuilder &b, Location loc, Value x);

} // namespace mlir::loom::libm

#endif // LOOM_LIB_TRANSFORMS_LIBMTOARITH_H
