//===- LoomDialect.cpp - Loom dialect -------------------------------------===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//

#include "loom/Dialect/Loom/IR/LoomDialect.h"
#include "loom/Dialect/Loom/IR/LoomOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Transforms/InliningUtils.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::loom;

#include "loom/Dialect/Loom/IR/LoomDialect.cpp.inc"
#include "loom/Dialect/Loom/IR/LoomEnums.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "loom/Dialect/Loom/IR/LoomAttrs.cpp.inc"

namespace {
/// Every Loom op computes its results from its operands alone (loom.vmap
/// names its callee by symbol), so any of them may be inlined anywhere: a
/// batched callee inlined into its loop lets that loop's buffers be
/// allocated once, outside it.
struct LoomInlinerInterface : public DialectInlinerInterface {
  using DialectInlinerInterface::DialectInlinerInterface;

  bool isLegalToInline(Operation *, Region *, bool, IRMapping &) const final {
    return true;
  }
};
} // namespace

void LoomDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "loom/Dialect/Loom/IR/LoomOps.cpp.inc"
      >();
  registerAttributes();
  addInterfaces<LoomInlinerInterface>();
}

void LoomDialect::registerAttributes() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "loom/Dialect/Loom/IR/LoomAttrs.cpp.inc"
      >();
}

Operation *LoomDialect::materializeConstant(OpBuilder &builder, Attribute value,
                                            Type type, Location loc) {
  return arith::ConstantOp::materialize(builder, value, type, loc);
}

//===----------------------------------------------------------------------===//
// Key types
//===----------------------------------------------------------------------===//

RankedTensorType mlir::loom::getKeyType(MLIRContext *ctx) {
  return RankedTensorType::get({2}, IntegerType::get(ctx, 32));
}

bool mlir::loom::isKeyType(Type type) {
  return type == getKeyType(type.getContext());
}

bool mlir::loom::isKeyArrayType(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  return tensor && tensor.getRank() >= 2 && tensor.hasStaticShape() &&
         tensor.getShape().back() == 2 &&
         tensor.getElementType().isSignlessInteger(32);
}

//===----------------------------------------------------------------------===//
// Argument, result and operation attributes
//===----------------------------------------------------------------------===//

/// `loom.name` must be a non-empty string, unique among the arguments (or the
/// results) of its function, since tools address entries by these names.
static LogicalResult verifyNameAttr(Operation *op, NamedAttribute attr,
                                    bool isArg, unsigned index) {
  auto name = dyn_cast<StringAttr>(attr.getValue());
  StringRef what = isArg ? "argument" : "result";
  if (!name || name.getValue().empty())
    return op->emitError() << "'" << attr.getName().getValue() << "' on "
                           << what << " #" << index
                           << " must be a non-empty string";
  auto func = dyn_cast<FunctionOpInterface>(op);
  if (!func)
    return op->emitError() << "'" << attr.getName().getValue()
                           << "' is only meaningful on function " << what
                           << "s";
  unsigned count = isArg ? func.getNumArguments() : func.getNumResults();
  for (unsigned i = 0; i < index && i < count; ++i) {
    Attribute other = isArg ? func.getArgAttr(i, attr.getName())
                            : func.getResultAttr(i, attr.getName());
    if (other == name)
      return op->emitError()
             << what << " #" << index << " is named \"" << name.getValue()
             << "\" like " << what << " #" << i;
  }
  return success();
}

/// `loom.range = [lo, hi]` bounds an integer scalar argument, inclusively:
/// a program that only defines some values of an argument (a mode
/// selector) says which, and every call is checked against it. Floats are
/// refused: whether NaN, a signed zero or a rounded bound is in range would
/// be a choice no program has needed.
static LogicalResult verifyRangeAttr(Operation *op, NamedAttribute attr,
                                     unsigned index) {
  StringRef attrName = attr.getName().getValue();
  auto func = dyn_cast<FunctionOpInterface>(op);
  if (!func)
    return op->emitError() << "'" << attrName
                           << "' is only meaningful on function arguments";
  Type argType = func.getArgumentTypes()[index];
  auto intType = dyn_cast<IntegerType>(argType);
  if (!intType || !intType.isSignless() || intType.getWidth() < 2 ||
      intType.getWidth() > 64)
    return op->emitError() << "'" << attrName << "' on argument #" << index
                           << " needs a scalar integer argument (i32 or "
                           << "i64), but its type is " << argType;
  auto bounds = dyn_cast<ArrayAttr>(attr.getValue());
  auto isBound = [](Attribute a) {
    auto n = dyn_cast<IntegerAttr>(a);
    return n && isa<IntegerType, IndexType>(n.getType()) &&
           n.getValue().isSignedIntN(64);
  };
  if (!bounds || bounds.size() != 2 || !isBound(bounds[0]) ||
      !isBound(bounds[1]))
    return op->emitError() << "'" << attrName << "' on argument #" << index
                           << " must be [lo, hi], two integers, got "
                           << attr.getValue();
  int64_t lo = cast<IntegerAttr>(bounds[0]).getValue().getSExtValue();
  int64_t hi = cast<IntegerAttr>(bounds[1]).getValue().getSExtValue();
  unsigned width = intType.getWidth();
  int64_t typeMin = llvm::minIntN(width), typeMax = llvm::maxIntN(width);
  for (int64_t bound : {lo, hi})
    if (bound < typeMin || bound > typeMax)
      return op->emitError()
             << "'" << attrName << "' on argument #" << index << ": bound "
             << bound << " does not fit in " << argType;
  if (lo > hi)
    return op->emitError() << "'" << attrName << "' on argument #" << index
                           << " is empty: [" << lo << ", " << hi
                           << "] has lo > hi";
  // A default the range refuses would make every call that omits the
  // argument fail.
  if (auto def = func.getArgAttrOfType<IntegerAttr>(
          index, LoomDialect::kDefaultAttrName)) {
    int64_t v = def.getValue().getSExtValue();
    if (v < lo || v > hi)
      return op->emitError()
             << "'" << LoomDialect::kDefaultAttrName << "' " << v
             << " of argument #" << index << " is outside its '" << attrName
             << "' [" << lo << ", " << hi << "]";
  }
  return success();
}

