//===- LoomToLLVMIRTranslation.h - Loom attributes in LLVM IR ---*- C++ -*-===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//
//
// What translation to LLVM IR does with the `loom.*` attributes still on an
// llvm.func: nothing. They describe the entry to Loom's runtime (names,
// defaults, ranges, batch axes), which reads them before lowering; LLVM IR
// has no counterpart. Without this interface, translation warns once per
// such argument and prints the whole function into each warning.
//
//===----------------------------------------------------------------------===//

#ifndef LOOM_TARGET_LLVMIR_DIALECT_LOOM_LOOMTOLLVMIRTRANSLATION_H
#define LOOM_TARGET_LLVMIR_DIALECT_LOOM_LOOMTOLLVMIRTRANSLATION_H

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace mlir::loom {

/// Registers the Loom dialect's LLVM IR translation interface.
void registerLoomDialectTranslation(DialectRegistry &registry);

} // namespace mlir::loom

#endif // LOOM_TARGET_LLVMIR_DIALECT_LOOM_LOOMTOLLVMIRTRANSLATION_H
