//===- RuntimeFunctions.cpp - Calls into Loom's runtime -------------------===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//

#include "loom/Conversion/LoomRuntimeCommon/RuntimeFunctions.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/SymbolTable.h"

#include <type_traits>

using namespace mlir;
using namespace mlir::loom;

namespace {

template <typename T>
Type abiType(MLIRContext *ctx) {
  if constexpr (std::is_pointer_v<T> || std::is_same_v<T, int64_t>)
    return IntegerType::get(ctx, 64);
  else if constexpr (std::is_same_v<T, int32_t>)
    return IntegerType::get(ctx, 32);
  else if constexpr (std::is_same_v<T, float>)
    return Float32Type::get(ctx);
  else if constexpr (std::is_same_v<T, double>)
    return Float64Type::get(ctx);
  else
    static_assert(sizeof(T) == 0, "a C type the ABI does not map yet");
}

template <typename Signature>
struct AbiSignature;

// Taken from the declaration's type, not its address: the compiler need
// not link the runtime.
template <typename Result, typename... Params>
struct AbiSignature<Result(Params...)> {
  static FunctionType get(MLIRContext *ctx) {
    SmallVector<Type, 1> results;
    if constexpr (!std::is_void_v<Result>)
      results.push_back(abiType<Result>(ctx));
    return FunctionType::get(ctx, {abiType<Params>(ctx)...}, results);
  }
};

} // namespace

FunctionType mlir::loom::getRuntimeFunctionType(MLIRContext *ctx,
                                                RuntimeFunction fn) {
  switch (fn) {
#define LOOM_RT_FUNCTION(ID, NAME, RESULT, PARAMETERS)                         \
  case RuntimeFunction::ID:                                                    \
    return AbiSignature<decltype(NAME)>::get(ctx);
#include "loom/Runtime/RuntimeFunctions.def"
  }
  llvm_unreachable("unknown runtime function");
}

func::FuncOp mlir::loom::declareRuntimeFunction(ModuleOp module,
                                                SymbolTable &symbols,
                                                RuntimeFunction fn) {
  StringRef name = ::loom::getRuntimeFunctionName(fn);
  if (auto f = symbols.lookup<func::FuncOp>(name))
    return f;
  OpBuilder b(module.getBodyRegion());
  auto f = b.create<func::FuncOp>(
      module.getLoc(), name, getRuntimeFunctionType(module.getContext(), fn));
  f.setPrivate();
  symbols.insert(f);
  return f;
}