/// `loom.batch_axis` must name an axis of a ranked tensor (or, once
/// bufferized, of a memref).
static LogicalResult verifyBatchAxisAttr(Operation *op, NamedAttribute attr,
                                         Type type, StringRef what,
                                         unsigned index) {
  auto axis = dyn_cast<IntegerAttr>(attr.getValue());
  auto tensor = dyn_cast<ShapedType>(type);
  if (!axis || axis.getInt() < 0)
    return op->emitError() << "'" << attr.getName().getValue() << "' on "
                           << what << " #" << index
                           << " must be a non-negative integer";
  // Past bufferization and LLVM lowering the argument may be a descriptor
  // the attribute no longer describes; only shaped types are checked.
  if (!tensor && !type.isIntOrIndexOrFloat())
    return success();
  if (!tensor || !tensor.hasRank() || axis.getInt() >= tensor.getRank())
    return op->emitError() << "'" << attr.getName().getValue() << "' on "
                           << what << " #" << index << " names axis "
                           << axis.getInt() << ", which " << type
                           << " does not have";
  return success();
}

/// The function whose `place` ("arguments" or "results") carry `attrName`;
/// an error where `op`, which has regions, is not a function.
static FailureOr<FunctionOpInterface>
functionFor(Operation *op, StringRef attrName, StringRef place) {
  if (auto func = dyn_cast<FunctionOpInterface>(op))
    return func;
  return op->emitError() << "'" << attrName
                         << "' is only meaningful on function " << place;
}

LogicalResult LoomDialect::verifyRegionArgAttribute(Operation *op,
                                                    unsigned regionIndex,
                                                    unsigned argIndex,
                                                    NamedAttribute attr) {
  StringRef attrName = attr.getName().getValue();
  if (attrName == kNameAttrName)
    return verifyNameAttr(op, attr, /*isArg=*/true, argIndex);
  if (attrName == kDefaultAttrName) {
    // Declarations have no entry block: read the type from the signature.
    FailureOr<FunctionOpInterface> func =
        functionFor(op, attrName, "arguments");
    if (failed(func))
      return failure();
    Type argType = func->getArgumentTypes()[argIndex];
    if (!argType.isIntOrIndexOrFloat())
      return op->emitError()
             << "'" << attrName << "' on argument #" << argIndex
             << " needs a scalar argument, but its type is " << argType;
    auto typed = dyn_cast<TypedAttr>(attr.getValue());
    if (!typed || !isa<IntegerAttr, FloatAttr>(typed))
      return op->emitError() << "'" << attrName << "' on argument #" << argIndex
                             << " must be an integer or float "
                             << "constant, got " << attr.getValue();
    if (typed.getType() != argType)
      return op->emitError()
             << "'" << attrName << "' on argument #" << argIndex << " has type "
             << typed.getType() << " but the argument has type " << argType;
    return success();
  }
  if (attrName == kRangeAttrName)
    return verifyRangeAttr(op, attr, argIndex);
  if (attrName == kBatchAxisAttrName || attrName == kContextAttrName) {
    FailureOr<FunctionOpInterface> func =
        functionFor(op, attrName, "arguments");
    if (failed(func))
      return failure();
    Type argType = func->getArgumentTypes()[argIndex];
    if (attrName == kBatchAxisAttrName)
      return verifyBatchAxisAttr(op, attr, argType, "argument", argIndex);
    if (!isa<UnitAttr>(attr.getValue()) || !argType.isSignlessInteger(64))
      return op->emitError() << "'" << attrName << "' marks an i64 argument "
                             << "and takes no value";
    return success();
  }
  return op->emitError() << "unknown argument attribute '" << attrName << "'";
}

