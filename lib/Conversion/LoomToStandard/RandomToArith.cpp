//===- RandomToArith.cpp - loom.random.* to arith on threefry words -------===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//
//
// Each random op becomes, per output element, the arithmetic JAX performs
// for that element (jax/_src/prng.py, jax/_src/random.py): no tables, no
// runtime calls, so the result vectorizes and runs on any target. The host
// implementation in lib/Support/Threefry.cpp is the reference these formulas
// are tested against.
//
// float32 samples come from 32-bit words and float64 samples (JAX with x64
// on) from 64-bit ones, which JAX hashes differently rather than widening
// the 32-bit words; both keep threefry's 32-bit arithmetic and join two
// words where 64 bits are needed.
//
//===----------------------------------------------------------------------===//

#include "loom/Conversion/LoomToStandard/LoomToStandard.h"
#include "loom/Dialect/Loom/IR/LoomOps.h"
#include "loom/Support/ErfInv.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/IR/TypeUtilities.h"

#include <cmath>

using namespace mlir;
using namespace mlir::loom;
namespace erfinv = ::loom::erfinv;

static constexpr StringLiteral kThreefryName = "__loom_threefry2x32";
static constexpr StringLiteral kErfinv32Name = "__loom_erfinv_f32";
static constexpr StringLiteral kErfinv64Name = "__loom_erfinv_f64";

//===----------------------------------------------------------------------===//
// Helper functions, created once per module
//===----------------------------------------------------------------------===//

namespace {

/// Small arithmetic builder, so formulas read as formulas. Integer and float
/// constants that take their type from an operand (`intLike`, `floatLike`)
/// let one formula serve 32- and 64-bit words and float32 and float64.
///
/// Where two operands of one call both create ops, they are created into
/// named values first: C++ leaves the order of argument evaluation to the
/// compiler (GCC goes right to left, Clang left to right), and the order of
/// the emitted ops must not depend on which compiler built Loom.
struct Arith {
  OpBuilder &b;
  Location loc;

