//===- LaunchesToRuntime.cpp - Kernel launches to Loom's GPU runtime ------===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//
//
// MLIR 19's own host lowering (gpu-to-llvm) calls libmlir_cuda_runtime's
// mgpu* functions, which load and unload the PTX at every launch and are not
// shipped here. Loom's runtime keeps the module loaded per device and the
// device buffers per shard instead, so each launch becomes one call of it,
// on buffers, before the CPU's lowering of the host code to LLVM.
//
//===----------------------------------------------------------------------===//

#include "loom/Conversion/LoomRuntimeCommon/RuntimeFunctions.h"
#include "loom/Conversion/LoomToGPU/LoomToGPU.h"
#include "loom/Dialect/Loom/Utils/ShardUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"

namespace mlir::loom {
#define GEN_PASS_DEF_CONVERTGPULAUNCHESTOLOOMRUNTIME
#include "loom/Conversion/Passes.h.inc"
} // namespace mlir::loom

using namespace mlir;

namespace {

/// A constant, NUL-terminated string global, as the runtime reads it.
LLVM::GlobalOp addStringGlobal(ModuleOp module, SymbolTable &symbols,
                               StringRef name, StringRef text) {
  OpBuilder b = OpBuilder::atBlockEnd(module.getBody());
  std::string bytes = text.str();
  bytes.push_back('\0');
  auto type = LLVM::LLVMArrayType::get(b.getI8Type(), bytes.size());
  auto global =
      b.create<LLVM::GlobalOp>(module.getLoc(), type,
                               /*isConstant=*/true, LLVM::Linkage::Internal,
                               name, b.getStringAttr(bytes));
  symbols.insert(global);
  return global;
}

/// The address of `global` as the i64 the runtime's ABI takes.
Value addressOf(OpBuilder &b, Location loc, LLVM::GlobalOp global) {
  Value ptr = b.create<LLVM::AddressOfOp>(loc, global);
  return b.create<LLVM::PtrToIntOp>(loc, b.getI64Type(), ptr);
}

Value toI64(OpBuilder &b, Location loc, Value v) {
  Type type = v.getType();
  if (type.isIndex())
    return b.create<arith::IndexCastUIOp>(loc, b.getI64Type(), v);
  if (auto f = dyn_cast<FloatType>(type))
    v = b.create<arith::BitcastOp>(loc, b.getIntegerType(f.getWidth()), v);
  if (v.getType().getIntOrFloatBitWidth() < 64)
    v = b.create<arith::ExtUIOp>(loc, b.getI64Type(), v);
  return v;
}

/// The bytes of a scalar kernel parameter; 0 for a type the runtime does
/// not pass.
int64_t scalarBytes(Type type) {
  if (type.isIndex())
    return 8;
  if (!type.isIntOrFloat())
    return 0;
  // i1 is stored as a byte, as the CPU's lowering stores it.
  unsigned width = type.getIntOrFloatBitWidth();
  if (width == 1)
    return 1;
  return width % 8 == 0 && width <= 64 ? width / 8 : 0;
}

/// A static i64 array at the function's entry, filled with `values`, as
/// an i64 address.
Value spill(OpBuilder &b, Location loc, func::FuncOp func,
            ArrayRef<Value> values) {
  OpBuilder entry = OpBuilder::atBlockBegin(&func.front());
  auto type =
      MemRefType::get({std::max<int64_t>(values.size(), 1)}, b.getI64Type());
  Value array = entry.create<memref::AllocaOp>(loc, type);
  for (auto [i, v] : llvm::enumerate(values))
    b.create<memref::StoreOp>(
        loc, v, array, ValueRange{b.create<arith::ConstantIndexOp>(loc, i)});
  Value address = b.create<memref::ExtractAlignedPointerAsIndexOp>(loc, array);
  return b.create<arith::IndexCastUIOp>(loc, b.getI64Type(), address);
}

struct ConvertGPULaunchesToLoomRuntimePass
    : mlir::loom::impl::ConvertGPULaunchesToLoomRuntimeBase<
          ConvertGPULaunchesToLoomRuntimePass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    llvm::StringMap<LLVM::GlobalOp> ptx, kernels;
    for (auto binary :
         llvm::make_early_inc_range(module.getOps<gpu::BinaryOp>())) {
      for (Attribute attr : binary.getObjectsAttr()) {
        auto object = cast<gpu::ObjectAttr>(attr);
        if (object.getFormat() != gpu::CompilationTarget::Assembly)
          continue;
        StringRef text = object.getObject().getValue();
        text.consume_back(StringRef("\0", 1));
        ptx[binary.getName()] = addStringGlobal(
            module, symbols,
            (mlir::loom::kPTXGlobalPrefix + binary.getName()).str(), text);
      }
      if (!ptx.count(binary.getName())) {
        binary.emitError("gpu.binary @")
            << binary.getName() << " has no PTX for the GPU runtime to load";
        return signalPassFailure();
      }
    }

