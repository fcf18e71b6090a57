//===- LaneTensorsToVectors.cpp - Small lane tensors as vector values -----===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//
//
// What the pass does and why is in its description (Passes.td). How: first
// each lanewise loop over lanes is rewritten in place as ops on lane
// tensors; then one dialect conversion, whose type converter turns a small
// static 1-D tensor into the vector of its shape, converts an op only where
// a pattern below computes it on vectors lane for lane as the tensor op
// does. Every other op keeps its tensors, and the conversion writes a
// vector into a fresh tensor (vector.transfer_write) before it and reads one
// back (vector.transfer_read) after it.
//
//===----------------------------------------------------------------------===//

#include "loom/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Func/Transforms/FuncConversions.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/Patterns.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "mlir/Transforms/DialectConversion.h"

#include "llvm/ADT/TypeSwitch.h"

namespace mlir::loom {
#define GEN_PASS_DEF_LOOMLANETENSORSTOVECTORS
#include "loom/Transforms/Passes.h.inc"
} // namespace mlir::loom

using namespace mlir;

namespace {

/// A gang of up to twice loom-vmap's default width (32), and the small
/// per-lane tensors loom-split-lane-tensors leaves; a wider gang or a larger
/// static batch stays in memory, where LLVM's loop vectorizer walks it.
constexpr int64_t kMaxLanes = 64;

/// The vector a tensor of `type` is carried as, or null.
VectorType laneVectorType(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor || tensor.getRank() != 1 || tensor.isDynamicDim(0) ||
      tensor.getEncoding())
    return nullptr;
  int64_t lanes = tensor.getDimSize(0);
  if (lanes < 2 || lanes > kMaxLanes ||
      !tensor.getElementType().isIntOrIndexOrFloat())
    return nullptr;
  return VectorType::get({lanes}, tensor.getElementType());
}

bool hasLaneTypes(Operation *op) {
  auto isLane = [](Type type) { return bool(laneVectorType(type)); };
  return llvm::any_of(op->getOperandTypes(), isLane) ||
         llvm::any_of(op->getResultTypes(), isLane);
}

/// Elementwise ops, which compute on a vector lane by lane. A libm
/// function's op on a vector calls loom-libm-to-arith's vector variants, or
/// is unrolled by convert-math-to-libm into the scalar calls a loop would
/// make.
bool isVectorElementwise(Operation *op) {
  return OpTrait::hasElementwiseMappableTraits(op) &&
         isa<arith::ArithDialect, math::MathDialect>(op->getDialect());
}

/// The vector.reduction that folds a linalg.reduce body of one op.
std::optional<vector::CombiningKind> combiningKind(Operation *op) {
  using Kind = vector::CombiningKind;
  return llvm::TypeSwitch<Operation *, std::optional<Kind>>(op)
      .Case([](arith::AddIOp) { return Kind::ADD; })
      .Case([](arith::AddFOp) { return Kind::ADD; })
      .Case([](arith::MulIOp) { return Kind::MUL; })
      .Case([](arith::MulFOp) { return Kind::MUL; })
      .Case([](arith::AndIOp) { return Kind::AND; })
      .Case([](arith::OrIOp) { return Kind::OR; })
      .Case([](arith::XOrIOp) { return Kind::XOR; })
      .Case([](arith::MinSIOp) { return Kind::MINSI; })
      .Case([](arith::MaxSIOp) { return Kind::MAXSI; })
      .Case([](arith::MinUIOp) { return Kind::MINUI; })
      .Case([](arith::MaxUIOp) { return Kind::MAXUI; })
      .Case([](arith::MinimumFOp) { return Kind::MINIMUMF; })
      .Case([](arith::MaximumFOp) { return Kind::MAXIMUMF; })
      .Default([](Operation *) { return std::nullopt; });
}

/// A linalg.generic over one lane dimension whose body is elementwise ops:
/// the same ops on the operands' vectors.
bool isLanewiseGeneric(linalg::GenericOp op) {
  if (op.getNumLoops() != 1 || op.getNumReductionLoops() != 0 ||
      !llvm::all_of(op.getIndexingMapsArray(),
                    [](AffineMap map) { return map.isIdentity(); }) ||
      !llvm::all_of(op->getOperandTypes(),
                    [](Type type) { return bool(laneVectorType(type)); }))
    return false;
  return llvm::all_of(op.getBody()->without_terminator(), [](Operation &inner) {
    return isVectorElementwise(&inner) || isa<arith::ConstantOp>(inner);
  });
}