  Value i32(int64_t v) { return b.create<arith::ConstantIntOp>(loc, v, 32); }
  Value intLike(Value like, int64_t v) {
    return b.create<arith::ConstantOp>(loc,
                                       b.getIntegerAttr(like.getType(), v));
  }
  /// `v` rounded to `type`; exact wherever these formulas use it (the
  /// float32 coefficients are floats, and every other constant is
  /// representable in both types or computed in the target type).
  Value floatOf(Type type, double v) {
    auto floatType = cast<FloatType>(type);
    APFloat value(v);
    bool losesInfo;
    value.convert(floatType.getFloatSemantics(), APFloat::rmNearestTiesToEven,
                  &losesInfo);
    return b.create<arith::ConstantFloatOp>(loc, value, floatType);
  }
  Value floatLike(Value like, double v) { return floatOf(like.getType(), v); }
  /// Integer ops fold as they are built: an unrolled element's index
  /// arithmetic becomes constants, which name its threefry block.
  template <typename OpTy, typename... Args>
  Value fold(Args... args) {
    return b.createOrFold<OpTy>(loc, args...);
  }
  Value add(Value x, Value y) { return fold<arith::AddIOp>(x, y); }
  Value sub(Value x, Value y) { return fold<arith::SubIOp>(x, y); }
  Value mul(Value x, Value y) { return fold<arith::MulIOp>(x, y); }
  Value xor_(Value x, Value y) { return fold<arith::XOrIOp>(x, y); }
  Value or_(Value x, Value y) { return fold<arith::OrIOp>(x, y); }
  Value remu(Value x, Value y) { return fold<arith::RemUIOp>(x, y); }
  Value shl(Value x, int64_t n) {
    return fold<arith::ShLIOp>(x, intLike(x, n));
  }
  Value shru(Value x, int64_t n) {
    return fold<arith::ShRUIOp>(x, intLike(x, n));
  }
  Value rotl(Value x, int64_t n) {
    Value high = shl(x, n);
    Value low = shru(x, 32 - n);
    return or_(high, low);
  }
  Value cmp(arith::CmpIPredicate p, Value x, Value y) {
    return fold<arith::CmpIOp>(p, x, y);
  }
  Value select(Value c, Value x, Value y) {
    return fold<arith::SelectOp>(c, x, y);
  }
  Value addf(Value x, Value y) { return b.create<arith::AddFOp>(loc, x, y); }
  Value subf(Value x, Value y) { return b.create<arith::SubFOp>(loc, x, y); }
  Value mulf(Value x, Value y) { return b.create<arith::MulFOp>(loc, x, y); }
  Value ltf(Value x, double v) {
    return b.create<arith::CmpFOp>(loc, arith::CmpFPredicate::OLT, x,
                                   floatLike(x, v));
  }
};

/// Creates a private function at the end of the module and leaves `b` at the
/// start of its body; the caller restores `b` with an InsertionGuard.
func::FuncOp createPrivateFunc(OpBuilder &b, SymbolTable &symbols,
                               StringRef name, FunctionType type) {
  b.setInsertionPointToEnd(
      &cast<ModuleOp>(symbols.getOp()).getBodyRegion().front());
  auto func = b.create<func::FuncOp>(symbols.getOp()->getLoc(), name, type);
  func.setPrivate();
  symbols.insert(func);
  b.setInsertionPointToStart(func.addEntryBlock());
  return func;
}

/// threefry2x32 with 20 rounds: (k0, k1, x0, x1) -> (y0, y1), as
/// `_threefry2x32_lowering` in jax/_src/prng.py.
func::FuncOp getThreefry(OpBuilder &builder, SymbolTable &symbols) {
  if (auto f = symbols.lookup<func::FuncOp>(kThreefryName))
    return f;
  OpBuilder::InsertionGuard guard(builder);
  Type i32 = builder.getI32Type();
  auto func = createPrivateFunc(
      builder, symbols, kThreefryName,
      builder.getFunctionType({i32, i32, i32, i32}, {i32, i32}));
  Arith a{builder, func.getLoc()};
  Value k0 = func.getArgument(0), k1 = func.getArgument(1);
  Value k01 = a.xor_(k0, k1);
  Value ks[3] = {k0, k1, a.xor_(k01, a.i32(0x1BD11BDA))};
  Value x0 = a.add(func.getArgument(2), ks[0]);
  Value x1 = a.add(func.getArgument(3), ks[1]);
  static constexpr int64_t kRotations[2][4] = {{13, 15, 26, 6},
                                               {17, 29, 16, 24}};
  for (int64_t group = 1; group <= 5; ++group) {
    for (int64_t r : kRotations[(group - 1) % 2]) {
      x0 = a.add(x0, x1);
      x1 = a.xor_(a.rotl(x1, r), x0);
    }
    x0 = a.add(x0, ks[group % 3]);
    x1 = a.add(x1, ks[(group + 1) % 3]);
    x1 = a.add(x1, a.i32(group));
  }
  builder.create<func::ReturnOp>(func.getLoc(), ValueRange{x0, x1});
  return func;
}

/// Creates `name(x) -> x's type` with `body` building the result from x, or
/// returns it if the module has it already.
func::FuncOp getUnaryHelper(OpBuilder &builder, SymbolTable &symbols,
                            StringRef name, Type type,
                            function_ref<Value(Arith &, Value)> body) {
  if (auto f = symbols.lookup<func::FuncOp>(name))
    return f;
  OpBuilder::InsertionGuard guard(builder);
  auto func = createPrivateFunc(builder, symbols, name,
                                builder.getFunctionType({type}, {type}));
  Arith a{builder, func.getLoc()};
  builder.create<func::ReturnOp>(func.getLoc(), body(a, func.getArgument(0)));
  return func;
}

/// w = -log1p(-x * x), the variable of both of XLA's erfinv polynomials.
Value erfinvW(Arith &a, Value x) {
  Value negX = a.b.create<arith::NegFOp>(a.loc, x);
  return a.b.create<arith::NegFOp>(
      a.loc, a.b.create<math::Log1pOp>(a.loc, a.mulf(negX, x)));
}

/// p * x, or +-inf where |x| = 1 (XLA's x * MaxValue, which is infinity for
/// floats): the polynomial is indeterminate there.
Value erfinvResult(Arith &a, Value x, Value p) {
  Value absX = a.b.create<math::AbsFOp>(a.loc, x);
  Value isOne = a.b.create<arith::CmpFOp>(a.loc, arith::CmpFPredicate::OEQ,
                                          absX, a.floatLike(x, 1.0));
  Value edge = a.mulf(x, a.floatLike(x, INFINITY));
  return a.select(isOne, edge, a.mulf(p, x));
}

/// XLA's float32 erfinv (ErfInv32 in xla/client/lib/math.cc): a degree-8
/// polynomial in w = -log1p(-x*x), one set of coefficients for w < 5 and one
/// for the tails, with erfinv(+-1) = +-inf.
func::FuncOp getErfinv32(OpBuilder &builder, SymbolTable &symbols) {
  return getUnaryHelper(builder, symbols, kErfinv32Name, builder.getF32Type(),
                        [](Arith &a, Value x) {
                          const auto &kCentral = erfinv::kFloat32Central;
                          const auto &kTail = erfinv::kFloat32Tail;
                          Value w = erfinvW(a, x);
                          Value central = a.ltf(w, 5.0);
                          Value wc = a.subf(w, a.floatLike(x, 2.5));
                          Value sqrtW = a.b.create<math::SqrtOp>(a.loc, w);
                          Value wt = a.subf(sqrtW, a.floatLike(x, 3.0));
                          w = a.select(central, wc, wt);
                          auto coefficient = [&](int i) {
                            Value c = a.floatLike(x, kCentral[i]);
                            Value t = a.floatLike(x, kTail[i]);
                            return a.select(central, c, t);
                          };
                          Value p = coefficient(0);
                          for (int i = 1; i < 9; ++i) {
                            Value c = coefficient(i);
                            p = a.addf(c, a.mulf(p, w));
                          }
                          return erfinvResult(a, x, p);
                        });
}

/// XLA's float64 erfinv (ErfInv64 in xla/client/lib/math.cc), Giles'
/// double-precision approximation: in w = -log1p(-x*x), a degree-22
/// polynomial in w - 3.125 for w < 6.25, a degree-18 one in sqrt(w) - 3.25
/// for w < 16 and a degree-16 one in sqrt(w) - 5 beyond, with the
/// coefficients of lib/Support/ErfInv.cpp. As XLA does, it is one Horner
/// chain of selected coefficients whose last six steps apply only to the
/// lanes whose polynomial is that long, so every lane performs exactly its
/// own polynomial's operations, with no branch.
func::FuncOp getErfinv64(OpBuilder &builder, SymbolTable &symbols) {
  return getUnaryHelper(
      builder, symbols, kErfinv64Name, builder.getF64Type(),
      [](Arith &a, Value x) {
        Value w = erfinvW(a, x);
        Value below6_25 = a.ltf(w, 6.25);
        Value below16 = a.ltf(w, 16.0);
        Value sqrtW = a.b.create<math::SqrtOp>(a.loc, w);
        Value shift16 = a.floatLike(x, 3.25);
        Value shiftFar = a.floatLike(x, 5.0);
        Value tailShift = a.select(below16, shift16, shiftFar);
        Value vCentral = a.subf(w, a.floatLike(x, 3.125));
        Value vTail = a.subf(sqrtW, tailShift);
        Value v = a.select(below6_25, vCentral, vTail);
        const auto &central = erfinv::kBelow6_25;
        const auto &tail = erfinv::kBelow16;
        const auto &farTail = erfinv::kAbove16;
        auto coefficient = [&](size_t i) {
          Value c = a.floatLike(x, central[i]);
          if (i < tail.size())
            c = a.select(below6_25, c, a.floatLike(x, tail[i]));
          if (i < farTail.size())
            c = a.select(below16, c, a.floatLike(x, farTail[i]));
          return c;
        };
        Value p = coefficient(0);
        for (size_t i = 1; i < central.size(); ++i) {
          Value c = coefficient(i);
          Value next = a.addf(c, a.mulf(p, v));
          if (i >= farTail.size())
            next = a.select(i < tail.size() ? below16 : below6_25, next, p);
          p = next;
        }
        return erfinvResult(a, x, p);
      });
}

//===----------------------------------------------------------------------===//
// Per-element formulas
//===----------------------------------------------------------------------===//

struct Key {
  Value k0, k1;
};

Key extractKey(OpBuilder &b, Location loc, Value key) {
  auto word = [&](int64_t i) -> Value {
    Value idx = b.create<arith::ConstantIndexOp>(loc, i);
    return b.create<tensor::ExtractOp>(loc, key, idx);
  };
  return {word(0), word(1)};
}

/// The lowering of one random op. Elements of one op often share a threefry
/// block (the two halves of a non-partitionable draw or split, the two words
/// of a partitionable key), and func.call is not CSE'd, so `block` hashes
/// each distinct block once and hands later elements that call's words. An
/// unrolled element's block is named by constants (Arith folds the index
/// arithmetic), so its repeats are found in the order elements are built.
class RandomLowering {
public:
  explicit RandomLowering(SymbolTable &symbols) : symbols(symbols) {}

