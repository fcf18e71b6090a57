//===- RuntimeFunctionsTest.cpp - The runtime entry points' one list ------===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//
//
// RuntimeFunctions.def is the ABI: these tests pin what it generates, so a
// change to the list shows here as a change to the ABI.
//
//===----------------------------------------------------------------------===//

#include "loom/Conversion/LoomRuntimeCommon/RuntimeFunctions.h"
#include "loom/Runtime/ABI.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

using namespace mlir;
using ::loom::RuntimeFunction;

namespace {

std::string print(Type type) {
  std::string s;
  llvm::raw_string_ostream(s) << type;
  return s;
}

TEST(RuntimeFunctionsTest, NamesAndTypesAreTheABIs) {
  MLIRContext context;
  const std::pair<const char *, const char *> expected[] = {
      {"loom_rt_all_reduce_i1", "(i64, i32, i32) -> i32"},
      {"loom_rt_all_reduce_i32", "(i64, i32, i32) -> i32"},
      {"loom_rt_all_reduce_i64", "(i64, i32, i64) -> i64"},
      {"loom_rt_all_reduce_f32", "(i64, i32, f32) -> f32"},
      {"loom_rt_all_reduce_f64", "(i64, i32, f64) -> f64"},
      {"loom_rt_ordered_sum_f32", "(i64, i64, i64) -> f32"},
      {"loom_rt_ordered_sum_f64", "(i64, i64, i64) -> f64"},
      {"loom_rt_ok", "(i64) -> i32"},
      {"loom_rt_count_iteration", "(i64, i32, i64) -> ()"},
      {"loom_rt_variant_begin", "(i64, i32, i32) -> i32"},
      {"loom_rt_variant_end", "(i64, i32) -> ()"},
      {"loom_rt_gpu_launch", "(i64, i64, i64, i64, i64, i32, i64, i64) -> i32"},
  };
  ASSERT_EQ(std::size(::loom::kRuntimeFunctions), std::size(expected));
  for (size_t i = 0; i < std::size(expected); ++i) {
    RuntimeFunction fn = ::loom::kRuntimeFunctions[i];
    EXPECT_STREQ(::loom::getRuntimeFunctionName(fn), expected[i].first);
    EXPECT_EQ(print(mlir::loom::getRuntimeFunctionType(&context, fn)),
              expected[i].second)
        << expected[i].first;
  }
}

// The JIT's symbol table registers `&NAME` for every line of the list: each
// must be a function the runtime defines (this links against LoomRuntime).
TEST(RuntimeFunctionsTest, EveryListedFunctionResolves) {
  llvm::StringSet<> names;
#define LOOM_RT_FUNCTION(ID, NAME, RESULT, PARAMETERS)                         \
  EXPECT_NE(reinterpret_cast<void *>(&NAME), nullptr);                         \
  EXPECT_TRUE(names.insert(#NAME).second) << #NAME " is listed twice";
#include "loom/Runtime/RuntimeFunctions.def"
  EXPECT_EQ(names.size(), std::size(::loom::kRuntimeFunctions));
}

TEST(RuntimeFunctionsTest, DeclaringTwiceReusesTheDeclaration) {
  MLIRContext context;
  context.loadDialect<func::FuncDialect>();
  OwningOpRef<ModuleOp> module = ModuleOp::create(UnknownLoc::get(&context));
  SymbolTable symbols(*module);
  func::FuncOp first = mlir::loom::declareRuntimeFunction(
      *module, symbols, RuntimeFunction::CountIteration);
  func::FuncOp second = mlir::loom::declareRuntimeFunction(
      *module, symbols, RuntimeFunction::CountIteration);
  EXPECT_EQ(first, second);
  EXPECT_TRUE(first.isPrivate());
  EXPECT_EQ(first.getSymName(), "loom_rt_count_iteration");
  EXPECT_EQ(llvm::range_size(module->getOps<func::FuncOp>()), 1u);
}

} // namespace
