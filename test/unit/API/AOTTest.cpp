//===- AOTTest.cpp - Loaded libraries against the JIT ---------------------===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//
//
// A library compileFileTo wrote, loaded with Executable::load, must describe
// the same entry and compute the same bits as the JIT's executable: for the
// seed programs, a vmap program and a sharding program, under masked,
// per-lane and auto x 1, 2 and 3 shards (one uneven batch of 7, to keep
// this short). Also: the other emit stages, calls from several threads at
// once, and each library load refuses, with its one-line error.
//
//===----------------------------------------------------------------------===//

#include "ApiTestUtils.h"
#include "loom/Runtime/ProgramABI.h"
#include "loom/Support/Threefry.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <functional>
#include <iterator>
#include <map>
#include <string>
#include <thread>
#include <unistd.h>
#include <vector>

using namespace loom;
using namespace loom::test;

namespace {

std::string tempPath(const std::string &name) {
  const char *dir = std::getenv("TMPDIR");
  return std::string(dir ? dir : "/tmp") + "/loom-aot-" +
         std::to_string(getpid()) + "-" + name;
}

HostBuffer splat(int64_t batch, float value) {
  return owned<float>(DType::F32, {batch, 1}, std::vector<float>(batch, value));
}

HostBuffer keys(int64_t batch) {
  std::vector<uint32_t> words =
      threefry::split(threefry::prngKey(0), 30, /*partitionable=*/false);
  words.resize(2 * batch);
  return owned<uint32_t>(DType::U32, {batch, 2}, words);
}

struct Program {
  std::string name, path, entry;
  std::function<std::map<std::string, HostBuffer>(int64_t)> inputs;
};

std::vector<Program> programs() {
  std::string src = LOOM_SOURCE_DIR;
  return {
      {"Mwe", examplePath("mwe/while_of_while.mlir"), "main",
       [](int64_t b) {
         return std::map<std::string, HostBuffer>{{"inits", splat(b, 0.1f)},
                                                  {"keys", keys(b)}};
       }},
      {"Ode", examplePath("diffrax/ode.mlir"), "main",
       [](int64_t b) {
         std::vector<float> y0;
         for (int64_t i = 0; i < b; ++i)
           y0.push_back(0.05f + 0.06f * i);
         return std::map<std::string, HostBuffer>{
             {"inits", owned<float>(DType::F32, {b, 1}, y0)},
             {"t1", scalarF32(1.0f)},
             {"dt0", scalarF32(0.05f)},
             {"max_steps", scalarI32(10000)}};
       }},
      {"Sde", examplePath("diffrax/sde.mlir"), "main",
       [](int64_t b) {
         return std::map<std::string, HostBuffer>{
             {"inits", splat(b, 0.1f)},
             {"keys", keys(b)},
             {"t1", scalarF32(1.0f)},
             {"max_steps", scalarI32(10000)}};
       }},
      {"Collatz", src + "/test/Integration/vmap/Inputs/divergent.mlir",
       "collatz_vmap",
       [](int64_t b) {
         std::vector<int32_t> xs;
         for (int64_t i = 0; i < b; ++i)
           xs.push_back(static_cast<int32_t>(7 * i % 57) - 3);
         return std::map<std::string, HostBuffer>{
             {"xs", owned<int32_t>(DType::I32, {b}, xs)}};
       }},
      {"Coupled", src + "/test/Integration/shard/Inputs/coupled.mlir", "main",
       [](int64_t b) {
         std::vector<float> x;
         for (int64_t i = 0; i < b; ++i)
           x.push_back(0.001f * (1 + i % 5) * (i % 2 ? 1e5f : 1.0f) + 0.1f * i);
         return std::map<std::string, HostBuffer>{
             {"x", owned<float>(DType::F32, {b}, x)}};
       }},
  };
}

void expectSameSignature(const std::vector<ValueInfo> &a,
                         const std::vector<ValueInfo> &b) {
  ASSERT_EQ(a.size(), b.size());
  for (size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i].name, b[i].name);
    EXPECT_EQ(a[i].dtype, b[i].dtype) << a[i].name;
    EXPECT_EQ(a[i].shape, b[i].shape) << a[i].name;
    EXPECT_EQ(a[i].defaultValue, b[i].defaultValue) << a[i].name;
    EXPECT_EQ(a[i].range, b[i].range) << a[i].name;
  }
}

