//===- VectorVariants.cpp - Out-of-line callees with vector variants ------===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//
//
// What the pass does and why is in its description (Passes.td). How: a
// callee qualifies when its body is one block of elementwise-mappable ops,
// so that the same ops on vectors compute each lane as the scalar body
// does; its variants are that body with every type widened. LLVM 19's
// vectorizers widen no call whose result is a struct, so a callee with
// several results returns them packed into one integer, which each call
// site unpacks.
//
//===----------------------------------------------------------------------===//

#include "LaneLoops.h"
#include "loom/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"

#include "llvm/Support/FormatVariadic.h"

namespace mlir::loom {
#define GEN_PASS_DEF_LOOMVECTORVARIANTS
#include "loom/Transforms/Passes.h.inc"
} // namespace mlir::loom

using namespace mlir;

namespace {

/// The widths of 256-bit vectors of 64- and 32-bit values, and twice the
/// latter: a loop that calls a variant is vectorized at 16 lanes
/// (lib/Compiler/CPU/Optimize.cpp), so that each call computes two
/// independent 8-lane vectors whose ops the CPU overlaps. Inlined, the
/// scheduler interleaves a loop's several calls; out of line, each call's
/// chain of dependent ops (threefry's 20 rounds) would run alone.
constexpr int64_t kVariantLanes[] = {4, 8, 16};

/// Below this many ops (constants aside) a callee stays inlined: one more
/// copy of it costs less than a call, and inlined it folds with its
/// caller's constants.
constexpr unsigned kMinOps = 32;

bool isScalar(Type type) { return type.isIntOrFloat(); }

/// Whether every op of `callee` is an elementwise-mappable op or a constant
/// on scalars, and there are at least kMinOps of the former.
bool isLargeElementwise(func::FuncOp callee) {
  if (callee.isExternal() || callee.getNumArguments() == 0 ||
      !callee.getBody().hasOneBlock() ||
      !llvm::all_of(callee.getArgumentTypes(), isScalar) ||
      !llvm::all_of(callee.getResultTypes(), isScalar))
    return false;
  unsigned ops = 0;
  for (Operation &op : callee.getBody().front().without_terminator()) {
    if (op.getNumRegions() != 0 ||
        !llvm::all_of(op.getOperandTypes(), isScalar) ||
        !llvm::all_of(op.getResultTypes(), isScalar))
      return false;
    if (isa<arith::ConstantOp>(op))
      continue;
    if (!OpTrait::hasElementwiseMappableTraits(&op))
      return false;
    ++ops;
  }
  return ops >= kMinOps;
}

/// How a callee's results travel as one value: each result's bits at an
/// offset of one integer. A single result travels as itself.
struct Packing {
  Type packed;
  SmallVector<unsigned> offsets;
};

std::optional<Packing> getPacking(func::FuncOp callee) {
  TypeRange results = callee.getResultTypes();
  if (results.size() == 1)
    return Packing{results[0], {0}};
  Packing packing;
  unsigned bits = 0;
  for (Type type : results) {
    packing.offsets.push_back(bits);
    bits += type.getIntOrFloatBitWidth();
  }
  if (results.empty() || bits > 64)
    return std::nullopt;
  packing.packed = IntegerType::get(
      callee.getContext(), std::max<unsigned>(8, llvm::PowerOf2Ceil(bits)));
  return packing;
}

/// `type`, or a vector of it when `lanes` is not 0.
Type widen(Type type, int64_t lanes) {
  return lanes == 0 ? type : VectorType::get({lanes}, type);
}

/// The integer of `type`'s width, in `type`'s shape.
Type bitsOf(Type type) {
  Type element = getElementTypeOrSelf(type);
  Type bits =
      IntegerType::get(type.getContext(), element.getIntOrFloatBitWidth());
  if (auto vector = dyn_cast<VectorType>(type))
    return vector.clone(bits);
  return bits;
}

/// `values`, one per result of the callee, as one value of `packing`.
Value pack(OpBuilder &b, Location loc, ValueRange values,
           const Packing &packing, int64_t lanes) {
  if (values.size() == 1)
    return values[0];
  Type packed = widen(packing.packed, lanes);
  Value result = createScalarOrSplatConstant(b, loc, packed, 0);
  for (auto [value, offset] : llvm::zip_equal(values, packing.offsets)) {
    Value bits = value;
    if (bitsOf(value.getType()) != value.getType())
      bits = b.create<arith::BitcastOp>(loc, bitsOf(value.getType()), value);
    if (getElementTypeOrSelf(bits.getType()) != packing.packed)
      bits = b.create<arith::ExtUIOp>(loc, packed, bits);
    if (offset != 0)
      bits = b.create<arith::ShLIOp>(
          loc, bits, createScalarOrSplatConstant(b, loc, packed, offset));
    result = b.create<arith::OrIOp>(loc, result, bits);
  }
  return result;
}

/// The results `types` of the callee, from `packed`.
SmallVector<Value> unpack(OpBuilder &b, Location loc, Value packed,
                          TypeRange types, const Packing &packing) {
  if (types.size() == 1)
    return {packed};
  SmallVector<Value> results;
  for (auto [type, offset] : llvm::zip_equal(types, packing.offsets)) {
    Value bits = packed;
    if (offset != 0)
      bits = b.create<arith::ShRUIOp>(
          loc, bits,
          createScalarOrSplatConstant(b, loc, packed.getType(), offset));
    Type bitsType = bitsOf(type);
    if (bitsType != packed.getType())
      bits = b.create<arith::TruncIOp>(loc, bitsType, bits);
    if (type != bitsType)
      bits = b.create<arith::BitcastOp>(loc, type, bits);
    results.push_back(bits);
  }
  return results;
}

/// A private function `name` computing `callee` on `lanes` lanes (0: on
/// scalars) that returns its results packed.
func::FuncOp defineCopy(SymbolTable &symbols, func::FuncOp callee,
                        StringRef name, const Packing &packing, int64_t lanes) {
  OpBuilder b = OpBuilder::atBlockEnd(
      &cast<ModuleOp>(symbols.getOp()).getBodyRegion().front());
  Location loc = callee.getLoc();
  SmallVector<Type> arguments;
  for (Type type : callee.getArgumentTypes())
    arguments.push_back(widen(type, lanes));
  auto copy = b.create<func::FuncOp>(
      loc, name, b.getFunctionType(arguments, widen(packing.packed, lanes)));
  copy.setPrivate();
  // Renamed if the name is taken.
  symbols.insert(copy);
  Block *entry = copy.addEntryBlock();
  b.setInsertionPointToStart(entry);
  Block &body = callee.getBody().front();
  IRMapping mapping;
  mapping.map(body.getArguments(), entry->getArguments());
  for (Operation &op : body.without_terminator()) {
    if (auto constant = dyn_cast<arith::ConstantOp>(op); constant && lanes) {
      auto type = cast<ShapedType>(widen(constant.getType(), lanes));
      mapping.map(constant.getResult(),
                  b.create<arith::ConstantOp>(
                      constant.getLoc(),
                      DenseElementsAttr::get(type, constant.getValue())));
      continue;
    }
    SmallVector<Value> operands;
    for (Value operand : op.getOperands())
      operands.push_back(mapping.lookup(operand));
    SmallVector<Type> results;
    for (Type type : op.getResultTypes())
      results.push_back(widen(type, lanes));
    Operation *widened = b.create(op.getLoc(), op.getName().getIdentifier(),
                                  operands, results, op.getAttrs());
    mapping.map(op.getResults(), widened->getResults());
  }
  SmallVector<Value> returned;
  for (Value value : body.getTerminator()->getOperands())
    returned.push_back(mapping.lookup(value));
  b.create<func::ReturnOp>(loc, pack(b, loc, returned, packing, lanes));
  return copy;
}

struct LoomVectorVariants
    : loom::impl::LoomVectorVariantsBase<LoomVectorVariants> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    // The calls that lane loops make, by callee, in the module's order, and
    // how many calls each callee has anywhere.
    llvm::MapVector<func::FuncOp, SmallVector<func::CallOp>> calls;
    llvm::DenseMap<func::FuncOp, unsigned> allCalls;
    module.walk([&](func::CallOp call) {
      // Host code only: a GPU module's functions are its own symbols.
      auto callee = SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(
          call, call.getCalleeAttr());
      if (!callee || callee->getParentOp() != module)
        return;
      ++allCalls[callee];
      if (loom::isInVectorizableLoop(call))
        calls[callee].push_back(call);
    });
    SymbolTable symbols(module);
    for (auto &[callee, sites] : calls) {
      // A callee called once keeps its one inlined copy. Called from
      // anywhere else too (a per-lane loop next to a gang's lane loop, in
      // timed variants), LLVM inlines a large one nowhere, and the lane
      // loop would call it lane by lane.
      if (allCalls.lookup(callee) < 2 || !isLargeElementwise(callee))
        continue;
      std::optional<Packing> packing = getPacking(callee);
      if (!packing)
        continue;
      func::FuncOp scalar =
          defineCopy(symbols, callee, (callee.getSymName() + "_lanewise").str(),
                     *packing, 0);
      std::string mappings;
      for (int64_t lanes : kVariantLanes) {
        func::FuncOp variant = defineCopy(
            symbols, callee,
            llvm::formatv("{0}_v{1}", callee.getSymName(), lanes).str(),
            *packing, lanes);
        if (!mappings.empty())
          mappings += ",";
        mappings += llvm::formatv("_ZGV_LLVM_N{0}{1}_{2}({3})", lanes,
                                  std::string(callee.getNumArguments(), 'v'),
                                  scalar.getSymName(), variant.getSymName());
      }
      OpBuilder b(module.getContext());
      scalar->setAttr(
          "passthrough",
          b.getArrayAttr(
              {b.getStringAttr("noinline"),
               b.getArrayAttr({b.getStringAttr("vector-function-abi-variant"),
                               b.getStringAttr(mappings)})}));
      for (func::CallOp call : sites) {
        b.setInsertionPoint(call);
        auto packed =
            b.create<func::CallOp>(call.getLoc(), scalar, call.getOperands());
        call.replaceAllUsesWith(unpack(b, call.getLoc(), packed.getResult(0),
                                       call.getResultTypes(), *packing));
        call.erase();
      }
    }
  }
};

} // namespace
