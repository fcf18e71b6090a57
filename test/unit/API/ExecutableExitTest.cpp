//===- ExecutableExitTest.cpp - Executables destroyed by exit() -----------===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//
//
// An Executable held in a container that was constructed before the first
// compile is destroyed by exit() after LLVM's own function-local statics,
// which that compile constructed. MLIR's ExecutionEngine runs the JIT's
// deinitializers in its destructor, and they compile code: with LLVM's
// statics gone, that crashed (loom-bench-masked's static map of programs
// died in SelectionDAG at exit in 5 of 6 runs). Each case runs in a child
// process, so exit() runs the static destructors there.
//
//===----------------------------------------------------------------------===//

#include "ApiTestUtils.h"

#include <cstdlib>
#include <map>

namespace {

constexpr const char *kProgram = R"mlir(
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %y = arith.addf %x, %x : tensor<4xf32>
  return %y : tensor<4xf32>
}
)mlir";

std::map<int, loom::Executable> &held() {
  static std::map<int, loom::Executable> executables;
  return executables;
}

/// Constructs the container, then compiles into it and calls, then exits
/// with 0 through the static destructors.
[[noreturn]] void compileCallAndExit(int count) {
  held();
  for (int i = 0; i < count; ++i) {
    loom::Result<loom::Executable> exe = loom::Executable::compile(kProgram);
    if (!exe.ok())
      std::exit(2);
    loom::Result<std::vector<loom::HostBuffer>> out = exe->call(
        {loom::test::owned<float>(loom::DType::F32, {4}, {1, 2, 3, 4})});
    if (!out.ok())
      std::exit(3);
    held().emplace(i, exe.take());
  }
  std::exit(0);
}

TEST(ExecutableExitTest, HeldByAStaticContainerBuiltFirst) {
  EXPECT_EXIT(compileCallAndExit(1), testing::ExitedWithCode(0), "");
}

TEST(ExecutableExitTest, SeveralHeldByAStaticContainerBuiltFirst) {
  EXPECT_EXIT(compileCallAndExit(3), testing::ExitedWithCode(0), "");
}

} // namespace
