//===- GPUMesh.h - Shards on CUDA GPUs --------------------------*- C++ -*-===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//
//
// The GPU backend's mesh: a ThreadMesh whose shard `s` drives GPU
// `s % devices` from its own host thread, through the device's primary
// context and a stream of its own (with more shards than GPUs, shards are
// streams on one GPU). The compiled host code calls loom_rt_gpu_launch
// (RuntimeFunctions.def) for each kernel; the CUDA driver is reached through
// dlopen (lib/Runtime/GPU/CUDADriver.h), never linked.
//
//===----------------------------------------------------------------------===//

#ifndef LOOM_RUNTIME_GPUMESH_H
#define LOOM_RUNTIME_GPUMESH_H

#include "loom/Runtime/Mesh.h"

#include <memory>

namespace loom {

/// Whether this process can run GPU code: an error naming what is missing
/// ("no CUDA driver: libcuda.so.1 not found", the toolkit's stub, no GPU),
/// or a GPU backend that failed earlier in the process.
Status gpuAvailable();

/// The GPU mesh of `numShards` shards. Made without a driver (a library is
/// compiled where there is no GPU); run() fails as gpuAvailable() does.
Result<std::unique_ptr<Mesh>> createGPUMesh(int64_t numShards);

} // namespace loom

#endif // LOOM_RUNTIME_GPUMESH_H
