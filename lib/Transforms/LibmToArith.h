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
#include "mlir/IR/BuiltinTypes.h"

namespace mlir::loom::libm {

/// Thin builders over one location, so the algorithm below reads as glibc's.
/// With `lanes`, every value is a vector of that many: the same operations
/// on each lane.
struct Emitter {
  OpBuilder &b;
  Location loc;
  SmallVector<int64_t, 1> lanes = {};

  /// `x`'s lanes, if it is a vector.
  static Emitter like(OpBuilder &b, Location loc, Value x) {
    Emitter e{b, loc};
    if (auto vector = dyn_cast<VectorType>(x.getType()))
      e.lanes.assign(vector.getShape().begin(), vector.getShape().end());
    return e;
  }

  /// `element`, or a vector of it.
  Type type(Type element) {
    return lanes.empty() ? element : VectorType::get(lanes, element);
  }
  Value constant(TypedAttr value) {
    if (lanes.empty())
      return b.create<arith::ConstantOp>(loc, value);
    auto shaped = cast<ShapedType>(type(value.getType()));
    return b.create<arith::ConstantOp>(
        loc, DenseElementsAttr::get(shaped, ArrayRef<Attribute>(value)));
  }
  Value i32(uint32_t v) {
    return constant(b.getI32IntegerAttr(static_cast<int32_t>(v)));
  }
  Value i64(uint64_t v) {
    return constant(b.getI64IntegerAttr(static_cast<int64_t>(v)));
  }
  Value f64(double v) { return constant(b.getF64FloatAttr(v)); }
  Value f32(float v) { return constant(b.getF32FloatAttr(v)); }
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
  /// A conversion or bitcast of `a` to `element` (on every lane).
  template <typename Op>
  Value to(Type element, Value a) {
    return b.create<Op>(loc, type(element), a);
  }
  // LLVM's, not math.fma: convert-math-to-libm would make that a call.
  Value fma(Value a, Value c, Value d) {
    return b.create<LLVM::FMAOp>(loc, a, c, d);
  }
  Value bit(Value v, uint32_t mask) {
    return cmp(arith::CmpIPredicate::ne, op<arith::AndIOp>(v, i32(mask)),
               i32(0));
  }

  /// What `some` computes, where a lane of `mask` is set; elsewhere `none`
  /// computes the same values for lanes that do not need `some`'s work.
  /// On a vector, an scf.if on whether any lane is set, as glibc branches
  /// for its rare cases but for every lane at once; on a scalar, `some`,
  /// branch-free, as the scalar code has always been computed.
  using Values = SmallVector<Value, 4>;
  Values ifAnyLane(Value mask, function_ref<Values(Emitter &)> some,
                   function_ref<Values(Emitter &)> none);
};

/// sinf(x) for an f32 `x`, or on each lane of a vector of f32, as glibc's
/// FMA variant computes it. On a vector, the reduction of arguments of 120
/// and more is computed only when a lane has one.
Value expandSinf(OpBuilder &b, Location loc, Value x);

/// log1pf(x) for an f32 `x`, or on each lane of a vector of f32, as
/// glibc's (fdlibm's, in float arithmetic) computes it. On a vector, its
/// rare cases are computed only when a lane has one.
Value expandLog1pf(OpBuilder &b, Location loc, Value x);

} // namespace mlir::loom::libm

#endif // LOOM_LIB_TRANSFORMS_LIBMTOARITH_H
