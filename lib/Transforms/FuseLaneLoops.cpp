//===- FuseLaneLoops.cpp - Sibling loops over the same lanes as one -------===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//
//
// The legality argument is in the pass's description (Passes.td). In short:
// fusing A; B into one loop runs B(i) before A(j) for every i < j, and that
// is only wrong where they touch the same memory and one of them writes. Each
// access below is traced through views to the buffer it lies in (its root)
// and to the root's dimension whose index is the induction variable (its
// row); two accesses in the same row dimension of the same root, in
// iterations i != j, touch different elements.
//
//===----------------------------------------------------------------------===//

#include "loom/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Utils/Utils.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ValueBoundsOpInterface.h"
#include "llvm/ADT/MapVector.h"

namespace mlir::loom {
#define GEN_PASS_DEF_LOOMFUSELANELOOPS
#include "loom/Transforms/Passes.h.inc"
} // namespace mlir::loom

using namespace mlir;

namespace {

/// Where a buffer comes from, as far as aliasing goes.
enum class RootKind {
  /// memref.alloc or memref.alloca: aliases nothing it is not derived from.
  Fresh,
  /// An argument of the function: may alias other arguments.
  Argument,
  /// Anything else (a loop's block argument, a call's result): may alias
  /// anything.
  Unknown,
};

/// One memref.load or memref.store of a loop body, traced to its root.
struct Access {
  Value root;
  RootKind kind;
  /// The root's dimension indexed by exactly the induction variable, if
  /// there is one.
  std::optional<unsigned> row;
  bool write;
};

/// What a loop over lanes does, if fusion can reason about all of it.
struct LoopSummary {
  SmallVector<Access> accesses;
  /// Whether LLVM's loop vectorizer can widen it: no libm call, no float
  /// carried between iterations. Only loops alike in this are fused, so
  /// fusion never makes a vectorizable loop scalar.
  bool vectorizable = true;
};

} // namespace

/// True when `v` is the same in every iteration of `loop`.
static bool isInvariant(Value v, scf::ForOp loop) {
  return !loop->isAncestor(v.getParentRegion()->getParentOp());
}

/// True for math ops that convert-math-to-libm turns into calls, which the
/// loop vectorizer can only repeat lane by lane: all but these, sqrt and
/// fma included (MLIR 19 makes sqrtf and fma calls of them).
static bool becomesLibmCall(Operation *op) {
  if (op->getDialect()->getNamespace() !=
      math::MathDialect::getDialectNamespace())
    return false;
  return !isa<math::AbsFOp, math::AbsIOp, math::CopySignOp,
              math::CountLeadingZerosOp, math::CountTrailingZerosOp,
              math::CtPopOp>(op);
}

