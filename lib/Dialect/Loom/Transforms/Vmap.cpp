//===- Vmap.cpp - Expand loom.vmap into batched functions -----------------===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//
//
// `loom-vmap` replaces each `loom.vmap @f(...)` by a call of a clone of @f
// batched for the vmap's signature. The clone is built op by op from the
// scalar function by each op's batching rule (BatchingOpInterface), driven by
// the batchedness analysis; this file is the driver (the BatchingContext the
// rules see) and the policy: loop strategies, their remarks, and the cache of
// batched clones (one per callee, batchedness signature and batch size).
//
//===----------------------------------------------------------------------===//

#include "loom/Dialect/Loom/Transforms/Passes.h"

#include "LoopCostModel.h"
#include "loom/Analysis/Batchedness.h"
#include "loom/Dialect/Loom/IR/LoomDialect.h"
#include "loom/Dialect/Loom/IR/LoomOps.h"
#include "loom/Interfaces/BatchingOpInterface.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"

#include <map>
#include <tuple>

namespace mlir::loom {
#define GEN_PASS_DEF_LOOMVMAPPASS
#include "loom/Dialect/Loom/Transforms/Passes.h.inc"
} // namespace mlir::loom

using namespace mlir;
using namespace mlir::loom;

namespace {

//===----------------------------------------------------------------------===//
// Names for remarks
//===----------------------------------------------------------------------===//

/// The name a location gives (`loc("count")`), or "".
std::string getLocName(Location loc) {
  if (auto name = dyn_cast<NameLoc>(loc))
    return name.getName().str();
  if (auto fused = dyn_cast<FusedLoc>(loc))
    for (Location inner : fused.getLocations())
      if (std::string name = getLocName(inner); !name.empty())
        return name;
  return "";
}

/// " (name)" for a named value, else "".
std::string parenthesized(const std::string &name) {
  return name.empty() ? "" : " (" + name + ")";
}

/// `loom.name` of a function argument, or a name from its location.
std::string getArgName(func::FuncOp func, unsigned index) {
  if (auto name =
          func.getArgAttrOfType<StringAttr>(index, LoomDialect::kNameAttrName))
    return name.str();
  return getLocName(func.getArgument(index).getLoc());
}

std::string getValueName(Value value) {
  if (auto arg = dyn_cast<BlockArgument>(value))
    if (auto func = dyn_cast<func::FuncOp>(arg.getOwner()->getParentOp()))
      return getArgName(func, arg.getArgNumber());
  return getLocName(value.getLoc());
}

/// " (name)" for a carry named by its block arguments' locations, else
/// " (initially name)" when only its init has a name, else "".
std::string describeCarry(scf::WhileOp loop, unsigned index) {
  if (std::string name = getLocName(loop.getBeforeArguments()[index].getLoc());
      !name.empty())
    return parenthesized(name);
  scf::ConditionOp cond = loop.getConditionOp();
  if (index < cond.getArgs().size() &&
      cond.getArgs()[index] == loop.getBeforeArguments()[index])
    if (std::string name = getLocName(loop.getAfterArguments()[index].getLoc());
        !name.empty())
      return parenthesized(name);
  std::string init = getValueName(loop.getInits()[index]);
  return init.empty() ? "" : parenthesized("initially " + init);
}

/// " at line N" for a loop with a file location, else "".
std::string describeLine(Operation *op) {
  Location loc = op->getLoc();
  if (auto fused = dyn_cast<FusedLoc>(loc))
    if (!fused.getLocations().empty())
      loc = fused.getLocations().front();
  if (auto file = dyn_cast<FileLineColLoc>(loc))
    return " at line " + std::to_string(file.getLine());
  return "";
}

/// Records `strategy` as what loom-vmap decided for every while loop in `op`
/// (itself included): a copy of a scalar loop keeps its pin, which must not
/// pass for a decision (loom-localize-loops trusts only a decided `masked`).
void recordDecided(Operation *op, LoopStrategy strategy) {
  auto attr = LoopStrategyAttr::get(op->getContext(), strategy);
  op->walk([&](scf::WhileOp loop) {
    loop->setAttr(LoomDialect::kStrategyAttrName, attr);
  });
}

//===----------------------------------------------------------------------===//
// Loops with per-lane bounds become while loops
//===----------------------------------------------------------------------===//

// for i in [l, u) step s (x) => while (i < u) (i, x) { body; i + s }
// (scf.for compares signed in MLIR 19.) Every strategy handles while loops,
// and a per-lane trip count is what makes a loop divergent.
void convertForToWhile(scf::ForOp loop) {
  OpBuilder builder(loop);
  Location loc = loop.getLoc();
  SmallVector<Value> inits{loop.getLowerBound()};
  llvm::append_range(inits, loop.getInitArgs());
  SmallVector<Type> types = llvm::to_vector(TypeRange(inits));
  auto whileOp = builder.create<scf::WhileOp>(
      loc, types, inits,
      [&](OpBuilder &b, Location l, ValueRange args) {
        Value more = b.create<arith::CmpIOp>(l, arith::CmpIPredicate::slt,
                                             args[0], loop.getUpperBound());
        b.create<scf::ConditionOp>(l, more, args);
      },
      [&](OpBuilder &b, Location l, ValueRange args) {
        IRMapping mapping;
        mapping.map(loop.getInductionVar(), args[0]);
        for (auto [arg, newArg] :
             llvm::zip(loop.getRegionIterArgs(), args.drop_front()))
          mapping.map(arg, newArg);
        for (Operation &op : loop.getBody()->without_terminator())
          b.clone(op, mapping);
        Value next = b.create<arith::AddIOp>(l, args[0], loop.getStep());
        SmallVector<Value> yielded{next};
        for (Value value : loop.getBody()->getTerminator()->getOperands())
          yielded.push_back(mapping.lookupOrDefault(value));
        b.create<scf::YieldOp>(l, yielded);
      });
  whileOp->setDiscardableAttrs(loop->getDiscardableAttrDictionary());
  loop.replaceAllUsesWith(whileOp.getResults().drop_front());
  loop.erase();
}

//===----------------------------------------------------------------------===//
// VmapExpander: the module-wide state of one run
//===----------------------------------------------------------------------===//

struct VmapSettings {
  DivergentPolicy divergent;
  LoopCostParams cost;
  int64_t assumedBatch;
};

struct BatchedFunc {
  func::FuncOp func;
  SmallVector<bool> resultBatched;
};

class VmapExpander {
public:
  VmapExpander(ModuleOp module, VmapSettings settings)
      : module(module), symbolTable(module), solver(module),
        settings(settings) {}

