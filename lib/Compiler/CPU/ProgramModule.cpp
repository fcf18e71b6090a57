//===- ProgramModule.cpp - An LLVM module as an AOT program ---------------===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//
//
// The descriptor is built as LLVM constants whose struct types follow
// ProgramABI.h field by field: with the target's data layout, LLVM lays out
// a non-packed struct as C does.
//
//===----------------------------------------------------------------------===//

#include "ProgramModule.h"

#include "loom/Runtime/ABI.h"
#include "loom/Runtime/ProgramABI.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"

#include <iterator>

using namespace loom;
using namespace loom::detail;

void loom::detail::addPackedWrapper(llvm::Module &module,
                                    llvm::StringRef entry) {
  llvm::LLVMContext &ctx = module.getContext();
  llvm::Function *func = module.getFunction(entry);
  llvm::IRBuilder<> builder(ctx);
  auto *type = llvm::FunctionType::get(builder.getVoidTy(), builder.getPtrTy(),
                                       /*isVarArg=*/false);
  auto *wrapper = llvm::Function::Create(
      type, llvm::GlobalValue::ExternalLinkage, "_mlir_" + entry, module);
  builder.SetInsertPoint(llvm::BasicBlock::Create(ctx, "", wrapper));
  llvm::Value *list = wrapper->getArg(0);
  llvm::SmallVector<llvm::Value *, 16> args;
  for (llvm::Argument &arg : func->args()) {
    llvm::Value *slot = builder.CreateGEP(builder.getPtrTy(), list,
                                          builder.getInt64(arg.getArgNo()));
    llvm::Value *pointer = builder.CreateLoad(builder.getPtrTy(), slot);
    args.push_back(builder.CreateLoad(arg.getType(), pointer));
  }
  llvm::Value *result = builder.CreateCall(func, args);
  if (!result->getType()->isVoidTy()) {
    llvm::Value *slot = builder.CreateGEP(builder.getPtrTy(), list,
                                          builder.getInt64(args.size()));
    builder.CreateStore(result, builder.CreateLoad(builder.getPtrTy(), slot));
  }
  builder.CreateRetVoid();
}

namespace {

/// Builds the descriptor's constants in `module`.
class DescriptorBuilder {
public:
  explicit DescriptorBuilder(llvm::Module &module)
      : module(module), ctx(module.getContext()),
        i32(llvm::Type::getInt32Ty(ctx)), i64(llvm::Type::getInt64Ty(ctx)),
        f64(llvm::Type::getDoubleTy(ctx)), ptr(llvm::PointerType::get(ctx, 0)),
        valueType(llvm::StructType::create(
            ctx, {ptr, i32, i32, ptr, i32, i32, f64, i32, i32, i64, i64},
            "LoomProgramValue")),
        batchAxisType(llvm::StructType::create(ctx, {i64, i64, i64},
                                               "LoomProgramBatchAxis")),
        loopType(llvm::StructType::create(ctx, {ptr, i32, i32, ptr},
                                          "LoomProgramLoop")),
        variantType(llvm::StructType::create(ctx, {ptr, ptr, ptr},
                                             "LoomProgramVariant")) {}

  llvm::Constant *int32(int64_t v) { return llvm::ConstantInt::get(i32, v); }
  llvm::Constant *int64(int64_t v) { return llvm::ConstantInt::get(i64, v); }

  llvm::Constant *string(llvm::StringRef s) {
    return privateGlobal(llvm::ConstantDataArray::getString(ctx, s), ".str");
  }

  /// A private constant array of `type`, or null when empty.
  llvm::Constant *array(llvm::Type *type,
                        llvm::ArrayRef<llvm::Constant *> elements) {
    if (elements.empty())
      return llvm::ConstantPointerNull::get(llvm::PointerType::get(ctx, 0));
    return privateGlobal(
        llvm::ConstantArray::get(llvm::ArrayType::get(type, elements.size()),
                                 elements),
        ".table");
  }

  llvm::Constant *value(const ValueInfo &info, bool split) {
    llvm::SmallVector<llvm::Constant *, 8> dims;
    for (int64_t d : info.shape)
      dims.push_back(int64(d));
    auto [lo, hi] = info.range.value_or(std::pair<int64_t, int64_t>{0, 0});
    return llvm::ConstantStruct::get(
        valueType,
        {string(info.name), int32(static_cast<int32_t>(info.dtype)),
         int32(info.shape.size()), array(i64, dims), int32(split),
         int32(info.defaultValue.has_value()),
         llvm::ConstantFP::get(f64, info.defaultValue.value_or(0.0)),
         int32(info.range.has_value()), int32(0), int64(lo), int64(hi)});
  }

  llvm::Constant *values(const std::vector<ValueInfo> &infos,
                         const std::vector<bool> &split) {
    llvm::SmallVector<llvm::Constant *, 8> elements;
    for (size_t i = 0; i < infos.size(); ++i)
      elements.push_back(value(infos[i], i < split.size() && split[i]));
    return array(valueType, elements);
  }

