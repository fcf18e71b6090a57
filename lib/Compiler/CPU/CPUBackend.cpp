//===- CPUBackend.cpp - JIT-compiled code on a thread mesh ----------------===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//
//
// The CPU backend: loom-to-llvm lowers the module to the LLVM dialect,
// MLIR's ExecutionEngine compiles it for this host with ORC, the runtime's C
// ABI is registered with the JIT by name, and a ThreadMesh runs the shards.
// Ahead of time, the same LLVM module and optimization pipeline are compiled
// for a named CPU instead, with what makes it a library (ProgramModule.h).
//
//===----------------------------------------------------------------------===//

#include "CPUBackend.h"
#include "Optimize.h"
#include "ProgramModule.h"

#include "loom/Pipelines/Pipelines.h"
#include "loom/Runtime/ABI.h"

#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/DynamicLibrary.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/TargetParser/Triple.h"

#include <gnu/libc-version.h>

#include <cstdio>
#include <functional>
#include <string>
#include <vector>

using namespace loom;
using namespace loom::detail;

namespace {

/// The runtime's C ABI, resolved by name in JIT-compiled code. Registered
/// explicitly: a tool links the runtime statically, and its symbols are not
/// in the process's dynamic symbol table.
const llvm::StringMap<llvm::orc::ExecutorAddr> &runtimeSymbols() {
  static const llvm::StringMap<llvm::orc::ExecutorAddr> symbols = [] {
    llvm::StringMap<llvm::orc::ExecutorAddr> map;
    auto add = [&](const char *name, auto *fn) {
      map[name] = llvm::orc::ExecutorAddr::fromPtr(fn);
    };
#define LOOM_RT_FUNCTION(ID, NAME, RESULT, PARAMETERS) add(#NAME, &NAME);
#include "loom/Runtime/RuntimeFunctions.def"
    return map;
  }();
  return symbols;
}

void registerRuntimeSymbols(mlir::ExecutionEngine &engine) {
  engine.registerSymbols([](llvm::orc::MangleAndInterner interner) {
    llvm::orc::SymbolMap map;
    for (const auto &symbol : runtimeSymbols())
      map[interner(symbol.getKey())] = {symbol.getValue(),
                                        llvm::JITSymbolFlags::Exported};
    return map;
  });
}

/// The functions and globals `module` uses without defining them that the
/// JIT cannot resolve: neither Loom's runtime nor the process (libc, libm)
/// has them. ORC resolves the process's symbols through the same handle.
/// Found before the entry is looked up: ORC would then print "JIT session
/// error" to stderr itself and fail with a message that names only the
/// entry.
std::vector<std::string> unresolvedSymbols(const llvm::Module &module) {
  llvm::sys::DynamicLibrary process =
      llvm::sys::DynamicLibrary::getPermanentLibrary(nullptr);
  std::vector<std::string> missing;
  for (const llvm::GlobalValue &value : module.global_values()) {
    if (!value.isDeclaration() || value.use_empty() ||
        value.hasExternalWeakLinkage())
      continue;
    if (auto *fn = llvm::dyn_cast<llvm::Function>(&value);
        fn && fn->isIntrinsic())
      continue;
    std::string name = value.getName().str();
    if (!runtimeSymbols().count(name) &&
        !process.getAddressOfSymbol(name.c_str()))
      missing.push_back(std::move(name));
  }
  return missing;
}

/// The JIT that holds the compiled code, and the entry's address in it.
class JITModule final : public LoadedModule {
public:
  JITModule(std::unique_ptr<mlir::ExecutionEngine> engine, PackedEntry fn)
      : engine(std::move(engine)), fn(fn) {}
  PackedEntry entry() const override { return fn; }

private:
  std::unique_ptr<mlir::ExecutionEngine> engine;
  PackedEntry fn;
};

} // namespace

Status
CPUBackend::configureBatching(const CompileOptions &options, bool aheadOfTime,
                              mlir::loom::LoomPipelineOptions &batching) const {
  // The cost model prices sin and log1p as the vector arithmetic the
  // lowering makes of them only where it makes it.
  if (!runsGlibcFMAVariants(options, aheadOfTime))
    batching.vectorLibmOps = 0;
  return Status::success();
}

void CPUBackend::buildLoweringPipeline(mlir::OpPassManager &pm,
                                       const CompileOptions &options,
                                       bool aheadOfTime) const {
  mlir::loom::LoomToLLVMOptions lowering;
  lowering.fpContraction = options.fpContraction;
  lowering.laneVectors = options.laneVectors;
  lowering.libmToArith = runsGlibcFMAVariants(options, aheadOfTime);
  mlir::loom::buildLoomToLLVMPipeline(pm, lowering);
}

void CPUBackend::buildBufferizationPipeline(
    mlir::OpPassManager &pm, const CompileOptions &options) const {
  mlir::loom::LoomToLLVMOptions lowering;
  lowering.fpContraction = options.fpContraction;
  lowering.laneVectors = options.laneVectors;
  mlir::loom::buildLoomBufferizePipeline(pm, lowering);
}

