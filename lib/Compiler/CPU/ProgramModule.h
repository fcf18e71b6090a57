//===- ProgramModule.h - An LLVM module as an AOT program -------*- C++ -*-===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//
//
// What turns a translated LLVM module into a library Executable::load can
// call (loom/Runtime/ProgramABI.h): the entry's packed wrapper, the
// runtime's entry points reached through a table the loader fills in, and
// the descriptor.
//
//===----------------------------------------------------------------------===//

#ifndef LOOM_LIB_COMPILER_CPU_PROGRAMMODULE_H
#define LOOM_LIB_COMPILER_CPU_PROGRAMMODULE_H

#include "loom/Runtime/ExecutableImpl.h"

#include "llvm/ADT/StringRef.h"

#include <string>

namespace llvm {
class Module;
} // namespace llvm

namespace loom::detail {

/// Where the program was compiled for, and the backend it runs on ("cpu",
/// "mpi").
struct ProgramTarget {
  std::string triple, cpu, features;
  std::string backend = "cpu";
};

/// Adds `_mlir_<entry>(void **)`, as MLIR's ExecutionEngine does for the
/// JIT: it loads each argument from its pointer, calls the entry and stores
/// the result struct through the last pointer.
void addPackedWrapper(llvm::Module &module, llvm::StringRef entry);

/// Makes the program a library: each runtime entry point it declares gets a
/// private body that calls through the descriptor's table, every definition
/// is hidden (so nothing of the loading process can interpose on it), and
/// the descriptor of `impl` is exported as LOOM_PROGRAM_SYMBOL.
void addProgramDescriptor(llvm::Module &module, llvm::StringRef entry,
                          const Executable::Impl &impl,
                          const ProgramTarget &target);

} // namespace loom::detail

#endif // LOOM_LIB_COMPILER_CPU_PROGRAMMODULE_H
