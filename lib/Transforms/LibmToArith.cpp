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
#include "LaneLoops.h"
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
using mlir::loom::containsLoop;
using mlir::loom::isInVectorizableLoop;

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

/// The lanes on which `op` computes `fn`: 0 on an f32, their number on a
/// vector of f32 that the variants' widths divide (a vector variant's body,
/// made by loom-vector-variants), none otherwise.
std::optional<int64_t> computes(Operation *op, const LibmFunction &fn) {
  if (op->getName().getStringRef() != fn.opName || op->getNumOperands() != 1)
    return std::nullopt;
  Type type = op->getOperand(0).getType();
  if (type.isF32())
    return 0;
  auto vector = dyn_cast<VectorType>(type);
  if (!vector || vector.getRank() != 1 || vector.isScalable() ||
      !vector.getElementType().isF32() ||
      vector.getDimSize(0) % kVariantLanes[0] != 0)
    return std::nullopt;
  return vector.getDimSize(0);
}

/// `fn` on the vector `x`, by the widest variants whose width divides its
/// length.
Value callVariants(OpBuilder &b, Location loc, Value x,
                   const DenseMap<int64_t, func::FuncOp> &variants) {
  auto type = cast<VectorType>(x.getType());
  int64_t lanes = type.getDimSize(0);
  // computes() checked that the narrowest width divides it.
  int64_t width = kVariantLanes[0];
  for (int64_t w : kVariantLanes)
    if (lanes % w == 0)
      width = w;
  func::FuncOp variant = variants.lookup(width);
  if (width == lanes)
    return b.create<func::CallOp>(loc, variant, x).getResult(0);
  Value result = b.create<arith::ConstantOp>(loc, b.getZeroAttr(type));
  for (int64_t offset = 0; offset < lanes; offset += width) {
    Value part = b.create<vector::ExtractStridedSliceOp>(
        loc, x, ArrayRef<int64_t>{offset}, ArrayRef<int64_t>{width},
        ArrayRef<int64_t>{1});
    Value computed = b.create<func::CallOp>(loc, variant, part).getResult(0);
    result = b.create<vector::InsertStridedSliceOp>(
        loc, computed, result, ArrayRef<int64_t>{offset}, ArrayRef<int64_t>{1});
  }
  return result;
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
      SmallVector<std::pair<Operation *, int64_t>> ops;
      for (auto func : module.getOps<func::FuncOp>())
        func.walk([&](Operation *op) {
          if (std::optional<int64_t> lanes = computes(op, fn))
            ops.emplace_back(op, *lanes);
        });
      if (ops.empty())
        continue;
      // Variants cost compile time: none where no call can be widened.
      DenseMap<int64_t, func::FuncOp> variants;
      SmallVector<std::pair<int64_t, StringRef>> names;
      if (llvm::any_of(ops, [&](std::pair<Operation *, int64_t> opAndLanes) {
            auto [op, lanes] = opAndLanes;
            return lanes != 0 || isInVectorizableLoop(op) ||
                   calledFromLoops.contains(
                       op->getParentOfType<func::FuncOp>());
          }))
        for (int64_t lanes : kVariantLanes) {
          variants[lanes] = defineVariant(module, fn, lanes);
          names.emplace_back(lanes, variants[lanes].getSymName());
        }
      // Only scalar ops call the C library's function.
      LLVM::LLVMFuncOp decl;
      if (llvm::any_of(ops, [](auto opAndLanes) { return !opAndLanes.second; }))
        decl = declare(module, fn, names);
      for (auto [op, lanes] : ops) {
        OpBuilder b(op);
        Value result =
            lanes
                ? callVariants(b, op->getLoc(), op->getOperand(0), variants)
                : b.create<LLVM::CallOp>(op->getLoc(), decl, op->getOperand(0))
                      .getResult();
        op->getResult(0).replaceAllUsesWith(result);
        op->erase();
      }
    }
  }
};

} // namespace

mlir::loom::libm::Emitter::Values
mlir::loom::libm::Emitter::ifAnyLane(Value mask,
                                     function_ref<Values(Emitter &)> some,
                                     function_ref<Values(Emitter &)> none) {
  if (lanes.empty())
    return some(*this);
  Value any =
      b.create<vector::ReductionOp>(loc, vector::CombiningKind::OR, mask);
  auto branch = b.create<scf::IfOp>(
      loc, any,
      [&](OpBuilder &tb, Location tl) {
        Emitter te{tb, tl, lanes};
        tb.create<scf::YieldOp>(tl, ValueRange(some(te)));
      },
      [&](OpBuilder &eb, Location el) {
        Emitter ee{eb, el, lanes};
        eb.create<scf::YieldOp>(el, ValueRange(none(ee)));
      });
  return Values(branch.getResults());
}
