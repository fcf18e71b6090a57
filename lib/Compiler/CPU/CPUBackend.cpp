//===- CPUBackend.cpp - JIT-compiled code on a thread mesh ----------------===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//
//
// The CPU backend: loom-to-llvm lowers the module to the LLVM dialect,
// MLIR's ExecutionEngine compiles it for this host with ORC, the runtime's C
// ABI is registered with the JIT by name, and a ThreadMesh runs the shards.
//
//===----------------------------------------------------------------------===//

#include "TargetBackend.h"

#include "loom/Pipelines/Pipelines.h"
#include "loom/Runtime/ABI.h"

#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/DynamicLibrary.h"

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

class CPUBackend final : public TargetBackend {
public:
  void buildLoweringPipeline(mlir::OpPassManager &pm,
                             const CompileOptions &options) const override {
    mlir::loom::LoomToLLVMOptions lowering;
    lowering.fpContraction = options.fpContraction;
    mlir::loom::buildLoomToLLVMPipeline(pm, lowering);
  }

  Result<std::unique_ptr<LoadedModule>>
  load(mlir::ModuleOp module, const CompileOptions &options) const override;

  Result<std::unique_ptr<Mesh>> createMesh(int64_t numShards) const override {
    auto mesh = ThreadMesh::create(numShards);
    if (!mesh)
      return mesh.status();
    return std::unique_ptr<Mesh>(mesh.take());
  }
};

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
  std::function<llvm::Error(llvm::Module *)> optimize =
      mlir::makeOptimizingTransformer(options.optLevel, /*sizeLevel=*/0,
                                      tm->get());
  std::vector<std::string> unresolved;
  std::function<llvm::Error(llvm::Module *)> transformer =
      [&](llvm::Module *llvmModule) -> llvm::Error {
    if (llvm::Error error = optimize(llvmModule))
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

} // namespace

std::unique_ptr<TargetBackend> loom::detail::createCPUBackend() {
  return std::make_unique<CPUBackend>();
}
