//===- CUDADriver.cpp - The CUDA driver API, found at run time ------------===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//

#include "CUDADriver.h"

#include <dlfcn.h>

#include <cstdint>
#include <cstdlib>
#include <mutex>

using namespace loom;
using namespace loom::gpu;

namespace {

// cuGetProcAddress_v2 (CUDA 12.0+): symbol, function, CUDA version as
// 1000 * major + 10 * minor, flags (0: CU_GET_PROC_ADDRESS_DEFAULT), status.
using GetProcAddress = int (*)(const char *, void **, int, uint64_t, int *);

/// The API version the entry points are asked for: 12.0, the first with
/// cuGetProcAddress_v2; a newer driver still serves it.
constexpr int kApiVersion = 12000;

template <typename Fn>
Status lookup(GetProcAddress getProc, const char *name, Fn &fn) {
  void *address = nullptr;
  int found = 0;
  int rc = getProc(name, &address, kApiVersion, 0, &found);
  if (rc == kCudaErrorStubLibrary)
    return Status::error("no CUDA driver: the library is the CUDA "
                         "toolkit's stub (CUDA_ERROR_STUB_LIBRARY)");
  if (rc != kCudaSuccess || !address)
    return Status::error(std::string("the CUDA driver has no ") + name +
                         " (error " + std::to_string(rc) + ")");
  fn = reinterpret_cast<Fn>(address);
  return Status::success();
}

} // namespace

Result<CUDADriver> loom::gpu::loadCUDADriver(const std::string &library) {
  void *handle = dlopen(library.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle)
    return Status::error("no CUDA driver: " + library + " not found");
  auto getProc =
      reinterpret_cast<GetProcAddress>(dlsym(handle, "cuGetProcAddress_v2"));
  if (!getProc)
    return Status::error("the CUDA driver in " + library +
                         " is older than CUDA 12 (no cuGetProcAddress_v2)");
  CUDADriver driver;
  for (Status s :
       {lookup(getProc, "cuInit", driver.cuInit),
        lookup(getProc, "cuDriverGetVersion", driver.cuDriverGetVersion),
        lookup(getProc, "cuDeviceGetCount", driver.cuDeviceGetCount),
        lookup(getProc, "cuGetErrorName", driver.cuGetErrorName),
        lookup(getProc, "cuGetErrorString", driver.cuGetErrorString),
        lookup(getProc, "cuDeviceGet", driver.cuDeviceGet),
        lookup(getProc, "cuDevicePrimaryCtxRetain",
               driver.cuDevicePrimaryCtxRetain),
        lookup(getProc, "cuDevicePrimaryCtxRelease",
               driver.cuDevicePrimaryCtxRelease),
        lookup(getProc, "cuCtxSetCurrent", driver.cuCtxSetCurrent),
        lookup(getProc, "cuModuleLoadDataEx", driver.cuModuleLoadDataEx),
        lookup(getProc, "cuModuleGetFunction", driver.cuModuleGetFunction),
        lookup(getProc, "cuStreamCreate", driver.cuStreamCreate),
        lookup(getProc, "cuStreamDestroy", driver.cuStreamDestroy),
        lookup(getProc, "cuStreamSynchronize", driver.cuStreamSynchronize),
        lookup(getProc, "cuMemAlloc", driver.cuMemAlloc),
        lookup(getProc, "cuMemFree", driver.cuMemFree),
        lookup(getProc, "cuMemcpyHtoDAsync", driver.cuMemcpyHtoDAsync),
        lookup(getProc, "cuMemcpyDtoHAsync", driver.cuMemcpyDtoHAsync),
        lookup(getProc, "cuLaunchKernel", driver.cuLaunchKernel)})
    if (!s.ok())
      return s;
  int rc = driver.cuInit(0);
  if (rc == kCudaErrorStubLibrary)
    return Status::error("no CUDA driver: " + library +
                         " is the CUDA toolkit's stub "
                         "(CUDA_ERROR_STUB_LIBRARY)");
  if (rc == kCudaErrorNoDevice)
    return Status::error("no GPU: the CUDA driver finds no device "
                         "(CUDA_ERROR_NO_DEVICE)");
  if (rc != kCudaSuccess)
    return Status::error("cuInit failed: " + driver.describe(rc));
  if ((rc = driver.cuDriverGetVersion(&driver.version)) != kCudaSuccess ||
      (rc = driver.cuDeviceGetCount(&driver.devices)) != kCudaSuccess)
    return Status::error("the CUDA driver failed: " + driver.describe(rc));
  if (driver.devices == 0)
    return Status::error("no GPU: the CUDA driver finds no device");
  // The handle stays open: the driver lives as long as the process.
  return driver;
}

std::string CUDADriver::describe(int result) const {
  const char *name = nullptr, *text = nullptr;
  if (!cuGetErrorName || cuGetErrorName(result, &name) != kCudaSuccess || !name)
    return "CUDA error " + std::to_string(result);
  std::string out = name;
  if (cuGetErrorString && cuGetErrorString(result, &text) == kCudaSuccess &&
      text)
    out += std::string(": ") + text;
  return out;
}

Result<const CUDADriver *> loom::gpu::getCUDADriver() {
  // Never libcuda.so, the toolkit's development link to its stub.
  // LOOM_CUDA_DRIVER names another library (the stub, in the tests).
  static Result<CUDADriver> driver = [] {
    const char *library = std::getenv("LOOM_CUDA_DRIVER");
    return loadCUDADriver(library && *library ? library : "libcuda.so.1");
  }();
  if (!driver.ok())
    return Status::error(driver.message());
  return &*driver;
}
