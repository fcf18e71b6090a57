//===- GPUMesh.cpp - Shards on CUDA GPUs, and their kernel launches -------===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//
//
// The process keeps, per device, its retained primary context and the PTX
// modules loaded into it (a CUmodule belongs to one context, so the PTX is
// loaded once per device and kept); each shard keeps its stream and its
// device buffers. A launch copies each memref argument to a device buffer
// (the k-th memref of a run reuses the shard's k-th buffer while it is big
// enough, so calls of the same shapes allocate nothing), launches, copies
// them back and waits: host code between launches sees every write.
//
// A CUDA error after a launch (a kernel fault such as
// CUDA_ERROR_ILLEGAL_ADDRESS is sticky: the driver answers every later call
// with it) fails the backend for the whole process; nothing retries.
//
//===----------------------------------------------------------------------===//

#include "loom/Runtime/GPUMesh.h"
#include "loom/Runtime/ABI.h"

#include "CUDADriver.h"

#include <atomic>
#include <cstring>
#include <map>
#include <mutex>
#include <vector>

using namespace loom;
using namespace loom::gpu;

namespace {

constexpr int kJitErrorLogBuffer = 5;      // CU_JIT_ERROR_LOG_BUFFER
constexpr int kJitErrorLogBufferSize = 6;  // ..._SIZE_BYTES
constexpr unsigned kStreamNonBlocking = 1; // CU_STREAM_NON_BLOCKING

/// A device's primary context and what is loaded into it.
struct Device {
  std::mutex mutex;
  void *context = nullptr;
  /// Keyed by the PTX's address, checked against a copy: a library loaded
  /// later at the same address may hold other PTX.
  struct Module {
    std::string ptx;
    void *module = nullptr;
    std::map<std::string, void *, std::less<>> functions;
  };
  std::map<const char *, std::vector<Module>> modules;
};

/// What the process shares: the driver, its devices, and whether the
/// backend failed.
struct Process {
  const CUDADriver *driver = nullptr;
  std::vector<std::unique_ptr<Device>> devices;
  std::atomic<bool> failed{false};
  std::mutex failureMutex;
  std::string failure;

  static Process &get() {
    static Process process;
    return process;
  }

  void markFailed(const std::string &message) {
    std::lock_guard<std::mutex> lock(failureMutex);
    if (!failed.exchange(true))
      failure = message;
  }

  Status available() {
    if (failed) {
      std::lock_guard<std::mutex> lock(failureMutex);
      return Status::error("the GPU backend failed earlier in this process "
                           "(CUDA cannot recover from it): " +
                           failure);
    }
    static std::once_flag once;
    static Status loaded = Status::success();
    std::call_once(once, [&] {
      Result<const CUDADriver *> d = getCUDADriver();
      if (!d) {
        loaded = d.status();
        return;
      }
      driver = *d;
      for (int i = 0; i < driver->devices; ++i)
        devices.push_back(std::make_unique<Device>());
    });
    return loaded;
  }
};

struct DeviceBuffer {
  uint64_t pointer = 0;
  size_t bytes = 0;
};

/// One shard's device, stream and buffers; what ShardContext::backendData
/// points to while the shard runs.
struct ShardGPU {
  int device = 0;
  void *stream = nullptr;
  std::vector<DeviceBuffer> buffers;
  size_t nextBuffer = 0;
  // Scratch for a launch, kept to allocate nothing per call.
  std::vector<int64_t> values;
  std::vector<void *> params;
  struct Copy {
    void *host;
    uint64_t device;
    size_t bytes;
  };
  std::vector<Copy> copies;
};

std::string failed(const CUDADriver &cuda, const char *call, int rc) {
  return std::string(call) + " failed: " + cuda.describe(rc);
}

class GPUMesh final : public Mesh {
public:
  GPUMesh(std::unique_ptr<ThreadMesh> threads, int32_t numShards)
      : threads_(std::move(threads)), shards_(numShards) {}

  ~GPUMesh() override {
    Process &process = Process::get();
    if (!process.driver)
      return;
    const CUDADriver &cuda = *process.driver;
    for (ShardGPU &shard : shards_) {
      if (!shard.stream)
        continue;
      cuda.cuCtxSetCurrent(process.devices[shard.device]->context);
      for (DeviceBuffer &buffer : shard.buffers)
        if (buffer.pointer)
          cuda.cuMemFree(buffer.pointer);
      cuda.cuStreamDestroy(shard.stream);
    }
  }

  int32_t numShards() const override { return threads_->numShards(); }
  void cancel() override { threads_->cancel(); }
  MeshStats stats() const override { return threads_->stats(); }
  void resetStats() override { threads_->resetStats(); }

