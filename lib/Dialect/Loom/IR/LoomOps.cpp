//===- LoomOps.cpp - Loom operations --------------------------------------===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//

#include "loom/Dialect/Loom/IR/LoomOps.h"
#include "loom/Support/Threefry.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;
using namespace mlir::loom;
namespace threefry = ::loom::threefry;

//===----------------------------------------------------------------------===//
// Batch types
//===----------------------------------------------------------------------===//

Type mlir::loom::unbatchType(RankedTensorType type, int64_t axis) {
  if (type.getRank() == 1)
    return type.getElementType();
  SmallVector<int64_t> shape(type.getShape());
  shape.erase(shape.begin() + axis);
  return RankedTensorType::get(shape, type.getElementType());
}

Type mlir::loom::batchType(Type type, int64_t axis, int64_t batch) {
  if (type.isIntOrIndexOrFloat())
    return axis == 0 ? RankedTensorType::get({batch}, type) : Type();
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor || axis < 0 || axis > tensor.getRank())
    return {};
  SmallVector<int64_t> shape(tensor.getShape());
  shape.insert(shape.begin() + axis, batch);
  return RankedTensorType::get(shape, tensor.getElementType());
}

static std::string dimToString(int64_t dim) {
  return ShapedType::isDynamic(dim) ? "?" : std::to_string(dim);
}

//===----------------------------------------------------------------------===//
// custom<Axes>: `[0, none, 1]`
//===----------------------------------------------------------------------===//

static ParseResult parseAxes(OpAsmParser &parser, DenseI64ArrayAttr &axes) {
  SmallVector<int64_t> values;
  auto parseOne = [&]() -> ParseResult {
    if (succeeded(parser.parseOptionalKeyword("none"))) {
      values.push_back(VmapOp::kNotBatched);
      return success();
    }
    int64_t axis;
    SMLoc loc = parser.getCurrentLocation();
    if (parser.parseInteger(axis))
      return failure();
    if (axis < 0)
      return parser.emitError(loc)
             << "axis " << axis << " is negative (write `none` for an "
             << "unbatched value)";
    values.push_back(axis);
    return success();
  };
  if (parser.parseCommaSeparatedList(OpAsmParser::Delimiter::Square, parseOne))
    return failure();
  axes = parser.getBuilder().getDenseI64ArrayAttr(values);
  return success();
}

static void printAxes(OpAsmPrinter &printer, Operation *,
                      DenseI64ArrayAttr axes) {
  printer << '[';
  llvm::interleaveComma(axes.asArrayRef(), printer, [&](int64_t axis) {
    if (axis == VmapOp::kNotBatched)
      printer << "none";
    else
      printer << axis;
  });
  printer << ']';
}

//===----------------------------------------------------------------------===//
// VmapOp
//===----------------------------------------------------------------------===//

int64_t VmapOp::getBatchSize() {
  for (auto [input, axis] : llvm::zip(getInputs(), getInAxes())) {
    if (axis == kNotBatched)
      continue;
    int64_t dim = cast<RankedTensorType>(input.getType()).getDimSize(axis);
    if (!ShapedType::isDynamic(dim))
      return dim;
  }
  return ShapedType::kDynamic;
}

/// Checks one operand or result against its axis; the per-kind words make
/// the message name exactly what is wrong.
static LogicalResult verifyAxis(VmapOp op, StringRef what, StringRef axesName,
                                unsigned index, int64_t axis, Type type) {
  if (axis == VmapOp::kNotBatched)
    return success();
  if (axis < 0)
    return op.emitOpError() << axesName << "[" << index << "] = " << axis
                            << " is neither an axis nor none";
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor)
    return op.emitOpError()
           << what << " #" << index << " is batched along axis " << axis
           << " but its type " << type << " has no axes";
  if (axis >= tensor.getRank())
    return op.emitOpError() << axesName << "[" << index << "] = " << axis
                            << " is out of range for " << what << " #" << index
                            << " of type " << type;
  return success();
}