/// Compiles `program` to a library, or fails the test.
std::string compileLibrary(const std::string &path,
                           const CompileOptions &options,
                           const std::string &name) {
  std::string so = tempPath(name + ".so");
  Status s = Executable::compileFileTo(path, options, EmitStage::Library, so);
  EXPECT_TRUE(s.ok()) << s.message();
  return so;
}

} // namespace

TEST(AOT, SameBitsAsTheJIT) {
  for (const Program &p : programs())
    for (DivergentPolicy div :
         {DivergentPolicy::Masked, DivergentPolicy::PerLane,
          DivergentPolicy::Auto})
      for (int shards : {1, 2, 3}) {
        SCOPED_TRACE(p.name +
                     " divergent=" + std::to_string(static_cast<int>(div)) +
                     " shards=" + std::to_string(shards));
        CompileOptions options;
        options.entry = p.entry;
        options.divergent = div;
        options.shards = shards;
        auto jit = Executable::compileFile(p.path, options);
        ASSERT_TRUE(jit.ok()) << jit.message();
        std::string so = compileLibrary(p.path, options, p.name);
        auto aot = Executable::load(so);
        std::remove(so.c_str());
        ASSERT_TRUE(aot.ok()) << aot.message();
        expectSameSignature(jit->inputs(), aot->inputs());
        expectSameSignature(jit->outputs(), aot->outputs());
        auto in = p.inputs(7);
        auto want = jit->callNamed(in);
        auto got = aot->callNamed(in);
        ASSERT_TRUE(want.ok()) << want.message();
        ASSERT_TRUE(got.ok()) << got.message();
        EXPECT_TRUE(sameBits(*want, *got));
        EXPECT_EQ(jit->counters().ok(), aot->counters().ok());
      }
}

TEST(AOT, CountersAndDefaultsAsTheJIT) {
  CompileOptions options;
  options.shards = 2;
  options.countLoops = true;
  std::string path = examplePath("mwe/while_of_while.mlir");
  auto jit = Executable::compileFile(path, options);
  ASSERT_TRUE(jit.ok()) << jit.message();
  std::string so = compileLibrary(path, options, "counters");
  auto aot = Executable::load(so);
  std::remove(so.c_str());
  ASSERT_TRUE(aot.ok()) << aot.message();
  EXPECT_TRUE(aot->countsLoops());
  std::map<std::string, HostBuffer> in = {{"inits", splat(30, 0.1f)},
                                          {"keys", keys(30)}};
  ASSERT_TRUE(jit->callNamed(in).ok());
  ASSERT_TRUE(aot->callNamed(in).ok());
  auto a = jit->counters(), b = aot->counters();
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ(a->lanes, b->lanes);
  EXPECT_EQ(a->collectives, b->collectives);
  ASSERT_EQ(a->loops.size(), b->loops.size());
  ASSERT_FALSE(a->loops.empty());
  for (size_t i = 0; i < a->loops.size(); ++i) {
    EXPECT_EQ(a->loops[i].location, b->loops[i].location);
    EXPECT_EQ(a->loops[i].masked, b->loops[i].masked);
    EXPECT_EQ(a->loops[i].iterations, b->loops[i].iterations);
    EXPECT_EQ(a->loops[i].activeLaneIterations,
              b->loops[i].activeLaneIterations);
    EXPECT_EQ(a->loops[i].lanes, b->loops[i].lanes);
    EXPECT_EQ(a->loops[i].variant, b->loops[i].variant);
  }
  // Auto compiled the MWE's nest as gangs two ways: the library names the
  // site and its variants as the JIT does, and its shards choose alike.
  EXPECT_TRUE(std::any_of(b->loops.begin(), b->loops.end(),
                          [](const LoopCounters &l) { return l.lanes == 32; }));
  for (int call = 1; call < 2 * 2; ++call) {
    ASSERT_TRUE(jit->callNamed(in).ok());
    ASSERT_TRUE(aot->callNamed(in).ok());
  }
  a = jit->counters();
  b = aot->counters();
  ASSERT_TRUE(a.ok() && b.ok());
  for (const Counters *c : {&*a, &*b}) {
    ASSERT_EQ(c->variants.size(), 1u);
    const VariantCounters &site = c->variants[0];
    EXPECT_NE(site.location.find("while_of_while.mlir:41:12"),
              std::string::npos)
        << site.location;
    EXPECT_EQ(site.primary, "gang (width 32)");
    EXPECT_EQ(site.alternative, "gang with refill (width 32)");
    // Each variant has its own loops, which say so.
    for (const std::string &name : {site.primary, site.alternative})
      EXPECT_TRUE(
          std::any_of(c->loops.begin(), c->loops.end(),
                      [&](const LoopCounters &l) { return l.variant == name; }))
          << name;
    ASSERT_EQ(site.chosen.size(), 2u);
    for (size_t s = 0; s < 2; ++s) {
      EXPECT_TRUE(site.chosen[s] == 0 || site.chosen[s] == 1);
      EXPECT_GT(site.primaryNanos[s], 0);
      EXPECT_GT(site.alternativeNanos[s], 0);
    }
  }
}

