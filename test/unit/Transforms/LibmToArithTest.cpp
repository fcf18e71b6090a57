//===- LibmToArithTest.cpp - loom-libm-to-arith against the C library -----===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//
//
// Every one of the 2^32 float bit patterns through a JIT-compiled vmap of
// math.sin, against this process's sinf: where the CPU backend computes sinf
// in arithmetic (loom-libm-to-arith), the bits must be glibc's.
//
//===----------------------------------------------------------------------===//

#include "CPU/CPUBackend.h"
#include "loom/Loom.h"

#include "llvm/Support/TargetSelect.h"

#include <gtest/gtest.h>

#include <gnu/libc-version.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <thread>
#include <vector>

namespace {

constexpr const char *kProgram = R"mlir(
func.func @f(%x: f32) -> f32 {
  %y = math.sin %x : f32
  return %y : f32
}
func.func @main(%xs: tensor<?xf32>) -> tensor<?xf32> {
  %r = loom.vmap @f(%xs) in_axes [0] out_axes [0]
      : (tensor<?xf32>) -> tensor<?xf32>
  return %r : tensor<?xf32>
}
)mlir";

uint32_t bitsOf(float f) {
  uint32_t u;
  std::memcpy(&u, &f, sizeof u);
  return u;
}

/// The JIT computes sinf in arithmetic exactly where glibc's ifunc would
/// pick the variant it reproduces; otherwise the sweep below would only
/// compare sinf with itself.
TEST(LibmToArith, JITComputesSinfWhereGlibcPicksItsFMAVariant) {
  bool fmaVariant =
      __builtin_cpu_supports("fma") && __builtin_cpu_supports("avx2");
  EXPECT_EQ(loom::detail::CPUBackend::runsGlibcFMAVariants({}, false),
            fmaVariant);
  // Ahead of time, by the target CPU's definition (x86-64-v3 by default),
  // from the registry that compiling would have initialized.
  llvm::InitializeNativeTarget();
  loom::CompileOptions noFMA;
  noFMA.targetCPU = "x86-64-v2";
  EXPECT_FALSE(loom::detail::CPUBackend::runsGlibcFMAVariants(noFMA, true));
  EXPECT_TRUE(loom::detail::CPUBackend::runsGlibcFMAVariants({}, true));
}

TEST(LibmToArith, SinfIsGlibcsForEveryFloat) {
  unsigned major = 0, minor = 0;
  std::sscanf(gnu_get_libc_version(), "%u.%u", &major, &minor);
  if (major < 2 || (major == 2 && minor < 28))
    GTEST_SKIP() << "glibc " << gnu_get_libc_version()
                 << " predates the sinf that loom-libm-to-arith computes";
  if (!loom::detail::CPUBackend::runsGlibcFMAVariants({}, false))
    GTEST_SKIP() << "this CPU has no FMA and AVX2: the JIT calls sinf";
  // Two shards: both threads sweep while this one checks.
  loom::CompileOptions options;
  options.shards = 2;
  auto exe = loom::Executable::compile(kProgram, options);
  ASSERT_TRUE(exe.ok()) << exe.message();

  constexpr int64_t kChunk = int64_t(1) << 24;
  std::vector<uint32_t> input(kChunk);
  uint64_t mismatches = 0;
  uint32_t firstBad = 0;
  float firstGot = 0, firstWant = 0;
  for (uint64_t start = 0; start < (uint64_t(1) << 32); start += kChunk) {
    for (int64_t i = 0; i < kChunk; ++i)
      input[i] = static_cast<uint32_t>(start + i);
    auto xs = loom::HostBuffer::view(loom::DType::F32, {kChunk}, input.data());
    ASSERT_TRUE(xs.ok()) << xs.message();
    auto out = exe->call({*xs});
    ASSERT_TRUE(out.ok()) << out.message();
    const float *got = (*out)[0].dataAs<float>();
    for (int64_t i = 0; i < kChunk; ++i) {
      float x;
      std::memcpy(&x, &input[i], sizeof x);
      float want = ::sinf(x);
      if (bitsOf(got[i]) != bitsOf(want) && mismatches++ == 0) {
        firstBad = input[i];
        firstGot = got[i];
        firstWant = want;
      }
    }
  }
  EXPECT_EQ(mismatches, 0u)
      << "first at bits 0x" << std::hex << firstBad << ": got " << firstGot
      << ", sinf gives " << firstWant;
}

} // namespace