  /// Replaces `vmap` by a call of the batched callee.
  LogicalResult expand(VmapOp vmap);

  /// The clone of `callee` batched for `signature` and `batch` lanes;
  /// `site` is where analysis errors (recursion) are reported. A `masked`
  /// clone takes the caller's lane mask as a trailing tensor<Bxi1> and runs
  /// its body under it.
  FailureOr<BatchedFunc> getBatched(func::FuncOp callee,
                                    ArrayRef<bool> signature, int64_t batch,
                                    Operation *site, bool masked = false);

  BatchednessSolver &getSolver() { return solver; }
  /// True for a function this pass made (a batched clone).
  bool isBatchedClone(func::FuncOp func) const {
    return clones.contains(func.getOperation());
  }
  /// True for a function this pass batched (a clone's source).
  bool isBatchedSource(func::FuncOp func) const {
    return sources.contains(func.getOperation());
  }
  const VmapSettings &getSettings() const { return settings; }

private:
  ModuleOp module;
  SymbolTable symbolTable;
  BatchednessSolver solver;
  VmapSettings settings;
  std::map<std::tuple<Operation *, std::vector<bool>, int64_t, bool>,
           BatchedFunc>
      cache;
  DenseSet<Operation *> clones;
  DenseSet<Operation *> sources;
};

//===----------------------------------------------------------------------===//
// FunctionBatcher: builds one batched function
//===----------------------------------------------------------------------===//

class FunctionBatcher : public BatchingContext {
public:
  FunctionBatcher(VmapExpander &expander, const BatchednessAnalysis &analysis,
                  int64_t batch)
      : expander(expander), analysis(analysis), batch(batch) {}

  /// Fills the empty `target` with the batched body of `source`; with
  /// `masked`, under the mask `target` takes as its last argument.
  LogicalResult run(func::FuncOp source, func::FuncOp target, bool masked);