  llvm::Module &module;
  llvm::LLVMContext &ctx;
  llvm::Type *i32, *i64, *f64, *ptr;
  llvm::StructType *valueType, *batchAxisType, *loopType, *variantType;

private:
  llvm::Constant *privateGlobal(llvm::Constant *init, const char *name) {
    auto *global =
        new llvm::GlobalVariable(module, init->getType(), /*isConstant=*/true,
                                 llvm::GlobalValue::PrivateLinkage, init, name);
    global->setUnnamedAddr(llvm::GlobalValue::UnnamedAddr::Global);
    return global;
  }
};

constexpr const char *kRuntimeNames[] = {
#define LOOM_RT_FUNCTION(ID, NAME, RESULT, PARAMETERS) #NAME,
#include "loom/Runtime/RuntimeFunctions.def"
};

/// Gives each runtime entry point `module` declares a private body that
/// calls through slot i of `table`, so that the library resolves nothing
/// in the process that loads it.
void defineRuntimeStubs(llvm::Module &module, llvm::GlobalVariable *table) {
  llvm::IRBuilder<> builder(module.getContext());
  for (size_t i = 0; i < std::size(kRuntimeNames); ++i) {
    llvm::Function *fn = module.getFunction(kRuntimeNames[i]);
    if (!fn || !fn->isDeclaration())
      continue;
    fn->setLinkage(llvm::GlobalValue::PrivateLinkage);
    builder.SetInsertPoint(
        llvm::BasicBlock::Create(module.getContext(), "", fn));
    llvm::Value *slot =
        builder.CreateConstInBoundsGEP2_64(table->getValueType(), table, 0, i);
    llvm::Value *callee = builder.CreateLoad(builder.getPtrTy(), slot);
    llvm::SmallVector<llvm::Value *, 4> args;
    for (llvm::Argument &arg : fn->args())
      args.push_back(&arg);
    llvm::CallInst *call =
        builder.CreateCall(fn->getFunctionType(), callee, args);
    call->setTailCall();
    if (call->getType()->isVoidTy())
      builder.CreateRetVoid();
    else
      builder.CreateRet(call);
  }
}

} // namespace

void loom::detail::addProgramDescriptor(llvm::Module &module,
                                        llvm::StringRef entry,
                                        const Executable::Impl &impl,
                                        const ProgramTarget &target) {
  // Before the descriptor's own globals: nothing the library defines but
  // the descriptor is for the loading process to see or interpose on.
  for (llvm::GlobalValue &value : module.global_values())
    if (!value.isDeclaration() && !value.hasLocalLinkage())
      value.setVisibility(llvm::GlobalValue::HiddenVisibility);

  DescriptorBuilder b(module);
  auto *tableType = llvm::ArrayType::get(b.ptr, std::size(kRuntimeNames));
  auto *table = new llvm::GlobalVariable(
      module, tableType, /*isConstant=*/false,
      llvm::GlobalValue::PrivateLinkage,
      llvm::ConstantAggregateZero::get(tableType), "loom_runtime_functions");
  defineRuntimeStubs(module, table);

  llvm::SmallVector<llvm::Constant *, 8> axes, loops, variants;
  for (size_t g = 0; g < impl.batchGroups.size(); ++g)
    for (auto [input, axis] : impl.batchGroups[g])
      axes.push_back(llvm::ConstantStruct::get(
          b.batchAxisType, {b.int64(g), b.int64(input), b.int64(axis)}));
  for (const Executable::Impl::LoopSite &loop : impl.loops)
    loops.push_back(llvm::ConstantStruct::get(
        b.loopType, {b.string(loop.location), b.int32(loop.masked),
                     b.int32(loop.lanes), b.string(loop.variant)}));
  for (const Executable::Impl::VariantSite &site : impl.variants)
    variants.push_back(llvm::ConstantStruct::get(
        b.variantType, {b.string(site.location), b.string(site.primary),
                        b.string(site.alternative)}));

  llvm::Constant *fields[] = {
      b.int32(LOOM_PROGRAM_MAGIC),
      b.int32(LOOM_PROGRAM_ABI_VERSION),
      b.string(LOOM_VERSION),
      b.string(target.backend),
      b.string(target.triple),
      b.string(target.cpu),
      b.string(target.features),
      b.string(entry),
      module.getFunction(("_mlir_" + entry).str()),
      b.int64(impl.mesh ? impl.mesh->numShards() : 0),
      b.int32(impl.countsLoops),
      b.int32(std::size(kRuntimeNames)),
      table,
      b.int64(impl.inputs.size()),
      b.values(impl.inputs, impl.inputSplit),
      b.int64(impl.outputs.size()),
      b.values(impl.outputs, impl.outputSplit),
      b.int64(axes.size()),
      b.array(b.batchAxisType, axes),
      b.int64(loops.size()),
      b.array(b.loopType, loops),
      b.int64(variants.size()),
      b.array(b.variantType, variants),
  };
  llvm::SmallVector<llvm::Type *, 24> types;
  for (llvm::Constant *field : fields)
    types.push_back(field->getType());
  auto *type = llvm::StructType::create(b.ctx, types, "LoomProgram");
  new llvm::GlobalVariable(
      module, type, /*isConstant=*/true, llvm::GlobalValue::ExternalLinkage,
      llvm::ConstantStruct::get(type, fields), LOOM_PROGRAM_SYMBOL);
}