    WalkResult result = module.walk([&](gpu::LaunchFuncOp launch) {
      if (failed(convert(launch, module, symbols, ptx, kernels)))
        return WalkResult::interrupt();
      return WalkResult::advance();
    });
    if (result.wasInterrupted())
      return signalPassFailure();
    for (auto binary :
         llvm::make_early_inc_range(module.getOps<gpu::BinaryOp>()))
      binary.erase();
    module->removeAttr(gpu::GPUDialect::getContainerModuleAttrName());
  }

  LogicalResult convert(gpu::LaunchFuncOp launch, ModuleOp module,
                        SymbolTable &symbols,
                        llvm::StringMap<LLVM::GlobalOp> &ptx,
                        llvm::StringMap<LLVM::GlobalOp> &kernels) {
    Location loc = launch.getLoc();
    auto func = launch->getParentOfType<func::FuncOp>();
    Value ctx = func ? mlir::loom::getShardContext(func) : Value();
    if (!ctx)
      return launch.emitError("a kernel launch needs the shard's context: "
                              "it must be in a sharded function");
    if (!launch.getAsyncDependencies().empty() || launch.getAsyncToken() ||
        launch.getClusterSizeX())
      return launch.emitError(
          "the GPU runtime launches without async tokens or clusters");
    for (Value size : {launch.getGridSizeY(), launch.getGridSizeZ(),
                       launch.getBlockSizeY(), launch.getBlockSizeZ()}) {
      std::optional<int64_t> one = getConstantIntValue(size);
      if (!one || *one != 1)
        return launch.emitError(
            "the GPU runtime launches one-dimensional grids and blocks");
    }
    auto module_ = ptx.find(launch.getKernelModuleName());
    if (module_ == ptx.end())
      return launch.emitError("no PTX for kernel module @")
             << launch.getKernelModuleName();

    OpBuilder b(launch);
    SmallVector<Value> layout, args;
    auto constant = [&](int64_t v) -> Value {
      return b.create<arith::ConstantIntOp>(loc, v, 64);
    };
    for (Value operand : launch.getKernelOperands()) {
      if (auto type = dyn_cast<MemRefType>(operand.getType())) {
        int64_t bytes = scalarBytes(type.getElementType());
        if (!bytes)
          return launch.emitError("the GPU runtime cannot pass a memref of ")
                 << type.getElementType() << " to a kernel";
        layout.append({constant(type.getRank()), constant(bytes)});
        args.push_back(toI64(
            b, loc,
            b.create<memref::ExtractAlignedPointerAsIndexOp>(loc, operand)));
        auto metadata =
            b.create<memref::ExtractStridedMetadataOp>(loc, operand);
        args.push_back(toI64(b, loc, metadata.getOffset()));
        for (Value v : metadata.getSizes())
          args.push_back(toI64(b, loc, v));
        for (Value v : metadata.getStrides())
          args.push_back(toI64(b, loc, v));
        continue;
      }
      int64_t bytes = scalarBytes(operand.getType());
      if (!bytes)
        return launch.emitError("the GPU runtime cannot pass a kernel "
                                "argument of type ")
               << operand.getType();
      layout.append({constant(-1), constant(bytes)});
      args.push_back(toI64(b, loc, operand));
    }

    StringRef kernelName = launch.getKernelName().getValue();
    std::string key =
        (launch.getKernelModuleName().getValue() + "." + kernelName).str();
    LLVM::GlobalOp &name = kernels[key];
    if (!name)
      name = addStringGlobal(module, symbols, "__loom_gpu_kernel_" + key,
                             kernelName);

    func::FuncOp callee = mlir::loom::declareRuntimeFunction(
        module, symbols, mlir::loom::RuntimeFunction::GPULaunch);
    int64_t count = launch.getNumKernelOperands();
    b.create<func::CallOp>(
        loc, callee,
        ValueRange{ctx, addressOf(b, loc, module_->second),
                   addressOf(b, loc, name),
                   toI64(b, loc, launch.getGridSizeX()),
                   toI64(b, loc, launch.getBlockSizeX()),
                   b.create<arith::ConstantIntOp>(loc, count, 32),
                   spill(b, loc, func, layout), spill(b, loc, func, args)});
    launch.erase();
    return success();
  }
};

} // namespace