/// A linalg.reduce of a lane tensor to a 0-d one by one combining op of
/// the lane and the accumulator.
bool isLaneReduction(linalg::ReduceOp op) {
  if (op.getInputs().size() != 1 ||
      !laneVectorType(op.getInputs()[0].getType()))
    return false;
  Block &body = op.getCombiner().front();
  if (body.getOperations().size() != 2 ||
      !combiningKind(&body.front()).has_value())
    return false;
  Operation &combine = body.front();
  auto isArgument = [&](Value value) {
    return llvm::is_contained(body.getArguments(), value);
  };
  return combine.getNumOperands() == 2 && combine.getNumResults() == 1 &&
         combine.getOperand(0) != combine.getOperand(1) &&
         llvm::all_of(combine.getOperands(), isArgument) &&
         body.getTerminator()->getOperand(0) == combine.getResult(0);
}

bool hasConstantLane(ValueRange indices) {
  return indices.size() == 1 && getConstantIntValue(indices[0]).has_value();
}

/// Whether a pattern below computes `op` on vectors.
bool isConvertible(Operation *op) {
  if (!hasLaneTypes(op))
    return false;
  if (isVectorElementwise(op))
    return true;
  if (auto generic = dyn_cast<linalg::GenericOp>(op))
    return isLanewiseGeneric(generic);
  if (auto reduce = dyn_cast<linalg::ReduceOp>(op))
    return isLaneReduction(reduce);
  if (auto copy = dyn_cast<linalg::CopyOp>(op))
    return copy.getInputs()[0].getType() == copy.getOutputs()[0].getType();
  if (auto alloc = dyn_cast<bufferization::AllocTensorOp>(op))
    return !alloc.getCopy() && alloc.getDynamicSizes().empty();
  if (auto fill = dyn_cast<linalg::FillOp>(op))
    return bool(laneVectorType(fill.getOutputs()[0].getType()));
  // A lane at a dynamic position stays in memory: LLVM would move the
  // whole vector through the stack to reach it.
  if (auto extract = dyn_cast<tensor::ExtractOp>(op))
    return hasConstantLane(extract.getIndices());
  if (auto insert = dyn_cast<tensor::InsertOp>(op))
    return hasConstantLane(insert.getIndices());
  return isa<arith::ConstantOp, tensor::EmptyOp, tensor::SplatOp,
             tensor::FromElementsOp>(op);
}

/// The lanes of a loop over 0 to at most kMaxLanes, step 1.
std::optional<int64_t> laneLoopLanes(scf::ForOp loop) {
  std::optional<int64_t> lower = getConstantIntValue(loop.getLowerBound());
  std::optional<int64_t> upper = getConstantIntValue(loop.getUpperBound());
  std::optional<int64_t> step = getConstantIntValue(loop.getStep());
  if (lower != 0 || step != 1 || !upper || *upper < 2 || *upper > kMaxLanes)
    return std::nullopt;
  return upper;
}

/// Whether `op` reads or writes a lane of a lane tensor at a position that
/// is not constant.
bool accessesDynamicLane(Operation *op) {
  if (auto extract = dyn_cast<tensor::ExtractOp>(op))
    return laneVectorType(extract.getTensor().getType()) &&
           !hasConstantLane(extract.getIndices());
  if (auto insert = dyn_cast<tensor::InsertOp>(op))
    return laneVectorType(insert.getType()) &&
           !hasConstantLane(insert.getIndices());
  return false;
}

/// The loops kept on tensors, whole: each scf.for that is the innermost loop
/// around a lane accessed at a dynamic position (a loop over lanes that is
/// not lanewise, below; a gang's refill). On vectors each such lane would
/// move the vector through the stack; in memory it is one load or store, and
/// LLVM's loop vectorizer widens a loop over lanes.
DenseSet<Operation *> getLoopsKeptOnTensors(ModuleOp module) {
  DenseSet<Operation *> kept;
  module.walk([&](Operation *op) {
    if (!accessesDynamicLane(op))
      return;
    Operation *loop = op->getParentOp();
    while (loop && !isa<LoopLikeOpInterface>(loop))
      loop = loop->getParentOp();
    if (isa_and_nonnull<scf::ForOp>(loop))
      kept.insert(loop);
  });
  return kept;
}

