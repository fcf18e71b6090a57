//===- VmapLoopStrategy.cpp - loom-vmap's loop strategies -----------------===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//
//
// How loom-vmap lowers each loop of a function it batches: uniform when its
// predicate (or trip count) is the same on every lane, else masked or per
// lane, as a pin, the pass's `divergent` option or the cost model says; and
// the remark that says which and why, naming the carry and the argument
// that make the loop divergent.
//
//===----------------------------------------------------------------------===//

#include "Vmap.h"

#include "loom/Dialect/Loom/IR/LoomDialect.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::loom;
using namespace mlir::loom::vmap;

//===----------------------------------------------------------------------===//
// Names for remarks
//===----------------------------------------------------------------------===//

/// The name a location gives (`loc("count")`), or "".
static std::string getLocName(Location loc) {
  if (auto name = dyn_cast<NameLoc>(loc))
    return name.getName().str();
  if (auto fused = dyn_cast<FusedLoc>(loc))
    for (Location inner : fused.getLocations())
      if (std::string name = getLocName(inner); !name.empty())
        return name;
  return "";
}

/// " (name)" for a named value, else "".
static std::string parenthesized(const std::string &name) {
  return name.empty() ? "" : " (" + name + ")";
}

/// `loom.name` of a function argument, or a name from its location.
static std::string getArgName(func::FuncOp func, unsigned index) {
  if (auto name =
          func.getArgAttrOfType<StringAttr>(index, LoomDialect::kNameAttrName))
    return name.str();
  return getLocName(func.getArgument(index).getLoc());
}

static std::string getValueName(Value value) {
  if (auto arg = dyn_cast<BlockArgument>(value))
    if (auto func = dyn_cast<func::FuncOp>(arg.getOwner()->getParentOp()))
      return getArgName(func, arg.getArgNumber());
  return getLocName(value.getLoc());
}

