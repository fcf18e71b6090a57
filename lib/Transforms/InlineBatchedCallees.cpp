//===- InlineBatchedCallees.cpp - Inline loom-vmap's clones ---------------===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//

#include "loom/Transforms/Passes.h"

#include "loom/Dialect/Loom/IR/LoomDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Transforms/InliningUtils.h"

namespace mlir::loom {
#define GEN_PASS_DEF_LOOMINLINEBATCHEDCALLEES
#include "loom/Transforms/Passes.h.inc"
} // namespace mlir::loom

using namespace mlir;

namespace {

struct LoomInlineBatchedCallees
    : loom::impl::LoomInlineBatchedCalleesBase<LoomInlineBatchedCallees> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    InlinerInterface inliner(&getContext());
    auto isBatched = [](func::FuncOp func) {
      return func && !func.isExternal() &&
             func->hasAttr(loom::LoomDialect::kBatchedAttrName);
    };
    // A callee's own batched calls are inlined with it and found again on
    // the next round; loom-vmap rejects recursion, and the bound keeps a
    // malformed module from looping here.
    for (unsigned round = 0; round < 64; ++round) {
      SmallVector<func::CallOp> calls;
      module.walk([&](func::CallOp call) {
        if (isBatched(symbols.lookup<func::FuncOp>(call.getCallee())))
          calls.push_back(call);
      });
      if (calls.empty())
        break;
      for (func::CallOp call : calls) {
        auto callee = symbols.lookup<func::FuncOp>(call.getCallee());
        if (failed(inlineCall(inliner, call, callee, &callee.getBody()))) {
          call.emitError() << "cannot inline the batched callee @"
                           << call.getCallee();
          return signalPassFailure();
        }
        call.erase();
      }
    }
    for (auto func : llvm::make_early_inc_range(module.getOps<func::FuncOp>()))
      if (isBatched(func) && func.isPrivate() &&
          SymbolTable::symbolKnownUseEmpty(func, module))
        func.erase();
  }
};

} // namespace