//===----------------------------------------------------------------------===//
// Loops over lanes as ops on lane tensors
//===----------------------------------------------------------------------===//

bool isScalar(Type type) { return type.isIntOrIndexOrFloat(); }

/// A function of scalars whose body is one block of elementwise ops: the
/// same ops on lane tensors compute each lane as a call would.
bool isElementwiseFunction(func::FuncOp func) {
  if (func.isExternal() || !func.getBody().hasOneBlock() ||
      !llvm::all_of(func.getArgumentTypes(), isScalar) ||
      !llvm::all_of(func.getResultTypes(), isScalar))
    return false;
  return llvm::all_of(
      func.getBody().front().without_terminator(), [](Operation &op) {
        return op.getNumRegions() == 0 &&
               llvm::all_of(op.getOperandTypes(), isScalar) &&
               llvm::all_of(op.getResultTypes(), isScalar) &&
               (isa<arith::ConstantOp>(op) || isVectorElementwise(&op));
      });
}

/// `op`, a constant or an elementwise op on scalars, on `lanes` lanes: a
/// constant splat, or the same op on `operands`, lane tensors.
Operation *onLaneTensors(OpBuilder &b, Operation &op, ValueRange operands,
                         int64_t lanes) {
  auto wide = [&](Type type) { return RankedTensorType::get({lanes}, type); };
  if (auto constant = dyn_cast<arith::ConstantOp>(op))
    return b.create<arith::ConstantOp>(
        constant.getLoc(),
        DenseElementsAttr::get(wide(constant.getType()), constant.getValue()));
  SmallVector<Type> types;
  for (Type type : op.getResultTypes())
    types.push_back(wide(type));
  return b.create(op.getLoc(), op.getName().getIdentifier(), operands, types,
                  op.getAttrs());
}

/// Lane-tensor clones of elementwise functions, one per function and width.
class LaneFunctions {
public:
  explicit LaneFunctions(ModuleOp module) : module(module), symbols(module) {}

  func::FuncOp lookupCallee(func::CallOp call) {
    return symbols.lookup<func::FuncOp>(call.getCallee());
  }

  func::FuncOp get(func::FuncOp scalar, int64_t lanes) {
    func::FuncOp &clone = clones[{scalar, lanes}];
    if (!clone)
      clone = define(scalar, lanes);
    return clone;
  }

private:
  func::FuncOp define(func::FuncOp scalar, int64_t lanes) {
    OpBuilder b = OpBuilder::atBlockEnd(module.getBody());
    auto wide = [&](Type type) -> RankedTensorType {
      return RankedTensorType::get({lanes}, type);
    };
    SmallVector<Type> arguments, results;
    for (Type type : scalar.getArgumentTypes())
      arguments.push_back(wide(type));
    for (Type type : scalar.getResultTypes())
      results.push_back(wide(type));
    auto clone = b.create<func::FuncOp>(scalar.getLoc(),
                                        (scalar.getSymName() + "_lanes").str(),
                                        b.getFunctionType(arguments, results));
    clone.setPrivate();
    clone->setAttr("passthrough",
                   b.getArrayAttr({b.getStringAttr("noinline")}));
    // Renamed if the name is taken.
    symbols.insert(clone);
    Block *entry = clone.addEntryBlock();
    b.setInsertionPointToStart(entry);
    Block &body = scalar.getBody().front();
    IRMapping mapping;
    mapping.map(body.getArguments(), entry->getArguments());
    for (Operation &op : body.without_terminator()) {
      SmallVector<Value> operands;
      for (Value operand : op.getOperands())
        operands.push_back(mapping.lookup(operand));
      mapping.map(op.getResults(),
                  onLaneTensors(b, op, operands, lanes)->getResults());
    }
    SmallVector<Value> returned;
    for (Value value : body.getTerminator()->getOperands())
      returned.push_back(mapping.lookup(value));
    b.create<func::ReturnOp>(scalar.getLoc(), returned);
    return clone;
  }

  ModuleOp module;
  SymbolTable symbols;
  DenseMap<std::pair<Operation *, int64_t>, func::FuncOp> clones;
};

