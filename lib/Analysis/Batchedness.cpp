//===- Batchedness.cpp - Which values differ from lane to lane ------------===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//

#include "loom/Analysis/Batchedness.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Transforms/RegionUtils.h"

using namespace mlir;
using namespace mlir::loom;

//===----------------------------------------------------------------------===//
// BatchednessAnalysis
//===----------------------------------------------------------------------===//

std::optional<BatchedReason> BatchednessAnalysis::getReason(Value value) const {
  if (!isBatched(value))
    return std::nullopt;
  auto it = reasons.find(value);
  return it == reasons.end() ? BatchedReason{} : it->second;
}

/// The value whose batchedness made `op`'s control batched.
static Value getControlValue(Operation *op,
                             function_ref<bool(Value)> isBatched) {
  if (auto loop = dyn_cast<scf::WhileOp>(op))
    return loop.getConditionOp().getCondition();
  if (auto branch = dyn_cast<scf::IfOp>(op))
    return branch.getCondition();
  if (auto loop = dyn_cast<scf::ForOp>(op))
    for (Value bound :
         {loop.getLowerBound(), loop.getUpperBound(), loop.getStep()})
      if (isBatched(bound))
        return bound;
  return {};
}

SmallVector<Value> BatchednessAnalysis::getReasonChain(Value value) const {
  SmallVector<Value> chain;
  auto batchedFn = [&](Value v) { return isBatched(v); };
  // Every reason points at a value that was batched strictly earlier, so the
  // chain cannot cycle; should that invariant break, it ends where it would
  // revisit a value.
  DenseSet<Value> seen;
  while (value && isBatched(value) && seen.insert(value).second) {
    chain.push_back(value);
    auto it = reasons.find(value);
    if (it == reasons.end())
      break;
    value = it->second.source ? it->second.source
                              : getControlValue(it->second.control, batchedFn);
  }
  return chain;
}

bool BatchednessAnalysis::mark(Value value, BatchedReason reason) {
  if (!batched.insert(value).second)
    return false;
  reasons[value] = reason;
  changed = true;
  return true;
}

bool BatchednessAnalysis::markControl(Operation *op) {
  if (!batchedControl.insert(op).second)
    return false;
  changed = true;
  return true;
}

Value BatchednessAnalysis::firstBatched(ValueRange values) const {
  for (Value v : values)
    if (isBatched(v))
      return v;
  return {};
}

/// Data dependence through any op Loom has no special knowledge of: every
/// result (and every argument of its regions) is batched as soon as one
/// operand or one value the regions capture is.
void BatchednessAnalysis::visitGeneric(Operation *op) {
  Value source = firstBatched(op->getOperands());
  if (!source && op->getNumRegions() != 0)
    visitUsedValuesDefinedAbove(op->getRegions(), [&](OpOperand *use) {
      if (!source && isBatched(use->get()))
        source = use->get();
    });
  if (!source)
    return;
  for (Value result : op->getResults())
    mark(result, {source});
  for (Region &region : op->getRegions())
    for (Block &block : region)
      for (BlockArgument arg : block.getArguments())
        mark(arg, {source});
}

void BatchednessAnalysis::visitWhile(Operation *op) {
  auto loop = cast<scf::WhileOp>(op);
  scf::ConditionOp cond = loop.getConditionOp();
  // Lanes whose predicates differ leave the loop at different iterations,
  // so every carry differs per lane from then on (JAX batches them all too).
  bool predBatched = isBatched(cond.getCondition());
  if (predBatched)
    markControl(op);
  for (auto [init, arg, yielded] :
       llvm::zip(loop.getInits(), loop.getBeforeArguments(),
                 loop.getYieldOp().getResults())) {
    if (isBatched(init))
      mark(arg, {init});
    else if (isBatched(yielded))
      mark(arg, {yielded});
    else if (predBatched)
      mark(arg, {Value(), op});
  }
  for (auto [forwarded, arg, result] :
       llvm::zip(cond.getArgs(), loop.getAfterArguments(), loop.getResults())) {
    if (isBatched(forwarded)) {
      mark(arg, {forwarded});
      mark(result, {forwarded});
    } else if (predBatched) {
      mark(arg, {Value(), op});
      mark(result, {Value(), op});
    }
  }
}

void BatchednessAnalysis::visitFor(Operation *op) {
  auto loop = cast<scf::ForOp>(op);
  bool boundsBatched = firstBatched({loop.getLowerBound(), loop.getUpperBound(),
                                     loop.getStep()}) != nullptr;
  if (boundsBatched) {
    markControl(op);
    mark(loop.getInductionVar(), {Value(), op});
  }
  auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
  for (auto [init, arg, yielded, result] :
       llvm::zip(loop.getInitArgs(), loop.getRegionIterArgs(),
                 yield.getResults(), loop.getResults())) {
    if (isBatched(init))
      mark(arg, {init});
    else if (isBatched(yielded))
      mark(arg, {yielded});
    else if (boundsBatched)
      mark(arg, {Value(), op});
    if (isBatched(arg))
      mark(result, {arg});
  }
}

void BatchednessAnalysis::visitIf(Operation *op) {
  auto branch = cast<scf::IfOp>(op);
  bool condBatched = isBatched(branch.getCondition());
  if (condBatched)
    markControl(op);
  if (branch.getNumResults() == 0)
    return;
  ValueRange thenValues = branch.thenYield().getResults();
  ValueRange elseValues = branch.elseYield().getResults();
  for (auto [result, thenValue, elseValue] :
       llvm::zip(branch.getResults(), thenValues, elseValues)) {
    if (isBatched(thenValue))
      mark(result, {thenValue});
    else if (isBatched(elseValue))
      mark(result, {elseValue});
    else if (condBatched)
      mark(result, {Value(), op});
  }
}