/// " (name)" for a carry named by its block arguments' locations, else
/// " (initially name)" when only its init has a name, else "".
static std::string describeCarry(scf::WhileOp loop, unsigned index) {
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

/// The number of `carry` in `loop` as written, before
/// loom-scalarize-small-tensors split its small tensor carries.
static int64_t getSourceCarry(scf::WhileOp loop, BlockArgument carry) {
  auto sources = loop->getAttrOfType<DenseI64ArrayAttr>(
      LoomDialect::kSourceCarriesAttrName);
  if (sources && carry.getArgNumber() < sources.size())
    return sources[carry.getArgNumber()];
  return carry.getArgNumber();
}

/// " at line N" for a loop with a file location, else "".
static std::string describeLine(Operation *op) {
  Location loc = op->getLoc();
  if (auto fused = dyn_cast<FusedLoc>(loc))
    if (!fused.getLocations().empty())
      loc = fused.getLocations().front();
  if (auto file = dyn_cast<FileLineColLoc>(loc))
    return " at line " + std::to_string(file.getLine());
  return "";
}

void mlir::loom::vmap::recordDecided(Operation *op, LoopStrategy strategy) {
  auto attr = LoopStrategyAttr::get(op->getContext(), strategy);
  op->walk([&](scf::WhileOp loop) {
    loop->setAttr(LoomDialect::kStrategyAttrName, attr);
  });
}

//===----------------------------------------------------------------------===//
// The strategy of each loop
//===----------------------------------------------------------------------===//

/// "predicate depends on carry #2 (count), batched through argument #1
/// (key)": the carry of this loop the predicate reads, and the argument of
/// the batched function it comes from.
std::string FunctionBatcher::explainControl(Operation *loop) const {
  Value control;
  StringRef what = "predicate";
  if (auto whileOp = dyn_cast<scf::WhileOp>(loop)) {
    control = whileOp.getConditionOp().getCondition();
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
    carry = "carry #" + std::to_string(getSourceCarry(owner, arg)) +
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

/// True when `loop` or a loop in it is pinned to loom.loop_sync<global>.
static bool hasGlobalSyncPin(Operation *loop) {
  return loop
      ->walk([](Operation *op) {
        auto pin =
            op->getAttrOfType<LoopSyncAttr>(LoomDialect::kLoopSyncAttrName);
        return pin && pin.getValue() == LoopSync::Global
                   ? WalkResult::interrupt()
                   : WalkResult::advance();
      })
      .wasInterrupted();
}

FailureOr<LoopStrategy> FunctionBatcher::getLoopStrategy(Operation *loop) {
  const VmapSettings &settings = expander.getSettings();
  auto pin =
      loop->getAttrOfType<LoopStrategyAttr>(LoomDialect::kStrategyAttrName);
  StringRef what = isa<scf::ForOp>(loop) ? "trip count" : "predicate";

  if (!analysis.isControlBatched(loop)) {
    // On a GPU, a uniform loop left on the host would run its batched body
    // as one launch (or host loop) per iteration; in each lane's thread it
    // is part of the kernel. That needs every result per lane, as a lane
    // loop gives them.
    bool allResultsBatched = llvm::all_of(
        loop->getResults(), [&](Value v) { return analysis.isBatched(v); });
    if (settings.cost.target == VmapTarget::GPU && allResultsBatched &&
        !(pin && pin.getValue() == LoopStrategy::Uniform)) {
      loop->emitRemark()
          << "loop is per-lane: its " << what
          << " is the same on every lane, but its body reads per-lane "
             "values, and target=gpu runs it in each lane's thread";
      return LoopStrategy::PerLane;
    }
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

  if (pin && pin.getValue() == LoopStrategy::Gang &&
      settings.cost.target == VmapTarget::GPU)
    return loop->emitError()
           << "loop is pinned to loom.strategy<gang>, which is not available "
              "with target=gpu: a GPU's warps already run lanes in gangs";
  if (std::optional<LoopStrategy> inside = getStrategyInGang(loop, pin, reason))
    return *inside;

  LoopStrategy strategy;
  std::string why;
  bool refill = settings.refill;
  if (pin) {
    strategy = pin.getValue();
    why = "pinned by loom.strategy";
  } else if (settings.divergent == DivergentPolicy::Masked) {
    strategy = LoopStrategy::Masked;
    why = "divergent=masked";
  } else if (settings.divergent == DivergentPolicy::PerLane) {
    strategy = LoopStrategy::PerLane;
    why = "divergent=per-lane";
  } else if (settings.divergent == DivergentPolicy::Gang) {
    // Decided at the outermost divergent loop of a nest; one nested in a
    // loop batched here is nested in a masked one (a gang's or a per-lane
    // loop's nest is not batched here).
    strategy = LoopStrategy::Gang;
    why = "divergent=gang";
    if (isNestedInDivergentLoop(loop)) {
      strategy = LoopStrategy::Masked;
      why = "divergent=gang applies to the outermost divergent loop of a "
            "nest, and this one is nested in a masked loop";
    }
  } else {
    LoopCostParams params = settings.cost;
    params.batchAssumed = ShapedType::isDynamic(batch);
    params.batch = params.batchAssumed ? settings.assumedBatch : batch;
    // Gangs (and their refill) are a choice for the outermost loop only.
    params.mayGang = !isNestedInDivergentLoop(loop);
    // Timed variants only for a while loop (a for loop with per-lane
    // bounds left here runs lane by lane), never for one every shard has to
    // run (loom.loop_sync<global>: a shard picks its variant alone), and
    // never inside another loop: the scf.if between the variants keeps
    // bufferization from updating the lane buffers in place, so every trip
    // of the enclosing loop would copy them (docs/vmap.md).
    params.adaptive = params.adaptive && isa<scf::WhileOp>(loop) &&
                      !hasGlobalSyncPin(loop) &&
                      !loop->getParentOfType<LoopLikeOpInterface>();
    LoopCostDecision decision = chooseDivergentStrategy(loop, analysis, params);
    strategy = decision.strategy;
    refill = decision.refill;
    why = decision.why;
    if (decision.alternative)
      variants[loop] = {LoopVariant{strategy, refill}, *decision.alternative};
  }
  if (strategy == LoopStrategy::Gang) {
    gangLoops.insert(loop);
    if (refill)
      refillLoops.insert(loop);
    int64_t width = getGangWidth();
    std::string fits;
    if (!ShapedType::isDynamic(batch) && batch <= width)
      fits = "; its " + std::to_string(batch) +
             " lanes fit in one gang: one masked loop";
    loop->emitRemark() << "loop is gang (width " << width
                       << (refill ? ", refill" : "") << "): " << reason << "; "
                       << why << fits;
    return strategy;
  }
  StringRef word = strategy == LoopStrategy::Masked ? "masked" : "per-lane";
  loop->emitRemark() << "loop is " << word << ": " << reason << "; " << why;
  return strategy;
}

/// True for a loop inside a divergent loop of this function: it is batched
/// here only when that loop is masked.
bool FunctionBatcher::isNestedInDivergentLoop(Operation *loop) const {
  for (Operation *parent = loop->getParentOp(); parent;
       parent = parent->getParentOp())
    if (isa<scf::WhileOp, scf::ForOp>(parent) &&
        analysis.isControlBatched(parent))
      return true;
  return false;
}

bool FunctionBatcher::isGangRoot(Operation *loop) const {
  return gangBody && isa<FunctionOpInterface>(loop->getParentOp());
}

/// A divergent loop inside a gang (the gang's own loop, in the function it
/// is outlined to, or a loop nested in it or called from it) is masked on
/// the gang's lanes, unless pinned to per-lane.
std::optional<LoopStrategy>
FunctionBatcher::getStrategyInGang(Operation *loop, LoopStrategyAttr pin,
                                   const std::string &reason) {
  // The gang's remark is at this loop already (the outlined clone keeps its
  // location).
  if (isGangRoot(loop))
    return LoopStrategy::Masked;
  bool nested = inGang;
  for (Operation *parent = loop->getParentOp(); parent && !nested;
       parent = parent->getParentOp())
    nested = gangLoops.contains(parent);
  if (!nested)
    return std::nullopt;
  if (pin && pin.getValue() == LoopStrategy::PerLane) {
    loop->emitRemark() << "loop is per-lane: " << reason
                       << "; pinned by loom.strategy, inside a gang";
    return LoopStrategy::PerLane;
  }
  InFlightDiagnostic remark = loop->emitRemark();
  remark << "loop is masked: it runs inside a gang of " << getGangWidth()
         << " lanes, on the gang's lanes";
  if (pin && pin.getValue() == LoopStrategy::Gang)
    remark << " (loom.strategy<gang> applies to the outermost divergent "
              "loop of a nest)";
  return LoopStrategy::Masked;
}

LoopVariant FunctionBatcher::getVariant(Operation *loop,
                                        bool alternative) const {
  auto it = variants.find(loop);
  assert(it != variants.end() && "a loop compiled one way");
  return alternative ? it->second.second : it->second.first;
}

std::string FunctionBatcher::describeVariant(Operation *loop,
                                             bool alternative) const {
  LoopVariant variant = getVariant(loop, alternative);
  std::string name = mlir::loom::describeVariant(variant);
  if (variant.strategy == LoopStrategy::Gang)
    name += " (width " + std::to_string(getGangWidth()) + ")";
  return name;
}

LoopStrategy FunctionBatcher::useVariant(Operation *loop, bool alternative) {
  LoopVariant variant = getVariant(loop, alternative);
  gangLoops.erase(loop);
  refillLoops.erase(loop);
  if (variant.strategy == LoopStrategy::Gang) {
    gangLoops.insert(loop);
    if (variant.refill)
      refillLoops.insert(loop);
  }
  return variant.strategy;
}
