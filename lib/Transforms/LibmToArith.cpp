//===- LibmToArith.cpp - libm calls as vectorizable arithmetic ------------===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//
//
// Which calls become arithmetic: those that LLVM's loop vectorizer will
// widen. The functions themselves are in SinfToArith.cpp and
// Log1pfToArith.cpp.
//
//===----------------------------------------------------------------------===//

#include "LibmToArith.h"
#include "loom/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Interfaces/LoopLikeInterface.h"

namespace mlir::loom {
#define GEN_PASS_DEF_LOOMLIBMTOARITH
#include "loom/Transforms/Passes.h.inc"
} // namespace mlir::loom

using namespace mlir;

namespace {

bool containsLoop(Region &region) {
  return region
      .walk([](LoopLikeOpInterface) { return WalkResult::interrupt(); })
      .wasInterrupted();
}

/// True when `op` is in a loop that LLVM's loop vectorizer can widen: a
/// counted loop with no loop inside, which carries no float from one
/// iteration to the next (the loops over lanes that Loom's lowering makes;
/// LLVM cannot reorder a float reduction). Elsewhere the code stays scalar,
/// where glibc's branches beat computing every case.
bool isInVectorizableLoop(Operation *op) {
  auto loop = op->getParentOfType<LoopLikeOpInterface>();
  if (!loop || !isa<scf::ForOp, scf::ParallelOp>(loop.getOperation()))
    return false;
  if (llvm::any_of(loop.getRegionIterArgs(), [](Value carried) {
        return isa<FloatType>(getElementTypeOrSelf(carried.getType()));
      }))
    return false;
  return !containsLoop(loop->getRegion(0));
}

/// The ops of `func` that are rewritten, and the calls through which
/// more may be reached.
SmallVector<Operation *> candidates(func::FuncOp func) {
  SmallVector<Operation *> ops;
  func.walk([&](Operation *op) {
    if (isa<math::SinOp, math::Log1pOp, func::CallOp>(op))
      ops.push_back(op);
  });
  return ops;
}

/// Rewrites the libm functions that will be vectorized. A function called
/// from such a loop is inlined there by LLVM and vectorized with it: those
/// calls go to a private copy whose functions (and callees, likewise) are
/// rewritten, while other callers keep calling glibc.
class LibmRewriter {
public:
  explicit LibmRewriter(ModuleOp module) : module(module) {}

  void run() {
    // Host functions only: a GPU kernel's sin goes to libdevice.
    SmallVector<Operation *> vectorized;
    for (auto func : llvm::to_vector(module.getOps<func::FuncOp>()))
      llvm::copy_if(candidates(func), std::back_inserter(vectorized),
                    isInVectorizableLoop);
    rewrite(vectorized);
  }

private:
  void rewrite(ArrayRef<Operation *> ops) {
    for (Operation *op : ops) {
      if (auto call = dyn_cast<func::CallOp>(op)) {
        if (func::FuncOp copy = vectorizedCopy(call))
          call.setCallee(copy.getSymName());
        continue;
      }
      Value x = op->getOperand(0);
      if (!x.getType().isF32())
        continue;
      OpBuilder b(op);
      op->getResult(0).replaceAllUsesWith(
          isa<math::SinOp>(op) ? loom::libm::expandSinf(b, op->getLoc(), x)
                               : loom::libm::expandLog1pf(b, op->getLoc(), x));
      op->erase();
    }
  }

  /// The copy of `call`'s callee with its functions rewritten; null when it
  /// has none, or has loops (the caller's loop is then not innermost once
  /// inlined), or is only declared.
  func::FuncOp vectorizedCopy(func::CallOp call) {
    auto callee = module.lookupSymbol<func::FuncOp>(call.getCalleeAttr());
    if (!callee || callee.isExternal() || containsLoop(callee.getBody()))
      return {};
    auto [it, inserted] = copies.try_emplace(callee, nullptr);
    if (!inserted)
      return it->second;
    if (candidates(callee).empty())
      return {};
    func::FuncOp copy = callee.clone();
    copy.setPrivate();
    copy.setSymName(callee.getSymName().str() + "__vectorized");
    // Renamed further if that name is taken.
    SymbolTable(module).insert(copy, std::next(callee->getIterator()));
    it->second = copy;
    rewrite(candidates(copy));
    return copy;
  }

  ModuleOp module;
  DenseMap<Operation *, func::FuncOp> copies;
};

struct LoomLibmToArith : loom::impl::LoomLibmToArithBase<LoomLibmToArith> {
  void runOnOperation() override { LibmRewriter(getOperation()).run(); }
};

} // namespace
