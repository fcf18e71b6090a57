//===- CUDADriver.h - The CUDA driver API, found at run time ----*- C++ -*-===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//
//
// The GPU runtime reaches the CUDA driver through dlopen("libcuda.so.1") and
// cuGetProcAddress, never by linking libcuda: a Loom built or run on a
// machine with no driver must still load, and say plainly that there is no
// GPU. Entry points are asked for by base name with an explicit version
// (cuda.h #defines the versioned ABI names, cuMemAlloc -> cuMemAlloc_v2,
// which a plain dlsym would miss). Plain C++: the driver's types are
// declared here, not taken from the toolkit's cuda.h, so nothing needs the
// toolkit to build.
//
//===----------------------------------------------------------------------===//

#ifndef LOOM_LIB_RUNTIME_GPU_CUDADRIVER_H
#define LOOM_LIB_RUNTIME_GPU_CUDADRIVER_H

#include "loom/Support/Status.h"

#include <string>

namespace loom::gpu {

/// The driver's result codes that the runtime tells apart.
enum CUresultCode : int {
  kCudaSuccess = 0,
  kCudaErrorStubLibrary = 34,
  kCudaErrorNoDevice = 100,
};

/// The driver API, initialised. Function pointers use the driver's C ABI
/// (CUresult is an int, CUdevice an int, handles are pointers).
struct CUDADriver {
  int (*cuInit)(unsigned flags) = nullptr;
  int (*cuDriverGetVersion)(int *version) = nullptr;
  int (*cuDeviceGetCount)(int *count) = nullptr;
  int (*cuGetErrorName)(int error, const char **name) = nullptr;
  int (*cuGetErrorString)(int error, const char **text) = nullptr;
  int version = 0;
  int devices = 0;

  /// "CUDA_ERROR_NAME: its description", or the number if the driver does
  /// not know it.
  std::string describe(int result) const;
};

/// Loads and initialises the driver in `library`. Errors, one line each:
/// "no CUDA driver: libcuda.so.1 not found"; the toolkit's stub library
/// (CUDA_ERROR_STUB_LIBRARY, 34) is no driver; CUDA_ERROR_NO_DEVICE (100),
/// or no device counted, is no GPU.
Result<CUDADriver> loadCUDADriver(const std::string &library);

/// libcuda.so.1's driver, loaded once per process: a failure is the answer
/// for the whole process, as a driver that faulted would be.
Result<const CUDADriver *> getCUDADriver();

} // namespace loom::gpu

#endif // LOOM_LIB_RUNTIME_GPU_CUDADRIVER_H
