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
  case Backend::GPU:
    return createGPUBackend();
  case Backend::MPI:
    return createMPIBackend(options);
  }
  return Status::error("internal error: unknown backend");
}