  std::pair<Value, Value> block(OpBuilder &b, Location loc, Key k, Value x0,
                                Value x1) {
    // A block's words are reused only where they were built: the same block
    // (every element of an unrolled op) or, in a generate's body, that body.
    // An operand is named by its value where it is a constant, by itself
    // otherwise.
    auto name = [](Value v) { return getAsOpFoldResult(v).getOpaqueValue(); };
    BlockKey key{b.getInsertionBlock(), name(k.k0), name(k.k1), name(x0),
                 name(x1)};
    auto [it, inserted] = blocks.try_emplace(key);
    if (inserted) {
      auto call = b.create<func::CallOp>(loc, getThreefry(b, symbols),
                                         ValueRange{k.k0, k.k1, x0, x1});
      it->second = {call.getResult(0), call.getResult(1)};
    }
    return it->second;
  }

  /// Word `i` of `jax.random.bits(key, (n,))`. Without partitionable, the
  /// counts 0..n-1 (padded to even) are split in halves that form the two
  /// words of each block, and the outputs are concatenated; with it, word i
  /// is y0 ^ y1 of the block (0, i).
  Value bitsWord(OpBuilder &b, Location loc, Key k, Value i, int64_t n,
                 bool partitionable) {
    Arith a{b, loc};
    if (partitionable) {
      auto [y0, y1] = block(b, loc, k, a.i32(0), i);
      return a.xor_(y0, y1);
    }
    return halvesWord(b, loc, k, i, n);
  }