  bool isBatched(Value original) const override {
    return analysis.isBatched(original);
  }
  bool isControlBatched(Operation *original) const override {
    return analysis.isControlBatched(original);
  }
  Value lookup(Value original) const override {
    return mapping.lookupOrDefault(original);
  }
  void map(Value original, Value replacement) override {
    mapping.map(original, replacement);
  }
  Value getBatchSize() const override { return batchSize; }
  int64_t getStaticBatchSize() const override { return batch; }

  LogicalResult batchBlock(Block &original, OpBuilder &builder) override;
  FailureOr<func::FuncOp>
  getBatchedCallee(func::CallOp call,
                   SmallVectorImpl<bool> &resultBatched) override;
  FailureOr<LoopStrategy> getLoopStrategy(Operation *loop) override;
  void notifyClonedPerLane(Operation *original, Operation *clone) override;

private:
  std::string explainControl(Operation *loop) const;
  void remarkNestedLoops(Operation *op, bool includeSelf, StringRef message);

  VmapExpander &expander;
  const BatchednessAnalysis &analysis;
  int64_t batch;
  Value batchSize;
  IRMapping mapping;
};

LogicalResult FunctionBatcher::run(func::FuncOp source, func::FuncOp target,
                                   bool masked) {
  Block *entry = target.addEntryBlock();
  OpBuilder builder = OpBuilder::atBlockBegin(entry);
  Location loc = source.getLoc();
  if (masked)
    narrowMask(entry->getArguments().back());
  if (!ShapedType::isDynamic(batch)) {
    batchSize = builder.create<arith::ConstantIndexOp>(loc, batch);
  } else {
    for (auto [arg, isArgBatched] :
         llvm::zip(entry->getArguments(), analysis.getArgBatched())) {
      if (isArgBatched) {
        batchSize = builder.create<tensor::DimOp>(loc, arg, 0);
        break;
      }
    }
    if (!batchSize && masked)
      batchSize =
          builder.create<tensor::DimOp>(loc, entry->getArguments().back(), 0);
  }
  for (auto [arg, newArg] :
       llvm::zip(source.getArguments(), entry->getArguments()))
    map(arg, newArg);
  if (failed(batchBlock(source.front(), builder)))
    return failure();
  Operation *ret = source.front().getTerminator();
  SmallVector<Value> results;
  for (auto [value, isResultBatched] :
       llvm::zip(ret->getOperands(), analysis.getResultBatched()))
    results.push_back(lookupAs(builder, ret->getLoc(), value, isResultBatched));
  builder.create<func::ReturnOp>(ret->getLoc(), results);
  return success();
}

// d in trapping op(x, d) under a mask that may be empty
//   => select(any(mask), d, safe)
/// Makes every op in `clone` (an unbatched op, cloned as it is) that can
/// trap safe when no lane of the current mask is set: the scalar program
/// would not have run it at all (a per-lane branch no lane takes). With one
/// lane set, it runs as in the scalar program, which that lane runs too.
static void guardUnbatchedTraps(BatchingContext &context, OpBuilder &builder,
                                Operation *clone) {
  if (context.isMaskNonEmpty())
    return;
  SmallVector<Operation *> trapping;
  clone->walk([&](Operation *op) {
    if (getTrapGuard(op))
      trapping.push_back(op);
  });
  if (trapping.empty())
    return;
  OpBuilder::InsertionGuard guard(builder);
  Location loc = clone->getLoc();
  builder.setInsertionPoint(clone);
  Value any = builder.create<AnyOp>(loc, builder.getI1Type(), context.getMask(),
                                    builder.getI64IntegerAttr(0));
  for (Operation *op : trapping) {
    TrapGuard trap = *getTrapGuard(op);
    Value divisor = op->getOperand(trap.operand);
    builder.setInsertionPoint(op);
    Location opLoc = op->getLoc();
    Type element = getElementTypeOrSelf(divisor.getType());
    TypedAttr safe = builder.getIntegerAttr(element, trap.safeValue);
    Value safeValue;
    if (auto tensor = dyn_cast<RankedTensorType>(divisor.getType())) {
      Value scalar = builder.create<arith::ConstantOp>(opLoc, safe);
      SmallVector<Value> sizes;
      for (int64_t dim = 0; dim < tensor.getRank(); ++dim)
        if (tensor.isDynamicDim(dim))
          sizes.push_back(builder.create<tensor::DimOp>(opLoc, divisor, dim));
      safeValue = builder.create<tensor::SplatOp>(opLoc, scalar, tensor, sizes);
    } else {
      safeValue = builder.create<arith::ConstantOp>(opLoc, safe);
    }
    op->setOperand(trap.operand, builder.create<arith::SelectOp>(
                                     opLoc, any, divisor, safeValue));
  }
}

LogicalResult FunctionBatcher::batchBlock(Block &original, OpBuilder &builder) {
  for (Operation &op : original.without_terminator()) {
    // An op that reads nothing per-lane computes the same on every lane:
    // it is cloned as it is, and its results stay unbatched.
    if (!analysis.usesBatched(&op)) {
      Operation *clone = builder.clone(op, mapping);
      guardUnbatchedTraps(*this, builder, clone);
      recordDecided(clone, LoopStrategy::Uniform);
      remarkNestedLoops(&op, /*includeSelf=*/true,
                        "loop is uniform: it reads no per-lane value");
      continue;
    }
    auto rule = dyn_cast<BatchingOpInterface>(&op);
    if (!rule)
      return op.emitError()
             << "no batching rule for '" << op.getName()
             << "': loom-vmap cannot batch it when it reads a per-lane value";
    if (failed(rule.batch(*this, builder)))
      return failure();
    for (OpResult result : op.getResults()) {
      Value batched = mapping.lookupOrNull(result);
      Type expected = isBatched(result) ? getBatchedType(result.getType())
                                        : result.getType();
      if (batched && batched.getType() == expected)
        continue;
      // A rule may leave a batched result unbatched when it happens to be
      // the same on every lane; anything else is a broken rule.
      if (batched && batched.getType() == result.getType()) {
        map(result, broadcast(builder, op.getLoc(), batched));
        continue;
      }
      return op.emitError() << "batching rule of '" << op.getName()
                            << "' gave result #" << result.getResultNumber()
                            << (batched ? " the wrong type" : " no value");
    }
  }
  return success();
}

/// True when batching `func` under a mask can differ from batching it
/// without one: it has loops or branches (which a mask keeps finished lanes
/// out of), calls, or ops that read or write at an index or can trap (which
/// must not run on a masked-off lane's stale values: getTrapGuard).
/// Straight-line elementwise arithmetic gives the same lanes either way.
static bool needsLaneMask(func::FuncOp func) {
  return func.getBody()
      .walk([](Operation *op) {
        if (isa<func::ReturnOp>(op))
          return WalkResult::advance();
        bool elementwise =
            isa<arith::ArithDialect, math::MathDialect>(op->getDialect()) &&
            !getTrapGuard(op);
        return elementwise ? WalkResult::advance() : WalkResult::interrupt();
      })
      .wasInterrupted();
}

FailureOr<func::FuncOp>
FunctionBatcher::getBatchedCallee(func::CallOp call,
                                  SmallVectorImpl<bool> &resultBatched) {
  func::FuncOp callee = expander.getSolver().lookupCallee(call);
  if (!callee)
    return call.emitError() << "cannot batch the call to @" << call.getCallee()
                            << ": it is not a func.func";
  if (callee.isExternal())
    return call.emitError() << "cannot batch the call to @" << call.getCallee()
                            << ": it is only declared, and vmap needs its body";
  if (expander.isBatchedClone(callee))
    return call.emitError()
           << "cannot batch a nested loom.vmap (now a call to @"
           << call.getCallee()
           << ") whose operands differ per lane: vmap of vmap is not "
              "supported yet";
  SmallVector<bool> signature;
  for (Value operand : call.getOperands())
    signature.push_back(isBatched(operand));
  FailureOr<BatchedFunc> batched = expander.getBatched(
      callee, signature, batch, call, getMask() && needsLaneMask(callee));
  if (failed(batched))
    return failure();
  resultBatched.assign(batched->resultBatched);
  return batched->func;
}

/// "predicate depends on carry #2 (count), batched through argument #1
/// (key)": the carry of this loop the predicate reads, and the argument of
/// the batched function it comes from.
std::string FunctionBatcher::explainControl(Operation *loop) const {
  Value control;
  Block *carries = nullptr;
  StringRef what = "predicate";
  if (auto whileOp = dyn_cast<scf::WhileOp>(loop)) {
    control = whileOp.getConditionOp().getCondition();
    carries = whileOp.getBeforeBody();
  } else if (auto forOp = dyn_cast<scf::ForOp>(loop)) {
    what = "trip count";
    for (Value bound :
         {forOp.getLowerBound(), forOp.getUpperBound(), forOp.getStep()})
      if (analysis.isBatched(bound))
        control = bound;
  }
  SmallVector<Value> chain = analysis.getReasonChain(control);
  std::string text = (what + " depends on ").str();
  // The first carry on the chain: this loop's own, else an enclosing
  // loop's (a nested loop usually diverges because its parent does).
  std::string carry;
  for (Value value : chain) {
    auto arg = dyn_cast<BlockArgument>(value);
    if (!arg)
      continue;
    auto owner = dyn_cast<scf::WhileOp>(arg.getOwner()->getParentOp());
    if (!owner || arg.getOwner() != owner.getBeforeBody() ||
        !owner->isAncestor(loop))
      continue;
    carry = "carry #" + std::to_string(arg.getArgNumber()) +
            describeCarry(owner, arg.getArgNumber());
    if (owner != loop)
      carry += " of the enclosing loop" + describeLine(owner);
    break;
  }
  std::optional<unsigned> root;
  func::FuncOp func = analysis.getFunction();
  if (!chain.empty())
    if (auto arg = dyn_cast<BlockArgument>(chain.back()))
      if (arg.getOwner() == &func.getBody().front())
        root = arg.getArgNumber();
  auto argText = [&](unsigned index) {
    return "argument #" + std::to_string(index) +
           parenthesized(getArgName(func, index));
  };
  if (!carry.empty()) {
    text += carry;
    if (root)
      text += ", batched through " + argText(*root);
  } else if (root) {
    text += argText(*root);
  } else {
    text += "a per-lane value";
  }
  return text;
}

FailureOr<LoopStrategy> FunctionBatcher::getLoopStrategy(Operation *loop) {
  const VmapSettings &settings = expander.getSettings();
  auto pin =
      loop->getAttrOfType<LoopStrategyAttr>(LoomDialect::kStrategyAttrName);
  StringRef what = isa<scf::ForOp>(loop) ? "trip count" : "predicate";

  if (!analysis.isControlBatched(loop)) {
    std::string message =
        ("loop is uniform: its " + what + " is the same on every lane").str();
    if (pin && pin.getValue() != LoopStrategy::Uniform)
      message += "; loom.strategy<" +
                 stringifyLoopStrategy(pin.getValue()).str() +
                 "> does not apply to a loop that is not divergent";
    loop->emitRemark(message);
    return LoopStrategy::Uniform;
  }

  std::string reason = explainControl(loop);
  if (pin && pin.getValue() == LoopStrategy::Uniform)
    return loop->emitError()
           << "loop is pinned to loom.strategy<uniform>, but its " << reason;

  LoopStrategy strategy;
  std::string why;
  if (pin) {
    strategy = pin.getValue();
    why = "pinned by loom.strategy";
  } else if (settings.divergent == DivergentPolicy::Masked) {
    strategy = LoopStrategy::Masked;
    why = "divergent=masked";
  } else if (settings.divergent == DivergentPolicy::PerLane) {
    strategy = LoopStrategy::PerLane;
    why = "divergent=per-lane";
  } else {
    LoopCostParams params = settings.cost;
    params.batchAssumed = ShapedType::isDynamic(batch);
    params.batch = params.batchAssumed ? settings.assumedBatch : batch;
    LoopCostDecision decision = chooseDivergentStrategy(loop, analysis, params);
    strategy = decision.strategy;
    why = decision.why;
  }
  StringRef word = strategy == LoopStrategy::Masked ? "masked" : "per-lane";
  loop->emitRemark() << "loop is " << word << ": " << reason << "; " << why;
  return strategy;
}

void FunctionBatcher::remarkNestedLoops(Operation *op, bool includeSelf,
                                        StringRef message) {
  op->walk([&](Operation *nested) {
    if ((includeSelf || nested != op) && isa<scf::WhileOp, scf::ForOp>(nested))
      nested->emitRemark(message);
  });
}

void FunctionBatcher::notifyClonedPerLane(Operation *original,
                                          Operation *clone) {
  recordDecided(clone, LoopStrategy::PerLane);
  remarkNestedLoops(original, /*includeSelf=*/false,
                    "loop is per-lane: it runs inside an enclosing per-lane "
                    "loop, on one lane at a time");
}

//===----------------------------------------------------------------------===//
// VmapExpander
//===----------------------------------------------------------------------===//

std::string signatureSuffix(ArrayRef<bool> signature, int64_t batch) {
  std::string suffix = "_vmap_";
  for (bool isBatched : signature)
    suffix += isBatched ? 'b' : 'u';
  if (!ShapedType::isDynamic(batch))
    suffix += "_" + std::to_string(batch);
  return suffix;
}

FailureOr<BatchedFunc> VmapExpander::getBatched(func::FuncOp callee,
                                                ArrayRef<bool> signature,
                                                int64_t batch,
                                                Operation *site, bool masked) {
  auto key = std::make_tuple(
      callee.getOperation(),
      std::vector<bool>(signature.begin(), signature.end()), batch, masked);
  auto it = cache.find(key);
  if (it != cache.end())
    return it->second;

  FailureOr<const BatchednessAnalysis *> analysis =
      solver.analyze(callee, signature, site);
  if (failed(analysis))
    return failure();

  // Loops whose trip count differs per lane are rewritten as while loops in
  // a scratch copy; the copy is then what gets batched.
  func::FuncOp source = callee;
  OwningOpRef<func::FuncOp> scratch;
  auto divergentFors = [&](func::FuncOp func,
                           const BatchednessAnalysis &result) {
    SmallVector<scf::ForOp> loops;
    func.walk([&](scf::ForOp loop) {
      if (result.isControlBatched(loop))
        loops.push_back(loop);
    });
    return loops;
  };
  if (!divergentFors(callee, **analysis).empty()) {
    scratch = callee.clone();
    while (true) {
      analysis = solver.analyze(*scratch, signature, site);
      if (failed(analysis))
        return failure();
      SmallVector<scf::ForOp> loops = divergentFors(*scratch, **analysis);
      if (loops.empty())
        break;
      // Converting a loop clones the loops nested in it, so only the
      // outermost ones go in each round.
      DenseSet<Operation *> found;
      for (scf::ForOp loop : loops)
        found.insert(loop);
      SmallVector<scf::ForOp> outermost;
      for (scf::ForOp loop : loops) {
        bool nested = false;
        for (Operation *parent = loop->getParentOp(); parent;
             parent = parent->getParentOp())
          nested = nested || found.contains(parent);
        if (!nested)
          outermost.push_back(loop);
      }
      for (scf::ForOp loop : outermost)
        convertForToWhile(loop);
      solver.forget(*scratch);
    }
    source = *scratch;
  }

  SmallVector<Type> inputs, results;
  for (auto [type, isBatched] : llvm::zip(callee.getArgumentTypes(), signature))
    inputs.push_back(isBatched ? batchType(type, 0, batch) : type);
  for (auto [type, isBatched] :
       llvm::zip(callee.getResultTypes(), (*analysis)->getResultBatched()))
    results.push_back(isBatched ? batchType(type, 0, batch) : type);
  if (masked)
    inputs.push_back(
        batchType(IntegerType::get(module.getContext(), 1), 0, batch));
  auto func = func::FuncOp::create(
      callee.getLoc(),
      (callee.getSymName() + signatureSuffix(signature, batch) +
       (masked ? "_masked" : ""))
          .str(),
      FunctionType::get(module.getContext(), inputs, results));
  func.setPrivate();
  func->setAttr(LoomDialect::kBatchedAttrName, UnitAttr::get(module.getContext()));
  for (unsigned i = 0; i < callee.getNumArguments(); ++i) {
    if (Attribute name = callee.getArgAttr(i, LoomDialect::kNameAttrName))
      func.setArgAttr(i, LoomDialect::kNameAttrName, name);
    // A masked loop updates its carries in place; when a carry starts as an
    // argument, bufferization must copy it once at entry, not write into the
    // caller's buffer (the user's input, when the caller is an entry).
    if (isa<RankedTensorType>(inputs[i]))
      func.setArgAttr(i, "bufferization.writable",
                      BoolAttr::get(module.getContext(), false));
  }
  for (unsigned i = 0; i < callee.getNumResults(); ++i)
    if (Attribute name = callee.getResultAttr(i, LoomDialect::kNameAttrName))
      func.setResultAttr(i, LoomDialect::kNameAttrName, name);
  symbolTable.insert(func, std::next(callee->getIterator()));
  clones.insert(func);
  sources.insert(callee);

  BatchedFunc batched{func, SmallVector<bool>((*analysis)->getResultBatched())};
  cache[key] = batched;
  FunctionBatcher batcher(*this, **analysis, batch);
  LogicalResult result = batcher.run(source, func, masked);
  if (scratch)
    solver.forget(*scratch);
  if (failed(result))
    return failure();
  return batched;
}

/// `value` with axis `from` moved to position `to` (linalg.transpose).
Value moveAxis(OpBuilder &builder, Location loc, Value value, int64_t from,
               int64_t to) {
  if (from == to)
    return value;
  auto type = cast<RankedTensorType>(value.getType());
  SmallVector<int64_t> permutation =
      llvm::to_vector(llvm::seq<int64_t>(0, type.getRank()));
  permutation.erase(permutation.begin() + from);
  permutation.insert(permutation.begin() + to, from);
  SmallVector<int64_t> shape;
  SmallVector<Value> dynamicSizes;
  for (int64_t dim : permutation) {
    shape.push_back(type.getDimSize(dim));
    if (type.isDynamicDim(dim))
      dynamicSizes.push_back(builder.create<tensor::DimOp>(loc, value, dim));
  }
  Value empty = builder.create<tensor::EmptyOp>(
      loc, RankedTensorType::get(shape, type.getElementType()), dynamicSizes);
  return builder.create<linalg::TransposeOp>(loc, value, empty, permutation)
      ->getResult(0);
}

// vmap(f, in_axes, out_axes)(xs) => moveaxis(f_vmap(moveaxis(xs, a, 0)), 0, o)
LogicalResult VmapExpander::expand(VmapOp vmap) {
  auto callee = symbolTable.lookup<func::FuncOp>(vmap.getCallee());
  if (!callee)
    return vmap.emitOpError()
           << "'" << vmap.getCallee() << "' does not reference a func.func";
  if (callee.isExternal())
    return vmap.emitError() << "cannot vmap @" << vmap.getCallee()
                            << ": it is only declared, and vmap needs its body";

  OpBuilder builder(vmap);
  Location loc = vmap.getLoc();
  int64_t batch = vmap.getBatchSize();
  SmallVector<bool> signature;
  SmallVector<Value> operands;
  Value firstBatched;
  for (auto [input, axis] : llvm::zip(vmap.getInputs(), vmap.getInAxes())) {
    signature.push_back(axis != VmapOp::kNotBatched);
    if (axis == VmapOp::kNotBatched) {
      operands.push_back(input);
      continue;
    }
    Value moved = moveAxis(builder, loc, input, axis, 0);
    if (!firstBatched)
      firstBatched = moved;
    operands.push_back(moved);
  }

  FailureOr<BatchedFunc> batched = getBatched(callee, signature, batch, vmap);
  if (failed(batched))
    return failure();
  for (auto [i, axis] : llvm::enumerate(vmap.getOutAxes()))
    if (axis == VmapOp::kNotBatched && batched->resultBatched[i])
      return vmap.emitError()
             << "result #" << i << " of @" << vmap.getCallee()
             << " differs per lane, so out_axes[" << i << "] cannot be none";

  auto call = builder.create<func::CallOp>(loc, batched->func, operands);
  SmallVector<Value> results;
  for (auto [i, axis] : llvm::enumerate(vmap.getOutAxes())) {
    Value result = call.getResult(i);
    if (axis != VmapOp::kNotBatched) {
      if (!batched->resultBatched[i]) {
        // out_axes asks for a batch axis on a value every lane shares.
        Type type = batchType(result.getType(), 0, batch);
        SmallVector<Value> sizes;
        if (ShapedType::isDynamic(batch))
          sizes.push_back(builder.create<tensor::DimOp>(loc, firstBatched, 0));
        if (auto tensor = dyn_cast<RankedTensorType>(result.getType()))
          for (int64_t dim = 0; dim < tensor.getRank(); ++dim)
            if (tensor.isDynamicDim(dim))
              sizes.push_back(builder.create<tensor::DimOp>(loc, result, dim));
        Value empty = builder.create<tensor::EmptyOp>(
            loc, cast<RankedTensorType>(type), sizes);
        result = isa<RankedTensorType>(result.getType())
                     ? builder
                           .create<linalg::BroadcastOp>(loc, result, empty,
                                                        ArrayRef<int64_t>{0})
                           ->getResult(0)
                     : builder.create<linalg::FillOp>(loc, result, empty)
                           .getResult(0);
      }
      result = moveAxis(builder, loc, result, 0, axis);
    }
    results.push_back(result);
  }
  vmap.replaceAllUsesWith(results);
  vmap.erase();
  return success();
}

//===----------------------------------------------------------------------===//
// The pass
//===----------------------------------------------------------------------===//

/// Functions that contain a loom.vmap, or reach one through calls or vmaps:
/// their own vmaps must be expanded before anything batches them.
DenseSet<Operation *> getFunctionsReachingVmap(ModuleOp module) {
  DenseSet<Operation *> reaching;
  SymbolTable symbols(module);
  bool changed = true;
  while (changed) {
    changed = false;
    module.walk([&](func::FuncOp func) {
      if (reaching.contains(func))
        return;
      bool reaches = false;
      func.walk([&](Operation *op) {
        if (isa<VmapOp>(op)) {
          reaches = true;
        } else if (auto call = dyn_cast<func::CallOp>(op)) {
          if (Operation *callee = symbols.lookup(call.getCallee()))
            reaches = reaches || reaching.contains(callee);
        }
      });
      if (reaches) {
        reaching.insert(func);
        changed = true;
      }
    });
  }
  return reaching;
}

struct LoomVmapPass : public mlir::loom::impl::LoomVmapPassBase<LoomVmapPass> {
  using LoomVmapPassBase::LoomVmapPassBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    VmapSettings settings;
    settings.divergent = divergent;
    settings.cost.target = target;
    settings.cost.simdWidth = simdWidth;
    settings.cost.expectedDivergence = expectedDivergence;
    settings.cost.maskedOpCost = maskedOpCost;
    settings.assumedBatch = assumedBatch;
    VmapExpander expander(module, settings);