TEST(AOT, CalledFromSeveralThreads) {
  CompileOptions options;
  options.shards = 2;
  std::string path = examplePath("mwe/while_of_while.mlir");
  std::string so = compileLibrary(path, options, "threads");
  auto exe = Executable::load(so);
  std::remove(so.c_str());
  ASSERT_TRUE(exe.ok()) << exe.message();
  std::map<std::string, HostBuffer> in = {{"inits", splat(30, 0.1f)},
                                          {"keys", keys(30)}};
  auto want = exe->callNamed(in);
  ASSERT_TRUE(want.ok()) << want.message();
  bool same[4] = {};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&, t] {
      bool ok = true;
      for (int r = 0; r < 5; ++r) {
        auto got = exe->callNamed(in);
        ok = ok && got.ok() && sameBits(*want, *got);
      }
      same[t] = ok;
    });
  for (std::thread &t : threads)
    t.join();
  for (bool s : same)
    EXPECT_TRUE(s);
}

TEST(AOT, EveryEmitStage) {
  std::string path = examplePath("mwe/while_of_while.mlir");
  struct Stage {
    EmitStage stage;
    const char *name, *expect;
  } stages[] = {{EmitStage::MLIR, "mlir", "memref"},
                {EmitStage::LLVM, "ll", "@loom_program ="},
                {EmitStage::Object, "o",
                 "\x7f"
                 "ELF"}};
  for (const Stage &s : stages) {
    std::string out = tempPath(std::string("stage.") + s.name);
    Status status = Executable::compileFileTo(path, {}, s.stage, out);
    ASSERT_TRUE(status.ok()) << status.message();
    std::ifstream file(out, std::ios::binary);
    std::string bytes((std::istreambuf_iterator<char>(file)), {});
    std::remove(out.c_str());
    EXPECT_NE(bytes.find(s.expect), std::string::npos) << s.name;
  }
  EXPECT_EQ(*parseEmitStage("so"), EmitStage::Library);
  EXPECT_EQ(*parseEmitStage("ptx"), EmitStage::PTX);
  EXPECT_FALSE(parseEmitStage("cubin").ok());
}

namespace {

std::string readFile(const std::string &path) {
  std::ifstream file(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(file)), {});
}

void writeFile(const std::string &path, const std::string &bytes) {
  std::ofstream(path, std::ios::binary) << bytes;
}

/// The load error of a copy of `library` with `edit` applied.
std::string loadEdited(const std::string &library,
                       const std::function<void(std::string &)> &edit,
                       const std::string &name) {
  std::string bytes = readFile(library);
  edit(bytes);
  std::string path = tempPath(name + ".so");
  writeFile(path, bytes);
  auto exe = Executable::load(path);
  std::remove(path.c_str());
  return exe.ok() ? "loaded" : exe.message();
}