  /// Word `i` of `jax.random.bits(key, (n,), uint64)` with x64 on: y0 << 32
  /// | y1 of one block. Without partitionable JAX hashes the 2n counts
  /// 0..2n-1 and joins word i of the first half with word i of the second,
  /// which are the two outputs of the block (i, n + i); with it, the block
  /// is (0, i), as for 32-bit words.
  Value bitsWord64(OpBuilder &b, Location loc, Key k, Value i, int64_t n,
                   bool partitionable) {
    Arith a{b, loc};
    auto [y0, y1] = partitionable ? block(b, loc, k, a.i32(0), i)
                                  : block(b, loc, k, i, a.add(i, a.i32(n)));
    Type i64 = b.getI64Type();
    Value high = b.create<arith::ExtUIOp>(loc, i64, y0);
    Value low = b.create<arith::ExtUIOp>(loc, i64, y1);
    return a.or_(a.shl(high, 32), low);
  }

  /// The word of `width` bits (32 or 64) that element `i` of `n` is made
  /// from.
  Value word(OpBuilder &b, Location loc, unsigned width, Key k, Value i,
             int64_t n, bool partitionable) {
    return width == 64 ? bitsWord64(b, loc, k, i, n, partitionable)
                       : bitsWord(b, loc, k, i, n, partitionable);
  }

  /// Word `e` of the flattened `jax.random.split(key, count)`.
  Value splitWord(OpBuilder &b, Location loc, Key k, Value e, int64_t count,
                  bool partitionable) {
    Arith a{b, loc};
    if (partitionable) {
      // Key q is the block (0, q).
      Value q = a.shru(e, 1);
      auto [y0, y1] = block(b, loc, k, a.i32(0), q);
      Value parity = a.fold<arith::AndIOp>(e, a.i32(1));
      Value low = a.cmp(arith::CmpIPredicate::eq, parity, a.i32(0));
      return a.select(low, y0, y1);
    }
    return halvesWord(b, loc, k, e, 2 * count);
  }