  Status run(int64_t batch, const ShardBody &body) override {
    Process &process = Process::get();
    if (Status s = process.available(); !s.ok())
      return s;
    return threads_->run(batch, [&](ShardContext &ctx) -> Status {
      ShardGPU &shard = shards_[ctx.shard];
      // Shard s on GPU s % devices: more shards than GPUs share them as
      // streams. Set by the shard's own thread, inside the run.
      shard.device = static_cast<int>(ctx.shard % process.devices.size());
      if (Status s = enter(shard); !s.ok())
        return s;
      shard.nextBuffer = 0;
      ctx.backendData = &shard;
      Status status = body(ctx);
      ctx.backendData = nullptr;
      return status;
    });
  }

private:
  /// Makes the shard's device current in this thread (retaining its
  /// primary context the first time) and creates its stream.
  static Status enter(ShardGPU &shard) {
    Process &process = Process::get();
    const CUDADriver &cuda = *process.driver;
    Device &device = *process.devices[shard.device];
    {
      std::lock_guard<std::mutex> lock(device.mutex);
      if (!device.context) {
        int handle = 0;
        if (int rc = cuda.cuDeviceGet(&handle, shard.device))
          return Status::error(failed(cuda, "cuDeviceGet", rc));
        if (int rc = cuda.cuDevicePrimaryCtxRetain(&device.context, handle))
          return Status::error(failed(cuda, "cuDevicePrimaryCtxRetain", rc));
      }
    }
    if (int rc = cuda.cuCtxSetCurrent(device.context))
      return Status::error(failed(cuda, "cuCtxSetCurrent", rc));
    if (!shard.stream)
      if (int rc = cuda.cuStreamCreate(&shard.stream, kStreamNonBlocking))
        return Status::error(failed(cuda, "cuStreamCreate", rc));
    return Status::success();
  }