/// How a lanewise loop (below) computes one carry.
struct LaneCarry {
  /// A lane tensor's new lane: the scalar inserted at the loop's lane.
  tensor::InsertOp insert;
  /// A scalar folded over the lanes: the op that combines it with a lane's
  /// value.
  Operation *combine = nullptr;
};

/// The carries of `loop` when it is lanewise: it computes each lane of its
/// lane-tensor carries from the same lane of lane tensors (its carries' old
/// values, or from outside the loop), by elementwise ops and calls of
/// elementwise functions, and folds scalar carries over the lanes by one
/// combining op each. That is: lane-tensor carry k is read only by
/// `tensor.extract %carry[%i]` and written by one `tensor.insert %v into
/// %carry[%i]` that is yielded as carry k; scalar carry k is used once, by a
/// combining op whose result only is yielded as carry k; %i's uses are
/// those extracts and inserts.
std::optional<SmallVector<LaneCarry>>
getLanewiseCarries(scf::ForOp loop, int64_t lanes, LaneFunctions &functions) {
  Block *body = loop.getBody();
  Value lane = loop.getInductionVar();
  auto isLaneTensor = [&](Type type) {
    VectorType vector = laneVectorType(type);
    return vector && vector.getDimSize(0) == lanes;
  };
  SmallVector<LaneCarry> carries;
  for (auto [carry, yielded] :
       llvm::zip(loop.getRegionIterArgs(), loop.getYieldedValues())) {
    LaneCarry how;
    if (isLaneTensor(carry.getType())) {
      how.insert = yielded.getDefiningOp<tensor::InsertOp>();
      if (!how.insert || how.insert.getDest() != carry ||
          how.insert.getIndices()[0] != lane || !how.insert->hasOneUse())
        return std::nullopt;
      for (Operation *user : carry.getUsers())
        if (user != how.insert && !isa<tensor::ExtractOp>(user))
          return std::nullopt;
    } else {
      how.combine = yielded.getDefiningOp();
      if (!isScalar(carry.getType()) || !carry.hasOneUse() || !how.combine ||
          *carry.getUsers().begin() != how.combine ||
          how.combine->getParentOp() != loop || !combiningKind(how.combine) ||
          !yielded.hasOneUse() ||
          how.combine->getOperand(0) == how.combine->getOperand(1))
        return std::nullopt;
    }
    carries.push_back(how);
  }
  if (llvm::none_of(carries, [](const LaneCarry &c) { return c.insert; }) &&
      llvm::none_of(body->getOperations(),
                    [&](Operation &op) { return isa<tensor::ExtractOp>(op); }))
    return std::nullopt;
  auto isCarry = [&](Value value) {
    return llvm::is_contained(loop.getRegionIterArgs(), value);
  };
  for (Operation &op : body->without_terminator()) {
    if (isa<tensor::InsertOp>(op) &&
        llvm::any_of(carries,
                     [&](const LaneCarry &c) { return c.insert == &op; }))
      continue;
    if (llvm::any_of(carries,
                     [&](const LaneCarry &c) { return c.combine == &op; }))
      continue;
    if (auto extract = dyn_cast<tensor::ExtractOp>(op)) {
      Value source = extract.getTensor();
      if (!isLaneTensor(source.getType()) || extract.getIndices()[0] != lane ||
          (!isCarry(source) &&
           loop->isAncestor(source.getParentRegion()->getParentOp())))
        return std::nullopt;
      continue;
    }
    if (llvm::any_of(op.getOperands(),
                     [&](Value v) { return v == lane || isCarry(v); }) ||
        op.getNumRegions() != 0 ||
        !llvm::all_of(op.getOperandTypes(), isScalar) ||
        !llvm::all_of(op.getResultTypes(), isScalar))
      return std::nullopt;
    if (auto call = dyn_cast<func::CallOp>(op)) {
      func::FuncOp callee = functions.lookupCallee(call);
      if (!callee || !isElementwiseFunction(callee))
        return std::nullopt;
      continue;
    }
    if (!isa<arith::ConstantOp>(op) && !isVectorElementwise(&op))
      return std::nullopt;
  }
  return carries;
}

