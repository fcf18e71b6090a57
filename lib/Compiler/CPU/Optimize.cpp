//===- Optimize.cpp - LLVM's optimization pipeline for CPU code -----------===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//
//
// LLVM's default pipeline at the requested level, with these choices made
// for Loom's modules, whose batched code is many short loops over lanes
// (a masked loop nest lowers to one loop per op and carry):
//
// - Only the entry's packed wrapper is exported. Every other function is
//   internal, so one the inliner has inlined everywhere, or one that
//   batching left unused (the scalar callee of a vmap), is deleted instead
//   of being compiled as well.
// - Loops are not unrolled at run time. On a host whose scheduling model
//   has a loop buffer (Zen, Intel's big cores) LLVM would otherwise unroll
//   every loop of unknown trip count up to the buffer's size and add a
//   remainder loop to each; the vectorizer's interleaving already unrolls
//   the lane loops that pay.
// - Loops of constant trip count are left to LLVM's full unrolling, a
//   gang's lane loops (32 iterations) among them. Keeping loops of 16 or
//   more iterations for the loop vectorizer (llvm.loop.unroll.disable,
//   i32 1) cut the seed SDE's auto @main compile from 937 to 548 ms at the
//   same call time, but made the MWE's auto calls (gangs) 1.4x slower
//   (b3000, min 0.55 against 0.79 ms) and the ODE's 5-35% slower (medians
//   of 3-4 interleaved runs, 2026-12-01, loaded machine). A mark with
//   operand 0, addStringMetadataToLoop's default, reads as "not disabled".
// - The vector variants of loom-libm-to-arith and loom-vector-variants
//   stay external, so that they are not deleted before the vectorizers
//   call them, and are deleted after if none did. Until then the ones
//   nothing calls yet are optnone: most stay uncalled, and the rest get the
//   same optimization after the pipeline (their callees inlined, simplified,
//   SLP-vectorized; the same machine code on the seed's programs and the
//   divergent suite under every strategy). The seed's auto @main compiled
//   6-8% faster: the SDE's in 780 against 827 ms, the MWE's in 338 against
//   366 ms (medians of 3 interleaved runs, 2026-12-07, Zen 1 host).
// - An innermost loop that calls a function with a 16-lane variant (one of
//   loom-vector-variants') is vectorized at 16 lanes, which 256-bit
//   vectors would not choose: each call then runs two independent 8-lane
//   chains. At 8 lanes the seed SDE's masked calls were 20% slower than
//   with the callees inlined (8.5 against 7.1 ms, b300, t1 = 1), at 16 as
//   fast; the auto ones (gangs) 20% faster (5.5-5.8 against 6.4-7.4 ms),
//   and the auto @main compiled in 500 against 590-640 ms of LLVM time
//   (2026-12-07, 2-3 interleaved runs).
// - The SLP vectorizer stays on, though a gang's lane loops now reach the
//   loop vectorizer fused: without it the seed SDE's auto @main compiled no
//   faster (1027 against 1004 ms) and its calls got 10% slower (2
//   interleaved runs, 2026-12-07).
// - No non-trivial loop unswitching (O3's, not O2's). It copies a loop nest
//   for each side of a branch on a loop-invariant value, and a gang nest has
//   several (the refill switch, a uniform flag): without it the seed SDE's
//   auto @main compiled in 482 against 521 ms, its gang-refill one in 455
//   against 538, the ODE's refill in 274 against 311, at the same calls
//   (loom-bench-seed, 2 rounds of 5 interleaved repetitions); the divergent
//   suite's gangs compiled 0-30% faster, calls within 0.89x-1.04x but for
//   noise. O2's unrolling thresholds as well made lorenz_heun's gang calls
//   20% slower (3.6 against 3.0 ms) and were not kept.
// - Vectors are at most 256 bits wide, as ahead-of-time code for its
//   default x86-64-v3 is. With 512-bit vectors each lane loop of 32-bit
//   values also gets a vectorized epilogue (LLVM adds one from 16 lanes
//   up), twice the code for a batch of a few hundred lanes.
//
// Chosen by measuring compile time and calls side by side on the seed's
// programs at 1 shard, against MLIR's makeOptimizingTransformer at O3 on a
// Zen 5 host: the masked SDE's @main compiles in less than half the CPU
// time, the auto one in a third less; the MWE's auto calls got 30% faster,
// the masked SDE's about 7% slower (its threefry lane loops do half the work
// per instruction at 256 bits). None changes a floating-point result: no
// fast-math flag and no contraction are added.
//
//===----------------------------------------------------------------------===//