/// Traces the buffer that `access` reads or writes, indexed by `indices`,
/// through subviews and casts to its root. `row` is the dimension of the
/// current view indexed by exactly `iv`, if any.
static std::optional<Access> traceAccess(Value memref, ValueRange indices,
                                         bool write, scf::ForOp loop) {
  Value iv = loop.getInductionVar();
  std::optional<unsigned> row;
  for (auto [dim, index] : llvm::enumerate(indices)) {
    if (index == iv) {
      row = row ? row : std::optional<unsigned>(dim);
      continue;
    }
    if (!isInvariant(index, loop))
      return std::nullopt;
  }
  Value view = memref;
  while (Operation *def = view.getDefiningOp()) {
    if (auto cast = dyn_cast<memref::CastOp>(def)) {
      view = cast.getSource();
      continue;
    }
    auto subview = dyn_cast<memref::SubViewOp>(def);
    if (!subview)
      break;
    for (Value operand : subview->getOperands().drop_front())
      if (operand != iv && !isInvariant(operand, loop))
        return std::nullopt;
    // Result dimension k is source dimension s: dropped unit dimensions
    // have no result dimension.
    llvm::SmallBitVector dropped = subview.getDroppedDims();
    SmallVector<OpFoldResult> offsets = subview.getMixedOffsets();
    SmallVector<OpFoldResult> sizes = subview.getMixedSizes();
    SmallVector<OpFoldResult> strides = subview.getMixedStrides();
    std::optional<unsigned> sourceRow;
    for (unsigned s = 0, k = 0, e = offsets.size(); s < e; ++s) {
      bool kept = !dropped.test(s);
      // The source index is offset + x * stride with x in [0, size): the
      // induction variable itself where the offset is it and the size 1,
      // or where x is it, the offset 0 and the stride 1.
      auto offsetValue = offsets[s].dyn_cast<Value>();
      if (offsetValue == iv && isConstantIntValue(sizes[s], 1))
        sourceRow = sourceRow ? sourceRow : std::optional<unsigned>(s);
      else if (kept && row == k && isConstantIntValue(offsets[s], 0) &&
               isConstantIntValue(strides[s], 1))
        sourceRow = sourceRow ? sourceRow : std::optional<unsigned>(s);
      else if (kept && row == k)
        return std::nullopt;
      k += kept;
    }
    row = sourceRow;
    view = subview.getSource();
  }
  RootKind kind = RootKind::Unknown;
  if (isa_and_nonnull<memref::AllocOp, memref::AllocaOp>(view.getDefiningOp()))
    kind = RootKind::Fresh;
  else if (auto arg = dyn_cast<BlockArgument>(view);
           arg && arg.getOwner()->isEntryBlock() &&
           isa<FunctionOpInterface>(arg.getOwner()->getParentOp()))
    kind = RootKind::Argument;
  // Distinct rows are distinct elements only where the root's layout is
  // one to one.
  if (!cast<MemRefType>(view.getType()).getLayout().isIdentity())
    row = std::nullopt;
  return Access{view, kind, row, write};
}

namespace {

/// Which calls a loop may be fused across: calls of functions that read and
/// write no memory (loom-vector-variants' `_lanewise` copies of threefry
/// and erfinv, a program's scalar helpers, loom-libm-to-arith's `sinf`),
/// and of those the calls that LLVM's loop vectorizer widens.
class Callees {
public:
  /// Whether `op` calls a function that reads and writes no memory, and if
  /// so whether the function has vector variants; nothing for another op.
  std::optional<bool> pureCallVectorizes(Operation *op) {
    if (auto call = dyn_cast<func::CallOp>(op)) {
      auto callee = symbols.lookupNearestSymbolFrom<func::FuncOp>(
          call, call.getCalleeAttr());
      if (!callee || !isPure(callee))
        return std::nullopt;
      return hasVectorVariants(callee->getAttrOfType<ArrayAttr>("passthrough"));
    }
    if (auto call = dyn_cast<LLVM::CallOp>(op)) {
      auto callee = call.getCalleeAttr()
                        ? symbols.lookupNearestSymbolFrom<LLVM::LLVMFuncOp>(
                              call, call.getCalleeAttr())
                        : LLVM::LLVMFuncOp();
      auto none = LLVM::ModRefInfo::NoModRef;
      if (!callee || callee.getMemoryAttr() !=
                         LLVM::MemoryEffectsAttr::get(op->getContext(),
                                                      {none, none, none}))
        return std::nullopt;
      return hasVectorVariants(callee.getPassthroughAttr());
    }
    return std::nullopt;
  }

private:
  /// Whether `passthrough` (LLVM function attributes) names vector variants
  /// for the loop vectorizer: `vector-function-abi-variant`.
  static bool hasVectorVariants(ArrayAttr passthrough) {
    return passthrough && llvm::any_of(passthrough, [](Attribute entry) {
             auto pair = dyn_cast<ArrayAttr>(entry);
             auto key = pair && pair.size() == 2 ? dyn_cast<StringAttr>(pair[0])
                                                 : StringAttr();
             return key && key.getValue() == "vector-function-abi-variant";
           });
  }