  /// `threefry_2x32(key, iota(n))[i]`: block j = i mod half hashes
  /// (j, half + j), or (j, 0) for the padding of an odd n.
  Value halvesWord(OpBuilder &b, Location loc, Key k, Value i, int64_t n) {
    Arith a{b, loc};
    int64_t half = (n + 1) / 2;
    Value halfV = a.i32(half);
    Value first = a.cmp(arith::CmpIPredicate::ult, i, halfV);
    Value j = a.select(first, i, a.sub(i, halfV));
    Value hi = a.add(halfV, j);
    Value inRange = a.cmp(arith::CmpIPredicate::ult, hi, a.i32(n));
    Value x1 = a.select(inRange, hi, a.i32(0));
    auto [y0, y1] = block(b, loc, k, j, x1);
    return a.select(first, y0, y1);
  }

  /// JAX's uniform: the top 23 (float32) or 52 (float64) bits of a word of
  /// the float's width as the mantissa of a float in [1, 2), shifted to
  /// [0, 1), scaled, and clamped below by minval.
  Value uniformFromBits(OpBuilder &b, Location loc, Value bits, Value lo,
                        Value hi) {
    Arith a{b, loc};
    auto type = cast<FloatType>(lo.getType());
    unsigned width = type.getWidth();
    unsigned mantissaBits = type.getFPMantissaWidth() - 1;
    APInt oneBits = APFloat::getOne(type.getFloatSemantics()).bitcastToAPInt();
    Value top = a.shru(bits, width - mantissaBits);
    Value mantissa = a.or_(
        top, a.intLike(bits, static_cast<int64_t>(oneBits.getZExtValue())));
    Value one2two = b.create<arith::BitcastOp>(loc, type, mantissa);
    Value unit = a.subf(one2two, a.floatOf(type, 1.0));
    Value scaled = a.addf(a.mulf(unit, a.subf(hi, lo)), lo);
    return b.create<arith::MaximumFOp>(loc, lo, scaled);
  }

  /// XLA's erfinv of x's float type.
  Value erfinv(OpBuilder &b, Location loc, Value x) {
    func::FuncOp f =
        x.getType().isF64() ? getErfinv64(b, symbols) : getErfinv32(b, symbols);
    return b.create<func::CallOp>(loc, f, x).getResult(0);
  }

private:
  using BlockKey = std::tuple<Block *, void *, void *, void *, void *>;
  SymbolTable &symbols;
  DenseMap<BlockKey, std::pair<Value, Value>> blocks;
};

/// Tensors up to this many elements are built element by element with
/// tensor.from_elements rather than tensor.generate: `tensor.extract` folds
/// through from_elements, so a key split into three, or a (1,)-shaped draw,
/// needs no buffer at all (generate's body calls the threefry function, which
/// canonicalization will not inline into an extract).
static constexpr int64_t kUnrollElements = 16;

/// Builds a value of `type` — a scalar, or a static tensor filled element by
/// element — from the element's flat row-major index as an i32.
Value generate(OpBuilder &b, Location loc, Type type,
               function_ref<Value(OpBuilder &, Location, Value)> element) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor)
    return element(b, loc, b.create<arith::ConstantIntOp>(loc, 0, 32));
  if (tensor.getNumElements() <= kUnrollElements) {
    SmallVector<Value> elements;
    for (int64_t i = 0; i < tensor.getNumElements(); ++i)
      elements.push_back(
          element(b, loc, b.create<arith::ConstantIntOp>(loc, i, 32)));
    return b.create<tensor::FromElementsOp>(loc, tensor, elements);
  }
  return b.create<tensor::GenerateOp>(
      loc, tensor, ValueRange{},
      [&](OpBuilder &nb, Location nl, ValueRange indices) {
        Value flat = nb.create<arith::ConstantIndexOp>(nl, 0);
        for (auto [d, idx] : llvm::enumerate(indices)) {
          Value size =
              nb.create<arith::ConstantIndexOp>(nl, tensor.getDimSize(d));
          flat = nb.createOrFold<arith::AddIOp>(
              nl, nb.createOrFold<arith::MulIOp>(nl, flat, size), idx);
        }
        Value i = nb.create<arith::IndexCastOp>(nl, nb.getI32Type(), flat);
        nb.create<tensor::YieldOp>(nl, element(nb, nl, i));
      });
}

int64_t numElements(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  return tensor ? tensor.getNumElements() : 1;
}