/// Replaces a lanewise loop by its body's ops on lane tensors.
void rewriteLanewiseLoop(scf::ForOp loop, int64_t lanes,
                         ArrayRef<LaneCarry> carries,
                         LaneFunctions &functions) {
  OpBuilder b(loop);
  Location loc = loop.getLoc();
  auto wide = [&](Type type) -> RankedTensorType {
    return RankedTensorType::get({lanes}, type);
  };
  IRMapping lanesOf;
  // A lane-tensor carry's lanes are its initial value.
  lanesOf.map(loop.getRegionIterArgs(), loop.getInitArgs());
  // A value from outside the loop is one value for every lane.
  auto onLanes = [&](Value value) -> Value {
    if (Value mapped = lanesOf.lookupOrNull(value))
      return mapped;
    Value splat =
        b.create<tensor::SplatOp>(value.getLoc(), value, wide(value.getType()));
    lanesOf.map(value, splat);
    return splat;
  };
  DenseSet<Operation *> carryOps;
  for (const LaneCarry &carry : carries)
    carryOps.insert(carry.insert ? tensor::InsertOp(carry.insert).getOperation()
                                 : carry.combine);
  for (Operation &op : loop.getBody()->without_terminator()) {
    if (carryOps.contains(&op))
      continue;
    if (auto extract = dyn_cast<tensor::ExtractOp>(op)) {
      // The lanes it reads are the tensor's (a carry's initial value's).
      lanesOf.map(extract.getResult(),
                  lanesOf.lookupOrDefault(extract.getTensor()));
      continue;
    }
    SmallVector<Value> operands;
    for (Value operand : op.getOperands())
      operands.push_back(onLanes(operand));
    Operation *widened;
    if (auto call = dyn_cast<func::CallOp>(op))
      widened = b.create<func::CallOp>(
          call.getLoc(), functions.get(functions.lookupCallee(call), lanes),
          operands);
    else
      widened = onLaneTensors(b, op, operands, lanes);
    lanesOf.map(op.getResults(), widened->getResults());
  }
  SmallVector<Value> results;
  for (auto [carry, init] : llvm::zip(carries, loop.getInitArgs())) {
    if (carry.insert) {
      results.push_back(onLanes(tensor::InsertOp(carry.insert).getScalar()));
      continue;
    }
    // Folded in lane order from the initial value, as the loop folds it.
    Operation *combine = carry.combine;
    Value lane =
        combine->getOperand(0) == loop.getRegionIterArgs()[results.size()]
            ? combine->getOperand(1)
            : combine->getOperand(0);
    Type type = init.getType();
    Value acc = b.create<tensor::FromElementsOp>(
        loc, RankedTensorType::get({}, type), init);
    auto reduce = b.create<linalg::ReduceOp>(
        loc, ValueRange{onLanes(lane)}, ValueRange{acc}, ArrayRef<int64_t>{0},
        [&](OpBuilder &rb, Location rl, ValueRange args) {
          Operation *combined =
              rb.create(rl, combine->getName().getIdentifier(), args,
                        TypeRange{type}, combine->getAttrs());
          rb.create<linalg::YieldOp>(rl, combined->getResult(0));
        });
    results.push_back(
        b.create<tensor::ExtractOp>(loc, reduce.getResult(0), ValueRange{}));
  }
  loop.replaceAllUsesWith(results);
  loop.erase();
}

Value zeroIndex(OpBuilder &builder, Location loc) {
  return builder.create<arith::ConstantIndexOp>(loc, 0);
}

/// LLVM packs a vector of i1 into bits in memory, where a buffer of i1
/// holds a byte per element: masks cross memory as bytes.
Type inMemory(Type element, OpBuilder &builder) {
  return element.isInteger(1) ? builder.getI8Type() : element;
}

/// A vector written into a fresh tensor.
std::optional<Value> toTensor(OpBuilder &builder, Type type, ValueRange inputs,
                              Location loc) {
  auto tensorType = dyn_cast<RankedTensorType>(type);
  if (!tensorType || inputs.size() != 1 ||
      !isa<VectorType>(inputs[0].getType()))
    return std::nullopt;
  Value vector = inputs[0];
  Type element = inMemory(tensorType.getElementType(), builder);
  if (element != tensorType.getElementType())
    vector = builder.create<arith::ExtUIOp>(
        loc, VectorType::get(tensorType.getShape(), element), vector);
  Value empty =
      builder.create<tensor::EmptyOp>(loc, tensorType.getShape(), element);
  Value tensor = builder
                     .create<vector::TransferWriteOp>(loc, vector, empty,
                                                      zeroIndex(builder, loc),
                                                      ArrayRef<bool>{true})
                     .getResult();
  if (element != tensorType.getElementType())
    tensor = builder.create<arith::TruncIOp>(loc, tensorType, tensor);
  return tensor;
}