  std::unique_ptr<ThreadMesh> threads_;
  std::vector<ShardGPU> shards_;
};

/// The kernel `name` of `ptx` on `device`, loading the PTX the first time.
Result<void *> getFunction(const CUDADriver &cuda, Device &device,
                           const char *ptx, const char *name) {
  std::lock_guard<std::mutex> lock(device.mutex);
  std::vector<Device::Module> &candidates = device.modules[ptx];
  Device::Module *module = nullptr;
  for (Device::Module &m : candidates)
    if (std::strncmp(m.ptx.data(), ptx, m.ptx.size() + 1) == 0)
      module = &m;
  if (!module) {
    char log[4096] = {0};
    int options[] = {kJitErrorLogBuffer, kJitErrorLogBufferSize};
    void *values[] = {log, reinterpret_cast<void *>(sizeof(log))};
    void *handle = nullptr;
    if (int rc = cuda.cuModuleLoadDataEx(&handle, ptx, 2, options, values)) {
      std::string message = failed(cuda, "cuModuleLoadDataEx", rc);
      if (*log) {
        std::string text(log);
        for (char &c : text)
          if (c == '\n')
            c = ' ';
        message += " (JIT log: " + text + ")";
      }
      return Status::error(message);
    }
    module = &candidates.emplace_back();
    module->ptx = ptx;
    module->module = handle;
  }
  auto found = module->functions.find(name);
  if (found != module->functions.end())
    return found->second;
  void *fn = nullptr;
  if (int rc = cuda.cuModuleGetFunction(&fn, module->module, name))
    return Status::error(failed(cuda, "cuModuleGetFunction", rc) +
                         " for kernel " + name);
  module->functions.emplace(name, fn);
  return fn;
}

/// The shard's next device buffer, of at least `bytes`.
Result<uint64_t> getBuffer(const CUDADriver &cuda, ShardGPU &shard,
                           size_t bytes) {
  if (shard.nextBuffer == shard.buffers.size())
    shard.buffers.emplace_back();
  DeviceBuffer &buffer = shard.buffers[shard.nextBuffer++];
  if (buffer.bytes < bytes) {
    if (buffer.pointer)
      cuda.cuMemFree(buffer.pointer);
    buffer = {};
    if (int rc = cuda.cuMemAlloc(&buffer.pointer, bytes))
      return Status::error(failed(cuda, "cuMemAlloc", rc));
    buffer.bytes = bytes;
  }
  return buffer.pointer;
}

/// Sets up the launch's parameters and copies in; the launch; copies out.
Status launch(ShardGPU &shard, const char *ptx, const char *kernel,
              int64_t grid, int64_t block, int32_t count, const int64_t *layout,
              const int64_t *args) {
  Process &process = Process::get();
  const CUDADriver &cuda = *process.driver;
  if (process.failed)
    return process.available();
  Result<void *> fn =
      getFunction(cuda, *process.devices[shard.device], ptx, kernel);
  if (!fn)
    return fn.status();

  size_t numValues = 0;
  for (int32_t i = 0; i < count; ++i)
    numValues += layout[2 * i] < 0 ? 1 : 3 + 2 * layout[2 * i];
  shard.values.resize(numValues);
  shard.params.resize(numValues);
  shard.copies.clear();
  size_t v = 0;
  for (int32_t i = 0; i < count; ++i) {
    int64_t rank = layout[2 * i], bytes = layout[2 * i + 1];
    if (rank < 0) {
      shard.values[v] = *args++;
      shard.params[v] = &shard.values[v];
      ++v;
      continue;
    }
    void *host = reinterpret_cast<void *>(static_cast<intptr_t>(args[0]));
    int64_t offset = args[1];
    const int64_t *sizes = args + 2, *strides = args + 2 + rank;
    // The elements the kernel may touch, from the aligned pointer.
    int64_t extent = offset + 1;
    for (int64_t d = 0; d < rank; ++d) {
      if (sizes[d] == 0)
        extent = 0;
      if (extent && strides[d] < 0)
        return Status::error(std::string("kernel ") + kernel +
                             ": a memref with a negative stride");
      if (extent)
        extent += (sizes[d] - 1) * strides[d];
    }
    uint64_t device = 0;
    size_t total = static_cast<size_t>(extent) * bytes;
    for (const ShardGPU::Copy &c : shard.copies)
      if (c.host == host && c.bytes >= total)
        device = c.device;
    if (!device && total) {
      Result<uint64_t> buffer = getBuffer(cuda, shard, total);
      if (!buffer)
        return buffer.status();
      device = *buffer;
      if (int rc = cuda.cuMemcpyHtoDAsync(device, host, total, shard.stream))
        return Status::error(failed(cuda, "cuMemcpyHtoDAsync", rc));
      shard.copies.push_back({host, device, total});
    }
    shard.values[v] = static_cast<int64_t>(device);     // allocated
    shard.values[v + 1] = static_cast<int64_t>(device); // aligned
    shard.values[v + 2] = offset;
    for (int64_t d = 0; d < 2 * rank; ++d)
      shard.values[v + 3 + d] = sizes[d];
    for (size_t k = v; k < v + 3 + 2 * rank; ++k)
      shard.params[k] = &shard.values[k];
    v += 3 + 2 * rank;
    args += 2 + 2 * rank;
  }

  // From the launch on, an error may be a fault in the kernel: sticky.
  std::string where = std::string(" (kernel ") + kernel + ")";
  auto sticky = [&](const char *call, int rc) {
    std::string message = failed(cuda, call, rc) + where;
    process.markFailed(message);
    return Status::error(message);
  };
  if (int rc = cuda.cuLaunchKernel(*fn, static_cast<unsigned>(grid), 1, 1,
                                   static_cast<unsigned>(block), 1, 1, 0,
                                   shard.stream, shard.params.data(), nullptr))
    return sticky("cuLaunchKernel", rc);
  for (const ShardGPU::Copy &c : shard.copies)
    if (int rc =
            cuda.cuMemcpyDtoHAsync(c.host, c.device, c.bytes, shard.stream))
      return sticky("cuMemcpyDtoHAsync", rc);
  if (int rc = cuda.cuStreamSynchronize(shard.stream))
    return sticky("cuStreamSynchronize", rc);
  return Status::success();
}

} // namespace

Status loom::gpuAvailable() { return Process::get().available(); }

Result<std::unique_ptr<Mesh>> loom::createGPUMesh(int64_t numShards) {
  auto threads = ThreadMesh::create(numShards);
  if (!threads)
    return threads.status();
  return std::unique_ptr<Mesh>(std::make_unique<GPUMesh>(
      threads.take(), static_cast<int32_t>(numShards)));
}

extern "C" int32_t loom_rt_gpu_launch(int64_t handle, const char *ptx,
                                      const char *kernel, int64_t grid,
                                      int64_t block, int32_t count,
                                      const int64_t *layout,
                                      const int64_t *args) {
  ShardContext &ctx = ShardContext::fromAbiHandle(handle);
  auto *shard = static_cast<ShardGPU *>(ctx.backendData);
  Status status =
      shard ? launch(*shard, ptx, kernel, grid, block, count, layout, args)
            : Status::error(std::string("loom_rt_gpu_launch: kernel ") +
                            kernel + " launched outside a GPU mesh");
  if (status.ok())
    return 1;
  ctx.mesh->fail(ctx.shard, status.message());
  return 0;
}