//===----------------------------------------------------------------------===//
// Patterns
//===----------------------------------------------------------------------===//

/// Each rewrite starts a fresh RandomLowering: the blocks one op hashed are
/// no values of another (the driver may have erased them since).
template <typename Op>
struct RandomPattern : OpRewritePattern<Op> {
  RandomPattern(MLIRContext *ctx, SymbolTable &symbols)
      : OpRewritePattern<Op>(ctx), symbols(symbols) {}
  LogicalResult matchAndRewrite(Op op, PatternRewriter &rewriter) const final {
    RandomLowering lowering(symbols);
    return lower(op, rewriter, lowering);
  }
  virtual LogicalResult lower(Op op, PatternRewriter &rewriter,
                              RandomLowering &lowering) const = 0;
  SymbolTable &symbols;
};

// key(seed) => [0, seed]
struct KeyLowering : RandomPattern<RandomKeyOp> {
  using RandomPattern::RandomPattern;
  LogicalResult lower(RandomKeyOp op, PatternRewriter &rewriter,
                      RandomLowering &) const override {
    Arith a{rewriter, op.getLoc()};
    rewriter.replaceOpWithNewOp<tensor::FromElementsOp>(
        op, op.getType(), ValueRange{a.i32(0), op.getSeed()});
    return success();
  }
};

// split(k)[e] => halves(threefry(k, iota(2n)))[e]
struct SplitLowering : RandomPattern<RandomSplitOp> {
  using RandomPattern::RandomPattern;
  LogicalResult lower(RandomSplitOp op, PatternRewriter &rewriter,
                      RandomLowering &lowering) const override {
    Key k = extractKey(rewriter, op.getLoc(), op.getKey());
    int64_t count = numElements(op.getType()) / 2;
    bool part = op.getPartitionable();
    rewriter.replaceOp(op, generate(rewriter, op.getLoc(), op.getType(),
                                    [&](OpBuilder &b, Location l, Value e) {
                                      return lowering.splitWord(b, l, k, e,
                                                                count, part);
                                    }));
    return success();
  }
};

// fold_in(k, d) => threefry(k, (0, d))
struct FoldInLowering : RandomPattern<RandomFoldInOp> {
  using RandomPattern::RandomPattern;
  LogicalResult lower(RandomFoldInOp op, PatternRewriter &rewriter,
                      RandomLowering &lowering) const override {
    Location loc = op.getLoc();
    Arith a{rewriter, loc};
    Key k = extractKey(rewriter, loc, op.getKey());
    auto [y0, y1] = lowering.block(rewriter, loc, k, a.i32(0), op.getData());
    rewriter.replaceOpWithNewOp<tensor::FromElementsOp>(op, op.getType(),
                                                        ValueRange{y0, y1});
    return success();
  }
};

// bits(k)[i] => threefry word i (32 bits), or two words joined (64)
struct BitsLowering : RandomPattern<RandomBitsOp> {
  using RandomPattern::RandomPattern;
  LogicalResult lower(RandomBitsOp op, PatternRewriter &rewriter,
                      RandomLowering &lowering) const override {
    Key k = extractKey(rewriter, op.getLoc(), op.getKey());
    int64_t n = numElements(op.getType());
    bool part = op.getPartitionable();
    unsigned width = getElementTypeOrSelf(op.getType()).getIntOrFloatBitWidth();
    rewriter.replaceOp(op, generate(rewriter, op.getLoc(), op.getType(),
                                    [&](OpBuilder &b, Location l, Value i) {
                                      return lowering.word(b, l, width, k, i, n,
                                                           part);
                                    }));
    return success();
  }
};

// uniform(k, lo, hi)[i] => max(lo, mantissa(bits[i]) * (hi - lo) + lo)
struct UniformLowering : RandomPattern<RandomUniformOp> {
  using RandomPattern::RandomPattern;
  LogicalResult lower(RandomUniformOp op, PatternRewriter &rewriter,
                      RandomLowering &lowering) const override {
    Key k = extractKey(rewriter, op.getLoc(), op.getKey());
    int64_t n = numElements(op.getType());
    bool part = op.getPartitionable();
    unsigned width = getElementTypeOrSelf(op.getType()).getIntOrFloatBitWidth();
    Value lo = op.getMinval(), hi = op.getMaxval();
    rewriter.replaceOp(
        op, generate(rewriter, op.getLoc(), op.getType(),
                     [&](OpBuilder &b, Location l, Value i) {
                       Value bits = lowering.word(b, l, width, k, i, n, part);
                       return lowering.uniformFromBits(b, l, bits, lo, hi);
                     }));
    return success();
  }
};

