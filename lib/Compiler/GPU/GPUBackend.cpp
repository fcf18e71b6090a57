//===- GPUBackend.cpp - Per-lane loop nests as CUDA kernels ---------------===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//
//
// The GPU backend: batching with target=gpu (divergent loops per lane), the
// CPU's bufferization, then each lane loop as one kernel launch
// (convert-lane-loops-to-gpu) through MLIR's NVVM path to PTX. The code
// around the launches stays host code. libdevice comes from the CUDA
// toolkit named explicitly: MLIR 19 silently links none when it finds no
// toolkit, and then the PTX keeps `__nv_` externs that no driver resolves.
//
// The host code is the CPU backend's: each launch becomes a call of the
// runtime's loom_rt_gpu_launch with the PTX as a constant in the module
// (convert-gpu-launches-to-loom-runtime), then loom-to-llvm's second half,
// the JIT or a library, and a GPU mesh (loom/Runtime/GPUMesh.h).
//
//===----------------------------------------------------------------------===//

#include "CPU/CPUBackend.h"

#include "loom/Conversion/LoomToGPU/LoomToGPU.h"
#include "loom/Pipelines/Pipelines.h"
#include "loom/Runtime/GPUMesh.h"
#include "loom/Transforms/Passes.h"

#include "mlir/Conversion/AffineToStandard/AffineToStandard.h"
#include "mlir/Conversion/GPUToNVVM/GPUToNVVMPass.h"
#include "mlir/Conversion/MathToLLVM/MathToLLVM.h"
#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <cstdlib>

using namespace loom;
using namespace loom::detail;

namespace {

/// --cuda-path, else $CUDA_HOME, else /usr/local/cuda.
std::string getToolkitPath(const CompileOptions &options) {
  if (!options.cudaPath.empty())
    return options.cudaPath;
  if (const char *home = std::getenv("CUDA_HOME"); home && *home)
    return home;
  return "/usr/local/cuda";
}

bool hasLibdevice(const std::string &toolkit) {
  llvm::SmallString<128> path(toolkit);
  llvm::sys::path::append(path, "nvvm", "libdevice", "libdevice.10.bc");
  return llvm::sys::fs::is_regular_file(path);
}

/// sm_NN, optionally with the arch-specific suffix (sm_90a).
bool isGPUArch(llvm::StringRef arch) {
  if (!arch.consume_front("sm_"))
    return false;
  arch.consume_back("a");
  return !arch.empty() && llvm::all_of(arch, llvm::isDigit);
}

/// Each kernel module's PTX (the globals convert-gpu-launches-to-loom-runtime
/// made), without the NUL that the driver wants but ptxas refuses; an error
/// where libdevice was not linked in.
Result<std::string> collectPTX(mlir::ModuleOp module) {
  std::string ptx;
  for (auto global : module.getOps<mlir::LLVM::GlobalOp>()) {
    llvm::StringRef name = global.getSymName();
    auto value =
        llvm::dyn_cast_or_null<mlir::StringAttr>(global.getValueOrNull());
    if (!name.consume_front(mlir::loom::kPTXGlobalPrefix) || !value)
      continue;
    llvm::StringRef text = value.getValue();
    text.consume_back(llvm::StringRef("\0", 1));
    size_t extern_ = text.find("__nv_");
    if (extern_ != llvm::StringRef::npos) {
      llvm::StringRef fn = text.drop_front(extern_).take_until(
          [](char c) { return !llvm::isAlnum(c) && c != '_'; });
      return Status::error("kernel @" + name.str() +
                           " still calls libdevice's " + fn.str() +
                           ": libdevice was not linked (point --cuda-path "
                           "at a CUDA toolkit)");
    }
    if (!ptx.empty())
      ptx += "\n";
    ptx += text.str();
  }
  return ptx;
}

class GPUBackend final : public CPUBackend {
public:
  Status
  configureBatching(const CompileOptions &options, bool aheadOfTime,
                    mlir::loom::LoomPipelineOptions &batching) const override {
    if (options.countLoops)
      return Status::error(
          "loop counters (--stats, --counters) are not available with "
          "--backend gpu: its kernels have no device counters yet");
    if (options.divergent == DivergentPolicy::Masked)
      return Status::error(
          "--divergent masked is not available with --backend gpu: it runs "
          "each divergent loop per lane, one thread per lane (use auto or "
          "per-lane)");
    if (options.divergent == DivergentPolicy::Gang)
      return Status::error(
          "--divergent gang is not available with --backend gpu: a GPU's "
          "warps already run lanes in gangs, one thread per lane (use auto "
          "or per-lane)");
    if (options.laneVectors)
      return Status::error(
          "--lane-vectors is not available with --backend gpu: a kernel's "
          "lanes are threads, not vector elements");
    if (!isGPUArch(options.gpuArch))
      return Status::error("--gpu-arch must name a CUDA architecture such as "
                           "sm_90 or sm_80, got '" +
                           options.gpuArch + "'");
    batching.target = mlir::loom::VmapTarget::GPU;
    return Status::success();
  }