LogicalResult BatchednessAnalysis::visitCall(func::CallOp call,
                                             BatchednessSolver &solver) {
  func::FuncOp callee = solver.lookupCallee(call);
  if (!callee)
    return call.emitError() << "cannot batch a call to @" << call.getCallee()
                            << ", which is not a func.func";
  Value source = firstBatched(call.getOperands());
  // A call that reads nothing batched is the same on every lane; not
  // analysing it also lets vmapped code call recursive scalar helpers.
  if (!source)
    return success();
  if (callee.isExternal()) {
    for (Value result : call.getResults())
      mark(result, {source});
    return success();
  }
  SmallVector<bool> signature;
  for (Value operand : call.getOperands())
    signature.push_back(isBatched(operand));
  FailureOr<const BatchednessAnalysis *> sub =
      solver.analyze(callee, signature, call);
  if (failed(sub))
    return failure();
  callees[call] = *sub;
  auto ret = cast<func::ReturnOp>(callee.getBody().front().getTerminator());
  for (auto [i, result] : llvm::enumerate(call.getResults())) {
    if (!(*sub)->getResultBatched()[i])
      continue;
    // Name the call operand the returned value came from, so explanations
    // stay in the caller.
    Value from = source;
    SmallVector<Value> chain = (*sub)->getReasonChain(ret.getOperand(i));
    if (!chain.empty())
      if (auto arg = dyn_cast<BlockArgument>(chain.back()))
        if (arg.getOwner() == &callee.getBody().front())
          from = call.getOperand(arg.getArgNumber());
    mark(result, {from});
  }
  return success();
}

LogicalResult BatchednessAnalysis::visit(Operation *op,
                                         BatchednessSolver &solver) {
  if (isa<scf::WhileOp>(op))
    visitWhile(op);
  else if (isa<scf::ForOp>(op))
    visitFor(op);
  else if (isa<scf::IfOp>(op))
    visitIf(op);
  else if (auto call = dyn_cast<func::CallOp>(op))
    return visitCall(call, solver);
  else if (auto dim = dyn_cast<tensor::DimOp>(op)) {
    // Every lane of a batched tensor has the same shape.
    if (isBatched(dim.getIndex()))
      mark(dim.getResult(), {dim.getIndex()});
  } else if (!op->hasTrait<OpTrait::IsTerminator>())
    // Terminators carry values to their parent, whose rule reads them.
    visitGeneric(op);
  return success();
}

LogicalResult BatchednessAnalysis::run(BatchednessSolver &solver) {
  Region &body = func.getBody();
  if (!body.hasOneBlock())
    return func.emitError() << "cannot batch @" << func.getSymName()
                            << ": it has " << body.getBlocks().size()
                            << " blocks, and vmap needs structured control "
                               "flow (scf)";
  for (auto [arg, isArgBatched] : llvm::zip(body.getArguments(), argBatched))
    if (isArgBatched)
      batched.insert(arg);

  // Batchedness only grows, so repeating the walk until nothing changes
  // reaches the least fixpoint; loop carries need one more round per carry
  // that the body feeds back at most.
  do {
    changed = false;
    WalkResult walk = body.walk<WalkOrder::PreOrder>([&](Operation *op) {
      return failed(visit(op, solver)) ? WalkResult::interrupt()
                                       : WalkResult::advance();
    });
    if (walk.wasInterrupted())
      return failure();
  } while (changed);

  body.walk<WalkOrder::PostOrder>([&](Operation *op) {
    bool uses =
        llvm::any_of(op->getOperands(), [&](Value v) { return isBatched(v); });
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (Operation &nested : block)
          uses = uses || users.contains(&nested);
    if (uses)
      users.insert(op);
  });

  Operation *ret = body.front().getTerminator();
  for (Value v : ret->getOperands())
    resultBatched.push_back(isBatched(v));
  return success();
}

//===----------------------------------------------------------------------===//
// BatchednessSolver
//===----------------------------------------------------------------------===//

func::FuncOp BatchednessSolver::lookupCallee(func::CallOp call) {
  // No cached symbol table: passes add functions (batched clones) while
  // they still use the solver.
  return dyn_cast_or_null<func::FuncOp>(
      SymbolTable::lookupSymbolIn(symbolTableOp, call.getCalleeAttr()));
}

void BatchednessSolver::forget(func::FuncOp func) {
  for (auto it = cache.begin(); it != cache.end();) {
    if (it->first.first == func.getOperation())
      it = cache.erase(it);
    else
      ++it;
  }
}

FailureOr<const BatchednessAnalysis *>
BatchednessSolver::analyze(func::FuncOp func, ArrayRef<bool> argBatched,
                           Operation *callSite) {
  if (func.isExternal())
    return (callSite ? callSite : func.getOperation())->emitError()
           << "cannot batch @" << func.getSymName()
           << ": it is only declared, and vmap needs its body";
  std::vector<bool> signature(argBatched.begin(), argBatched.end());
  auto key = std::make_pair(func.getOperation(), signature);
  auto it = cache.find(key);
  if (it != cache.end())
    return it->second.get();
  if (llvm::is_contained(stack, func.getOperation()))
    return (callSite ? callSite : func.getOperation())->emitError()
           << "cannot batch the recursive call to @" << func.getSymName()
           << ": vmap clones a function once per batchedness signature, "
              "which never ends for recursion";

  std::unique_ptr<BatchednessAnalysis> analysis(
      new BatchednessAnalysis(func, argBatched));
  stack.push_back(func);
  LogicalResult result = analysis->run(*this);
  stack.pop_back();
  if (failed(result))
    return failure();
  const BatchednessAnalysis *ptr = analysis.get();
  cache[key] = std::move(analysis);
  return ptr;
}
