//===- GPUFakeDriverTest.cpp - The GPU mesh's host logic, on a fake driver
//-===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//
//
// No GPU here: the runtime loads test/unit/Runtime/FakeCUDA.cpp as its CUDA
// driver (LOOM_CUDA_DRIVER), which runs no kernel but counts what the
// runtime asks of it. What this checks: one module load per device across
// calls, device buffers reused between calls of the same shapes, a stream
// per shard and one primary context per device with more shards than GPUs,
// the grid and block, and a kernel fault failing the backend for the
// process. Whether the kernels compute the right thing needs a GPU
// (scripts/gpu-check.sh).
//
//===----------------------------------------------------------------------===//

#include "../Runtime/FakeCUDA.h"
#include "ApiTestUtils.h"

#include "loom/Loom.h"
#include "loom/Runtime/GPUMesh.h"

#include <gtest/gtest.h>

#include <dlfcn.h>

#include <cstdlib>

using namespace loom;
using namespace loom::test;

namespace {

std::vector<HostBuffer> mweInputs(int64_t lanes) {
  std::vector<HostBuffer> in;
  in.push_back(*HostBuffer::zeros(DType::F32, {lanes, 1}));
  in.push_back(*HostBuffer::zeros(DType::U32, {lanes, 2}));
  return in;
}

TEST(GPUFakeDriverTest, HostLogicWithoutAGPU) {
  // Before anything loads the driver: it is loaded once per process.
  ::setenv("LOOM_CUDA_DRIVER", FAKE_CUDA_LIBRARY, 1);
  void *fake = dlopen(FAKE_CUDA_LIBRARY, RTLD_NOW | RTLD_LOCAL);
  ASSERT_NE(fake, nullptr) << dlerror();
  auto *state =
      reinterpret_cast<FakeCUDAState *(*)()>(dlsym(fake, "fake_cuda_state"))();
  ASSERT_TRUE(gpuAvailable().ok()) << gpuAvailable().message();

  CompileOptions options;
  options.entry = "main";
  options.backend = Backend::GPU;
  options.shards = 2;
  auto exe =
      Executable::compileFile(examplePath("mwe/while_of_while.mlir"), options);
  ASSERT_TRUE(exe.ok()) << exe.message();

  for (int call = 0; call < 3; ++call) {
    auto out = exe->call(mweInputs(300));
    ASSERT_TRUE(out.ok()) << out.message();
    if (call == 0) {
      // Two shards on the one device: two streams, one primary context.
      EXPECT_EQ(state->retains, 1);
      EXPECT_EQ(state->streams, 2);
      EXPECT_GT(state->allocs, 0);
    }
  }
  const int allocsAfterThree = state->allocs;
  // 150 lanes a shard: ceil(150 / 128) blocks of 128 threads.
  EXPECT_EQ(state->lastGrid, 2u);
  EXPECT_EQ(state->lastBlock, 128u);
  EXPECT_STREQ(state->lastKernel, "main_kernel");
  EXPECT_EQ(state->moduleLoads, 1) << "the PTX is loaded once per device";
  EXPECT_EQ(state->launches, 6);
  EXPECT_EQ(state->copiesIn, state->copiesOut);
  EXPECT_GT(state->copiesIn, 0);

  // The same shapes again: no new device buffer.
  ASSERT_TRUE(exe->call(mweInputs(300)).ok());
  EXPECT_EQ(state->allocs, allocsAfterThree);

  // A kernel fault: reported by name, then the backend is failed for the
  // process, and nothing is retried.
  state->launchResult = 700;
  auto faulted = exe->call(mweInputs(300));
  ASSERT_FALSE(faulted.ok());
  EXPECT_NE(faulted.message().find("cuStreamSynchronize failed: "
                                   "CUDA_ERROR_ILLEGAL_ADDRESS: an illegal "
                                   "memory access was encountered (kernel "
                                   "main_kernel)"),
            std::string::npos)
      << faulted.message();
  state->launchResult = 0;
  int launches = state->launches;
  auto after = exe->call(mweInputs(300));
  ASSERT_FALSE(after.ok());
  EXPECT_NE(after.message().find("the GPU backend failed earlier in this "
                                 "process"),
            std::string::npos)
      << after.message();
  EXPECT_EQ(state->launches, launches);
  EXPECT_FALSE(gpuAvailable().ok());
}

} // namespace
