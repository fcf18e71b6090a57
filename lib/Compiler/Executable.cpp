//===- Executable.cpp - Compile a Loom program and call it ----------------===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//

#include "CallABI.h"

#include "loom/Conversion/Passes.h"
#include "loom/Dialect/Loom/IR/LoomDialect.h"
#include "loom/Dialect/Loom/IR/LoomOps.h"
#include "loom/InitAllDialects.h"
#include "loom/Loom.h"
#include "loom/Runtime/ABI.h"
#include "loom/Runtime/Mesh.h"
#include "loom/Support/Limits.h"
#include "loom/Dialect/Loom/Transforms/Passes.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Mesh/IR/MeshOps.h"
#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/DynamicLibrary.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/TargetSelect.h"

#include <chrono>
#include <cstring>
#include <mutex>

using namespace loom;
using namespace loom::detail;

//===----------------------------------------------------------------------===//
// The compiled state
//===----------------------------------------------------------------------===//

struct Executable::Impl {
  std::vector<ValueInfo> inputs, outputs;
  /// Groups of (input, axis) whose dynamic sizes must agree: the batch axes
  /// of the operands one loom.vmap maps over together.
  std::vector<std::vector<std::pair<size_t, size_t>>> batchGroups;
  /// Per input, its `loom.default` as a scalar buffer, built once: every
  /// call may pass the same one, since compiled code never writes a scalar
  /// argument.
  std::vector<std::optional<HostBuffer>> defaults;
  ResultLayout resultLayout;
  CompileTimes times;
  // The context must outlive the engine's use of the module; keep both.
  std::unique_ptr<mlir::MLIRContext> context;
  std::unique_ptr<mlir::ExecutionEngine> engine;
  void (*entry)(void **) = nullptr;
  /// Set when the program runs on a mesh: the persistent shard pool, and
  /// per input and output whether axis 0 is split across shards.
  std::unique_ptr<Mesh> mesh;
  std::vector<bool> inputSplit, outputSplit;
  /// The loops loom-count-loop-iterations numbered, by id.
  std::vector<std::pair<std::string, bool>> loops;

  /// Nested, so it may use Executable's private constructor.
  static Executable wrap(std::shared_ptr<const Impl> impl) {
    return Executable(std::move(impl));
  }
};

Executable::Executable(std::shared_ptr<const Impl> impl)
    : impl(std::move(impl)) {}

const std::vector<ValueInfo> &Executable::inputs() const {
  return impl->inputs;
}
const std::vector<ValueInfo> &Executable::outputs() const {
  return impl->outputs;
}
const CompileTimes &Executable::compileTimes() const { return impl->times; }

//===----------------------------------------------------------------------===//
// Compilation
//===----------------------------------------------------------------------===//