  bool isPure(func::FuncOp fn) {
    auto [it, inserted] = pure.try_emplace(fn, false);
    if (!inserted)
      return it->second; // false while fn is being decided: recursion
    if (fn.isExternal())
      return false;
    bool result =
        !fn.getBody()
             .walk([&](Operation *op) {
               if (isa<func::CallOp, LLVM::CallOp>(op))
                 return pureCallVectorizes(op) ? WalkResult::advance()
                                               : WalkResult::interrupt();
               // A loop or branch is judged by the ops in it.
               if (op->hasTrait<OpTrait::HasRecursiveMemoryEffects>() ||
                   isMemoryEffectFree(op))
                 return WalkResult::advance();
               return WalkResult::interrupt();
             })
             .wasInterrupted();
    pure[fn] = result;
    return result;
  }

  SymbolTableCollection symbols;
  DenseMap<Operation *, bool> pure;
};

} // namespace

/// Summarises `loop`, or fails where something in it is beyond what fusion
/// reasons about: nested regions (loops, branches), ops with memory effects
/// other than loads and stores, calls of functions that may have any,
/// iter_args that are not integers or index.
static FailureOr<LoopSummary> summarize(scf::ForOp loop, Callees &callees) {
  LoopSummary summary;
  for (Value carried : loop.getRegionIterArgs()) {
    if (!carried.getType().isIntOrIndex())
      return failure();
  }
  for (Operation &op : loop.getBody()->without_terminator()) {
    if (op.getNumRegions())
      return failure();
    std::optional<Access> access;
    if (auto load = dyn_cast<memref::LoadOp>(op))
      access = traceAccess(load.getMemRef(), load.getIndices(), false, loop);
    else if (auto store = dyn_cast<memref::StoreOp>(op))
      access = traceAccess(store.getMemRef(), store.getIndices(), true, loop);
    else if (isMemoryEffectFree(&op)) {
      summary.vectorizable &= !becomesLibmCall(&op);
      continue;
    } else if (std::optional<bool> vectorizes =
                   callees.pureCallVectorizes(&op)) {
      summary.vectorizable &= *vectorizes;
      continue;
    } else
      return failure();
    if (!access)
      return failure();
    summary.accesses.push_back(*access);
  }
  return summary;
}

/// True when `a` in iteration j and `b` in iteration i != j cannot touch the
/// same element, or neither writes.
static bool independent(const Access &a, const Access &b) {
  if (!a.write && !b.write)
    return true;
  if (a.root == b.root)
    return a.row && a.row == b.row;
  auto fresh = [](RootKind k) { return k == RootKind::Fresh; };
  // A fresh allocation aliases no other root (every view of it traces to
  // it), and no argument.
  return (fresh(a.kind) && b.kind != RootKind::Unknown) ||
         (fresh(b.kind) && a.kind != RootKind::Unknown);
}

/// Where LLVM cannot tell two buffers of a loop apart, one of them written,
/// the loop vectorizer checks at run time that they do not overlap, and
/// keeps a scalar copy of the loop for when they do. Past about 128 checks
/// it does not vectorize the loop (uncapped fusion made the masked ODE's
/// calls 2x slower), and well before that the checks and the copies cost
/// more compile time than the fusion saves: on the masked SDE's @main, at
/// most 8, 16, 32 and 96 pairs compiled in a median 722, 669, 683 and
/// 865 ms, against 817-831 ms unfused (interleaved runs, 2026-12-02, when
/// buffers were malloc'd behind an inttoptr and every pair needed a check).
/// A fused loop is kept to this many pairs.
constexpr int64_t kMaxRuntimeChecks = 16;