void replaceOnce(std::string &bytes, const std::string &from,
                 const std::string &to) {
  size_t at = bytes.find(from);
  ASSERT_NE(at, std::string::npos) << from;
  bytes.replace(at, from.size(), to);
}

} // namespace

TEST(AOT, BadLibraries) {
  std::string so =
      compileLibrary(examplePath("mwe/while_of_while.mlir"), {}, "good");
  ASSERT_TRUE(Executable::load(so).ok());
  EXPECT_NE(loadEdited(
                so, [](std::string &b) { b.resize(b.size() / 2); }, "truncated")
                .find("not a loadable library"),
            std::string::npos);
  EXPECT_NE(loadEdited(
                so, [](std::string &b) { b = "not a library\n"; }, "text")
                .find("not a loadable library"),
            std::string::npos);
  // The magic then the version, as the descriptor's first two words.
  std::string head = "LOOM";
  uint32_t version = LOOM_PROGRAM_ABI_VERSION;
  head += std::string(reinterpret_cast<const char *>(&version), 4);
  EXPECT_NE(loadEdited(
                so,
                [&](std::string &b) {
                  replaceOnce(b, head,
                              "LOOM" + std::string("\x63\x00\x00\x00", 4));
                },
                "abi")
                .find("compiled for Loom program ABI version 99, but this "
                      "runtime loads version " +
                      std::to_string(LOOM_PROGRAM_ABI_VERSION)),
            std::string::npos);
  EXPECT_NE(loadEdited(
                so,
                [&](std::string &b) {
                  replaceOnce(b, head, "MOOL" + head.substr(4));
                },
                "magic")
                .find("not a Loom program (bad magic number)"),
            std::string::npos);
  EXPECT_NE(loadEdited(
                so,
                [](std::string &b) {
                  replaceOnce(b, std::string(LOOM_TEST_VERSION) + '\0',
                              std::string(std::strlen(LOOM_TEST_VERSION), '9') +
                                  '\0');
                },
                "version")
                .find(std::string("compiled by Loom 9"), 0),
            std::string::npos);
  std::remove(so.c_str());
  // A library, but not a Loom program.
  auto libm = Executable::load("/lib/x86_64-linux-gnu/libm.so.6");
  if (FILE *f = std::fopen("/lib/x86_64-linux-gnu/libm.so.6", "rb")) {
    std::fclose(f);
    ASSERT_FALSE(libm.ok());
    EXPECT_NE(libm.message().find("not a Loom program (it has no "
                                  "loom_program)"),
              std::string::npos)
        << libm.message();
  }
}

TEST(AOT, ForeignTargetFeatures) {
#if defined(__x86_64__) && defined(__GNUC__)
  if (__builtin_cpu_supports("avx512fp16"))
    GTEST_SKIP() << "this CPU has sapphirerapids' avx512fp16";
  CompileOptions options;
  options.targetCPU = "sapphirerapids";
  std::string so = compileLibrary(examplePath("mwe/while_of_while.mlir"),
                                  options, "foreign");
  auto exe = Executable::load(so);
  std::remove(so.c_str());
  ASSERT_FALSE(exe.ok());
  EXPECT_NE(exe.message().find("compiled for CPU 'sapphirerapids', but this "
                               "CPU lacks "),
            std::string::npos)
      << exe.message();
  EXPECT_NE(exe.message().find("avx512fp16"), std::string::npos)
      << exe.message();
#else
  GTEST_SKIP() << "x86-64 only";
#endif
}

TEST(AOT, UnknownTargetCPU) {
  CompileOptions options;
  options.targetCPU = "no-such-cpu";
  Status s =
      Executable::compileFileTo(examplePath("mwe/while_of_while.mlir"), options,
                                EmitStage::Object, tempPath("unknown.o"));
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("unknown target CPU 'no-such-cpu'"),
            std::string::npos)
      << s.message();
}