/// A tensor read into a vector.
std::optional<Value> toVector(OpBuilder &builder, Type type, ValueRange inputs,
                              Location loc) {
  auto vectorType = dyn_cast<VectorType>(type);
  if (!vectorType || inputs.size() != 1 ||
      !isa<RankedTensorType>(inputs[0].getType()))
    return std::nullopt;
  Value tensor = inputs[0];
  Type element = inMemory(vectorType.getElementType(), builder);
  if (element != vectorType.getElementType())
    tensor = builder.create<arith::ExtUIOp>(
        loc, RankedTensorType::get(vectorType.getShape(), element), tensor);
  Value vector = builder.create<vector::TransferReadOp>(
      loc, VectorType::get(vectorType.getShape(), element), tensor,
      ValueRange{zeroIndex(builder, loc)}, ArrayRef<bool>{true});
  if (element != vectorType.getElementType())
    vector = builder.create<arith::TruncIOp>(loc, vectorType, vector);
  return vector;
}

//===----------------------------------------------------------------------===//
// Patterns
//===----------------------------------------------------------------------===//

struct ElementwiseToVector : ConversionPattern {
  ElementwiseToVector(const TypeConverter &converter, MLIRContext *ctx)
      : ConversionPattern(converter, MatchAnyOpTypeTag(), /*benefit=*/1, ctx) {}
  LogicalResult
  matchAndRewrite(Operation *op, ArrayRef<Value> operands,
                  ConversionPatternRewriter &rewriter) const override {
    if (!isVectorElementwise(op) || !hasLaneTypes(op))
      return failure();
    FailureOr<Operation *> converted =
        convertOpResultTypes(op, operands, *getTypeConverter(), rewriter);
    if (failed(converted))
      return failure();
    rewriter.replaceOp(op, (*converted)->getResults());
    return success();
  }
};

struct ConstantToVector : OpConversionPattern<arith::ConstantOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(arith::ConstantOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    VectorType type = laneVectorType(op.getType());
    auto value = dyn_cast<DenseElementsAttr>(op.getValue());
    if (!type || !value)
      return failure();
    rewriter.replaceOpWithNewOp<arith::ConstantOp>(op, type,
                                                   value.reshape(type));
    return success();
  }
};

/// A tensor's initial contents that nothing reads: zeros, so that the
/// vector is defined.
template <typename OpTy>
struct UnreadToZeros : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    VectorType type = laneVectorType(op.getType());
    if (!type || op->getNumOperands() != 0)
      return failure();
    rewriter.replaceOpWithNewOp<arith::ConstantOp>(op, type,
                                                   rewriter.getZeroAttr(type));
    return success();
  }
};

struct FillToBroadcast : OpConversionPattern<linalg::FillOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(linalg::FillOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    VectorType type = laneVectorType(op.getOutputs()[0].getType());
    if (!type || op->getNumResults() != 1)
      return failure();
    rewriter.replaceOpWithNewOp<vector::BroadcastOp>(op, type,
                                                     adaptor.getInputs()[0]);
    return success();
  }
};

struct SplatToBroadcast : OpConversionPattern<tensor::SplatOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tensor::SplatOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    VectorType type = laneVectorType(op.getType());
    if (!type)
      return failure();
    rewriter.replaceOpWithNewOp<vector::BroadcastOp>(op, type,
                                                     adaptor.getInput());
    return success();
  }
};

struct FromElementsToVector : OpConversionPattern<tensor::FromElementsOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tensor::FromElementsOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    VectorType type = laneVectorType(op.getType());
    if (!type)
      return failure();
    rewriter.replaceOpWithNewOp<vector::FromElementsOp>(op, type,
                                                        adaptor.getElements());
    return success();
  }
};

