//===- LoomToLLVMIRTranslation.cpp - Loom attributes in LLVM IR -----------===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//

#include "loom/Target/LLVMIR/Dialect/Loom/LoomToLLVMIRTranslation.h"
#include "loom/Dialect/Loom/IR/LoomDialect.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Target/LLVMIR/LLVMTranslationInterface.h"

using namespace mlir;

namespace {
/// The default hooks accept every attribute and emit nothing, which is all
/// Loom's attributes need; registering the interface is what tells
/// translation that they are handled.
struct LoomDialectLLVMIRTranslationInterface
    : public LLVMTranslationDialectInterface {
  using LLVMTranslationDialectInterface::LLVMTranslationDialectInterface;
};
} // namespace

void mlir::loom::registerLoomDialectTranslation(DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *, loom::LoomDialect *dialect) {
    dialect->addInterfaces<LoomDialectLLVMIRTranslationInterface>();
  });
}
