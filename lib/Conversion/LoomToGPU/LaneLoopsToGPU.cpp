//===- LaneLoopsToGPU.cpp - Per-lane loop nests as GPU kernels ------------===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//
//
// convert-lane-loops-to-gpu: the lane loop of a per-lane loop nest becomes a
// gpu.launch with one thread per lane, which gpu-kernel-outlining then turns
// into a kernel. Emitting the launch directly (rather than scf.parallel and
// gpu-map-parallel-loops) keeps the grid dynamic, which the transform
// dialect's mapping refuses, and avoids the untiled one-thread-per-block
// mapping.
//
//===----------------------------------------------------------------------===//

#include "loom/Conversion/LoomToGPU/LoomToGPU.h"

#include "loom/Dialect/Loom/IR/LoomDialect.h"
#include "loom/Dialect/Loom/IR/LoomOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/GPU/GPUToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/NVVM/NVVMToLLVMIRTranslation.h"
#include "mlir/Transforms/RegionUtils.h"

namespace mlir::loom {
#define GEN_PASS_DEF_CONVERTLANELOOPSTOGPU
#define GEN_PASS_DEF_LOOMMARKLANELOOPS
#define GEN_PASS_DEF_LOOMMERGEGPUMODULES
#include "loom/Conversion/Passes.h.inc"
} // namespace mlir::loom

using namespace mlir;
using namespace mlir::loom;

namespace {

bool isDecided(Operation *op, LoopStrategy strategy) {
  auto attr =
      op->getAttrOfType<LoopStrategyAttr>(LoomDialect::kStrategyAttrName);
  return attr && attr.getValue() == strategy;
}

/// The outermost scf.for ops that hold a loop decided per-lane.
SmallVector<scf::ForOp> findPerLaneNests(ModuleOp module) {
  SmallVector<scf::ForOp> loops;
  module.walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (isa<gpu::GPUModuleOp>(op) || isDecided(op, LoopStrategy::PerLane))
      return WalkResult::skip();
    auto loop = dyn_cast<scf::ForOp>(op);
    if (!loop)
      return WalkResult::advance();
    bool holdsPerLane = loop->walk([](Operation *inner) {
                              return isDecided(inner, LoopStrategy::PerLane)
                                         ? WalkResult::interrupt()
                                         : WalkResult::advance();
                            })
                            .wasInterrupted();
    if (!holdsPerLane)
      return WalkResult::advance();
    loops.push_back(loop);
    return WalkResult::skip();
  });
  return loops;
}

bool allocatesOutsideRegisters(Operation *op) {
  auto effects = dyn_cast<MemoryEffectOpInterface>(op);
  if (!effects)
    return false;
  SmallVector<MemoryEffects::EffectInstance> list;
  effects.getEffects(list);
  return llvm::any_of(list, [](const MemoryEffects::EffectInstance &effect) {
    return (isa<MemoryEffects::Allocate>(effect.getEffect()) ||
            isa<MemoryEffects::Free>(effect.getEffect())) &&
           !isa<SideEffects::AutomaticAllocationScopeResource>(
               effect.getResource());
  });
}

bool needsLibdevice(Operation *op) {
  return (isa<math::MathDialect>(op->getDialect()) && !isExactMathOp(op)) ||
         isa<arith::RemFOp>(op);
}

/// Checks what the kernel would run: the lane loop's body and every function
/// it calls. One error per bad op.
LogicalResult checkKernelBody(scf::ForOp loop, SymbolTableCollection &symbols,
                              bool libdevice) {
  bool ok = true;
  SmallVector<Region *> worklist{&loop.getRegion()};
  llvm::SmallPtrSet<Operation *, 8> seen;
  while (!worklist.empty()) {
    worklist.pop_back_val()->walk([&](Operation *op) {
      if (allocatesOutsideRegisters(op)) {
        op->emitError() << "cannot run on the GPU: '" << op->getName()
                        << "' allocates or frees memory inside the kernel "
                           "(only registers and alloca fit there)";
        ok = false;
      } else if (!libdevice && needsLibdevice(op)) {
        // Named with its function too: ops the batching rules built may
        // have no location of their own.
        auto func = op->getParentOfType<func::FuncOp>();
        op->emitError() << "cannot run on the GPU without the CUDA toolkit: '"
                        << op->getName() << "' in @"
                        << (func ? func.getSymName() : StringRef("?"))
                        << " lowers to a libdevice call, and no libdevice "
                           "was found (point --cuda-path at a CUDA toolkit)";
        ok = false;
      } else if (auto call = dyn_cast<func::CallOp>(op)) {
        auto callee = symbols.lookupNearestSymbolFrom<func::FuncOp>(
            call, call.getCalleeAttr());
        if (!callee || callee.isExternal()) {
          op->emitError() << "cannot run on the GPU: @" << call.getCallee()
                          << " has no body to run in the kernel";
          ok = false;
        } else if (seen.insert(callee).second) {
          worklist.push_back(&callee.getBody());
        }
      } else if (isa<CallOpInterface>(op)) {
        op->emitError() << "cannot run on the GPU: '" << op->getName()
                        << "' is a call the kernel cannot make";
        ok = false;
      }
    });
  }
  return success(ok);
}

