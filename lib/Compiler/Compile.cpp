//===- Compile.cpp - Compile a Loom program -------------------------------===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//
//
// Parse, read the entry's signature, run the Loom pipeline (batching,
// sharding, loop localization, counters), then hand the module to the
// backend the options name: its lowering, its loader, its mesh.
//
//===----------------------------------------------------------------------===//

#include "FrontEnd.h"
#include "Signature.h"

#include "loom/Dialect/Loom/IR/LoomDialect.h"
#include "loom/Dialect/Loom/Transforms/Passes.h"
#include "loom/Dialect/Loom/Utils/ShardUtils.h"
#include "loom/InitAllDialects.h"
#include "loom/Pipelines/Pipelines.h"
#include "loom/Support/Limits.h"
#include "loom/Target/LLVMIR/Dialect/Loom/LoomToLLVMIRTranslation.h"
#include "loom/Transforms/Passes.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/TargetSelect.h"

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <mutex>
#include <utility>
#include <vector>

using namespace loom;
using namespace loom::detail;

//===----------------------------------------------------------------------===//
// Compilation
//===----------------------------------------------------------------------===//

namespace {

using Clock = std::chrono::steady_clock;
double secondsSince(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

} // namespace

/// Collects the first error as one line: "file:line:col: error: message".
class loom::detail::FirstError {
public:
  explicit FirstError(mlir::MLIRContext &ctx)
      : handler(&ctx, [this](mlir::Diagnostic &diag) {
          if (diag.getSeverity() == mlir::DiagnosticSeverity::Error &&
              message.empty()) {
            llvm::raw_string_ostream os(message);
            if (auto loc =
                    llvm::dyn_cast<mlir::FileLineColLoc>(diag.getLocation()))
              os << loc.getFilename().getValue() << ":" << loc.getLine() << ":"
                 << loc.getColumn() << ": ";
            os << "error: " << diag.str();
          }
          return mlir::success();
        }) {}

