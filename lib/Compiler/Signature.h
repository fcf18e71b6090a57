//===- Signature.h - Reading the entry's signature --------------*- C++ -*-===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//
//
// What Compile.cpp reads from the module into Executable::Impl
// (loom/Runtime/ExecutableImpl.h), before and after the Loom pipeline.
//
//===----------------------------------------------------------------------===//

#ifndef LOOM_LIB_COMPILER_SIGNATURE_H
#define LOOM_LIB_COMPILER_SIGNATURE_H

#include "TargetBackend.h"

#include "loom/Runtime/ExecutableImpl.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"

#include <string>

namespace loom::detail {

/// Reads the entry's signature, names and defaults before lowering erases
/// them, and marks its tensor arguments read-only so bufferization never
/// writes into the caller's buffers.
Status describeEntry(mlir::func::FuncOp func, Executable::Impl &impl);

/// After loom-shard: an entry that took a `loom.context` argument runs on a
/// mesh of the module's size, which `backend` creates; its
/// `loom.batch_axis` arguments and results are split and joined along
/// axis 0. Also reads the loop table loom-count-loop-iterations left.
Status describeMesh(mlir::ModuleOp module, const std::string &name,
                    Executable::Impl &impl, const TargetBackend &backend);

/// After lowering: the variant sites -convert-mesh-to-loom-runtime
/// numbered (the module's loom.variants).
void describeVariants(mlir::ModuleOp module, Executable::Impl &impl);

} // namespace loom::detail

#endif // LOOM_LIB_COMPILER_SIGNATURE_H