/// True when a loop with the accesses of `a` and of `b` needs no more
/// run-time overlap checks than kMaxRuntimeChecks. The CPU lowering
/// allocates with aligned_alloc, which LLVM knows aliases no other
/// allocation, so two fresh buffers need no check; but a buffer that may be
/// any (a loop's block argument, a phi in LLVM) joins every buffer it may
/// be into one alias set, whose every pair the vectorizer then checks, so
/// with one of those all pairs count.
static bool withinRuntimeChecks(ArrayRef<Access> a, ArrayRef<Access> b) {
  struct Root {
    RootKind kind;
    bool written = false;
  };
  llvm::SmallMapVector<Value, Root, 16> roots;
  for (ArrayRef<Access> accesses : {a, b}) {
    for (const Access &access : accesses) {
      Root &root = roots.insert({access.root, {access.kind}}).first->second;
      root.written |= access.write;
    }
  }
  bool anyUnknown = llvm::any_of(roots, [](const auto &root) {
    return root.second.kind == RootKind::Unknown;
  });
  auto fresh = [](const Root &root) { return root.kind == RootKind::Fresh; };
  int64_t checks = 0;
  for (auto *x = roots.begin(); x != roots.end(); ++x)
    for (auto *y = std::next(x); y != roots.end(); ++y)
      checks += (x->second.written || y->second.written) &&
                (anyUnknown || !fresh(x->second) || !fresh(y->second));
  return checks <= kMaxRuntimeChecks;
}

/// True when two loop bounds are the same index value.
static bool sameBound(Value a, Value b) {
  if (a == b)
    return true;
  std::optional<int64_t> ca = getConstantIntValue(a);
  std::optional<int64_t> cb = getConstantIntValue(b);
  if (ca || cb)
    return ca && cb && *ca == *cb;
  FailureOr<bool> equal = ValueBoundsConstraintSet::areEqual(a, b);
  return succeeded(equal) && *equal;
}

/// True when `first` and `second`, with only memory-effect-free ops between
/// them, can run as one loop with the same results.
static bool canFuse(scf::ForOp first, scf::ForOp second, Callees &callees) {
  if (!sameBound(first.getLowerBound(), second.getLowerBound()) ||
      !sameBound(first.getUpperBound(), second.getUpperBound()) ||
      !sameBound(first.getStep(), second.getStep()))
    return false;
  // The fused loop takes the second's place: nothing up to its end may
  // read what the first computes.
  for (Operation *user : first->getUsers()) {
    Operation *inBlock = second->getBlock()->findAncestorOpInBlock(*user);
    if (!inBlock || !second->isBeforeInBlock(inBlock))
      return false;
  }
  FailureOr<LoopSummary> a = summarize(first, callees);
  FailureOr<LoopSummary> b = summarize(second, callees);
  if (failed(a) || failed(b) || a->vectorizable != b->vectorizable)
    return false;
  for (const Access &x : a->accesses)
    for (const Access &y : b->accesses)
      if (!independent(x, y))
        return false;
  return withinRuntimeChecks(a->accesses, b->accesses);
}

/// Fuses each run of adjacent fusable loops in `block`.
static void fuseIn(Block &block, RewriterBase &rewriter, Callees &callees) {
  scf::ForOp current;
  for (Operation *op = &block.front(); op;) {
    Operation *next = op->getNextNode();
    auto loop = dyn_cast<scf::ForOp>(op);
    if (loop && current && canFuse(current, loop, callees)) {
      current = fuseIndependentSiblingForLoops(current, loop, rewriter);
      op = current->getNextNode();
      continue;
    }
    if (loop)
      current = loop;
    else if (!isMemoryEffectFree(op))
      current = nullptr;
    op = next;
  }
}

namespace {

struct LoomFuseLaneLoops
    : loom::impl::LoomFuseLaneLoopsBase<LoomFuseLaneLoops> {
  void runOnOperation() override {
    // Fusable loops hold no region, so no block collected here is inside
    // one that fusion erases.
    SmallVector<Block *> blocks;
    getOperation()->walk([&](Block *block) {
      if (llvm::count_if(*block, llvm::IsaPred<scf::ForOp>) > 1)
        blocks.push_back(block);
    });
    IRRewriter rewriter(&getContext());
    Callees callees;
    for (Block *block : blocks)
      fuseIn(*block, rewriter, callees);
  }
};

} // namespace