namespace {

using Clock = std::chrono::steady_clock;
double secondsSince(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

/// Collects the first error as one line: "file:line:col: error: message".
class FirstError {
public:
  explicit FirstError(mlir::MLIRContext &ctx)
      : handler(&ctx, [this](mlir::Diagnostic &diag) {
          if (diag.getSeverity() == mlir::DiagnosticSeverity::Error &&
              message.empty()) {
            llvm::raw_string_ostream os(message);
            if (auto loc = llvm::dyn_cast<mlir::FileLineColLoc>(
                    diag.getLocation()))
              os << loc.getFilename().getValue() << ":" << loc.getLine()
                 << ":" << loc.getColumn() << ": ";
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

Result<ValueInfo> describe(mlir::Type type, std::string name,
                           const char *what, size_t index) {
  ValueInfo info;
  info.name = std::move(name);
  mlir::Type elem = type;
  if (auto tensor = llvm::dyn_cast<mlir::RankedTensorType>(type)) {
    elem = tensor.getElementType();
    for (int64_t d : tensor.getShape())
      info.shape.push_back(mlir::ShapedType::isDynamic(d) ? -1 : d);
  } else if (!type.isIntOrFloat()) {
    std::string s;
    llvm::raw_string_ostream os(s);
    os << what << " #" << index << " has type " << type
       << ": entry functions take and return scalars and ranked tensors";
    return Status::error(s);
  }
  if (elem.isF32())
    info.dtype = DType::F32;
  else if (elem.isF64())
    info.dtype = DType::F64;
  else if (elem.isSignlessInteger(32))
    info.dtype = DType::I32;
  else if (elem.isSignlessInteger(64))
    info.dtype = DType::I64;
  else if (elem.isSignlessInteger(1))
    info.dtype = DType::I1;
  else {
    std::string s;
    llvm::raw_string_ostream os(s);
    os << what << " #" << index << " has element type " << elem
       << ": entry functions use f32, f64, i32, i64 and i1";
    return Status::error(s);
  }
  return info;
}

/// Reads the entry's signature, names and defaults before lowering erases
/// them, and marks its tensor arguments read-only so bufferization never
/// writes into the caller's buffers.
Status describeEntry(mlir::func::FuncOp func, Executable::Impl &impl) {
  using mlir::loom::LoomDialect;
  mlir::FunctionType type = func.getFunctionType();
  for (unsigned i = 0; i < type.getNumInputs(); ++i) {
    auto name = func.getArgAttrOfType<mlir::StringAttr>(
        i, LoomDialect::kNameAttrName);
    auto info = describe(type.getInput(i),
                         name ? name.str() : "arg" + std::to_string(i),
                         "argument", i);
    if (!info)
      return Status::error("@" + func.getSymName().str() + ": " +
                           info.message());
    if (auto def = func.getArgAttr(i, LoomDialect::kDefaultAttrName)) {
      if (auto f = llvm::dyn_cast<mlir::FloatAttr>(def))
        info->defaultValue = f.getValueAsDouble();
      else if (auto n = llvm::dyn_cast<mlir::IntegerAttr>(def))
        info->defaultValue = static_cast<double>(n.getValue().getSExtValue());
    }
    // The dialect verified it: two integers that fit the argument's type.
    if (auto range = func.getArgAttrOfType<mlir::ArrayAttr>(
            i, LoomDialect::kRangeAttrName)) {
      auto bound = [&](unsigned k) {
        return llvm::cast<mlir::IntegerAttr>(range[k]).getValue().getSExtValue();
      };
      info->range = {bound(0), bound(1)};
    }
    impl.inputs.push_back(info.take());
    if (llvm::isa<mlir::TensorType>(type.getInput(i)))
      func.setArgAttr(i, mlir::bufferization::BufferizationDialect::
                             kWritableAttrName,
                      mlir::BoolAttr::get(func.getContext(), false));
  }
  for (unsigned i = 0; i < type.getNumResults(); ++i) {
    auto name = func.getResultAttrOfType<mlir::StringAttr>(
        i, LoomDialect::kNameAttrName);
    auto info = describe(type.getResult(i),
                         name ? name.str() : "result" + std::to_string(i),
                         "result", i);
    if (!info)
      return Status::error("@" + func.getSymName().str() + ": " +
                           info.message());
    impl.outputs.push_back(info.take());
  }
  // Operands that one loom.vmap batches together must agree on the batch.
  func.walk([&](mlir::loom::VmapOp vmap) {
    std::vector<std::pair<size_t, size_t>> group;
    for (auto [operand, axis] :
         llvm::zip(vmap.getInputs(), vmap.getInAxes())) {
      auto arg = llvm::dyn_cast<mlir::BlockArgument>(operand);
      if (axis == mlir::loom::VmapOp::kNotBatched || !arg ||
          arg.getOwner() != &func.getBody().front())
        continue;
      group.emplace_back(arg.getArgNumber(), axis);
    }
    if (group.size() > 1)
      impl.batchGroups.push_back(std::move(group));
  });
  return Status::success();
}

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
      if (mlir::Operation *callee = symbols.lookup(
              use.getSymbolRef().getRootReference()))
        worklist.push_back(callee);
  }
  for (auto func :
       llvm::make_early_inc_range(module.getOps<mlir::func::FuncOp>()))
    if (!reached.count(func))
      func.erase();
}

std::string divergentWord(Divergent d) {
  switch (d) {
  case Divergent::Auto:
    return "auto";
  case Divergent::Masked:
    return "masked";
  case Divergent::PerLane:
    return "per-lane";
  }
  return "auto";
}

Status checkOptions(const CompileOptions &options) {
  if (options.backend == Backend::GPU)
    return Status::error("backend 'gpu' is not available in this build of "
                         "Loom yet (use --backend cpu)");
  if (options.backend == Backend::MPI)
    return Status::error("backend 'mpi' is not available in this build of "
                         "Loom yet (use --backend cpu)");
  if (options.shards < 0 || options.shards > kMaxShards)
    return Status::error("shards must be 1 to " + std::to_string(kMaxShards) +
                         " (0: from the program's mesh), got " +
                         std::to_string(options.shards));
  if (options.optLevel < 0 || options.optLevel > 3)
    return Status::error("optimization level must be 0 to 3, got " +
                         std::to_string(options.optLevel));
  return Status::success();
}

std::string loopSyncWord(LoopSync l) {
  switch (l) {
  case LoopSync::Auto:
    return "auto";
  case LoopSync::Global:
    return "global";
  case LoopSync::Local:
    return "local";
  }
  return "auto";
}

/// After loom-shard: an entry that took a `loom.context` argument runs on a
/// mesh of the module's size; its `loom.batch_axis` arguments and results
/// are split and joined along axis 0.
Status describeMesh(mlir::ModuleOp module, const std::string &name,
                    Executable::Impl &impl) {
  auto entry = module.lookupSymbol<mlir::func::FuncOp>(name);
  using mlir::loom::LoomDialect;
  unsigned n = entry.getNumArguments();
  if (n == 0 || !entry.getArgAttr(n - 1, LoomDialect::kContextAttrName))
    return Status::success();
  int64_t shards = 1;
  for (auto m : module.getOps<mlir::mesh::MeshOp>())
    shards = m.getShape()[0];
  auto mesh = ThreadMesh::create(shards);
  if (!mesh)
    return mesh.status();
  impl.mesh = mesh.take();
  for (unsigned i = 0; i + 1 < n; ++i)
    impl.inputSplit.push_back(
        static_cast<bool>(entry.getArgAttr(i, LoomDialect::kBatchAxisAttrName)));
  for (unsigned i = 0; i < entry.getNumResults(); ++i)
    impl.outputSplit.push_back(static_cast<bool>(
        entry.getResultAttr(i, LoomDialect::kBatchAxisAttrName)));
  return Status::success();
}

/// The runtime's C ABI, resolved by name in JIT-compiled code. Registered
/// explicitly: a tool links the runtime statically, and its symbols are not
/// in the process's dynamic symbol table.
const llvm::StringMap<llvm::orc::ExecutorAddr> &runtimeSymbols() {
  static const llvm::StringMap<llvm::orc::ExecutorAddr> symbols = [] {
    llvm::StringMap<llvm::orc::ExecutorAddr> map;
    auto add = [&](const char *name, auto *fn) {
      map[name] = llvm::orc::ExecutorAddr::fromPtr(fn);
    };
    add("loom_rt_all_reduce_i1", &loom_rt_all_reduce_i1);
    add("loom_rt_all_reduce_i32", &loom_rt_all_reduce_i32);
    add("loom_rt_all_reduce_i64", &loom_rt_all_reduce_i64);
    add("loom_rt_all_reduce_f32", &loom_rt_all_reduce_f32);
    add("loom_rt_all_reduce_f64", &loom_rt_all_reduce_f64);
    add("loom_rt_ordered_sum_f32", &loom_rt_ordered_sum_f32);
    add("loom_rt_ordered_sum_f64", &loom_rt_ordered_sum_f64);
    add("loom_rt_ok", &loom_rt_ok);
    add("loom_rt_count_iteration", &loom_rt_count_iteration);
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

void initializeLLVMOnce() {
  static std::once_flag once;
  std::call_once(once, [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
    // The pipelines are assembled from registered pass names.
    mlir::loom::registerLoomPasses();
  });
}

} // namespace

/// The `loom.default` of a scalar argument, as a buffer.
static Result<HostBuffer> defaultBuffer(const ValueInfo &info) {
  Result<HostBuffer> buffer = HostBuffer::zeros(info.dtype, {});
  if (!buffer)
    return buffer;
  double v = *info.defaultValue;
  switch (info.dtype) {
  case DType::F32:
    *buffer->dataAs<float>() = static_cast<float>(v);
    break;
  case DType::F64:
    *buffer->dataAs<double>() = v;
    break;
  case DType::I32:
  case DType::U32:
    *buffer->dataAs<int32_t>() = static_cast<int32_t>(v);
    break;
  case DType::I64:
    *buffer->dataAs<int64_t>() = static_cast<int64_t>(v);
    break;
  case DType::I1:
    *buffer->dataAs<uint8_t>() = v != 0;
    break;
  }
  return buffer;
}

static Result<Executable> compileBuffer(std::unique_ptr<llvm::MemoryBuffer> buffer,
                                        const CompileOptions &options) {
  if (Status s = checkOptions(options); !s.ok())
    return s;
  initializeLLVMOnce();
  auto impl = std::make_shared<Executable::Impl>();
  mlir::DialectRegistry registry;
  mlir::loom::registerAllLoom(registry);
  mlir::registerBuiltinDialectTranslation(registry);
  mlir::registerLLVMDialectTranslation(registry);
  impl->context = std::make_unique<mlir::MLIRContext>(
      registry, mlir::MLIRContext::Threading::DISABLED);
  mlir::MLIRContext &ctx = *impl->context;
  FirstError errors(ctx);

  auto start = Clock::now();
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(std::move(buffer), llvm::SMLoc());
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceFile<mlir::ModuleOp>(sourceMgr, &ctx);
  if (!module)
    return errors.status("could not parse the program");
  // Before anything reads the signature: a loom.context the program brings
  // would be called with the caller's value as the runtime's shard context.
  if (failed(mlir::loom::checkNotYetSharded(*module)))
    return errors.status("the program was already sharded");
  auto entry = module->lookupSymbol<mlir::func::FuncOp>(options.entry);
  if (!entry || entry.isExternal())
    return Status::error("no entry function @" + options.entry +
                         " in the program");
  if (Status s = describeEntry(entry, *impl); !s.ok())
    return s;
  for (const ValueInfo &info : impl->inputs) {
    std::optional<HostBuffer> &def = impl->defaults.emplace_back();
    if (!info.defaultValue)
      continue;
    Result<HostBuffer> buffer = defaultBuffer(info);
    if (!buffer)
      return buffer.status();
    def = buffer.take();
  }
  keepReachable(*module, entry);
  impl->times.parse = secondsSince(start);

  start = Clock::now();
  // Batching and sharding first: the mesh they settle on decides how the
  // entry is called.
  mlir::PassManager front(&ctx);
  std::string stages =
      "loom-check-static-bounds,loom-annotate-batch-axes,loom-vmap{divergent=" +
      divergentWord(options.divergent) + "},loom-shard{shards=" +
      std::to_string(options.shards) + "},loom-localize-loops{loop-sync=" +
      loopSyncWord(options.loopSync) + "}";
  if (options.countLoops)
    stages += ",loom-count-loop-iterations";
  if (failed(mlir::parsePassPipeline(stages, front)))
    return Status::error("internal error: cannot build the sharding stages");
  if (failed(front.run(*module)))
    return errors.status("batching or sharding failed");
  if (Status s = describeMesh(*module, options.entry, *impl); !s.ok())
    return s;
  if (options.countLoops && !impl->mesh)
    return Status::error("loop counters need an entry that runs on a mesh "
                         "(a batched entry), and @" + options.entry +
                         " is not one");
  if (auto table = (*module)->getAttrOfType<mlir::ArrayAttr>(
          mlir::loom::LoomDialect::kLoopsAttrName))
    for (auto entry : table.getAsRange<mlir::DictionaryAttr>())
      impl->loops.emplace_back(
          entry.getAs<mlir::StringAttr>("loc").str(),
          entry.getAs<mlir::BoolAttr>("masked").getValue());

  mlir::PassManager pm(&ctx);
  mlir::loom::LoomToLLVMOptions lowering;
  lowering.fpContraction = options.fpContraction;
  mlir::loom::buildLoomToLLVMPipeline(pm, lowering);
  if (failed(pm.run(*module)))
    return errors.status("lowering failed");
  impl->times.lower = secondsSince(start);

  start = Clock::now();
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
      mlir::ExecutionEngine::create(*module, engineOptions, std::move(*tm));
  if (!engine)
    return Status::error("JIT compilation failed: " +
                         llvm::toString(engine.takeError()));
  if (!unresolved.empty())
    return Status::error(
        "JIT compilation failed: the compiled program calls " +
        llvm::join(unresolved, ", ") +
        ", which neither Loom's runtime nor this process defines");
  impl->engine = std::move(*engine);
  registerRuntimeSymbols(*impl->engine);
  auto fn = impl->engine->lookupPacked(options.entry);
  if (!fn)
    return Status::error("JIT compilation failed: " +
                         llvm::toString(fn.takeError()));
  impl->entry = *fn;
  impl->times.jit = secondsSince(start);
  impl->resultLayout = layoutResults(impl->outputs);
  return Executable::Impl::wrap(std::move(impl));
}

Result<Executable> Executable::compile(const std::string &source,
                                       const CompileOptions &options,
                                       const std::string &bufferName) {
  return compileBuffer(llvm::MemoryBuffer::getMemBufferCopy(source, bufferName),
                       options);
}

Result<Executable> Executable::compileFile(const std::string &path,
                                           const CompileOptions &options) {
  auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/true);
  if (!buffer)
    return Status::error(path + ": " + buffer.getError().message());
  return compileBuffer(std::move(*buffer), options);
}

//===----------------------------------------------------------------------===//
// Calls
//===----------------------------------------------------------------------===//

static std::string shapeString(const std::vector<int64_t> &shape, DType dtype) {
  std::string s;
  for (int64_t d : shape)
    s += (d < 0 ? std::string("?") : std::to_string(d)) + "x";
  return s + dtypeName(dtype);
}

/// Checks one input against its argument: dtype (u32 passes for i32 since
/// keys are unsigned words in signless tensors), rank and static sizes.
static Status checkInput(const ValueInfo &info, size_t index,
                         const HostBuffer &buffer) {
  bool dtypeOk = buffer.dtype() == info.dtype ||
                 (info.dtype == DType::I32 && buffer.dtype() == DType::U32);
  bool shapeOk = buffer.rank() == info.shape.size();
  for (size_t k = 0; shapeOk && k < info.shape.size(); ++k)
    shapeOk = info.shape[k] < 0 || info.shape[k] == buffer.shape()[k];
  if (dtypeOk && shapeOk)
    return Status::success();
  return Status::error("input '" + info.name + "' (#" + std::to_string(index) +
                       ") must be " + shapeString(info.shape, info.dtype) +
                       ", got " + buffer.typeString());
}

/// Checks a scalar integer input against its `loom.range`. A u32 buffer
/// for an i32 argument is read as the unsigned value the caller wrote.
static Status checkRange(const ValueInfo &info, size_t index,
                         const HostBuffer &buffer) {
  int64_t value = 0;
  switch (buffer.dtype()) {
  case DType::I32:
    value = *buffer.dataAs<int32_t>();
    break;
  case DType::U32:
    value = *buffer.dataAs<uint32_t>();
    break;
  case DType::I64:
    value = *buffer.dataAs<int64_t>();
    break;
  default:
    // checkInput took it for the argument's integer dtype.
    return Status::success();
  }
  auto [lo, hi] = *info.range;
  if (value >= lo && value <= hi)
    return Status::success();
  return Status::error("input '" + info.name + "' (#" + std::to_string(index) +
                       ") is " + std::to_string(value) +
                       ", outside its loom.range [" + std::to_string(lo) +
                       ", " + std::to_string(hi) + "]");
}

/// Runs the entry on every shard of the mesh, each on its own rows of the
/// split inputs, and joins the split outputs in shard order.
static Result<std::vector<HostBuffer>>
callOnMesh(const Executable::Impl &impl,
           llvm::ArrayRef<const HostBuffer *> inputs) {
  int64_t batch = -1;
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (!impl.inputSplit[i])
      continue;
    int64_t rowsHere = inputs[i]->rank() ? inputs[i]->shape()[0] : 0;
    if (batch >= 0 && rowsHere != batch)
      return Status::error("input '" + impl.inputs[i].name + "' has " +
                           std::to_string(rowsHere) +
                           " lanes, but the other batched inputs have " +
                           std::to_string(batch));
    batch = rowsHere;
  }
  if (batch < 0)
    batch = 0;
  int32_t shards = impl.mesh->numShards();
  // Each shard's outputs, until they are joined.
  using ShardOutputs = llvm::SmallVector<HostBuffer, 4>;
  llvm::SmallVector<ShardOutputs, 16> perShard(shards);
  Status status = impl.mesh->run(batch, [&](ShardContext &shard) -> Status {
    ShardArguments slice{impl.inputSplit, shard.laneBegin, shard.laneEnd,
                         shard.abiHandle()};
    PackedCall packed;
    packArguments(impl.inputs, inputs, impl.resultLayout, packed, &slice);
    impl.entry(packed.pointers.data());
    ShardOutputs &outputs = perShard[shard.shard];
    return unpackResults(
        impl.outputs, impl.resultLayout, packed,
        [&](HostBuffer output) { outputs.push_back(std::move(output)); });
  });
  if (!status.ok())
    return status;

  std::vector<HostBuffer> joined;
  joined.reserve(impl.outputs.size());
  for (size_t r = 0; r < impl.outputs.size(); ++r) {
    if (!impl.outputSplit[r] || shards == 1) {
      joined.push_back(std::move(perShard[0][r]));
      continue;
    }
    std::vector<int64_t> shape = perShard[0][r].shape();
    shape[0] = 0;
    for (ShardOutputs &outs : perShard)
      shape[0] += outs[r].shape()[0];
    Result<HostBuffer> whole =
        HostBuffer::zeros(impl.outputs[r].dtype, std::move(shape));
    if (!whole)
      return whole.status();
    auto *dst = static_cast<uint8_t *>(whole->data());
    for (ShardOutputs &outs : perShard) {
      // A shard without lanes holds an empty result with no block (null
      // data), which memcpy must not be given even for zero bytes.
      if (outs[r].byteSize() == 0)
        continue;
      std::memcpy(dst, outs[r].data(), outs[r].byteSize());
      dst += outs[r].byteSize();
    }
    joined.push_back(whole.take());
  }
  return joined;
}

Result<Counters> Executable::counters() const {
  if (!impl->mesh)
    return Status::error("the entry does not run on a mesh: no counters");
  MeshStats stats = impl->mesh->stats();
  Counters out;
  out.calls = stats.runs;
  for (const ShardStats &shard : stats.shards) {
    out.lanes.push_back(shard.lanes);
    out.collectives.push_back(shard.collectives);
  }
  for (size_t id = 0; id < impl->loops.size(); ++id) {
    LoopCounters loop;
    loop.location = impl->loops[id].first;
    loop.masked = impl->loops[id].second;
    for (const ShardStats &shard : stats.shards) {
      LoopStats s = id < shard.loops.size() ? shard.loops[id] : LoopStats();
      loop.iterations.push_back(s.iterations);
      loop.activeLaneIterations.push_back(s.activeLaneIterations);
    }
    out.loops.push_back(std::move(loop));
  }
  return out;
}

void Executable::resetCounters() const {
  if (impl->mesh)
    impl->mesh->resetStats();
}

Result<size_t> Executable::inputIndex(const std::string &name) const {
  for (size_t i = 0; i < impl->inputs.size(); ++i)
    if (impl->inputs[i].name == name)
      return i;
  // At most 9 digits: std::stoul throws (and so aborts) past its range, and
  // no entry has a billion inputs.
  if (!name.empty() && name.size() <= 9 &&
      name.find_first_not_of("0123456789") == std::string::npos) {
    size_t i = std::stoul(name);
    if (i < impl->inputs.size())
      return i;
  }
  std::string known;
  for (const ValueInfo &info : impl->inputs)
    known += (known.empty() ? "" : ", ") + info.name;
  return Status::error("the entry has no input '" + name + "' (inputs: " +
                       known + ")");
}

/// Calls the entry with one buffer per input, in order, null where the
/// caller left an input out for its default.
static Result<std::vector<HostBuffer>>
callEntry(const Executable::Impl &impl,
          llvm::MutableArrayRef<const HostBuffer *> inputs) {
  const std::vector<ValueInfo> &sig = impl.inputs;
  for (size_t i = 0; i < sig.size(); ++i) {
    if (inputs[i]) {
      if (Status s = checkInput(sig[i], i, *inputs[i]); !s.ok())
        return s;
      if (sig[i].range)
        if (Status s = checkRange(sig[i], i, *inputs[i]); !s.ok())
          return s;
      continue;
    }
    if (!impl.defaults[i])
      return Status::error("input '" + sig[i].name + "' (#" +
                           std::to_string(i) +
                           ") is missing and has no default");
    inputs[i] = &*impl.defaults[i];
  }
  for (const auto &group : impl.batchGroups) {
    auto [first, firstAxis] = group.front();
    int64_t batch = inputs[first]->shape()[firstAxis];
    for (auto [i, axis] : group)
      if (inputs[i]->shape()[axis] != batch)
        return Status::error(
            "inputs '" + sig[first].name + "' and '" + sig[i].name +
            "' are mapped together but have batch sizes " +
            std::to_string(batch) + " and " +
            std::to_string(inputs[i]->shape()[axis]));
  }
  if (impl.mesh)
    return callOnMesh(impl, inputs);
  PackedCall packed;
  packArguments(sig, inputs, impl.resultLayout, packed);
  impl.entry(packed.pointers.data());
  std::vector<HostBuffer> outputs;
  outputs.reserve(impl.outputs.size());
  Status status = unpackResults(
      impl.outputs, impl.resultLayout, packed,
      [&](HostBuffer output) { outputs.push_back(std::move(output)); });
  if (!status.ok())
    return status;
  return outputs;
}

/// One pointer per input: most entries take a handful of inputs.
using InputList = llvm::SmallVector<const HostBuffer *, 16>;

Result<std::vector<HostBuffer>>
Executable::callNamed(const std::map<std::string, HostBuffer> &named) const {
  InputList inputs(impl->inputs.size(), nullptr);
  for (const auto &[name, buffer] : named) {
    Result<size_t> index = inputIndex(name);
    if (!index)
      return index.status();
    if (inputs[*index])
      return Status::error("input '" + impl->inputs[*index].name +
                           "' is given twice");
    inputs[*index] = &buffer;
  }
  return callEntry(*impl, inputs);
}

Result<std::vector<HostBuffer>>
Executable::call(const std::vector<HostBuffer> &given) const {
  if (given.size() > impl->inputs.size())
    return Status::error("the entry takes " +
                         std::to_string(impl->inputs.size()) + " inputs, got " +
                         std::to_string(given.size()));
  InputList inputs(impl->inputs.size(), nullptr);
  for (size_t i = 0; i < given.size(); ++i)
    inputs[i] = &given[i];
  return callEntry(*impl, inputs);
}
