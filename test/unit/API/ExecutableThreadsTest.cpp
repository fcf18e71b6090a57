//===- ExecutableThreadsTest.cpp - One Executable, many threads -----------===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//
//
// Loom.h promises that an Executable may be called from several threads at
// once. Here eight threads call one Executable together, each on lanes of its
// own, and every result must equal the one a single thread computed, bit for
// bit. Wrong results catch shared scratch state; the data races that happen
// not to corrupt a result are what the ThreadSanitizer build folder is for
// (`make test-sanitizers`, README "Robustness checks"), which runs this file
// with the API and the runtime instrumented.
//
//===----------------------------------------------------------------------===//

#include "ApiTestUtils.h"

#include "loom/Loom.h"

#include <gtest/gtest.h>

#include <atomic>
#include <map>
#include <string>
#include <thread>
#include <vector>

using namespace loom;
using namespace loom::test;

namespace {

constexpr int kThreads = 8;

/// Runs body(t) on kThreads threads that start together, so their calls
/// overlap rather than run one after another as threads are created.
template <typename Body>
void onThreads(Body body) {
  std::atomic<int> waiting{kThreads};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&, t] {
      waiting.fetch_sub(1);
      while (waiting.load() > 0)
        std::this_thread::yield();
      body(t);
    });
  for (std::thread &thread : threads)
    thread.join();
}

TEST(ExecutableThreadsTest, ConcurrentCallsMatchSerialCalls) {
  auto exe = compileExample("diffrax/sde.mlir", "solve_sde");
  ASSERT_TRUE(exe.ok()) << exe.message();

  // Lanes of different lengths (golden.md: 48 to 284 steps over 300 keys),
  // so the threads' calls overlap at every stage.
  constexpr size_t kLanes = 3 * kThreads;
  std::vector<std::vector<HostBuffer>> serial;
  for (size_t lane = 0; lane < kLanes; ++lane) {
    auto out = exe->callNamed(sdeLane(lane));
    ASSERT_TRUE(out.ok()) << out.message();
    serial.push_back(out.take());
  }
  // The threads share the compiled program and nothing else.
  ASSERT_EQ(serial[0][1].dataAs<int32_t>()[0], kSdeSteps[0][0]);

  constexpr int kRounds = 4;
  std::vector<std::vector<std::vector<HostBuffer>>> got(kThreads);
  std::vector<std::string> errors(kThreads);
  onThreads([&](int t) {
    for (int round = 0; round < kRounds; ++round)
      for (size_t lane = t; lane < kLanes; lane += kThreads) {
        auto out = exe->callNamed(sdeLane(lane));
        if (!out.ok()) {
          errors[t] = out.message();
          return;
        }
        got[t].push_back(out.take());
      }
  });

  for (int t = 0; t < kThreads; ++t) {
    ASSERT_EQ(errors[t], "") << "thread " << t;
    size_t i = 0;
    for (int round = 0; round < kRounds; ++round)
      for (size_t lane = t; lane < kLanes; lane += kThreads, ++i)
        EXPECT_TRUE(sameBits(got[t][i], serial[lane]))
            << "thread " << t << ", round " << round << ", lane " << lane;
  }
}

