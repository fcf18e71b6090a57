//===- LibmToArithTest.cpp - loom-libm-to-arith against the C library -----===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//
//
// Every one of the 2^32 float bit patterns (a strided sample of them in a
// sanitizer build) through a JIT-compiled vmap of
// math.sin and math.log1p, against this process's sinf and log1pf: where the
// CPU backend computes them in arithmetic (loom-libm-to-arith), the bits
// must be glibc's.
//
//===----------------------------------------------------------------------===//

#include "CPU/CPUBackend.h"
#include "loom/Loom.h"

#include "llvm/Support/Compiler.h"
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
func.func @f(%x: f32) -> (f32, f32) {
  %s = math.sin %x : f32
  %l = math.log1p %x : f32
  return %s, %l : f32, f32
}
func.func @main(%xs: tensor<?xf32>) -> (tensor<?xf32>, tensor<?xf32>) {
  %r:2 = loom.vmap @f(%xs) in_axes [0] out_axes [0, 0]
      : (tensor<?xf32>) -> (tensor<?xf32>, tensor<?xf32>)
  return %r#0, %r#1 : tensor<?xf32>, tensor<?xf32>
}
)mlir";

uint32_t bitsOf(float f) {
  uint32_t u;
  std::memcpy(&u, &f, sizeof u);
  return u;
}

/// The JIT computes libm functions in arithmetic exactly where the glibc
/// and CPU are ones whose functions it reproduces; otherwise the sweep
/// below would only compare the C library with itself.
TEST(LibmToArith, JITComputesSinfWhereGlibcPicksItsFMAVariant) {
  unsigned major = 0, minor = 0;
  std::sscanf(gnu_get_libc_version(), "%u.%u", &major, &minor);
  bool fmaVariant = major == 2 && minor >= 28 && minor <= 36 &&
                    __builtin_cpu_supports("fma") &&
                    __builtin_cpu_supports("avx2");
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

/// Mismatches of one function's results against the C library's, and the
/// first.
struct Tally {
  const char *name;
  float (*libm)(float);
  uint64_t mismatches = 0;
  uint32_t firstBad = 0;
  float firstGot = 0, firstWant = 0;

  void check(const uint32_t *inputs, const float *got, int64_t n) {
    for (int64_t i = 0; i < n; ++i) {
      float x;
      std::memcpy(&x, &inputs[i], sizeof x);
      float want = libm(x);
      if (bitsOf(got[i]) != bitsOf(want) && mismatches++ == 0) {
        firstBad = inputs[i];
        firstGot = got[i];
        firstWant = want;
      }
    }
  }
};

/// Random bit patterns: unlike the sweep's consecutive floats, nearly every
/// vector of them mixes lanes that each reduction, each polynomial and each
/// special case takes, the way a batch of a program's values does; and
/// random ordinary arguments, whose vectors skip the rare cases but for
/// their zeros.
TEST(LibmToArith, SinfAndLog1pfAreGlibcsOnMixedLanes) {
  if (!loom::detail::CPUBackend::runsGlibcFMAVariants({}, false))
    GTEST_SKIP() << "the JIT calls libm";
  auto exe = loom::Executable::compile(kProgram, {});
  ASSERT_TRUE(exe.ok()) << exe.message();
  std::vector<uint32_t> input(1 << 20);
  uint32_t state = 0x9e3779b9u;
  auto next = [&] {
    state ^= state << 13; // xorshift32
    state ^= state >> 17;
    state ^= state << 5;
    return state;
  };
  // The first half any bits; the second ordinary arguments in (-1, 128),
  // where every vector takes the common paths, with +0 and -0 among them.
  for (size_t i = 0; i < input.size(); ++i) {
    if (i < input.size() / 2) {
      input[i] = next();
      continue;
    }
    float x = -1.0f + 129.0f * float(next() >> 8) / float(1 << 24);
    if (i % 7 == 0)
      x = i % 2 ? -0.0f : 0.0f;
    input[i] = bitsOf(x);
  }
  auto xs = loom::HostBuffer::view(loom::DType::F32, {int64_t(input.size())},
                                   input.data());
  ASSERT_TRUE(xs.ok()) << xs.message();
  auto out = exe->call({*xs});
  ASSERT_TRUE(out.ok()) << out.message();
  Tally tallies[] = {{"sinf", ::sinf}, {"log1pf", ::log1pf}};
  for (size_t f = 0; f < 2; ++f) {
    tallies[f].check(input.data(), (*out)[f].dataAs<float>(),
                     int64_t(input.size()));
    EXPECT_EQ(tallies[f].mismatches, 0u)
        << tallies[f].name << ": first at bits 0x" << std::hex
        << tallies[f].firstBad << ": got " << tallies[f].firstGot
        << ", the C library gives " << tallies[f].firstWant;
  }
}

/// Inputs apart in the sweep: 1, every float, except in a sanitizer build,
/// where the JIT-compiled code under test is not instrumented and the
/// instrumented check would take minutes of CI for no finding of its own
/// (README, "Robustness checks"); a prime stride still reaches every
/// exponent and sign.
constexpr uint64_t kStride =
    LLVM_ADDRESS_SANITIZER_BUILD || LLVM_THREAD_SANITIZER_BUILD ? 61 : 1;

TEST(LibmToArith, SinfAndLog1pfAreGlibcsForEveryFloat) {
  if (!loom::detail::CPUBackend::runsGlibcFMAVariants({}, false))
    GTEST_SKIP() << "glibc " << gnu_get_libc_version()
                 << " or this CPU (FMA, AVX2) is not one loom-libm-to-arith "
                    "reproduces: the JIT calls libm";
  // Two shards: both threads sweep while this one checks.
  loom::CompileOptions options;
  options.shards = 2;
  auto exe = loom::Executable::compile(kProgram, options);
  ASSERT_TRUE(exe.ok()) << exe.message();

  constexpr int64_t kChunk = int64_t(1) << 24;
  std::vector<uint32_t> input(kChunk);
  Tally tallies[] = {{"sinf", ::sinf}, {"log1pf", ::log1pf}};
  constexpr uint64_t kEnd = uint64_t(1) << 32;
  for (uint64_t start = 0; start < kEnd; start += kChunk * kStride) {
    int64_t n = 0;
    for (uint64_t bits = start; n < kChunk && bits < kEnd; bits += kStride)
      input[n++] = static_cast<uint32_t>(bits);
    auto xs = loom::HostBuffer::view(loom::DType::F32, {n}, input.data());
    ASSERT_TRUE(xs.ok()) << xs.message();
    auto out = exe->call({*xs});
    ASSERT_TRUE(out.ok()) << out.message();
    for (size_t f = 0; f < 2; ++f)
      tallies[f].check(input.data(), (*out)[f].dataAs<float>(), n);
  }
  for (const Tally &t : tallies)
    EXPECT_EQ(t.mismatches, 0u)
        << t.name << ": first at bits 0x" << std::hex << t.firstBad << ": got "
        << t.firstGot << ", the C library gives " << t.firstWant;
}

} // namespace