#include "Optimize.h"

#include "llvm/ADT/StringSet.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Module.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Passes/StandardInstrumentations.h"
#include "llvm/Support/Error.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Transforms/IPO/FunctionAttrs.h"
#include "llvm/Transforms/IPO/GlobalDCE.h"
#include "llvm/Transforms/IPO/InferFunctionAttrs.h"
#include "llvm/Transforms/IPO/Internalize.h"
#include "llvm/Transforms/InstCombine/InstCombine.h"
#include "llvm/Transforms/Scalar/SimplifyCFG.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/LoopUtils.h"
#include "llvm/Transforms/Vectorize/SLPVectorizer.h"
#include "llvm/Transforms/Vectorize/VectorCombine.h"

using namespace loom;
using namespace loom::detail;

static llvm::OptimizationLevel optimizationLevel(unsigned optLevel) {
  switch (optLevel) {
  case 0:
    return llvm::OptimizationLevel::O0;
  case 1:
    return llvm::OptimizationLevel::O1;
  case 2:
    return llvm::OptimizationLevel::O2;
  default:
    return llvm::OptimizationLevel::O3;
  }
}

/// LLVM's pipeline at `level`, without non-trivial loop unswitching at O3.
/// PassBuilder offers no option for it, so the pipeline is printed, changed
/// and parsed back, as `opt -print-pipeline-passes` prints it; where the
/// text is not found (another LLVM), the pipeline stays as it is.
static llvm::ModulePassManager
buildPipeline(llvm::PassBuilder &builder, llvm::OptimizationLevel level,
              llvm::PassInstrumentationCallbacks &callbacks) {
  if (level == llvm::OptimizationLevel::O0)
    return builder.buildO0DefaultPipeline(level);
  llvm::ModulePassManager passes = builder.buildPerModuleDefaultPipeline(level);
  if (level != llvm::OptimizationLevel::O3)
    return passes;
  std::string text;
  llvm::raw_string_ostream os(text);
  passes.printPipeline(os, [&](llvm::StringRef className) {
    return callbacks.getPassNameForClassName(className);
  });
  constexpr llvm::StringLiteral nonTrivial =
      "simple-loop-unswitch<nontrivial;trivial>";
  constexpr llvm::StringLiteral trivialOnly =
      "simple-loop-unswitch<no-nontrivial;trivial>";
  bool changed = false;
  for (size_t at = text.find(nonTrivial); at != std::string::npos;
       at = text.find(nonTrivial, at)) {
    text.replace(at, nonTrivial.size(), trivialOnly);
    changed = true;
  }
  if (!changed)
    return passes;
  llvm::ModulePassManager parsed;
  if (llvm::Error error = builder.parsePassPipeline(parsed, text)) {
    llvm::consumeError(std::move(error));
    return passes;
  }
  return parsed;
}

/// Whether `loop` calls a function that has a 16-lane vector variant.
static bool callsSixteenLaneVariant(const llvm::Loop &loop) {
  for (llvm::BasicBlock *block : loop.blocks())
    for (llvm::Instruction &inst : *block)
      if (auto *call = llvm::dyn_cast<llvm::CallInst>(&inst))
        if (llvm::Function *callee = call->getCalledFunction())
          if (callee->getFnAttribute("vector-function-abi-variant")
                  .getValueAsString()
                  .contains("_ZGV_LLVM_N16"))
            return true;
  return false;
}

/// Marks every loop of `fn`; the vectorizer carries the marks over to the
/// loops it makes.
static void markLoops(llvm::Function &fn) {
  llvm::DominatorTree dominators(fn);
  llvm::LoopInfo loops(dominators);
  for (llvm::Loop *loop : loops.getLoopsInPreorder()) {
    llvm::addStringMetadataToLoop(loop, "llvm.loop.unroll.runtime.disable");
    if (loop->isInnermost() && callsSixteenLaneVariant(*loop))
      llvm::addStringMetadataToLoop(loop, "llvm.loop.vectorize.width", 16);
  }
}