    // Expand vmaps whose callee reaches no other vmap first, so a batched
    // clone never contains a vmap; a vmap inside a clone (one whose operands
    // are the same on every lane) is expanded in a later round.
    for (unsigned round = 0;; ++round) {
      DenseSet<Operation *> reaching = getFunctionsReachingVmap(module);
      SmallVector<VmapOp> all, ready;
      module.walk([&](VmapOp vmap) {
        all.push_back(vmap);
        Operation *callee =
            SymbolTable::lookupNearestSymbolFrom(vmap, vmap.getCalleeAttr());
        if (!reaching.contains(callee))
          ready.push_back(vmap);
      });
      if (all.empty())
        break;
      if (ready.empty() || round == 64) {
        all.front().emitError()
            << "cannot expand loom.vmap of @" << all.front().getCallee()
            << ": the vmaps in the functions it reaches form a cycle";
        return signalPassFailure();
      }
      for (VmapOp vmap : ready)
        if (failed(expander.expand(vmap)))
          return signalPassFailure();
    }
    dropPinsOutsideClones(expander);
  }

  /// After this pass, `loom.strategy` on a loop is what loom-vmap decided for
  /// a loop it built; a pin elsewhere has done its job (on a loop of a
  /// function that was batched) or never had one (a loop loom-vmap does not
  /// batch, such as a hand-written batched loop in an entry), and is dropped
  /// so that no later pass mistakes it for a decision.
  void dropPinsOutsideClones(VmapExpander &expander) {
    getOperation().walk([&](func::FuncOp func) {
      if (expander.isBatchedClone(func))
        return;
      bool used = expander.isBatchedSource(func);
      func.walk(
          [&](scf::WhileOp loop) {
            if (!loop->removeAttr(LoomDialect::kStrategyAttrName) || used)
              return;
            loop.emitWarning()
                << "loom.strategy has no effect here: it pins how loom-vmap "
                << "batches a loop of a function it batches, and no loom.vmap "
                << "batches @" << func.getSymName();
          });
    });
  }
};

} // namespace
