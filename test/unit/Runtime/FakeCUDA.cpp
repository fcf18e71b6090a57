//===- FakeCUDA.cpp - A CUDA driver without a GPU, for GPUMeshTest --------===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//
//
// Just enough of libcuda.so.1 for the GPU mesh's host logic to run where
// there is no GPU: device memory is host memory, copies are memcpy, a
// launch runs nothing and returns what the test asks for. It counts what
// the runtime does, for the test to read through fake_cuda_state().
//
//===----------------------------------------------------------------------===//

#include "FakeCUDA.h"

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>

extern "C" {

FakeCUDAState *fake_cuda_state() {
  static FakeCUDAState state;
  return &state;
}
}

namespace {

std::mutex mutex;
FakeCUDAState &state() { return *fake_cuda_state(); }

int init(unsigned) { return 0; }
int driverVersion(int *v) { return *v = 13000, 0; }
int deviceCount(int *n) { return *n = state().devices, 0; }
int errorName(int e, const char **name) {
  *name = e == 700 ? "CUDA_ERROR_ILLEGAL_ADDRESS" : "CUDA_ERROR_UNKNOWN";
  return 0;
}
int errorString(int e, const char **text) {
  *text = e == 700 ? "an illegal memory access was encountered" : "unknown";
  return 0;
}
int deviceGet(int *d, int i) { return *d = i, 0; }
int retain(void **ctx, int d) {
  std::lock_guard<std::mutex> lock(mutex);
  ++state().retains;
  *ctx = reinterpret_cast<void *>(static_cast<intptr_t>(0x1000 + d));
  return 0;
}
int release(int) { return 0; }
int setCurrent(void *) { return 0; }
int moduleLoad(void **module, const void *image, unsigned, int *, void **) {
  std::lock_guard<std::mutex> lock(mutex);
  ++state().moduleLoads;
  // The runtime hands over PTX text: it names its entries.
  if (!std::strstr(static_cast<const char *>(image), ".entry"))
    return 218; // CUDA_ERROR_INVALID_PTX
  *module = reinterpret_cast<void *>(0x2000);
  return 0;
}
int getFunction(void **fn, void *, const char *name) {
  *fn = reinterpret_cast<void *>(0x3000);
  std::lock_guard<std::mutex> lock(mutex);
  std::strncpy(state().lastKernel, name, sizeof(state().lastKernel) - 1);
  return 0;
}
int streamCreate(void **stream, unsigned) {
  std::lock_guard<std::mutex> lock(mutex);
  *stream = reinterpret_cast<void *>(
      static_cast<intptr_t>(0x4000 + ++state().streams));
  return 0;
}
int streamDestroy(void *) { return 0; }
int streamSync(void *) { return state().launchResult; }
int memAlloc(uint64_t *p, size_t bytes) {
  std::lock_guard<std::mutex> lock(mutex);
  ++state().allocs;
  *p = reinterpret_cast<uint64_t>(std::malloc(bytes));
  return 0;
}
int memFree(uint64_t p) { return std::free(reinterpret_cast<void *>(p)), 0; }
int copyIn(uint64_t dst, const void *src, size_t bytes, void *) {
  std::memcpy(reinterpret_cast<void *>(dst), src, bytes);
  std::lock_guard<std::mutex> lock(mutex);
  ++state().copiesIn;
  return 0;
}
int copyOut(void *dst, uint64_t src, size_t bytes, void *) {
  std::memcpy(dst, reinterpret_cast<void *>(src), bytes);
  std::lock_guard<std::mutex> lock(mutex);
  ++state().copiesOut;
  return 0;
}
int launch(void *, unsigned gx, unsigned, unsigned, unsigned bx, unsigned,
           unsigned, unsigned, void *, void **params, void **) {
  std::lock_guard<std::mutex> lock(mutex);
  ++state().launches;
  state().lastGrid = gx;
  state().lastBlock = bx;
  return params ? 0 : 1;
}

} // namespace

extern "C" int cuGetProcAddress_v2(const char *name, void **fn, int, uint64_t,
                                   int *found) {
  struct Entry {
    const char *name;
    void *fn;
  };
  static const Entry entries[] = {
      {"cuInit", (void *)&init},
      {"cuDriverGetVersion", (void *)&driverVersion},
      {"cuDeviceGetCount", (void *)&deviceCount},
      {"cuGetErrorName", (void *)&errorName},
      {"cuGetErrorString", (void *)&errorString},
      {"cuDeviceGet", (void *)&deviceGet},
      {"cuDevicePrimaryCtxRetain", (void *)&retain},
      {"cuDevicePrimaryCtxRelease", (void *)&release},
      {"cuCtxSetCurrent", (void *)&setCurrent},
      {"cuModuleLoadDataEx", (void *)&moduleLoad},
      {"cuModuleGetFunction", (void *)&getFunction},
      {"cuStreamCreate", (void *)&streamCreate},
      {"cuStreamDestroy", (void *)&streamDestroy},
      {"cuStreamSynchronize", (void *)&streamSync},
      {"cuMemAlloc", (void *)&memAlloc},
      {"cuMemFree", (void *)&memFree},
      {"cuMemcpyHtoDAsync", (void *)&copyIn},
      {"cuMemcpyDtoHAsync", (void *)&copyOut},
      {"cuLaunchKernel", (void *)&launch},
  };
  for (const Entry &e : entries)
    if (std::strcmp(e.name, name) == 0) {
      *fn = e.fn;
      if (found)
        *found = 1;
      return 0;
    }
  return 500; // CUDA_ERROR_NOT_FOUND
}
