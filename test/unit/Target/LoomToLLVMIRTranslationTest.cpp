//===- LoomToLLVMIRTranslationTest.cpp - loom.* attributes in LLVM IR -----===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//
//
// An entry keeps its `loom.*` argument attributes down to the LLVM dialect.
// Translation must take them silently: without Loom's translation interface
// it warns once per attribute and prints the whole function into each
// warning, which cost the seed SDE's masked @main about 90 ms of its compile.
//
//===----------------------------------------------------------------------===//

#include "loom/Target/LLVMIR/Dialect/Loom/LoomToLLVMIRTranslation.h"
#include "loom/InitAllDialects.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace {

constexpr const char *kEntry = R"mlir(
llvm.func @main(%x: f32 {loom.name = "x", loom.default = 1.0 : f32},
                %n: i32 {loom.name = "n", loom.range = [0, 2]})
    -> f32 {
  llvm.return %x : f32
}
)mlir";

/// The diagnostics the translation of kEntry emits, with or without Loom's
/// interface.
std::vector<std::string> translate(bool withLoomInterface) {
  mlir::DialectRegistry registry;
  mlir::loom::registerAllLoom(registry);
  mlir::registerBuiltinDialectTranslation(registry);
  mlir::registerLLVMDialectTranslation(registry);
  if (withLoomInterface)
    mlir::loom::registerLoomDialectTranslation(registry);
  mlir::MLIRContext context(registry);
  context.loadAllAvailableDialects();
  std::vector<std::string> diagnostics;
  mlir::ScopedDiagnosticHandler handler(
      &context, [&](mlir::Diagnostic &d) { diagnostics.push_back(d.str()); });
  auto module = mlir::parseSourceString<mlir::ModuleOp>(kEntry, &context);
  EXPECT_TRUE(module);
  llvm::LLVMContext llvmContext;
  auto llvmModule = mlir::translateModuleToLLVMIR(*module, llvmContext);
  EXPECT_TRUE(llvmModule);
  EXPECT_TRUE(llvmModule && llvmModule->getFunction("main"));
  return diagnostics;
}

TEST(LoomToLLVMIRTranslation, LoomArgumentAttributesTranslateSilently) {
  EXPECT_EQ(translate(/*withLoomInterface=*/true), std::vector<std::string>{});
}

// What the interface is for: the same module warns without it, so the test
// above cannot pass by accident (a translation that never looked at
// parameter attributes).
TEST(LoomToLLVMIRTranslation, WithoutTheInterfaceEachAttributeWarns) {
  std::vector<std::string> diagnostics = translate(false);
  ASSERT_EQ(diagnostics.size(), 4u);
  for (const std::string &d : diagnostics)
    EXPECT_NE(d.find("Unhandled parameter attribute 'loom."), std::string::npos)
        << d;
}

} // namespace
