//===- LibmToArith.cpp - libm calls with vector variants in arithmetic ----===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//
//
// Which calls get vector variants, and how LLVM is told of them. The
// functions themselves are in SinfToArith.cpp and Log1pfToArith.cpp.
//
//===----------------------------------------------------------------------===//

#include "LibmToArith.h"
#include "loom/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/LoopLikeInterface.h"

#include "llvm/Support/FormatVariadic.h"

namespace mlir::loom {
#define GEN_PASS_DEF_LOOMLIBMTOARITH
#include "loom/Transforms/Passes.h.inc"
} // namespace mlir::loom

using namespace mlir;

namespace {

/// A libm function that gets vector variants.
struct LibmFunction {
  StringRef name;
  /// The math op that computes it on an f32.
  StringRef opName;
  Value (*expand)(OpBuilder &, Location, Value);
};

/// The widths of 256-bit vectors of f32 and of f64, which Loom's CPU code
/// is limited to (lib/Compiler/CPU/Optimize.cpp): the vectorizer picks the
/// narrower where the loop also computes in f64.
constexpr int64_t kVariantLanes[] = {4, 8};

const LibmFunction kFunctions[] = {
    {"sinf", "math.sin", loom::libm::expandSinf},
    {"log1pf", "math.log1p", loom::libm::expandLog1pf}};

bool containsLoop(Region &region) {
  return region
      .walk([](LoopLikeOpInterface) { return WalkResult::interrupt(); })
      .wasInterrupted();
}

/// True when `op` is in a loop that LLVM's vectorizers may widen: a counted
/// loop with no loop inside, which carries no float from one iteration to
/// the next (the loops over lanes that Loom's lowering makes; LLVM cannot
/// reorder a float reduction).
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

/// The functions that such a loop calls, directly or through functions
/// with no loop: LLVM inlines them there. A function with a loop would
/// make the loop not innermost.
DenseSet<Operation *> getCalledFromVectorizableLoops(ModuleOp module) {
  DenseSet<Operation *> called;
  SmallVector<func::FuncOp> work;
  auto visit = [&](func::CallOp call) {
    auto callee = module.lookupSymbol<func::FuncOp>(call.getCalleeAttr());
    if (callee && !callee.isExternal() && !containsLoop(callee.getBody()) &&
        called.insert(callee).second)
      work.push_back(callee);
  };
  for (auto func : module.getOps<func::FuncOp>())
    func.walk([&](func::CallOp call) {
      if (isInVectorizableLoop(call))
        visit(call);
    });
  while (!work.empty())
    work.pop_back_val().walk(visit);
  return called;
}

/// Whether `op` computes `fn` on an f32.
bool computes(Operation *op, const LibmFunction &fn) {
  return op->getName().getStringRef() == fn.opName &&
         op->getNumOperands() == 1 && op->getOperand(0).getType().isF32();
}

/// Declares `fn` as an external LLVM function that accesses no memory
/// (errno, which it may set, is not observable in Loom programs) and whose
/// vector variants are `variants`, in LLVM's vector function ABI: the loop
/// and SLP vectorizers call those where they widen the call.
LLVM::LLVMFuncOp declare(ModuleOp module, const LibmFunction &fn,
                         ArrayRef<std::pair<int64_t, StringRef>> variants) {
  MLIRContext *ctx = module.getContext();
  OpBuilder b = OpBuilder::atBlockEnd(module.getBody());
  Type f32 = b.getF32Type();
  auto decl = b.create<LLVM::LLVMFuncOp>(
      module.getLoc(), fn.name, LLVM::LLVMFunctionType::get(f32, {f32}));
  auto none = LLVM::ModRefInfo::NoModRef;
  decl.setMemoryAttr(LLVM::MemoryEffectsAttr::get(ctx, {none, none, none}));
  decl.setWillReturn(true);
  decl.setNoUnwind(true);
  std::string mappings;
  for (auto [lanes, name] : variants) {
    if (!mappings.empty())
      mappings += ",";
    mappings += llvm::formatv("_ZGV_LLVM_N{0}v_{1}({2})", lanes, fn.name, name);
  }
  if (!mappings.empty())
    decl.setPassthroughAttr(b.getArrayAttr(
        {b.getArrayAttr({b.getStringAttr("vector-function-abi-variant"),
                         b.getStringAttr(mappings)})}));
  return decl;
}

/// `fn` on `lanes` lanes at once, as a function named after it.
func::FuncOp defineVariant(ModuleOp module, const LibmFunction &fn,
                           int64_t lanes) {
  OpBuilder b = OpBuilder::atBlockEnd(module.getBody());
  Location loc = module.getLoc();
  auto vector = VectorType::get({lanes}, b.getF32Type());
  auto variant = b.create<func::FuncOp>(
      loc, llvm::formatv("__loom_{0}_v{1}", fn.name, lanes).str(),
      b.getFunctionType({vector}, {vector}));
  variant.setPrivate();
  // Renamed if the name is taken.
  SymbolTable(module).insert(variant);
  Block *entry = variant.addEntryBlock();
  b.setInsertionPointToStart(entry);
  b.create<func::ReturnOp>(loc, fn.expand(b, loc, entry->getArgument(0)));
  return variant;
}

struct LoomLibmToArith : loom::impl::LoomLibmToArithBase<LoomLibmToArith> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    DenseSet<Operation *> calledFromLoops =
        getCalledFromVectorizableLoops(module);
    for (const LibmFunction &fn : kFunctions) {
      // Someone else's sinf: its ops are left to convert-math-to-libm.
      if (module.lookupSymbol(fn.name))
        continue;
      // Host functions only: a GPU kernel's sin goes to libdevice.
      SmallVector<Operation *> ops;
      for (auto func : module.getOps<func::FuncOp>())
        func.walk([&](Operation *op) {
          if (computes(op, fn))
            ops.push_back(op);
        });
      if (ops.empty())
        continue;
      // Variants cost compile time: none where no call can be widened.
      SmallVector<std::pair<int64_t, StringRef>> variants;
      if (llvm::any_of(ops, [&](Operation *op) {
            return isInVectorizableLoop(op) ||
                   calledFromLoops.contains(
                       op->getParentOfType<func::FuncOp>());
          }))
        for (int64_t lanes : kVariantLanes)
          variants.emplace_back(lanes,
                                defineVariant(module, fn, lanes).getSymName());
      LLVM::LLVMFuncOp decl = declare(module, fn, variants);
      for (Operation *op : ops) {
        OpBuilder b(op);
        auto call =
            b.create<LLVM::CallOp>(op->getLoc(), decl, op->getOperand(0));
        op->getResult(0).replaceAllUsesWith(call.getResult());
        op->erase();
      }
    }
  }
};

} // namespace