/// A static buffer allocated before the lane loop and used only inside it
/// (and freed after) is per-lane scratch hoisted out of the loop: on the GPU
/// the lanes would share it, so each thread gets its own alloca.
void privatizeScratch(scf::ForOp loop) {
  llvm::SetVector<Value> used;
  getUsedValuesDefinedAbove(loop.getRegion(), used);
  for (Value value : used) {
    auto alloc = value.getDefiningOp<memref::AllocOp>();
    if (!alloc || !alloc.getType().hasStaticShape())
      continue;
    bool scratch = llvm::all_of(alloc->getUses(), [&](OpOperand &use) {
      return isa<memref::DeallocOp>(use.getOwner()) ||
             loop->isProperAncestor(use.getOwner());
    });
    if (!scratch)
      continue;
    OpBuilder builder = OpBuilder::atBlockBegin(loop.getBody());
    auto alloca = builder.create<memref::AllocaOp>(
        alloc.getLoc(), alloc.getType(), alloc.getAlignmentAttr());
    for (OpOperand &use : llvm::make_early_inc_range(alloc->getUses())) {
      if (isa<memref::DeallocOp>(use.getOwner()))
        use.getOwner()->erase();
      else
        use.set(alloca);
    }
    alloc.erase();
  }
}

/// scf.for %i = lb to ub step s {body}  =>
///   if (n > 0) launch ceildiv(n, B) x B threads { i = lb + tid * s;
///   if (tid < n) {body} }  with n = ceildiv(ub - lb, s).
void convertToLaunch(scf::ForOp loop, int64_t blockSize) {
  Location loc = loop.getLoc();
  OpBuilder b(loop);
  Value zero = b.create<arith::ConstantIndexOp>(loc, 0);
  Value one = b.create<arith::ConstantIndexOp>(loc, 1);
  Value block = b.create<arith::ConstantIndexOp>(loc, blockSize);
  Value span =
      b.create<arith::SubIOp>(loc, loop.getUpperBound(), loop.getLowerBound());
  Value lanes = b.create<arith::CeilDivSIOp>(loc, span, loop.getStep());
  Value any =
      b.create<arith::CmpIOp>(loc, arith::CmpIPredicate::sgt, lanes, zero);
  auto ifAny = b.create<scf::IfOp>(loc, any, /*withElseRegion=*/false);
  b.setInsertionPointToStart(ifAny.thenBlock());
  Value grid = b.create<arith::CeilDivSIOp>(loc, lanes, block);
  auto launch = b.create<gpu::LaunchOp>(loc, grid, one, one, block, one, one);

  Block &body = launch.getBody().front();
  b.setInsertionPointToStart(&body);
  Value base = b.create<arith::MulIOp>(loc, launch.getBlockIds().x, block);
  Value lane = b.create<arith::AddIOp>(loc, base, launch.getThreadIds().x);
  Value inBounds =
      b.create<arith::CmpIOp>(loc, arith::CmpIPredicate::slt, lane, lanes);
  auto guard = b.create<scf::IfOp>(loc, inBounds, /*withElseRegion=*/false);
  b.create<gpu::TerminatorOp>(loc);

  b.setInsertionPointToStart(guard.thenBlock());
  Value offset = b.create<arith::MulIOp>(loc, lane, loop.getStep());
  Value iv = b.create<arith::AddIOp>(loc, loop.getLowerBound(), offset);
  Block *loopBody = loop.getBody();
  loopBody->getTerminator()->erase();
  loop.getInductionVar().replaceAllUsesWith(iv);
  Block *then = guard.thenBlock();
  then->getOperations().splice(std::prev(then->end()),
                               loopBody->getOperations());
  loop.erase();
}