/// The functions that another's vector-function-abi-variant attribute names
/// (loom-libm-to-arith's): nothing calls them until a vectorizer does.
static llvm::StringSet<> getVectorVariants(llvm::Module &module) {
  llvm::StringSet<> names;
  for (llvm::Function &fn : module) {
    llvm::Attribute mappings = fn.getFnAttribute("vector-function-abi-variant");
    if (!mappings.isValid())
      continue;
    llvm::SmallVector<llvm::StringRef> each;
    mappings.getValueAsString().split(each, ',');
    // _ZGV_LLVM_N8v_sinf(__loom_sinf_v8)
    for (llvm::StringRef mapping : each)
      names.insert(mapping.rsplit('(').second.drop_back());
  }
  return names;
}

/// Marks the variants that nothing calls yet optnone (and noinline, which
/// optnone needs), and returns their names. Most are never called: a loop
/// vectorized at 16 lanes calls the 16-lane variant and none of the 4- and
/// 8-lane ones. Optimized with the rest of the module only to be deleted,
/// they took a third of the seed SDE's optimization time. Their attributes
/// (memory(none), nounwind) are inferred first, so that the loops that
/// come to call them are optimized as if their bodies had been.
static llvm::StringSet<> deferVariants(llvm::Module &module,
                                       const llvm::StringSet<> &variants,
                                       llvm::ModuleAnalysisManager &mam) {
  // ExecutionEngine's packed wrapper of each function calls it.
  llvm::ModulePassManager prepare;
  prepare.addPass(llvm::InferFunctionAttrsPass());
  prepare.addPass(llvm::GlobalDCEPass());
  prepare.addPass(llvm::createModuleToPostOrderCGSCCPassAdaptor(
      llvm::PostOrderFunctionAttrsPass()));
  prepare.run(module, mam);
  llvm::StringSet<> deferred;
  for (const auto &name : variants) {
    llvm::Function *fn = module.getFunction(name.getKey());
    if (!fn || fn->isDeclaration() || !fn->use_empty() ||
        fn->hasFnAttribute(llvm::Attribute::AlwaysInline) ||
        fn->hasFnAttribute(llvm::Attribute::NoInline))
      continue;
    fn->addFnAttr(llvm::Attribute::NoInline);
    fn->addFnAttr(llvm::Attribute::OptimizeNone);
    deferred.insert(name.getKey());
  }
  return deferred;
}

/// Deletes the variants nothing calls, and then those that only they
/// called.
static void eraseUncalledVariants(llvm::Module &module,
                                  const llvm::StringSet<> &variants,
                                  llvm::FunctionAnalysisManager &fam) {
  for (bool erased = true; erased;) {
    erased = false;
    for (const auto &name : variants)
      if (llvm::Function *fn = module.getFunction(name.getKey());
          fn && fn->use_empty()) {
        fam.clear(*fn, fn->getName());
        fn->eraseFromParent();
        erased = true;
      }
  }
}

/// Optimizes the deferred variants that a vectorizer came to call, as the
/// full pipeline would have: what they call (another variant: erfinv's
/// calls log1p's) inlined, then simplified.
static void finishDeferredVariants(llvm::Module &module,
                                   const llvm::StringSet<> &deferred,
                                   const llvm::StringSet<> &variants,
                                   llvm::FunctionPassManager &simplify,
                                   llvm::FunctionAnalysisManager &fam) {
  llvm::SmallVector<llvm::Function *> called;
  for (const auto &name : deferred)
    if (llvm::Function *fn = module.getFunction(name.getKey())) {
      fn->removeFnAttr(llvm::Attribute::OptimizeNone);
      fn->removeFnAttr(llvm::Attribute::NoInline);
      called.push_back(fn);
    }
  for (llvm::Function *fn : called) {
    // A few rounds: what one inlines may call more, and a cycle of calls
    // must not inline forever.
    bool inlined = true;
    for (int round = 0; inlined && round < 4; ++round) {
      inlined = false;
      llvm::SmallVector<llvm::CallBase *> calls;
      for (llvm::BasicBlock &block : *fn)
        for (llvm::Instruction &inst : block)
          if (auto *call = llvm::dyn_cast<llvm::CallBase>(&inst))
            if (llvm::Function *callee = call->getCalledFunction();
                callee && callee != fn && !callee->isDeclaration())
              calls.push_back(call);
      for (llvm::CallBase *call : calls) {
        llvm::InlineFunctionInfo info;
        inlined |= llvm::InlineFunction(*call, info).isSuccess();
      }
    }
    fam.invalidate(*fn, llvm::PreservedAnalyses::none());
  }
  // By name: inlining may have left one of them uncalled, and deleted.
  eraseUncalledVariants(module, variants, fam);
  for (const auto &name : deferred)
    if (llvm::Function *fn = module.getFunction(name.getKey()))
      simplify.run(*fn, fam);
}