LogicalResult VmapOp::verify() {
  // At module level nothing would run it, and loom-vmap would leave a
  // func.call there; the passes find a vmap's arguments in its function.
  if (!(*this)->getParentOfType<func::FuncOp>())
    return emitOpError() << "must be inside a func.func: it stands for a "
                         << "call, and only a function body runs";
  if (getInAxes().size() != getInputs().size())
    return emitOpError() << "in_axes has " << getInAxes().size()
                         << " entries but there are " << getInputs().size()
                         << " operands";
  if (getOutAxes().size() != getResults().size())
    return emitOpError() << "out_axes has " << getOutAxes().size()
                         << " entries but there are " << getResults().size()
                         << " results";

  // Every batched operand must agree on the batch size; `?` agrees with all.
  int64_t batch = ShapedType::kDynamic;
  std::optional<unsigned> batchFrom;
  for (auto [i, input, axis] :
       llvm::enumerate(getInputs().getTypes(), getInAxes())) {
    if (failed(verifyAxis(*this, "operand", "in_axes", i, axis, input)))
      return failure();
    if (axis == kNotBatched)
      continue;
    int64_t dim = cast<RankedTensorType>(input).getDimSize(axis);
    if (!batchFrom) {
      batchFrom = i;
      batch = dim;
      continue;
    }
    if (ShapedType::isDynamic(dim))
      continue;
    if (ShapedType::isDynamic(batch)) {
      batch = dim;
      batchFrom = i;
    } else if (dim != batch) {
      return emitOpError() << "operand #" << i << " has batch size " << dim
                           << " but operand #" << *batchFrom
                           << " has batch size " << batch;
    }
  }
  if (!batchFrom)
    return emitOpError() << "has no batched operand: every in_axes entry is "
                         << "none, so there is no batch to map over";

  for (auto [i, result, axis] :
       llvm::enumerate(getResults().getTypes(), getOutAxes())) {
    if (failed(verifyAxis(*this, "result", "out_axes", i, axis, result)))
      return failure();
    if (axis == kNotBatched)
      continue;
    int64_t dim = cast<RankedTensorType>(result).getDimSize(axis);
    if (dim != batch)
      return emitOpError() << "result #" << i << " has batch size "
                           << dimToString(dim)
                           << " but the operands' batch size is "
                           << dimToString(batch);
  }
  return success();
}

LogicalResult VmapOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  auto callee =
      symbolTable.lookupNearestSymbolFrom<func::FuncOp>(*this, getCalleeAttr());
  if (!callee)
    return emitOpError() << "'" << getCallee()
                         << "' does not reference a func.func";
  FunctionType fnType = callee.getFunctionType();
  if (fnType.getNumInputs() != getInAxes().size())
    return emitOpError() << "in_axes has " << getInAxes().size()
                         << " entries but @" << getCallee() << " takes "
                         << fnType.getNumInputs() << " arguments";
  if (fnType.getNumResults() != getOutAxes().size())
    return emitOpError() << "out_axes has " << getOutAxes().size()
                         << " entries but @" << getCallee() << " returns "
                         << fnType.getNumResults() << " results";

  auto check = [&](StringRef what, unsigned i, Type type, int64_t axis,
                   Type expected) -> LogicalResult {
    Type lane = axis == kNotBatched
                    ? type
                    : unbatchType(cast<RankedTensorType>(type), axis);
    if (lane == expected)
      return success();
    InFlightDiagnostic diag = emitOpError()
                              << what << " #" << i << " has type " << type;
    if (axis != kNotBatched)
      diag << ", which is " << lane << " per lane";
    diag << ", but @" << getCallee() << " "
         << (what == "operand" ? "takes " : "returns ") << expected;
    return diag;
  };
  for (auto [i, type, axis] :
       llvm::enumerate(getInputs().getTypes(), getInAxes()))
    if (failed(check("operand", i, type, axis, fnType.getInput(i))))
      return failure();
  for (auto [i, type, axis] :
       llvm::enumerate(getResults().getTypes(), getOutAxes()))
    if (failed(check("result", i, type, axis, fnType.getResult(i))))
      return failure();
  return success();
}

