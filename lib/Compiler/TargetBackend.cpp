//===- TargetBackend.cpp - Picking the backend ----------------------------===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//

#include "TargetBackend.h"

using namespace loom;
using namespace loom::detail;

TargetBackend::~TargetBackend() = default;

Result<std::unique_ptr<TargetBackend>>
loom::detail::createTargetBackend(const CompileOptions &options) {
  switch (options.backend) {
  case Backend::CPU:
    return createCPUBackend();
  // Named on the command line already, and an error rather than a silent
  // fallback to the CPU until its implementation exists.
  case Backend::GPU:
    return Status::error("backend 'gpu' is not available in this build of "
                         "Loom yet (use --backend cpu)");
  case Backend::MPI:
    return createMPIBackend(options);
  }
  return Status::error("internal error: unknown backend");
}