Result<std::unique_ptr<Mesh>> CPUBackend::createMesh(int64_t numShards) const {
  auto mesh = ThreadMesh::create(numShards);
  if (!mesh)
    return mesh.status();
  return std::unique_ptr<Mesh>(mesh.take());
}

/// Compiles for this host at the requested level, refusing a module that
/// calls what neither the runtime nor the process defines.
Result<std::unique_ptr<LoadedModule>>
CPUBackend::load(mlir::ModuleOp module, const CompileOptions &options) const {
  auto tmBuilder = llvm::orc::JITTargetMachineBuilder::detectHost();
  if (!tmBuilder)
    return Status::error("cannot target this host: " +
                         llvm::toString(tmBuilder.takeError()));
  auto level = static_cast<llvm::CodeGenOptLevel>(options.optLevel);
  tmBuilder->setCodeGenOptLevel(level);
  // Contraction is decided per instruction by the `contract` flags that
  // loom-allow-fp-contraction sets; never globally.
  tmBuilder->getOptions().AllowFPOpFusion = llvm::FPOpFusion::Standard;
  auto tm = tmBuilder->createTargetMachine();
  if (!tm)
    return Status::error("cannot target this host: " +
                         llvm::toString(tm.takeError()));
  // The transformer is passed by function_ref: it must outlive create().
  // An error it returned would abort in create() (cantFail), so what it
  // finds is kept aside and reported after.
  llvm::TargetMachine &machine = **tm;
  std::string packed = "_mlir_" + options.entry;
  std::vector<std::string> unresolved;
  std::function<llvm::Error(llvm::Module *)> transformer =
      [&](llvm::Module *llvmModule) -> llvm::Error {
    if (llvm::Error error =
            optimizeModule(*llvmModule, options.optLevel, machine, packed))
      return error;
    unresolved = unresolvedSymbols(*llvmModule);
    return llvm::Error::success();
  };
  mlir::ExecutionEngineOptions engineOptions;
  engineOptions.transformer = transformer;
  engineOptions.jitCodeGenOptLevel = level;
  auto engine =
      mlir::ExecutionEngine::create(module, engineOptions, std::move(*tm));
  if (!engine)
    return Status::error("JIT compilation failed: " +
                         llvm::toString(engine.takeError()));
  if (!unresolved.empty())
    return Status::error(
        "JIT compilation failed: the compiled program calls " +
        llvm::join(unresolved, ", ") +
        ", which neither Loom's runtime nor this process defines");
  registerRuntimeSymbols(**engine);
  auto fn = (*engine)->lookupPacked(options.entry);
  if (!fn)
    return Status::error("JIT compilation failed: " +
                         llvm::toString(fn.takeError()));
  return std::unique_ptr<LoadedModule>(
      std::make_unique<JITModule>(std::move(*engine), *fn));
}

namespace {

/// The CPU a library is compiled for.
std::string aotTargetCPU(const CompileOptions &options) {
  return options.targetCPU.empty() ? "x86-64-v3" : options.targetCPU;
}

/// The features `cpu` has by its definition (what it implies, closed over
/// what those imply), leaving out the tuning ones: "+avx,+avx2,...".
std::string isaFeatures(const llvm::MCSubtargetInfo &info,
                        llvm::StringRef cpu) {
  llvm::FeatureBitset isa;
  for (const llvm::SubtargetSubTypeKV &kv : info.getAllProcessorDescriptions())
    if (cpu == kv.Key)
      isa = kv.Implies.getAsBitset();
  for (bool grew = true; grew;) {
    grew = false;
    for (const llvm::SubtargetFeatureKV &kv : info.getAllProcessorFeatures()) {
      llvm::FeatureBitset more = isa | kv.Implies.getAsBitset();
      if (isa.test(kv.Value) && more != isa) {
        isa = more;
        grew = true;
      }
    }
  }
  std::string features;
  for (const llvm::SubtargetFeatureKV &kv : info.getAllProcessorFeatures())
    if (isa.test(kv.Value))
      features += (features.empty() ? "+" : ",+") + std::string(kv.Key);
  return features;
}

/// The features of `cpu` on `triple`, as isaFeatures, or why it has none.
Result<std::string> aotISAFeatures(const llvm::Target &target,
                                   const std::string &triple,
                                   const std::string &cpu) {
  // Checked on a generic subtarget first: one made for an unknown CPU
  // prints a warning of its own and carries on.
  std::unique_ptr<llvm::MCSubtargetInfo> generic(
      target.createMCSubtargetInfo(triple, "", ""));
  if (!generic || !generic->isCPUStringValid(cpu))
    return Status::error("unknown target CPU '" + cpu + "' for " + triple);
  return isaFeatures(*generic, cpu);
}

} // namespace