LogicalResult LoomDialect::verifyRegionResultAttribute(Operation *op,
                                                       unsigned regionIndex,
                                                       unsigned resultIndex,
                                                       NamedAttribute attr) {
  StringRef attrName = attr.getName().getValue();
  if (attrName == kNameAttrName)
    return verifyNameAttr(op, attr, /*isArg=*/false, resultIndex);
  if (attrName == kBatchAxisAttrName) {
    FailureOr<FunctionOpInterface> func = functionFor(op, attrName, "results");
    if (failed(func))
      return failure();
    return verifyBatchAxisAttr(op, attr, func->getResultTypes()[resultIndex],
                               "result", resultIndex);
  }
  return op->emitError() << "unknown result attribute '" << attrName << "'";
}

LogicalResult LoomDialect::verifyOperationAttribute(Operation *op,
                                                    NamedAttribute attr) {
  StringRef attrName = attr.getName().getValue();
  if (attrName == kBatchedAttrName) {
    if (!isa<FunctionOpInterface>(op) || !isa<UnitAttr>(attr.getValue()))
      return op->emitError()
             << "'" << attrName << "' is a unit attribute on functions";
    return success();
  }
  if (attrName == kLoopsAttrName || attrName == kVariantsAttrName) {
    auto table = dyn_cast<ArrayAttr>(attr.getValue());
    if (!isa<ModuleOp>(op) || !table)
      return op->emitError()
             << "'" << attrName << "' is an array on the module";
    // The runtime reads these tables by name: every entry is checked.
    bool loops = attrName == kLoopsAttrName;
    for (auto [i, element] : llvm::enumerate(table)) {
      auto entry = dyn_cast<DictionaryAttr>(element);
      auto isString = [&](StringRef key) {
        return entry && isa_and_nonnull<StringAttr>(entry.get(key));
      };
      bool ok = isString("loc");
      if (loops)
        ok = ok && isa_and_nonnull<BoolAttr>(entry.get("masked")) &&
             (!entry.get("lanes") || isa<IntegerAttr>(entry.get("lanes"))) &&
             (!entry.get("variant") || isString("variant"));
      else
        ok = ok && isString("primary") && isString("alternative");
      if (!ok)
        return op->emitError()
               << "'" << attrName << "' entry #" << i << " must be "
               << (loops ? "{loc = string, masked = bool} (with an "
                           "integer 'lanes' and a string 'variant' optional)"
                         : "{loc, primary, alternative = string}");
    }
    return success();
  }
  if (attrName == kLaneMaskAttrName) {
    auto loop = dyn_cast<scf::WhileOp>(op);
    auto at = dyn_cast<IntegerAttr>(attr.getValue());
    if (!loop || !at)
      return op->emitError()
             << "'" << attrName << "' is an integer on scf.while loops";
    int64_t index = at.getInt();
    if (index < 0 ||
        index >= static_cast<int64_t>(loop.getBeforeArguments().size()))
      return op->emitError()
             << "'" << attrName << "' names argument #" << index
             << " of a before block with " << loop.getBeforeArguments().size();
    auto type =
        dyn_cast<RankedTensorType>(loop.getBeforeArguments()[index].getType());
    if (!type || type.getRank() != 1 || !type.getElementType().isInteger(1))
      return op->emitError()
             << "'" << attrName << "' names argument #" << index << " of type "
             << loop.getBeforeArguments()[index].getType()
             << ", not a rank-1 tensor of i1";
    return success();
  }
  if (attrName == kSourceCarriesAttrName) {
    auto loop = dyn_cast<scf::WhileOp>(op);
    auto sources = dyn_cast<DenseI64ArrayAttr>(attr.getValue());
    if (!loop || !sources)
      return op->emitError()
             << "'" << attrName << "' is an array<i64> on scf.while loops";
    size_t carries = loop.getBeforeArguments().size();
    if (static_cast<size_t>(sources.size()) != carries)
      return op->emitError()
             << "'" << attrName << "' has " << sources.size()
             << " entries for a before block with " << carries << " arguments";
    if (llvm::any_of(sources.asArrayRef(), [](int64_t n) { return n < 0; }))
      return op->emitError() << "'" << attrName << "' names a negative carry";
    return success();
  }
  bool isStrategy = attrName == kStrategyAttrName;
  if (!isStrategy && attrName != kLoopSyncAttrName)
    return op->emitError() << "unknown operation attribute '" << attrName
                           << "'";
  // A for loop with per-lane bounds becomes a while loop, so a pin on it
  // means something; a loop's sync is only ever a while loop's.
  if (isStrategy ? !isa<scf::WhileOp, scf::ForOp>(op) : !isa<scf::WhileOp>(op))
    return op->emitError() << "'" << attrName << "' annotates "
                           << (isStrategy ? "scf.while and scf.for"
                                          : "scf.while")
                           << " loops only";
  if (isStrategy ? !isa<LoopStrategyAttr>(attr.getValue())
                 : !isa<LoopSyncAttr>(attr.getValue()))
    return op->emitError() << "'" << attrName << "' must be a "
                           << (isStrategy ? "#loom.strategy<...>"
                                          : "#loom.loop_sync<...>")
                           << " attribute, got " << attr.getValue();
  return success();
}