// normal(k)[i] => sqrt(2) * erfinv(uniform(k, nextafter(-1, 0), 1)[i])
struct NormalLowering : RandomPattern<RandomNormalOp> {
  using RandomPattern::RandomPattern;
  LogicalResult lower(RandomNormalOp op, PatternRewriter &rewriter,
                      RandomLowering &lowering) const override {
    Location loc = op.getLoc();
    Arith a{rewriter, loc};
    Key k = extractKey(rewriter, loc, op.getKey());
    int64_t n = numElements(op.getType());
    bool part = op.getPartitionable();
    Type type = getElementTypeOrSelf(op.getType());
    unsigned width = type.getIntOrFloatBitWidth();
    // nextafter(-1, 0) and sqrt(2) in the sample's own type, as NumPy
    // computes them for JAX.
    double lowest = type.isF64()
                        ? std::nextafter(-1.0, 0.0)
                        : static_cast<double>(std::nextafter(-1.0f, 0.0f));
    Value lo = a.floatOf(type, lowest);
    Value hi = a.floatOf(type, 1.0);
    Value sqrt2 = a.floatOf(type, M_SQRT2);
    rewriter.replaceOp(
        op, generate(rewriter, loc, op.getType(),
                     [&](OpBuilder &b, Location l, Value i) {
                       Value bits = lowering.word(b, l, width, k, i, n, part);
                       Value u = lowering.uniformFromBits(b, l, bits, lo, hi);
                       return Arith{b, l}.mulf(sqrt2, lowering.erfinv(b, l, u));
                     }));
    return success();
  }
};

// randint(k, lo, hi)[i] => lo + ((hb % s) * (2^16 % s)^2 % s + lb % s) % s
// with (k1, k2) = split(k), hb = bits(k1)[i], lb = bits(k2)[i], s = hi - lo
// (1 when hi <= lo), all in wrapping uint32 as jax.random._randint.
struct RandIntLowering : RandomPattern<RandomRandIntOp> {
  using RandomPattern::RandomPattern;
  LogicalResult lower(RandomRandIntOp op, PatternRewriter &rewriter,
                      RandomLowering &lowering) const override {
    Location loc = op.getLoc();
    Arith a{rewriter, loc};
    Key k = extractKey(rewriter, loc, op.getKey());
    bool part = op.getPartitionable();
    auto word = [&](int64_t e) {
      return lowering.splitWord(rewriter, loc, k, a.i32(e), 2, part);
    };
    Key k1{word(0), word(1)}, k2{word(2), word(3)};
    Value lo = op.getMinval(), hi = op.getMaxval();
    Value empty = a.cmp(arith::CmpIPredicate::sle, hi, lo);
    Value one = a.i32(1);
    Value span = a.select(empty, one, a.sub(hi, lo));
    Value multiplier = a.remu(a.i32(1 << 16), span);
    multiplier = a.remu(a.mul(multiplier, multiplier), span);
    int64_t n = numElements(op.getType());
    rewriter.replaceOp(
        op, generate(rewriter, loc, op.getType(),
                     [&](OpBuilder &b, Location l, Value i) {
                       Arith e{b, l};
                       Value hb = lowering.bitsWord(b, l, k1, i, n, part);
                       Value lb = lowering.bitsWord(b, l, k2, i, n, part);
                       Value high = e.mul(e.remu(hb, span), multiplier);
                       Value offset = e.add(high, e.remu(lb, span));
                       return e.add(lo, e.remu(offset, span));
                     }));
    return success();
  }
};

} // namespace

void mlir::loom::populateLoomRandomToArithPatterns(RewritePatternSet &patterns,
                                                   SymbolTable &symbols) {
  patterns.add<KeyLowering, SplitLowering, FoldInLowering, BitsLowering,
               UniformLowering, NormalLowering, RandIntLowering>(
      patterns.getContext(), symbols);
}