TEST(ExecutableThreadsTest, ConcurrentNamedAndPositionalCalls) {
  auto exe = compileExample("mwe/while_of_while.mlir", "solve");
  ASSERT_TRUE(exe.ok()) << exe.message();
  constexpr size_t kLanes = 30;
  std::vector<float> serial;
  for (size_t lane = 0; lane < kLanes; ++lane) {
    auto out = exe->callNamed(mweLane(lane));
    ASSERT_TRUE(out.ok()) << out.message();
    serial.push_back(scalarOf<float>((*out)[0]));
  }

  // Even threads call by name (the path that fills in names and defaults),
  // odd threads by position, with inputs viewing memory the threads share.
  HostBuffer init = init01();
  std::vector<HostBuffer> keys;
  for (size_t lane = 0; lane < kLanes; ++lane)
    keys.push_back(splitKey(0, kLanes, lane));
  std::vector<std::vector<float>> got(kThreads);
  std::vector<std::string> errors(kThreads);
  onThreads([&](int t) {
    for (int round = 0; round < 8; ++round)
      for (size_t lane = 0; lane < kLanes; ++lane) {
        Result<std::vector<HostBuffer>> out =
            t % 2 ? exe->call({init, keys[lane]})
                  : exe->callNamed(std::map<std::string, HostBuffer>{
                        {"init", init}, {"key", keys[lane]}});
        if (!out.ok()) {
          errors[t] = out.message();
          return;
        }
        got[t].push_back(*(*out)[0].dataAs<float>());
      }
  });

  for (int t = 0; t < kThreads; ++t) {
    ASSERT_EQ(errors[t], "") << "thread " << t;
    ASSERT_EQ(got[t].size(), 8 * kLanes);
    for (size_t i = 0; i < got[t].size(); ++i)
      EXPECT_EQ(got[t][i], serial[i % kLanes])
          << "thread " << t << ", call " << i;
  }
}

TEST(ExecutableThreadsTest, ConcurrentFailingCallsReportTheirOwnErrors) {
  // Errors are values built per call: a thread whose inputs are wrong gets
  // its message, and the others are unaffected.
  auto exe = compileExample("mwe/while_of_while.mlir", "solve");
  ASSERT_TRUE(exe.ok()) << exe.message();
  auto first = exe->callNamed(mweLane(0));
  ASSERT_TRUE(first.ok()) << first.message();
  float serial = scalarOf<float>((*first)[0]);
  std::vector<std::string> messages(kThreads);
  std::vector<float> ys(kThreads, 0);
  onThreads([&](int t) {
    for (int round = 0; round < 16; ++round) {
      if (t % 2) {
        // Shape t + 1, never the 1 that `init` has.
        auto out = exe->call(
            {owned<float>(DType::F32, {t + 1}, std::vector<float>(t + 1, 0))});
        messages[t] = out.ok() ? "succeeded" : out.message();
      } else {
        auto out = exe->callNamed(mweLane(0));
        if (out.ok())
          ys[t] = scalarOf<float>((*out)[0]);
      }
    }
  });
  for (int t = 0; t < kThreads; ++t) {
    if (t % 2)
      EXPECT_EQ(messages[t], "input 'init' (#0) must be 1xf32, got " +
                                 std::to_string(t + 1) + "xf32");
    else
      EXPECT_EQ(ys[t], serial);
  }
}

TEST(ExecutableThreadsTest, ConcurrentCompilationsAreIndependent) {
  // Each thread compiles its own Executable: the one-time LLVM setup and the
  // pass registry are shared and must be initialised once.
  constexpr int kCompilers = 4;
  auto reference = compileExample("mwe/while_of_while.mlir", "solve");
  ASSERT_TRUE(reference.ok()) << reference.message();
  std::vector<float> serial;
  for (size_t lane = 0; lane < 3; ++lane) {
    auto out = reference->callNamed(mweLane(lane));
    ASSERT_TRUE(out.ok()) << out.message();
    serial.push_back(scalarOf<float>((*out)[0]));
  }
  std::vector<float> ys(kCompilers, 0);
  std::vector<std::string> errors(kCompilers);
  std::vector<std::thread> threads;
  for (int t = 0; t < kCompilers; ++t)
    threads.emplace_back([&, t] {
      auto exe = compileExample("mwe/while_of_while.mlir", "solve");
      if (!exe.ok()) {
        errors[t] = exe.message();
        return;
      }
      auto out = exe->callNamed(mweLane(t % 3));
      if (!out.ok()) {
        errors[t] = out.message();
        return;
      }
      ys[t] = scalarOf<float>((*out)[0]);
    });
  for (std::thread &thread : threads)
    thread.join();
  for (int t = 0; t < kCompilers; ++t) {
    EXPECT_EQ(errors[t], "") << t;
    EXPECT_EQ(ys[t], serial[t % 3]) << t;
  }
}

} // namespace
