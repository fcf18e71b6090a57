//===- Optimize.h - LLVM's optimization pipeline for CPU code ---*- C++ -*-===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//
//
// The LLVM IR pipeline the JIT and ahead-of-time code both run, in place of
// MLIR's makeOptimizingTransformer.
//
//===----------------------------------------------------------------------===//

#ifndef LOOM_LIB_COMPILER_CPU_OPTIMIZE_H
#define LOOM_LIB_COMPILER_CPU_OPTIMIZE_H

#include "llvm/ADT/StringRef.h"

namespace llvm {
class Error;
class Module;
class TargetMachine;
} // namespace llvm

namespace loom::detail {

/// Optimizes `module` at `optLevel` (0-3) for `tm`'s CPU. `exported` is
/// the one function callers look up; every other definition becomes
/// internal, and is deleted where nothing calls it any more.
llvm::Error optimizeModule(llvm::Module &module, unsigned optLevel,
                           llvm::TargetMachine &tm, llvm::StringRef exported);

} // namespace loom::detail

#endif // LOOM_LIB_COMPILER_CPU_OPTIMIZE_H
