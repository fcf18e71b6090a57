//===- Emit.cpp - Ahead-of-time compilation -------------------------------===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//
//
// The JIT's pipeline up to its last step: instead of loading the lowered
// module, write it (MLIR after bufferization, LLVM IR, an object) or link it
// into a shared library with the system's linker, found at configure time
// (LOOM_LINKER, the C compiler's driver).
//
//===----------------------------------------------------------------------===//

#include "FrontEnd.h"

#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

using namespace loom;
using namespace loom::detail;

static Status writeFile(const std::string &path, llvm::StringRef bytes) {
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec);
  if (ec)
    return Status::error("cannot write '" + path + "': " + ec.message());
  os << bytes;
  os.close();
  if (os.has_error())
    return Status::error("cannot write '" + path +
                         "': " + os.error().message());
  return Status::success();
}

/// Links `object` into the shared library `output`. The library needs
/// only libc and libm: the runtime's entry points come through its
/// descriptor, and `-z defs` makes sure nothing else is left undefined.
static Status linkLibrary(llvm::StringRef object, const std::string &output) {
  llvm::SmallString<128> objectPath;
  if (std::error_code ec =
          llvm::sys::fs::createTemporaryFile("loom-compile", "o", objectPath))
    return Status::error("cannot create a temporary file: " + ec.message());
  llvm::FileRemover remover(objectPath);
  if (Status s = writeFile(std::string(objectPath), object); !s.ok())
    return s;
  llvm::StringRef args[] = {LOOM_LINKER, "-shared",     "-o", output,
                            objectPath,  "-Wl,-z,defs", "-lm"};
  std::string error;
  int rc = llvm::sys::ExecuteAndWait(LOOM_LINKER, args, std::nullopt, {}, 0, 0,
                                     &error);
  if (rc != 0)
    return Status::error("linking '" + output +
                         "' with " LOOM_LINKER " failed" +
                         (error.empty() ? "" : ": " + error));
  return Status::success();
}

Status Executable::compileFileTo(const std::string &path,
                                 const CompileOptions &options, EmitStage stage,
                                 const std::string &outputPath) {
  Result<std::unique_ptr<llvm::MemoryBuffer>> buffer = readProgram(path);
  if (!buffer)
    return buffer.status();
  Executable::Impl impl;
  Result<FrontEnd> front = runFrontEnd(buffer.take(), options, impl,
                                       /*aheadOfTime=*/true);
  if (!front)
    return front.status();
  if (stage == EmitStage::MLIR) {
    mlir::PassManager pm(front->context.get());
    front->backend->buildBufferizationPipeline(pm, options);
    if (failed(runLoweringPipeline(pm, *front->module, options)))
      return front->error("bufferization failed");
    std::string text;
    llvm::raw_string_ostream os(text);
    front->module->print(os);
    return writeFile(outputPath, text);
  }
  if (Status s = front->lower(options, impl); !s.ok())
    return s;
  Result<std::string> bytes =
      front->backend->emit(*front->module, options, impl,
                           stage == EmitStage::LLVM  ? EmitKind::LLVMIR
                           : stage == EmitStage::PTX ? EmitKind::PTX
                                                     : EmitKind::Object);
  if (!bytes)
    return bytes.status();
  if (stage == EmitStage::Library)
    return linkLibrary(*bytes, outputPath);
  return writeFile(outputPath, *bytes);
}
