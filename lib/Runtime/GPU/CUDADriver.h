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

#include <cstddef>
#include <cstdint>
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
  // What the GPU mesh runs with (GPUMesh.cpp). CUdeviceptr is 64-bit.
  int (*cuDeviceGet)(int *device, int ordinal) = nullptr;
  int (*cuDevicePrimaryCtxRetain)(void **ctx, int device) = nullptr;
  int (*cuDevicePrimaryCtxRelease)(int device) = nullptr;
  int (*cuCtxSetCurrent)(void *ctx) = nullptr;
  int (*cuModuleLoadDataEx)(void **module, const void *image,
                            unsigned numOptions, int *options,
                            void **values) = nullptr;
  int (*cuModuleGetFunction)(void **fn, void *module,
                             const char *name) = nullptr;
  int (*cuStreamCreate)(void **stream, unsigned flags) = nullptr;
  int (*cuStreamDestroy)(void *stream) = nullptr;
  int (*cuStreamSynchronize)(void *stream) = nullptr;
  int (*cuMemAlloc)(uint64_t *ptr, size_t bytes) = nullptr;
  int (*cuMemFree)(uint64_t ptr) = nullptr;
  int (*cuMemcpyHtoDAsync)(uint64_t dst, const void *src, size_t bytes,
                           void *stream) = nullptr;
  int (*cuMemcpyDtoHAsync)(void *dst, uint64_t src, size_t bytes,
                           void *stream) = nullptr;
  int (*cuLaunchKernel)(void *fn, unsigned gx, unsigned gy, unsigned gz,
                        unsigned bx, unsigned by, unsigned bz,
                        unsigned sharedBytes, void *stream, void **params,
                        void **extra) = nullptr;
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