//===----------------------------------------------------------------------===//
// Reductions
//===----------------------------------------------------------------------===//

template <typename ReduceOp>
static LogicalResult verifyReduce(ReduceOp op) {
  auto input = cast<RankedTensorType>(op.getInput().getType());
  int64_t axis = op.getAxis();
  if (axis >= input.getRank())
    return op.emitOpError()
           << "axis " << axis << " is out of range for an input of rank "
           << input.getRank();
  Type expected = ReduceOp::inferResultType(input, axis);
  if (op.getResult().getType() != expected)
    return op.emitOpError()
           << "reducing " << input << " along axis " << axis << " gives "
           << expected << ", not " << op.getResult().getType();
  return success();
}

/// Folds a reduction of a splat constant along a static, non-empty axis:
/// `combine(v, n)` is the value that n copies of v reduce to.
template <typename ReduceOp>
static OpFoldResult
foldReduce(ReduceOp op, Attribute input,
           function_ref<Attribute(Attribute, int64_t)> combine) {
  auto splat = dyn_cast_if_present<SplatElementsAttr>(input);
  if (!splat)
    return {};
  int64_t n = op.getInput().getType().getDimSize(op.getAxis());
  if (ShapedType::isDynamic(n) || n == 0)
    return {};
  Attribute value = combine(splat.getSplatValue<Attribute>(), n);
  if (!value)
    return {};
  if (auto tensor = dyn_cast<RankedTensorType>(op.getType()))
    return DenseElementsAttr::get(tensor, value);
  return value;
}

#define LOOM_DEFINE_REDUCE(OP)                                                 \
  Type OP::inferResultType(RankedTensorType input, int64_t axis) {             \
    return unbatchType(input, axis);                                           \
  }                                                                            \
  LogicalResult OP::verify() { return verifyReduce(*this); }
LOOM_DEFINE_REDUCE(AnyOp)
LOOM_DEFINE_REDUCE(AllOp)
LOOM_DEFINE_REDUCE(SumOp)
LOOM_DEFINE_REDUCE(MaxOp)
LOOM_DEFINE_REDUCE(MinOp)
#undef LOOM_DEFINE_REDUCE

static Attribute idempotent(Attribute value, int64_t) { return value; }

OpFoldResult AnyOp::fold(FoldAdaptor adaptor) {
  return foldReduce(*this, adaptor.getInput(), idempotent);
}
OpFoldResult AllOp::fold(FoldAdaptor adaptor) {
  return foldReduce(*this, adaptor.getInput(), idempotent);
}
OpFoldResult MaxOp::fold(FoldAdaptor adaptor) {
  return foldReduce(*this, adaptor.getInput(), idempotent);
}
OpFoldResult MinOp::fold(FoldAdaptor adaptor) {
  return foldReduce(*this, adaptor.getInput(), idempotent);
}
OpFoldResult SumOp::fold(FoldAdaptor adaptor) {
  // Only integers: a float sum of n copies is not n * v in float arithmetic.
  return foldReduce(
      *this, adaptor.getInput(), [](Attribute value, int64_t n) -> Attribute {
        auto i = dyn_cast<IntegerAttr>(value);
        if (!i)
          return {};
        APInt count(i.getValue().getBitWidth(), n);
        return IntegerAttr::get(i.getType(), i.getValue() * count);
      });
}

//===----------------------------------------------------------------------===//
// Random numbers: constant keys fold through the host threefry.
//===----------------------------------------------------------------------===//

static std::optional<threefry::Key> getConstKey(Attribute attr) {
  auto dense = dyn_cast_if_present<DenseIntElementsAttr>(attr);
  if (!dense || dense.getNumElements() != 2)
    return std::nullopt;
  auto words = dense.getValues<APInt>();
  return threefry::Key{static_cast<uint32_t>(words[0].getZExtValue()),
                       static_cast<uint32_t>(words[1].getZExtValue())};
}