/// The marked lane loops, outermost first.
SmallVector<scf::ForOp> findLaneLoops(ModuleOp module) {
  SmallVector<scf::ForOp> loops;
  module.walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (isa<gpu::GPUModuleOp>(op))
      return WalkResult::skip();
    auto loop = dyn_cast<scf::ForOp>(op);
    if (!loop || !loop->hasAttr(kLaneLoopAttrName))
      return WalkResult::advance();
    loops.push_back(loop);
    return WalkResult::skip();
  });
  return loops;
}

struct LoomMarkLaneLoopsPass
    : public mlir::loom::impl::LoomMarkLaneLoopsBase<LoomMarkLaneLoopsPass> {
  void runOnOperation() override {
    // Here, while the decisions are still recorded: bufferization drops
    // them, and a masked loop would silently stay host code.
    bool ok = true;
    getOperation().walk([&](Operation *op) {
      if (isDecided(op, LoopStrategy::Masked)) {
        op->emitError("cannot run on the GPU: this loop was decided masked, "
                      "and the GPU backend runs divergent loops per lane "
                      "(drop its loom.strategy<masked> pin)");
        ok = false;
      }
    });
    if (!ok)
      return signalPassFailure();
    for (scf::ForOp loop : findPerLaneNests(getOperation()))
      loop->setAttr(kLaneLoopAttrName, UnitAttr::get(&getContext()));
  }
};

struct LoomMergeGPUModulesPass
    : public mlir::loom::impl::LoomMergeGPUModulesBase<
          LoomMergeGPUModulesPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<gpu::GPUModuleOp> kernels(module.getOps<gpu::GPUModuleOp>());
    if (kernels.size() < 2)
      return;
    gpu::GPUModuleOp first = kernels.front();
    SymbolTable table(first);
    for (gpu::GPUModuleOp other : llvm::drop_begin(kernels)) {
      // Every module's kernel is named after the function it came from;
      // the first takes its name, the others a unique one.
      llvm::DenseMap<StringAttr, StringAttr> renamed;
      for (Operation &op :
           llvm::make_early_inc_range(other.getBody()->without_terminator())) {
        StringAttr name = SymbolTable::getSymbolName(&op);
        auto func = dyn_cast<gpu::GPUFuncOp>(op);
        if (!(func && func.isKernel()) && table.lookup(name)) {
          // The same host function, cloned again for this kernel.
          op.erase();
          continue;
        }
        op.moveBefore(first.getBody()->getTerminator());
        renamed[name] = table.insert(&op);
      }
      module.walk([&](gpu::LaunchFuncOp launch) {
        if (launch.getKernelModuleName() == other.getNameAttr())
          launch.setKernelAttr(SymbolRefAttr::get(
              first.getNameAttr(),
              {FlatSymbolRefAttr::get(
                  renamed.lookup(launch.getKernelAttr().getLeafReference()))}));
      });
      other.erase();
    }
  }
};

struct ConvertLaneLoopsToGPUPass
    : public mlir::loom::impl::ConvertLaneLoopsToGPUBase<
          ConvertLaneLoopsToGPUPass> {
  using Base::Base;

  void getDependentDialects(DialectRegistry &registry) const override {
    Base::getDependentDialects(registry);
    // gpu-module-to-binary translates the kernels to LLVM IR in this
    // context, so their dialects' translations must be registered in it.
    registerBuiltinDialectTranslation(registry);
    registerGPUDialectTranslation(registry);
    registerLLVMDialectTranslation(registry);
    registerNVVMDialectTranslation(registry);
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (blockSize < 1 || blockSize > 1024) {
      module.emitError() << "block-size must be 1 to 1024, got " << blockSize;
      return signalPassFailure();
    }
    bool ok = true;
    SymbolTableCollection symbols;
    SmallVector<scf::ForOp> loops = findLaneLoops(module);
    for (scf::ForOp loop : loops) {
      if (loop.getNumRegionIterArgs() != 0) {
        loop.emitError("cannot run on the GPU: this lane loop carries a "
                       "value from one lane to the next");
        ok = false;
        continue;
      }
      privatizeScratch(loop);
      if (failed(checkKernelBody(loop, symbols, libdevice)))
        ok = false;
    }
    if (!ok)
      return signalPassFailure();
    for (scf::ForOp loop : loops)
      convertToLaunch(loop, blockSize);
    if (!loops.empty())
      module->setAttr(gpu::GPUDialect::getContainerModuleAttrName(),
                      UnitAttr::get(module.getContext()));
  }
};

} // namespace
