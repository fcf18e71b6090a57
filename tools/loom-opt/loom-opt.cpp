//===- loom-opt.cpp - Loom's mlir-opt -------------------------------------===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//
//
// mlir-opt for Loom programs: parses, verifies and runs any of Loom's passes
// and pipelines, with mlir-opt's flags (-split-input-file,
// -verify-diagnostics, --mlir-print-ir-after-all, ...).
//
//===----------------------------------------------------------------------===//

#include "loom/InitAllDialects.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

// Test passes live in test/lib; only loom-opt registers them.
namespace mlir::loom::test {
void registerTestBatchednessPass();
} // namespace mlir::loom::test

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  mlir::loom::registerAllLoom(registry);
  mlir::loom::registerLoomPasses();
  mlir::loom::test::registerTestBatchednessPass();
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "Loom optimizer driver\n", registry));
}