static Attribute wordsAttr(ShapedType type, ArrayRef<uint32_t> words) {
  SmallVector<APInt> values;
  values.reserve(words.size());
  for (uint32_t w : words)
    values.emplace_back(32, w);
  return DenseElementsAttr::get(type, values);
}

OpFoldResult RandomKeyOp::fold(FoldAdaptor adaptor) {
  auto seed = dyn_cast_if_present<IntegerAttr>(adaptor.getSeed());
  if (!seed)
    return {};
  threefry::Key key =
      threefry::prngKey(static_cast<int32_t>(seed.getValue().getSExtValue()));
  return wordsAttr(cast<ShapedType>(getType()), key);
}

OpFoldResult RandomSplitOp::fold(FoldAdaptor adaptor) {
  auto key = getConstKey(adaptor.getKey());
  if (!key)
    return {};
  auto type = cast<RankedTensorType>(getType());
  return wordsAttr(type, threefry::split(*key, type.getNumElements() / 2,
                                         getPartitionable()));
}

OpFoldResult RandomFoldInOp::fold(FoldAdaptor adaptor) {
  auto key = getConstKey(adaptor.getKey());
  auto data = dyn_cast_if_present<IntegerAttr>(adaptor.getData());
  if (!key || !data)
    return {};
  return wordsAttr(cast<ShapedType>(getType()),
                   threefry::foldIn(*key, static_cast<uint32_t>(
                                              data.getValue().getZExtValue())));
}

OpFoldResult RandomBitsOp::fold(FoldAdaptor adaptor) {
  auto key = getConstKey(adaptor.getKey());
  if (!key)
    return {};
  auto tensor = dyn_cast<RankedTensorType>(getType());
  size_t n = tensor ? tensor.getNumElements() : 1;
  unsigned width = getElementTypeOrSelf(getType()).getIntOrFloatBitWidth();
  SmallVector<APInt> words;
  words.reserve(n);
  if (width == 64) {
    for (uint64_t w : threefry::randomBits64(*key, n, getPartitionable()))
      words.emplace_back(64, w);
  } else {
    for (uint32_t w : threefry::randomBits(*key, n, getPartitionable()))
      words.emplace_back(32, w);
  }
  if (!tensor)
    return IntegerAttr::get(getType(), words[0]);
  return DenseElementsAttr::get(tensor, words);
}

//===----------------------------------------------------------------------===//
// Variants
//===----------------------------------------------------------------------===//

// The runtime times what lies between the two, so each begin has exactly
// one end after it in its block, and an end ends a begin.
LogicalResult VariantBeginOp::verify() {
  SmallVector<VariantEndOp> ends;
  for (Operation *user : getAlternative().getUsers())
    if (auto end = dyn_cast<VariantEndOp>(user))
      ends.push_back(end);
  if (ends.size() != 1)
    return emitOpError() << "must have exactly one loom.variant_end, found "
                         << ends.size();
  if (ends.front()->getBlock() != (*this)->getBlock())
    return emitOpError() << "must be ended by a loom.variant_end in its block";
  if (std::optional<ArrayAttr> names = getNames(); names && names->size() != 2)
    return emitOpError() << "'names' must name the two variants, primary "
                         << "first, not " << names->size();
  return success();
}

LogicalResult VariantEndOp::verify() {
  auto begin = getAlternative().getDefiningOp<VariantBeginOp>();
  if (!begin)
    return emitOpError() << "operand must be the result of a "
                         << "loom.variant_begin";
  if (begin->getBlock() == (*this)->getBlock() &&
      !begin->isBeforeInBlock(*this))
    return emitOpError() << "must come after its loom.variant_begin";
  return success();
}

#define GET_OP_CLASSES
#include "loom/Dialect/Loom/IR/LoomOps.cpp.inc"