  void
  buildBufferizationPipeline(mlir::OpPassManager &pm,
                             const CompileOptions &options) const override {
    // While loom-vmap's per-lane decisions are still on the loops.
    pm.addPass(mlir::loom::createLoomMarkLaneLoops());
    mlir::loom::LoomToLLVMOptions lowering;
    lowering.fpContraction = options.fpContraction;
    mlir::loom::buildLoomBufferizePipeline(pm, lowering);
  }

  void buildLoweringPipeline(mlir::OpPassManager &pm,
                             const CompileOptions &options,
                             bool aheadOfTime) const override {
    buildBufferizationPipeline(pm, options);
    std::string toolkit = getToolkitPath(options);
    bool libdevice = hasLibdevice(toolkit);
    mlir::loom::ConvertLaneLoopsToGPUOptions lanes;
    lanes.libdevice = libdevice;
    pm.addPass(mlir::loom::createConvertLaneLoopsToGPU(lanes));
    // Constants used in a launch are sunk into it: otherwise each becomes
    // a kernel parameter.
    pm.addPass(mlir::createGpuLauchSinkIndexComputationsPass());
    pm.addPass(mlir::createGpuKernelOutliningPass());
    pm.addPass(mlir::loom::createLoomMergeGPUModules());
    mlir::GpuNVVMAttachTargetOptions target;
    target.chip = options.gpuArch;
    target.optLevel = options.optLevel;
    pm.addPass(mlir::createGpuNVVMAttachTarget(target));

    mlir::OpPassManager &kernels = pm.nest<mlir::gpu::GPUModuleOp>();
    kernels.addPass(mlir::createConvertLinalgToLoopsPass());
    kernels.addPass(mlir::memref::createExpandStridedMetadataPass());
    kernels.addPass(mlir::createLowerAffinePass());
    // Before convert-gpu-to-nvvm, which leaves scf.while alone without an
    // error, so that serialization fails later.
    kernels.addPass(mlir::createConvertSCFToCFPass());
    // As on the CPU: arith-to-llvm has no pattern for ceil/floor division.
    kernels.addPass(mlir::loom::createLoomExpandIntegerDivision());
    kernels.addPass(mlir::createConvertGpuOpsToNVVMOps());
    // libdevice's sqrt is approximate by default: the exact ops back to
    // intrinsics, which NVPTX selects correctly rounded.
    kernels.addPass(mlir::loom::createLoomExactMathToLLVM());
    // What NVVM's lowering leaves (fma, copysign, round, trunc, powi)
    // becomes LLVM intrinsics that NVPTX selects.
    kernels.addPass(mlir::createConvertMathToLLVMPass());
    kernels.addPass(mlir::createCanonicalizerPass());
    kernels.addPass(mlir::createCSEPass());
    kernels.addPass(mlir::createSymbolDCEPass());
    kernels.addPass(mlir::createReconcileUnrealizedCastsPass());

    mlir::GpuModuleToBinaryPassOptions binary;
    // Without libdevice, no toolkit: the pass would report its missing
    // libdevice, and convert-lane-loops-to-gpu refused every op needing it.
    binary.toolkitPath = libdevice ? toolkit : "";
    binary.compilationTarget = "isa";
    pm.addPass(mlir::createGpuModuleToBinaryPass(binary));
    // The host code: launches to runtime calls, then as on the CPU.
    pm.addPass(mlir::loom::createConvertGPULaunchesToLoomRuntime());
    mlir::loom::buildLoomBuffersToLLVMPipeline(pm);
  }

  /// The host code JIT-compiled as on the CPU, where a GPU can run it.
  Result<std::unique_ptr<LoadedModule>>
  load(mlir::ModuleOp module, const CompileOptions &options) const override {
    if (Status s = gpuAvailable(); !s.ok())
      return s;
    if (Result<std::string> ptx = collectPTX(module); !ptx)
      return ptx.status();
    return CPUBackend::load(module, options);
  }

  Result<std::string> emit(mlir::ModuleOp module, const CompileOptions &options,
                           const Executable::Impl &impl,
                           EmitKind kind) const override {
    Result<std::string> ptx = collectPTX(module);
    if (!ptx || kind != EmitKind::PTX)
      return ptx ? CPUBackend::emit(module, options, impl, kind) : ptx;
    if (ptx->empty())
      return Status::error("@" + options.entry +
                           " has no per-lane loop to run as a GPU kernel");
    return ptx;
  }

  /// A shard is a host thread driving its own stream.
  Result<std::unique_ptr<Mesh>> createMesh(int64_t numShards) const override {
    return createGPUMesh(numShards);
  }

protected:
  const char *descriptorName() const override { return "gpu"; }
};

} // namespace

std::unique_ptr<TargetBackend> loom::detail::createGPUBackend() {
  return std::make_unique<GPUBackend>();
}
