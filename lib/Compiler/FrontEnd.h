//===- FrontEnd.h - A program through the Loom pipeline ---------*- C++ -*-===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//
//
// What the JIT (Compile.cpp) and the ahead-of-time path (Emit.cpp) share:
// parsing, reading the signature, the Loom pipeline and the mesh, then the
// backend's lowering. They differ only in what they do with the lowered
// module: load it, or write it.
//
//===----------------------------------------------------------------------===//

#ifndef LOOM_LIB_COMPILER_FRONTEND_H
#define LOOM_LIB_COMPILER_FRONTEND_H

#include "TargetBackend.h"

#include "loom/Runtime/ExecutableImpl.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OwningOpRef.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/MemoryBuffer.h"

#include <memory>
#include <string>

namespace loom::detail {

class FirstError;

/// A program after the Loom pipeline (batching, sharding, loop
/// localization, counters), in its own context, and the backend that lowers
/// it.
struct FrontEnd {
  FrontEnd();
  FrontEnd(FrontEnd &&);
  ~FrontEnd();

  // Destroyed in reverse: the module and the error handler before their
  // context.
  std::unique_ptr<mlir::MLIRContext> context;
  std::unique_ptr<FirstError> errors;
  mlir::OwningOpRef<mlir::ModuleOp> module;
  std::unique_ptr<TargetBackend> backend;
  /// The code is written, to run elsewhere: lowered for the target CPU
  /// named in the options rather than this one.
  bool aheadOfTime = false;

  /// The first error diagnosed in the context, or `fallback`.
  Status error(const std::string &fallback) const;

  /// Runs the backend's lowering on the module.
  Status lower(const CompileOptions &options, Executable::Impl &impl);
};

/// Runs `pm`, a lowering pipeline (bufferization and conversions), on
/// `module`, verifying as `options` ask: after each pass, or once at the
/// end (a pass that broke the IR fails there).
mlir::LogicalResult runLoweringPipeline(mlir::PassManager &pm,
                                        mlir::ModuleOp module,
                                        const CompileOptions &options);

/// Parses `buffer`, reads the entry's signature and defaults into `impl`,
/// runs the Loom pipeline and reads the mesh and loop table.
/// `aheadOfTime`: the code is written, to run elsewhere.
Result<FrontEnd> runFrontEnd(std::unique_ptr<llvm::MemoryBuffer> buffer,
                             const CompileOptions &options,
                             Executable::Impl &impl, bool aheadOfTime);

/// The program in the file `path`, or an error naming it.
Result<std::unique_ptr<llvm::MemoryBuffer>>
readProgram(const std::string &path);

} // namespace loom::detail

#endif // LOOM_LIB_COMPILER_FRONTEND_H