/// Whether the code will call the C library's math functions in the
/// versions loom-libm-to-arith reproduces: glibc 2.28 (where sinf became
/// Arm's) to 2.36 (what it was checked against; later glibc replaces float
/// functions with correctly rounded ones), checked here for the JIT (a
/// library is assumed to run with one), on a CPU with FMA and AVX2, where
/// glibc's ifunc picks sinf's FMA variant.
bool CPUBackend::runsGlibcFMAVariants(const CompileOptions &options,
                                      bool aheadOfTime) {
  llvm::Triple triple(llvm::sys::getDefaultTargetTriple());
  if (triple.getArch() != llvm::Triple::x86_64 || !triple.isOSLinux() ||
      !triple.isGNUEnvironment())
    return false;
  if (!aheadOfTime) {
    unsigned major = 0, minor = 0;
    if (std::sscanf(gnu_get_libc_version(), "%u.%u", &major, &minor) != 2 ||
        major != 2 || minor < 28 || minor > 36)
      return false;
    llvm::StringMap<bool> host = llvm::sys::getHostCPUFeatures();
    return host.lookup("fma") && host.lookup("avx2");
  }
  std::string error;
  const llvm::Target *target =
      llvm::TargetRegistry::lookupTarget(triple.str(), error);
  if (!target)
    return false;
  Result<std::string> isa =
      aotISAFeatures(*target, triple.str(), aotTargetCPU(options));
  if (!isa)
    return false;
  llvm::SmallVector<llvm::StringRef> features;
  llvm::StringRef(*isa).split(features, ',');
  return llvm::is_contained(features, "+fma") &&
         llvm::is_contained(features, "+avx2");
}

namespace {

/// A target machine for `cpu` on this host's triple, made as the JIT's is
/// (optimization level, contraction only where flagged) but for a shared
/// library.
Result<std::unique_ptr<llvm::TargetMachine>>
createAOTTargetMachine(const CompileOptions &options, ProgramTarget &target) {
  target.triple = llvm::sys::getDefaultTargetTriple();
  target.cpu = aotTargetCPU(options);
  std::string error;
  const llvm::Target *llvmTarget =
      llvm::TargetRegistry::lookupTarget(target.triple, error);
  if (!llvmTarget)
    return Status::error("cannot target " + target.triple + ": " + error);
  Result<std::string> features =
      aotISAFeatures(*llvmTarget, target.triple, target.cpu);
  if (!features)
    return features.status();
  target.features = features.take();
  llvm::TargetOptions targetOptions;
  targetOptions.AllowFPOpFusion = llvm::FPOpFusion::Standard;
  std::unique_ptr<llvm::TargetMachine> tm(llvmTarget->createTargetMachine(
      target.triple, target.cpu, "", targetOptions, llvm::Reloc::PIC_,
      std::nullopt, static_cast<llvm::CodeGenOptLevel>(options.optLevel)));
  if (!tm)
    return Status::error("cannot target " + target.cpu);
  return tm;
}

} // namespace

/// Translates, adds what a library needs, optimizes as the JIT does, then
/// prints the IR or compiles it.
Result<std::string> CPUBackend::emit(mlir::ModuleOp module,
                                     const CompileOptions &options,
                                     const Executable::Impl &impl,
                                     EmitKind kind) const {
  if (kind == EmitKind::PTX)
    return Status::error("--emit=ptx needs --backend gpu");
  ProgramTarget target;
  auto tm = createAOTTargetMachine(options, target);
  if (!tm)
    return tm.status();
  llvm::LLVMContext ctx;
  std::unique_ptr<llvm::Module> llvmModule =
      mlir::translateModuleToLLVMIR(module, ctx);
  if (!llvmModule)
    return Status::error("translation to LLVM IR failed");
  llvmModule->setTargetTriple(target.triple);
  llvmModule->setDataLayout((*tm)->createDataLayout());
  addPackedWrapper(*llvmModule, options.entry);
  target.backend = descriptorName();
  addProgramDescriptor(*llvmModule, options.entry, impl, target);
  if (llvm::Error error = optimizeModule(*llvmModule, options.optLevel, **tm,
                                         "_mlir_" + options.entry))
    return Status::error("optimization failed: " +
                         llvm::toString(std::move(error)));
  std::string bytes;
  llvm::raw_string_ostream os(bytes);
  if (kind == EmitKind::LLVMIR) {
    llvmModule->print(os, nullptr);
    return bytes;
  }
  llvm::SmallString<0> object;
  llvm::raw_svector_ostream objectStream(object);
  llvm::legacy::PassManager codegen;
  if ((*tm)->addPassesToEmitFile(codegen, objectStream, nullptr,
                                 llvm::CodeGenFileType::ObjectFile))
    return Status::error("cannot emit an object file for " + target.cpu);
  codegen.run(*llvmModule);
  return std::string(object.str());
}

std::unique_ptr<TargetBackend> loom::detail::createCPUBackend() {
  return std::make_unique<CPUBackend>();
}
