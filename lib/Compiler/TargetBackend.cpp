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
loom::detail::createTargetBackend(Backend kind) {
  switch (kind) {
  case Backend::CPU:
    return createCPUBackend();
  // Named on the command line already, and an error rather than a silent
  // fallback to the CPU until their implementations exist.
  case Backend::GPU:
    return Status::error("backend 'gpu' is not available in this build of "
                         "Loom yet (use --backend cpu)");
  case Backend::MPI:
    return Status::error("backend 'mpi' is not available in this build of "
                         "Loom yet (use --backend cpu)");
  }
  return Status::error("internal error: unknown backend");
}
