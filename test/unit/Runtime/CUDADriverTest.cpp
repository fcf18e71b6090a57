//===- CUDADriverTest.cpp - The CUDA driver, found at run time ------------===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//
//
// The driver is dlopen'ed, never linked: with none, each way of having no
// GPU is one line that says which. CI has no GPU; where a driver is present
// the no-driver case skips with a message.
//
//===----------------------------------------------------------------------===//

#include "CUDADriver.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <string>

using namespace loom::gpu;

namespace {

TEST(CUDADriverTest, MissingLibraryIsNoDriver) {
  auto driver = loadCUDADriver("/nonexistent/libcuda.so.1");
  ASSERT_FALSE(driver.ok());
  EXPECT_EQ(driver.message(),
            "no CUDA driver: /nonexistent/libcuda.so.1 not found");
}

TEST(CUDADriverTest, ThisMachine) {
  auto driver = getCUDADriver();
  if (driver.ok())
    GTEST_SKIP() << "a CUDA driver with " << (*driver)->devices
                 << " GPU(s) is present: no no-driver path to test here";
  const std::string &message = driver.message();
  // libcuda.so.1 absent, the stub, or a driver without a GPU.
  EXPECT_TRUE(message == "no CUDA driver: libcuda.so.1 not found" ||
              message.rfind("no CUDA driver: ", 0) == 0 ||
              message.rfind("no GPU: ", 0) == 0)
      << message;
  // Once per process: the same answer again.
  EXPECT_EQ(getCUDADriver().message(), message);
}

// The toolkit's stub has libcuda.so.1's SONAME and every entry point, each
// answering CUDA_ERROR_STUB_LIBRARY: no driver, said so.
TEST(CUDADriverTest, ToolkitStubIsNoDriver) {
  const char *home = std::getenv("CUDA_HOME");
  std::filesystem::path stub =
      std::filesystem::path(home && *home ? home : "/usr/local/cuda") /
      "lib64" / "stubs" / "libcuda.so";
  if (!std::filesystem::exists(stub))
    GTEST_SKIP() << "no CUDA toolkit stub at " << stub;
  auto driver = loadCUDADriver(stub.string());
  ASSERT_FALSE(driver.ok());
  EXPECT_NE(driver.message().find("no CUDA driver: "), std::string::npos)
      << driver.message();
  EXPECT_NE(driver.message().find("CUDA_ERROR_STUB_LIBRARY"), std::string::npos)
      << driver.message();
}

} // namespace