struct CopyToValue : OpConversionPattern<linalg::CopyOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(linalg::CopyOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!isConvertible(op) || op->getNumResults() != 1)
      return failure();
    rewriter.replaceOp(op, adaptor.getInputs()[0]);
    return success();
  }
};

struct ExtractToVector : OpConversionPattern<tensor::ExtractOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tensor::ExtractOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!laneVectorType(op.getTensor().getType()))
      return failure();
    rewriter.replaceOpWithNewOp<vector::ExtractOp>(
        op, adaptor.getTensor(), OpFoldResult(adaptor.getIndices()[0]));
    return success();
  }
};

struct InsertToVector : OpConversionPattern<tensor::InsertOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tensor::InsertOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!laneVectorType(op.getType()))
      return failure();
    rewriter.replaceOpWithNewOp<vector::InsertOp>(
        op, adaptor.getScalar(), adaptor.getDest(),
        OpFoldResult(adaptor.getIndices()[0]));
    return success();
  }
};

/// The body's ops, each on its operands' vectors.
struct GenericToVector : OpConversionPattern<linalg::GenericOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(linalg::GenericOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!isLanewiseGeneric(op))
      return failure();
    int64_t lanes = laneVectorType(op->getOperand(0).getType()).getDimSize(0);
    IRMapping lanesOf;
    lanesOf.map(op.getBody()->getArguments(), adaptor.getOperands());
    // A value from outside the body, or a constant in it, is one value for
    // every lane.
    auto onLanes = [&](Value value) -> Value {
      if (Value mapped = lanesOf.lookupOrNull(value))
        return mapped;
      Value broadcast = rewriter.create<vector::BroadcastOp>(
          value.getLoc(), VectorType::get({lanes}, value.getType()), value);
      lanesOf.map(value, broadcast);
      return broadcast;
    };
    for (Operation &inner : op.getBody()->without_terminator()) {
      if (isa<arith::ConstantOp>(inner)) {
        Value constant = rewriter.clone(inner)->getResult(0);
        lanesOf.map(inner.getResult(0), onLanes(constant));
        continue;
      }
      OperationState state(inner.getLoc(), inner.getName());
      for (Value operand : inner.getOperands())
        state.addOperands(onLanes(operand));
      for (Type type : inner.getResultTypes())
        state.addTypes(VectorType::get({lanes}, type));
      state.addAttributes(inner.getAttrs());
      lanesOf.map(inner.getResults(), rewriter.create(state)->getResults());
    }
    SmallVector<Value> results;
    for (Value yielded : op.getBody()->getTerminator()->getOperands())
      results.push_back(onLanes(yielded));
    rewriter.replaceOp(op, results);
    return success();
  }
};

/// The 0-d result holds the init's element combined with every lane's, in
/// lane order, as convert-linalg-to-loops would combine them.
struct ReduceToVector : OpConversionPattern<linalg::ReduceOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(linalg::ReduceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!isLaneReduction(op))
      return failure();
    Location loc = op.getLoc();
    Value init = rewriter.create<tensor::ExtractOp>(loc, adaptor.getInits()[0],
                                                    ValueRange());
    Value reduced = rewriter.create<vector::ReductionOp>(
        loc, *combiningKind(&op.getCombiner().front().front()),
        adaptor.getInputs()[0], init);
    rewriter.replaceOpWithNewOp<tensor::FromElementsOp>(
        op, op.getResult(0).getType(), reduced);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// The pass
//===----------------------------------------------------------------------===//