  Status status(const std::string &fallback) const {
    return Status::error(message.empty() ? fallback : message);
  }

private:
  std::string message;
  mlir::ScopedDiagnosticHandler handler;
};

namespace {

/// Erases the functions the entry cannot reach: they would only cost
/// compile time, and may need passes (loom-vmap) the entry does not.
void keepReachable(mlir::ModuleOp module, mlir::func::FuncOp entry) {
  llvm::SmallPtrSet<mlir::Operation *, 16> reached;
  llvm::SmallVector<mlir::Operation *> worklist{entry};
  mlir::SymbolTable symbols(module);
  while (!worklist.empty()) {
    mlir::Operation *op = worklist.pop_back_val();
    if (!reached.insert(op).second)
      continue;
    auto uses = mlir::SymbolTable::getSymbolUses(op);
    if (!uses)
      continue;
    for (const mlir::SymbolTable::SymbolUse &use : *uses)
      if (mlir::Operation *callee =
              symbols.lookup(use.getSymbolRef().getRootReference()))
        worklist.push_back(callee);
  }
  for (auto func :
       llvm::make_early_inc_range(module.getOps<mlir::func::FuncOp>()))
    if (!reached.count(func))
      func.erase();
}

Status checkOptions(const CompileOptions &options) {
  if (options.shards < 0 || options.shards > kMaxShards)
    return Status::error("shards must be 1 to " + std::to_string(kMaxShards) +
                         " (0: from the program's mesh), got " +
                         std::to_string(options.shards));
  if (options.optLevel < 0 || options.optLevel > 3)
    return Status::error("optimization level must be 0 to 3, got " +
                         std::to_string(options.optLevel));
  return Status::success();
}

void initializeLLVMOnce() {
  static std::once_flag once;
  std::call_once(once, [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
  });
}

} // namespace

Status FrontEnd::error(const std::string &fallback) const {
  return errors->status(fallback);
}

FrontEnd::FrontEnd() = default;
FrontEnd::FrontEnd(FrontEnd &&) = default;
FrontEnd::~FrontEnd() = default;

Result<FrontEnd>
loom::detail::runFrontEnd(std::unique_ptr<llvm::MemoryBuffer> buffer,
                          const CompileOptions &options, Executable::Impl &impl,
                          bool aheadOfTime) {
  FrontEnd front;
  Result<std::unique_ptr<TargetBackend>> backend = createTargetBackend(options);
  if (!backend)
    return backend.status();
  front.backend = backend.take();
  front.aheadOfTime = aheadOfTime;
  if (Status s = checkOptions(options); !s.ok())
    return s;
  Result<int> shards = front.backend->shardCount(options, aheadOfTime);
  if (!shards)
    return shards.status();
  initializeLLVMOnce();
  mlir::DialectRegistry registry;
  mlir::loom::registerAllLoom(registry);
  mlir::registerBuiltinDialectTranslation(registry);
  mlir::registerLLVMDialectTranslation(registry);
  mlir::loom::registerLoomDialectTranslation(registry);
  front.context = std::make_unique<mlir::MLIRContext>(
      registry, mlir::MLIRContext::Threading::DISABLED);
  mlir::MLIRContext &ctx = *front.context;
  front.errors = std::make_unique<FirstError>(ctx);

  auto start = Clock::now();
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(std::move(buffer), llvm::SMLoc());
  front.module = mlir::parseSourceFile<mlir::ModuleOp>(sourceMgr, &ctx);
  mlir::OwningOpRef<mlir::ModuleOp> &module = front.module;
  if (!module)
    return front.error("could not parse the program");
  // Before anything reads the signature: a loom.context the program brings
  // would be called with the caller's value as the runtime's shard context.
  if (failed(mlir::loom::checkNotYetSharded(*module)))
    return front.error("the program was already sharded");
  auto entry = module->lookupSymbol<mlir::func::FuncOp>(options.entry);
  if (!entry || entry.isExternal())
    return Status::error("no entry function @" + options.entry +
                         " in the program");
  if (Status s = describeEntry(entry, impl); !s.ok())
    return s;
  if (Status s = impl.buildDefaults(); !s.ok())
    return s;
  keepReachable(*module, entry);
  impl.times.parse = secondsSince(start);

  start = Clock::now();
  // Batching and sharding first: the mesh they settle on decides how the
  // entry is called.
  mlir::PassManager pm(&ctx);
  // Before anything trusts a constant index.
  pm.addPass(mlir::loom::createLoomCheckStaticBounds());
  mlir::loom::LoomPipelineOptions batching;
  batching.divergent = options.divergent;
  if (options.gangWidth < 0)
    return Status::error("gangWidth must be at least 1 (0: the default), "
                         "got " +
                         std::to_string(options.gangWidth));
  // Auto weighs gangs of the given width too; it chooses refill itself.
  bool gangs = options.divergent == DivergentPolicy::Gang;
  if ((options.refill && !gangs) ||
      (options.gangWidth && !gangs &&
       options.divergent != DivergentPolicy::Auto))
    return Status::error(std::string(options.refill ? "refill" : "gangWidth") +
                         " applies to gangs: it needs divergent=gang" +
                         (options.refill ? "" : " or auto") +
                         ", got divergent=" + toString(options.divergent));
  if (options.gangWidth)
    batching.gangWidth = options.gangWidth;
  batching.refill = options.refill;
  batching.adaptive = options.adaptive;
  batching.shards = *shards;
  batching.loopSync = options.loopSync;
  batching.counters = options.countLoops;
  if (Status s =
          front.backend->configureBatching(options, aheadOfTime, batching);
      !s.ok())
    return s;
  mlir::loom::buildLoomPipeline(pm, batching);
  // Verified after every pass, as loom-opt does: these passes reshape the
  // user's program, and verifying them costs little next to the lowering.
  if (failed(pm.run(*module)))
    return front.error("batching or sharding failed");
  // Again: the scalar functions loom.vmap named are reached no longer (the
  // SDE's @solve_sde was 10 to 15 ms of its masked @main's lowering).
  if (auto batched = module->lookupSymbol<mlir::func::FuncOp>(options.entry))
    keepReachable(*module, batched);
  if (Status s = describeMesh(*module, options.entry, impl, *front.backend);
      !s.ok())
    return s;
  if (options.countLoops && !impl.mesh)
    return Status::error("loop counters need an entry that runs on a mesh "
                         "(a batched entry), and @" +
                         options.entry + " is not one");
  impl.countsLoops = options.countLoops;
  impl.times.lower = secondsSince(start);
  return front;
}

mlir::LogicalResult
loom::detail::runLoweringPipeline(mlir::PassManager &pm, mlir::ModuleOp module,
                                  const CompileOptions &options) {
  pm.enableVerifier(options.verifyEachPass);
  if (failed(pm.run(module)))
    return mlir::failure();
  return options.verifyEachPass ? mlir::success() : mlir::verify(module);
}

Status FrontEnd::lower(const CompileOptions &options, Executable::Impl &impl) {
  auto start = Clock::now();
  mlir::PassManager pm(context.get());
  backend->buildLoweringPipeline(pm, options, aheadOfTime);
  if (failed(runLoweringPipeline(pm, *module, options)))
    return error("lowering failed");
  describeVariants(*module, impl);
  impl.times.lower += secondsSince(start);
  return Status::success();
}

namespace {
/// Set by exit(), before the static destructors of everything constructed
/// before the latest JIT compile: LLVM's function-local statics among them.
std::atomic<bool> exiting{false};

/// An ExecutionEngine's destructor runs the JIT's deinitializers, which
/// compile code, and LLVM's statics that code generation uses may already
/// be gone while exit() destroys a static that holds an Executable (a
/// container constructed before the first compile). Each compile registers
/// a handler that runs before anything it constructed is destroyed.
void noteCompiled() {
  std::atexit([] { exiting = true; });
}

/// Where the pieces of a JIT program destroyed during exit() go: never
/// freed, and still reachable, so a leak checker at exit does not count
/// them.
void keepUntilTheEnd(std::unique_ptr<mlir::MLIRContext> context,
                     std::unique_ptr<LoadedModule> module) {
  static std::mutex mutex;
  static auto &kept =
      *new std::vector<std::pair<std::unique_ptr<mlir::MLIRContext>,
                                 std::unique_ptr<LoadedModule>>>;
  std::lock_guard<std::mutex> lock(mutex);
  kept.emplace_back(std::move(context), std::move(module));
}

/// What keeps JIT-compiled code alive: the engine, then the context its
/// module was compiled in. During exit() both are left to the process's
/// end: no destructor of theirs can run safely then, and there is nothing
/// left to free them for.
struct JITProgram final : LoadedProgram {
  std::unique_ptr<mlir::MLIRContext> context;
  std::unique_ptr<LoadedModule> module;
  ~JITProgram() override {
    if (exiting)
      keepUntilTheEnd(std::move(context), std::move(module));
  }
};
} // namespace

static Result<Executable>
compileBuffer(std::unique_ptr<llvm::MemoryBuffer> buffer,
              const CompileOptions &options) {
  auto impl = std::make_shared<Executable::Impl>();
  Result<FrontEnd> front = runFrontEnd(std::move(buffer), options, *impl,
                                       /*aheadOfTime=*/false);
  if (!front)
    return front.status();
  if (Status s = front->lower(options, *impl); !s.ok())
    return s;

  auto start = Clock::now();
  Result<std::unique_ptr<LoadedModule>> loaded =
      front->backend->load(*front->module, options);
  if (!loaded)
    return loaded.status();
  noteCompiled();
  impl->entry = (*loaded)->entry();
  auto program = std::make_unique<JITProgram>();
  program->module = loaded.take();
  program->context = std::move(front->context);
  impl->program = std::move(program);
  impl->times.jit = secondsSince(start);
  impl->resultLayout = layoutResults(impl->outputs);
  return Executable::Impl::wrap(std::move(impl));
}

Result<std::unique_ptr<llvm::MemoryBuffer>>
loom::detail::readProgram(const std::string &path) {
  auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/true);
  if (!buffer)
    return Status::error(path + ": " + buffer.getError().message());
  return std::move(*buffer);
}

Result<Executable> Executable::compile(const std::string &source,
                                       const CompileOptions &options,
                                       const std::string &bufferName) {
  return compileBuffer(llvm::MemoryBuffer::getMemBufferCopy(source, bufferName),
                       options);
}

Result<Executable> Executable::compileFile(const std::string &path,
                                           const CompileOptions &options) {
  Result<std::unique_ptr<llvm::MemoryBuffer>> buffer = readProgram(path);
  if (!buffer)
    return buffer.status();
  return compileBuffer(buffer.take(), options);
}
