//===- InlineBatchedCallees.cpp - Inline loom-vmap's clones ---------------===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//

#include "loom/Transforms/Passes.h"

#include "loom/Dialect/Loom/IR/LoomDialect.h"

#include "mlir/Analysis/CallGraph.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Transforms/InliningUtils.h"
#include "llvm/ADT/SCCIterator.h"

namespace mlir::loom {
#define GEN_PASS_DEF_LOOMINLINEBATCHEDCALLEES
#include "loom/Transforms/Passes.h.inc"
} // namespace mlir::loom

using namespace mlir;

namespace {

bool isBatched(func::FuncOp func) {
  return func && !func.isExternal() &&
         func->hasAttr(loom::LoomDialect::kBatchedAttrName);
}

/// The batched function of a call graph node, or null.
func::FuncOp batchedFunctionOf(CallGraphNode *node) {
  if (node->isExternal())
    return {};
  auto func = dyn_cast<func::FuncOp>(node->getCallableRegion()->getParentOp());
  return isBatched(func) ? func : func::FuncOp();
}

struct LoomInlineBatchedCallees
    : loom::impl::LoomInlineBatchedCalleesBase<LoomInlineBatchedCallees> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    InlinerInterface inliner(&getContext());
    // Callees before callers (the call graph's SCCs bottom-up, as upstream's
    // inliner visits them): a callee's own batched calls are already inlined
    // when it is inlined, so one visit of each function inlines everything.
    // A batched function in a call cycle could never be inlined away;
    // loom-vmap rejects recursion, so only hand-written IR gets here.
    const CallGraph callGraph(module);
    for (auto scc = llvm::scc_begin(&callGraph); !scc.isAtEnd(); ++scc) {
      if (scc.hasCycle()) {
        // The cycle's first batched function in the module, so that the
        // error does not depend on the order of the call graph's nodes.
        func::FuncOp first;
        for (CallGraphNode *node : *scc)
          if (func::FuncOp func = batchedFunctionOf(node))
            if (!first || func->isBeforeInBlock(first))
              first = func;
        if (first) {
          first.emitError()
              << "cannot inline the batched function @" << first.getSymName()
              << ": it is part of a call cycle";
          return signalPassFailure();
        }
      }
      for (CallGraphNode *node : *scc) {
        if (node->isExternal())
          continue;
        SmallVector<func::CallOp> calls;
        node->getCallableRegion()->walk([&](func::CallOp call) {
          if (isBatched(symbols.lookup<func::FuncOp>(call.getCallee())))
            calls.push_back(call);
        });
        for (func::CallOp call : calls) {
          auto callee = symbols.lookup<func::FuncOp>(call.getCallee());
          if (failed(inlineCall(inliner, call, callee, &callee.getBody()))) {
            call.emitError()
                << "cannot inline the batched callee @" << call.getCallee();
            return signalPassFailure();
          }
          call.erase();
        }
      }
    }
    for (auto func : llvm::make_early_inc_range(module.getOps<func::FuncOp>()))
      if (isBatched(func) && func.isPrivate() &&
          SymbolTable::symbolKnownUseEmpty(func, module))
        func.erase();
  }
};

} // namespace