struct LoomLaneTensorsToVectors
    : loom::impl::LoomLaneTensorsToVectorsBase<LoomLaneTensorsToVectors> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *ctx = &getContext();

    // Loops over lanes first, as ops on lane tensors that convert below.
    {
      LaneFunctions functions(module);
      SmallVector<std::tuple<scf::ForOp, int64_t, SmallVector<LaneCarry>>>
          lanewise;
      module.walk([&](scf::ForOp loop) {
        std::optional<int64_t> lanes = laneLoopLanes(loop);
        if (!lanes)
          return;
        if (auto carries = getLanewiseCarries(loop, *lanes, functions))
          lanewise.emplace_back(loop, *lanes, std::move(*carries));
      });
      for (auto &[loop, lanes, carries] : lanewise)
        rewriteLanewiseLoop(loop, lanes, carries, functions);
    }

    TypeConverter converter;
    converter.addConversion([](Type type) { return type; });
    converter.addConversion([](RankedTensorType type) -> Type {
      if (VectorType vector = laneVectorType(type))
        return vector;
      return type;
    });
    converter.addSourceMaterialization(toTensor);
    converter.addArgumentMaterialization(toTensor);
    converter.addTargetMaterialization(toVector);

    // Loops kept on tensors, and everything in them.
    DenseSet<Operation *> kept = getLoopsKeptOnTensors(module);
    auto isKept = [&](Operation *op) {
      for (; op; op = op->getParentOp())
        if (kept.contains(op))
          return true;
      return false;
    };

    // A private function's lane arguments and results are vectors too, when
    // every use of it is a call that converts with it. A public one keeps
    // its signature, an entry's ABI.
    DenseSet<Operation *> convertedSignatures;
    SymbolTable symbols(module);
    for (auto func : module.getOps<func::FuncOp>()) {
      if (!func.isPrivate() || func.isExternal())
        continue;
      std::optional<SymbolTable::UseRange> uses =
          SymbolTable::getSymbolUses(func, module);
      if (uses && llvm::all_of(*uses, [&](const SymbolTable::SymbolUse &use) {
            return isa<func::CallOp>(use.getUser()) && !isKept(use.getUser());
          }))
        convertedSignatures.insert(func);
    }
    auto convertsSignature = [&](func::FuncOp func) {
      return func && convertedSignatures.contains(func);
    };

    ConversionTarget target(*ctx);
    RewritePatternSet patterns(ctx);
    scf::populateSCFStructuralTypeConversionsAndLegality(converter, patterns,
                                                         target);
    populateFunctionOpInterfaceTypeConversionPattern<func::FuncOp>(patterns,
                                                                   converter);
    populateCallOpTypeConversionPattern(patterns, converter);
    populateReturnOpTypeConversionPattern(patterns, converter);
    patterns.add<ElementwiseToVector>(converter, ctx);
    patterns
        .add<ConstantToVector, UnreadToZeros<tensor::EmptyOp>,
             UnreadToZeros<bufferization::AllocTensorOp>, FillToBroadcast,
             SplatToBroadcast, FromElementsToVector, CopyToValue,
             ExtractToVector, InsertToVector, GenericToVector, ReduceToVector>(
            converter, ctx);

    target.markUnknownOpDynamicallyLegal(
        [&](Operation *op) { return isKept(op) || !isConvertible(op); });
    target.addDynamicallyLegalOp<scf::ForOp, scf::IfOp, scf::WhileOp,
                                 scf::ConditionOp>(
        [&](Operation *op) { return isKept(op) || converter.isLegal(op); });
    // Only the structural patterns' ops change their yields' types.
    target.addDynamicallyLegalOp<scf::YieldOp>([&](scf::YieldOp yield) {
      return isKept(yield) ||
             !isa<scf::ForOp, scf::IfOp, scf::WhileOp>(yield->getParentOp()) ||
             converter.isLegal(yield);
    });
    target.addDynamicallyLegalOp<func::FuncOp>([&](func::FuncOp func) {
      return !convertsSignature(func) ||
             (converter.isSignatureLegal(func.getFunctionType()) &&
              converter.isLegal(&func.getBody()));
    });
    target.addDynamicallyLegalOp<func::CallOp>([&](func::CallOp call) {
      return isKept(call) ||
             !convertsSignature(
                 symbols.lookup<func::FuncOp>(call.getCallee())) ||
             converter.isLegal(call);
    });
    target.addDynamicallyLegalOp<func::ReturnOp>([&](func::ReturnOp ret) {
      return !convertsSignature(ret->getParentOfType<func::FuncOp>()) ||
             converter.isLegal(ret);
    });
    target.addLegalDialect<vector::VectorDialect>();

    if (failed(applyPartialConversion(module, target, std::move(patterns))))
      return signalPassFailure();

    // bufferization.writable is an attribute of tensor arguments only.
    module.walk([](func::FuncOp func) {
      if (func.isExternal())
        return;
      for (unsigned i = 0, e = func.getNumArguments(); i < e; ++i)
        if (isa<VectorType>(func.getArgument(i).getType()))
          func.removeArgAttr(
              i, bufferization::BufferizationDialect::kWritableAttrName);
    });
  }
};

} // namespace
