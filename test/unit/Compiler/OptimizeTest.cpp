//===- OptimizeTest.cpp - The CPU backend's LLVM pipeline -----------------===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//
//
// What lib/Compiler/CPU/Optimize.cpp changes in LLVM's O3 pipeline, checked
// on the loops it leaves.
//
//===----------------------------------------------------------------------===//

#include "CPU/Optimize.h"

#include "llvm/Analysis/LoopInfo.h"
#include "llvm/AsmParser/Parser.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/TargetParser/Host.h"

#include <gtest/gtest.h>

#include <memory>

namespace {

// A loop that branches on a loop-invariant flag, both sides staying in the
// loop (calls LLVM can neither vectorize nor move): non-trivial unswitching
// would make it two loops, one for each value of the flag.
constexpr const char *kInvariantBranch = R"ll(
declare void @sink(i32)

define void @_mlir_main(i64 %n, i1 %flag) {
entry:
  %empty = icmp eq i64 %n, 0
  br i1 %empty, label %exit, label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %next, %latch ]
  br i1 %flag, label %yes, label %no
yes:
  call void @sink(i32 1)
  br label %latch
no:
  call void @sink(i32 2)
  br label %latch
latch:
  %next = add i64 %i, 1
  %done = icmp eq i64 %next, %n
  br i1 %done, label %exit, label %loop
exit:
  ret void
}
)ll";

std::unique_ptr<llvm::TargetMachine> hostMachine() {
  llvm::InitializeNativeTarget();
  std::string triple = llvm::sys::getProcessTriple(), error;
  const llvm::Target *target =
      llvm::TargetRegistry::lookupTarget(triple, error);
  if (!target)
    return nullptr;
  return std::unique_ptr<llvm::TargetMachine>(target->createTargetMachine(
      triple, llvm::sys::getHostCPUName(), "", {}, std::nullopt));
}

unsigned countLoops(llvm::Function &fn) {
  llvm::DominatorTree dominators(fn);
  llvm::LoopInfo loops(dominators);
  return loops.getLoopsInPreorder().size();
}

TEST(OptimizeTest, KeepsALoopWithAnInvariantBranchWhole) {
  std::unique_ptr<llvm::TargetMachine> tm = hostMachine();
  ASSERT_TRUE(tm) << "no target for this host";
  llvm::LLVMContext context;
  llvm::SMDiagnostic diagnostic;
  std::unique_ptr<llvm::Module> module =
      llvm::parseAssemblyString(kInvariantBranch, diagnostic, context);
  ASSERT_TRUE(module) << diagnostic.getMessage().str();
  module->setDataLayout(tm->createDataLayout());
  ASSERT_FALSE(llvm::errorToBool(
      loom::detail::optimizeModule(*module, 3, *tm, "_mlir_main")));
  llvm::Function *main = module->getFunction("_mlir_main");
  ASSERT_TRUE(main);
  EXPECT_EQ(countLoops(*main), 1u);
}

} // namespace