llvm::Error loom::detail::optimizeModule(llvm::Module &module,
                                         unsigned optLevel,
                                         llvm::TargetMachine &tm,
                                         llvm::StringRef exported) {
  // Vector variants stay external: internal, and unused until the
  // vectorizers run, global DCE would delete them first. So do the scalar
  // functions that name them: internal, dead-argument elimination and
  // IPSCCP would drop the arguments a caller passes as constants, and a
  // call that no longer matches its variants' signature stays scalar.
  llvm::StringSet<> variants = getVectorVariants(module);
  llvm::internalizeModule(module, [&](const llvm::GlobalValue &value) {
    const auto *fn = llvm::dyn_cast<llvm::Function>(&value);
    return !fn || value.getName() == exported ||
           variants.contains(value.getName()) ||
           fn->hasFnAttribute("vector-function-abi-variant");
  });
  for (llvm::Function &fn : module) {
    if (fn.isDeclaration())
      continue;
    markLoops(fn);
    // Clang's -mprefer-vector-width=256; ISel reads it too.
    fn.addFnAttr("prefer-vector-width", "256");
  }
  // As MLIR's makeOptimizingTransformer, which this replaces.
  llvm::PipelineTuningOptions tuning;
  tuning.LoopUnrolling = true;
  tuning.LoopInterleaving = true;
  tuning.LoopVectorization = true;
  tuning.SLPVectorization = true;
  llvm::LoopAnalysisManager lam;
  llvm::FunctionAnalysisManager fam;
  llvm::CGSCCAnalysisManager cgam;
  llvm::ModuleAnalysisManager mam;
  llvm::PassInstrumentationCallbacks callbacks;
  // What makes the passes skip a function marked optnone (deferVariants).
  llvm::OptNoneInstrumentation optNone(/*DebugLogging=*/false);
  optNone.registerCallbacks(callbacks);
  llvm::PassBuilder builder(&tm, tuning, std::nullopt, &callbacks);
  builder.registerModuleAnalyses(mam);
  builder.registerCGSCCAnalyses(cgam);
  builder.registerFunctionAnalyses(fam);
  builder.registerLoopAnalyses(lam);
  builder.crossRegisterProxies(lam, fam, cgam, mam);
  llvm::OptimizationLevel level = optimizationLevel(optLevel);
  llvm::StringSet<> deferred;
  if (level != llvm::OptimizationLevel::O0)
    deferred = deferVariants(module, variants, mam);
  llvm::ModulePassManager passes = buildPipeline(builder, level, callbacks);
  passes.run(module, mam);
  // A variant no vectorizer called is not worth generating code for, nor a
  // scalar copy whose calls were all vectorized or inlined (kept external
  // above, global DCE left it).
  llvm::StringSet<> erasable = variants;
  for (llvm::Function &fn : module)
    if (!fn.isDeclaration() && fn.hasFnAttribute("vector-function-abi-variant"))
      erasable.insert(fn.getName());
  eraseUncalledVariants(module, erasable, fam);
  if (!deferred.empty()) {
    llvm::FunctionPassManager simplify =
        builder.buildFunctionSimplificationPipeline(
            level, llvm::ThinOrFullLTOPhase::None);
    simplify.addPass(llvm::SLPVectorizerPass());
    simplify.addPass(llvm::VectorCombinePass());
    simplify.addPass(llvm::InstCombinePass());
    simplify.addPass(llvm::SimplifyCFGPass());
    finishDeferredVariants(module, deferred, variants, simplify, fam);
  }
  return llvm::Error::success();
}
