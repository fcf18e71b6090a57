//===- ExecutableTest.cpp - The embedded C++ API --------------------------===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//
//
// loom::Executable as an embedding program uses it: compile IR text or a
// file, call by position and by name, defaults, the calling convention for
// every dtype, who owns which memory, every error path of compile() and
// call(), and the seed programs' single lanes against
// shared/reference/golden.md. Concurrent calls are in
// ExecutableThreadsTest.cpp, allocation counts in ExecutableAllocTest.cpp.
//
// Mismatched batch sizes are not tested here: only entries that loom.vmap
// maps have batch axes, and this file is about scalar entries.
//
//===----------------------------------------------------------------------===//

#include "ApiTestUtils.h"

#include "loom/Loom.h"
#include "loom/Runtime/GPUMesh.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <map>
#include <optional>
#include <string>
#include <vector>

using namespace loom;
using namespace loom::test;

namespace {

//===----------------------------------------------------------------------===//
// Programs
//===----------------------------------------------------------------------===//

// out = a * x + y, accumulated into y's tensor (so bufferization would write
// into the caller's y if the API let it), and n + 1. The trailing scalars
// have defaults; y has no name.
constexpr const char *kAxpy = R"mlir(
func.func @axpy(%x: tensor<4xf32> {loom.name = "x"}, %y: tensor<4xf32>,
                %a: f32 {loom.name = "a", loom.default = 2.0 : f32},
                %n: i32 {loom.name = "n", loom.default = 3 : i32})
    -> (tensor<4xf32> {loom.name = "out"}, i32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %y) -> (tensor<4xf32>) {
    %xi = tensor.extract %x[%i] : tensor<4xf32>
    %yi = tensor.extract %acc[%i] : tensor<4xf32>
    %p = arith.mulf %a, %xi : f32
    %s = arith.addf %p, %yi : f32
    %u = tensor.insert %s into %acc[%i] : tensor<4xf32>
    scf.yield %u : tensor<4xf32>
  }
  %one = arith.constant 1 : i32
  %m = arith.addi %n, %one : i32
  return %r, %m : tensor<4xf32>, i32
}
)mlir";

// Results that alias an input, a constant, or each other: the API must copy
// each out and free only what the compiled code allocated, once.
constexpr const char *kAliasing = R"mlir(
func.func @identity(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  return %x, %x : tensor<4xf32>, tensor<4xf32>
}
func.func @constant() -> tensor<3xi32> {
  %c = arith.constant dense<[7, 8, 9]> : tensor<3xi32>
  return %c : tensor<3xi32>
}
func.func @twice(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %c0 = arith.constant 0 : index
  %v = arith.constant 5.0 : f32
  %r = tensor.insert %v into %x[%c0] : tensor<4xf32>
  return %r, %r : tensor<4xf32>, tensor<4xf32>
}
)mlir";

// One of each scalar dtype, in an order whose result struct needs padding
// (f64, i64, i1, i32: offsets 0, 8, 16, 20), and tensors of f64 and i1.
constexpr const char *kDTypes = R"mlir(
func.func @scalars(%a: f64, %b: i64, %c: i1, %d: i32) -> (f64, i64, i1, i32) {
  %two = arith.constant 2.0 : f64
  %one = arith.constant 1 : i64
  %true = arith.constant true
  %k = arith.constant 1 : i32
  %a2 = arith.mulf %a, %two : f64
  %b1 = arith.addi %b, %one : i64
  %nc = arith.xori %c, %true : i1
  %d1 = arith.subi %d, %k : i32
  return %a2, %b1, %nc, %d1 : f64, i64, i1, i32
}
func.func @tensors(%x: tensor<2x3xf64>, %m: tensor<3xi1>) -> (tensor<2x3xf64>, tensor<3xi1>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %v = tensor.extract %x[%c1, %c2] : tensor<2x3xf64>
  %x1 = tensor.insert %v into %x[%c0, %c0] : tensor<2x3xf64>
  %b = tensor.extract %m[%c0] : tensor<3xi1>
  %m1 = tensor.insert %b into %m[%c2] : tensor<3xi1>
  return %x1, %m1 : tensor<2x3xf64>, tensor<3xi1>
}
)mlir";

// A dynamic dimension: one compiled function serves every size, and the
// result's shape comes back from the compiled code.
constexpr const char *kDynamic = R"mlir(
func.func @scale(%x: tensor<?xf32> {loom.name = "x"}, %s: f32 {loom.name = "s"})
    -> (tensor<?xf32> {loom.name = "y"}, f32 {loom.name = "sum"}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %n = tensor.dim %x, %c0 : tensor<?xf32>
  %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %x, %sum = %zero)
      -> (tensor<?xf32>, f32) {
    %xi = tensor.extract %acc[%i] : tensor<?xf32>
    %p = arith.mulf %s, %xi : f32
    %u = tensor.insert %p into %acc[%i] : tensor<?xf32>
    %t = arith.addf %sum, %p : f32
    scf.yield %u, %t : tensor<?xf32>, f32
  }
  return %r#0, %r#1 : tensor<?xf32>, f32
}
)mlir";

//===----------------------------------------------------------------------===//
// Fixture and helpers
//===----------------------------------------------------------------------===//

class ExecutableTest : public testing::Test {
protected:
  /// Compiles `source`'s `entry`, failing the test with the message if it
  /// does not compile.
  static Executable compileOrDie(const std::string &source,
                                 const std::string &entry) {
    CompileOptions options;
    options.entry = entry;
    Result<Executable> exe = Executable::compile(source, options);
    EXPECT_TRUE(exe.ok()) << exe.message();
    if (!exe.ok())
      std::abort();
    return exe.take();
  }

  static HostBuffer vec4(std::vector<float> v) {
    return owned<float>(DType::F32, {4}, v);
  }
};

/// An error as the API promises it: present, and one line.
testing::AssertionResult isOneLineError(const Status &status) {
  if (status.ok())
    return testing::AssertionFailure() << "succeeded";
  if (status.message().empty())
    return testing::AssertionFailure() << "empty message";
  if (status.message().find('\n') != std::string::npos)
    return testing::AssertionFailure()
           << "message spans lines: " << status.message();
  return testing::AssertionSuccess();
}

template <typename T>
testing::AssertionResult failsWith(const Result<T> &result,
                                   const std::string &part) {
  if (testing::AssertionResult one = isOneLineError(result.status()); !one)
    return one;
  if (result.message().find(part) == std::string::npos)
    return testing::AssertionFailure()
           << "message '" << result.message() << "' lacks '" << part << "'";
  return testing::AssertionSuccess();
}

std::vector<float> floats(const HostBuffer &b) {
  return std::vector<float>(b.dataAs<float>(),
                            b.dataAs<float>() + b.numElements());
}

//===----------------------------------------------------------------------===//
// Signatures, positional and named calls, defaults
//===----------------------------------------------------------------------===//

TEST_F(ExecutableTest, DescribesTheEntrySignature) {
  Executable exe = compileOrDie(kAxpy, "axpy");
  ASSERT_EQ(exe.inputs().size(), 4u);
  EXPECT_EQ(exe.inputs()[0].name, "x");
  EXPECT_EQ(exe.inputs()[0].dtype, DType::F32);
  EXPECT_EQ(exe.inputs()[0].shape, std::vector<int64_t>{4});
  EXPECT_FALSE(exe.inputs()[0].defaultValue.has_value());
  // Unnamed arguments are called by their position.
  EXPECT_EQ(exe.inputs()[1].name, "arg1");
  EXPECT_EQ(exe.inputs()[2].name, "a");
  EXPECT_TRUE(exe.inputs()[2].shape.empty());
  EXPECT_EQ(exe.inputs()[2].defaultValue, 2.0);
  EXPECT_EQ(exe.inputs()[3].dtype, DType::I32);
  EXPECT_EQ(exe.inputs()[3].defaultValue, 3.0);
  ASSERT_EQ(exe.outputs().size(), 2u);
  EXPECT_EQ(exe.outputs()[0].name, "out");
  EXPECT_EQ(exe.outputs()[1].name, "result1");
  EXPECT_EQ(exe.outputs()[1].dtype, DType::I32);

  EXPECT_EQ(*exe.inputIndex("a"), 2u);
  EXPECT_EQ(*exe.inputIndex("arg1"), 1u);
  EXPECT_EQ(*exe.inputIndex("3"), 3u);
  EXPECT_GE(exe.compileTimes().total(), 0.0);
}

TEST_F(ExecutableTest, CallsPositionally) {
  Executable exe = compileOrDie(kAxpy, "axpy");
  auto out = exe.call({vec4({1, 2, 3, 4}), vec4({10, 20, 30, 40}),
                       scalarF32(0.5f), scalarI32(41)});
  ASSERT_TRUE(out.ok()) << out.message();
  ASSERT_EQ(out->size(), 2u);
  EXPECT_EQ(floats((*out)[0]), (std::vector<float>{10.5f, 21, 31.5f, 42}));
  EXPECT_EQ((*out)[0].shape(), std::vector<int64_t>{4});
  EXPECT_EQ(scalarOf<int32_t>((*out)[1]), 42);
  EXPECT_TRUE((*out)[1].shape().empty());
}

TEST_F(ExecutableTest, LeavesOutTrailingDefaultsPositionally) {
  Executable exe = compileOrDie(kAxpy, "axpy");
  // a = 2 and n = 3 from loom.default.
  auto out = exe.call({vec4({1, 2, 3, 4}), vec4({0, 0, 0, 1})});
  ASSERT_TRUE(out.ok()) << out.message();
  EXPECT_EQ(floats((*out)[0]), (std::vector<float>{2, 4, 6, 9}));
  EXPECT_EQ(scalarOf<int32_t>((*out)[1]), 4);
  // Only the last one left out.
  out = exe.call({vec4({1, 2, 3, 4}), vec4({0, 0, 0, 1}), scalarF32(-1)});
  ASSERT_TRUE(out.ok()) << out.message();
  EXPECT_EQ(floats((*out)[0]), (std::vector<float>{-1, -2, -3, -3}));
  EXPECT_EQ(scalarOf<int32_t>((*out)[1]), 4);
}

TEST_F(ExecutableTest, CallsByNameAndPosition) {
  Executable exe = compileOrDie(kAxpy, "axpy");
  std::map<std::string, HostBuffer> in;
  in["x"] = vec4({1, 2, 3, 4});
  in["1"] = vec4({1, 1, 1, 1}); // y by position: it has no name
  in["n"] = scalarI32(-8);      // a left to its default, n given
  auto out = exe.callNamed(in);
  ASSERT_TRUE(out.ok()) << out.message();
  EXPECT_EQ(floats((*out)[0]), (std::vector<float>{3, 5, 7, 9}));
  EXPECT_EQ(scalarOf<int32_t>((*out)[1]), -7);

  // The same call positionally gives the same bits.
  auto positional =
      exe.call({in["x"], in["1"], scalarF32(2.0f), scalarI32(-8)});
  ASSERT_TRUE(positional.ok()) << positional.message();
  EXPECT_TRUE(sameBits(*out, *positional));
}

//===----------------------------------------------------------------------===//
// Memory: inputs are read in place and never written, outputs are owned
//===----------------------------------------------------------------------===//

TEST_F(ExecutableTest, ReadsViewedInputsWithoutWritingThem) {
  Executable exe = compileOrDie(kAxpy, "axpy");
  std::vector<float> x = {1, 2, 3, 4}, y = {10, 20, 30, 40};
  auto xv = HostBuffer::view(DType::F32, {4}, x.data());
  auto yv = HostBuffer::view(DType::F32, {4}, y.data());
  ASSERT_TRUE(xv.ok() && yv.ok());
  ASSERT_TRUE(xv->isView());
  auto out = exe.call({*xv, *yv});
  ASSERT_TRUE(out.ok()) << out.message();
  EXPECT_EQ(floats((*out)[0]), (std::vector<float>{12, 24, 36, 48}));
  // The program updates y's tensor in place; the caller's y is untouched.
  EXPECT_EQ(y, (std::vector<float>{10, 20, 30, 40}));
  EXPECT_EQ(x, (std::vector<float>{1, 2, 3, 4}));
  EXPECT_FALSE((*out)[0].isView());
  EXPECT_NE((*out)[0].data(), static_cast<const void *>(y.data()));

  // By name as well.
  std::map<std::string, HostBuffer> named;
  named["x"] = *xv;
  named["arg1"] = *yv;
  out = exe.callNamed(named);
  ASSERT_TRUE(out.ok()) << out.message();
  EXPECT_EQ(y, (std::vector<float>{10, 20, 30, 40}));
}

TEST_F(ExecutableTest, CopiesOutResultsThatAliasInputs) {
  Executable exe = compileOrDie(kAliasing, "identity");
  // Heap memory, so a wrong free() of it would be a double free when the
  // vector goes away.
  std::vector<float> x = {1, 2, 3, 4};
  auto xv = HostBuffer::view(DType::F32, {4}, x.data());
  ASSERT_TRUE(xv.ok());
  auto out = exe.call({*xv});
  ASSERT_TRUE(out.ok()) << out.message();
  ASSERT_EQ(out->size(), 2u);
  for (const HostBuffer &r : *out) {
    EXPECT_FALSE(r.isView());
    EXPECT_NE(r.data(), static_cast<const void *>(x.data()));
    EXPECT_EQ(floats(r), x);
  }
  // Results are the caller's own: changing them changes nothing else.
  (*out)[0].dataAs<float>()[0] = -1;
  EXPECT_EQ(x[0], 1);
  EXPECT_EQ((*out)[1].dataAs<float>()[0], 1);
}

TEST_F(ExecutableTest, CopiesOutConstantResults) {
  Executable exe = compileOrDie(kAliasing, "constant");
  for (int i = 0; i < 3; ++i) {
    auto out = exe.call(std::vector<HostBuffer>{});
    ASSERT_TRUE(out.ok()) << out.message();
    const int32_t *v = (*out)[0].dataAs<int32_t>();
    EXPECT_EQ(std::vector<int32_t>(v, v + 3), (std::vector<int32_t>{7, 8, 9}));
    // Writing the copy must not change the program's constant.
    (*out)[0].dataAs<int32_t>()[0] = 0;
  }
}

TEST_F(ExecutableTest, FreesAResultReturnedTwiceOnce) {
  Executable exe = compileOrDie(kAliasing, "twice");
  std::vector<float> x = {1, 2, 3, 4};
  auto xv = HostBuffer::view(DType::F32, {4}, x.data());
  ASSERT_TRUE(xv.ok());
  for (int i = 0; i < 3; ++i) {
    auto out = exe.call({*xv});
    ASSERT_TRUE(out.ok()) << out.message();
    EXPECT_EQ(floats((*out)[0]), (std::vector<float>{5, 2, 3, 4}));
    EXPECT_EQ(floats((*out)[1]), (std::vector<float>{5, 2, 3, 4}));
    EXPECT_NE((*out)[0].data(), (*out)[1].data());
  }
  EXPECT_EQ(x, (std::vector<float>{1, 2, 3, 4}));
}

TEST_F(ExecutableTest, OutputsOutliveTheExecutable) {
  std::vector<HostBuffer> kept;
  {
    Executable exe = compileOrDie(kAxpy, "axpy");
    auto out = exe.call({vec4({1, 1, 1, 1}), vec4({0, 0, 0, 0})});
    ASSERT_TRUE(out.ok()) << out.message();
    kept = out.take();
  }
  EXPECT_EQ(floats(kept[0]), (std::vector<float>{2, 2, 2, 2}));
}

TEST_F(ExecutableTest, CopiesShareTheCompiledProgram) {
  std::optional<Executable> copy;
  {
    Executable exe = compileOrDie(kAxpy, "axpy");
    copy = exe;
  }
  auto out = copy->call({vec4({1, 1, 1, 1}), vec4({0, 0, 0, 0})});
  ASSERT_TRUE(out.ok()) << out.message();
  EXPECT_EQ(floats((*out)[0]), (std::vector<float>{2, 2, 2, 2}));
}

//===----------------------------------------------------------------------===//
// The calling convention for every dtype and for dynamic shapes
//===----------------------------------------------------------------------===//

TEST_F(ExecutableTest, PassesEveryScalarDType) {
  Executable exe = compileOrDie(kDTypes, "scalars");
  auto out =
      exe.call({owned<double>(DType::F64, {}, {0.1}),
                owned<int64_t>(DType::I64, {}, {int64_t(1) << 40}),
                owned<uint8_t>(DType::I1, {}, {1}), scalarI32(INT32_MIN + 1)});
  ASSERT_TRUE(out.ok()) << out.message();
  ASSERT_EQ(out->size(), 4u);
  EXPECT_EQ((*out)[0].dtype(), DType::F64);
  EXPECT_EQ(scalarOf<double>((*out)[0]), 0.2);
  EXPECT_EQ(scalarOf<int64_t>((*out)[1]), (int64_t(1) << 40) + 1);
  EXPECT_EQ((*out)[2].dtype(), DType::I1);
  EXPECT_EQ(scalarOf<uint8_t>((*out)[2]), 0);
  EXPECT_EQ(scalarOf<int32_t>((*out)[3]), INT32_MIN);
}

TEST_F(ExecutableTest, PassesTensorsOfF64AndI1) {
  Executable exe = compileOrDie(kDTypes, "tensors");
  auto out = exe.call({owned<double>(DType::F64, {2, 3}, {1, 2, 3, 4, 5, 6}),
                       owned<uint8_t>(DType::I1, {3}, {1, 0, 0})});
  ASSERT_TRUE(out.ok()) << out.message();
  const double *x = (*out)[0].dataAs<double>();
  EXPECT_EQ(std::vector<double>(x, x + 6),
            (std::vector<double>{6, 2, 3, 4, 5, 6}));
  EXPECT_EQ((*out)[0].shape(), (std::vector<int64_t>{2, 3}));
  const uint8_t *m = (*out)[1].dataAs<uint8_t>();
  EXPECT_EQ(std::vector<uint8_t>(m, m + 3), (std::vector<uint8_t>{1, 0, 1}));
}

TEST_F(ExecutableTest, ServesEverySizeOfADynamicDimension) {
  Executable exe = compileOrDie(kDynamic, "scale");
  EXPECT_EQ(exe.inputs()[0].shape, std::vector<int64_t>{-1});
  for (int64_t n : {0, 1, 7, 1000}) {
    std::vector<float> x(n);
    for (int64_t i = 0; i < n; ++i)
      x[i] = float(i);
    auto out = exe.call({owned<float>(DType::F32, {n}, x), scalarF32(2)});
    ASSERT_TRUE(out.ok()) << out.message();
    ASSERT_EQ((*out)[0].shape(), std::vector<int64_t>{n});
    for (int64_t i = 0; i < n; ++i)
      ASSERT_EQ((*out)[0].dataAs<float>()[i], 2 * float(i)) << i;
    EXPECT_EQ(scalarOf<float>((*out)[1]), float(n * (n - 1)));
  }
}

//===----------------------------------------------------------------------===//
// compile() errors
//===----------------------------------------------------------------------===//

TEST_F(ExecutableTest, ReportsSyntaxErrorsWithTheirLocation) {
  CompileOptions options;
  options.entry = "f";
  auto exe = Executable::compile("func.func @f(%x: f32) -> f32 {\n"
                                 "  return %y : f32\n}\n",
                                 options, "prog.mlir");
  EXPECT_TRUE(failsWith(exe, "prog.mlir:2:10: error: use of undeclared SSA "
                             "value name"));
}

TEST_F(ExecutableTest, ReportsVerifierErrorsWithTheirLocation) {
  CompileOptions options;
  options.entry = "f";
  auto exe = Executable::compile(
      "func.func @f(%x: f32) -> f64 {\n  return %x : f32\n}\n", options,
      "verify.mlir");
  EXPECT_TRUE(failsWith(exe, "verify.mlir:2:3: error: type of return "
                             "operand 0 ('f32') doesn't match"));
}

TEST_F(ExecutableTest, ReportsAMissingEntry) {
  // The default entry is @main.
  EXPECT_TRUE(failsWith(Executable::compile(kAxpy),
                        "no entry function @main in the program"));
  CompileOptions options;
  options.entry = "ext";
  EXPECT_TRUE(failsWith(
      Executable::compile("func.func private @ext(f32) -> f32\n", options),
      "no entry function @ext"));
}

TEST_F(ExecutableTest, ReportsEntriesThatHostBuffersCannotCall) {
  CompileOptions options;
  options.entry = "f";
  EXPECT_TRUE(
      failsWith(Executable::compile(
                    "func.func @f(%m: memref<4xf32>) { return }", options),
                "@f: argument #0 has type memref<4xf32>"));
  EXPECT_TRUE(failsWith(
      Executable::compile(
          "func.func @f(%x: tensor<*xf32>) -> tensor<*xf32> { return %x : "
          "tensor<*xf32> }",
          options),
      "@f: argument #0 has type tensor<*xf32>"));
  EXPECT_TRUE(failsWith(
      Executable::compile(
          "func.func @f(%x: tensor<4xi8>) -> tensor<4xi8> { return %x : "
          "tensor<4xi8> }",
          options),
      "@f: argument #0 has element type i8"));
  EXPECT_TRUE(
      failsWith(Executable::compile("func.func @f(%x: f32) -> f16 {\n"
                                    "  %y = arith.truncf %x : f32 to f16\n"
                                    "  return %y : f16\n}",
                                    options),
                "@f: result #0 has element type f16"));
}

// The shard context is Loom's: a program that brings one (written by hand,
// or already through loom-shard) would have the caller's value read as the
// runtime's mesh. It is refused before anything reads the signature.
TEST_F(ExecutableTest, RefusesProgramsThatAreAlreadySharded) {
  CompileOptions options;
  options.entry = "f";
  options.shards = 2;
  EXPECT_TRUE(failsWith(
      Executable::compile(
          "func.func @f(%x: tensor<?xf32>, %c: i64 {loom.context}) -> "
          "tensor<?xf32> {\n  return %x : tensor<?xf32>\n}\n",
          options, "ctx.mlir"),
      "ctx.mlir:1:33: error: argument #1 of @f carries loom.context"));
  EXPECT_TRUE(failsWith(
      Executable::compile(
          "mesh.mesh @m(shape = 2)\n"
          "func.func @f(%x: tensor<1xi32>) -> tensor<1xi32> {\n"
          "  %y = mesh.all_reduce %x on @m mesh_axes = [0] : tensor<1xi32> "
          "-> tensor<1xi32>\n"
          "  return %y : tensor<1xi32>\n}\n",
          options, "sharded.mlir"),
      "sharded.mlir:3:8: error: 'mesh.all_reduce' is a collective only "
      "Loom's own sharding adds"));
}

TEST_F(ExecutableTest, ReportsLoweringErrorsWithTheirLocation) {
  // TOSA is registered but never lowered by Loom: bufferization stops.
  CompileOptions options;
  options.entry = "f";
  auto exe = Executable::compile(
      "func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {\n"
      "  %y = tosa.abs %x : (tensor<4xf32>) -> tensor<4xf32>\n"
      "  return %y : tensor<4xf32>\n}\n",
      options, "lower.mlir");
  EXPECT_TRUE(failsWith(exe, "lower.mlir:2:8: error: "));
}

TEST_F(ExecutableTest, ReportsUnresolvedSymbolsAtJitTime) {
  CompileOptions options;
  options.entry = "f";
  auto exe = Executable::compile(
      "func.func private @loom_test_nowhere(f32) -> f32\n"
      "func.func @f(%x: f32) -> f32 {\n"
      "  %y = func.call @loom_test_nowhere(%x) : (f32) -> f32\n"
      "  return %y : f32\n}\n",
      options);
  // The missing symbol is named only on stderr (by ORC's error reporter),
  // which the API cannot capture through mlir::ExecutionEngine.
  EXPECT_TRUE(failsWith(exe, "JIT compilation failed"));
}

TEST_F(ExecutableTest, ReportsAMissingFile) {
  auto exe = Executable::compileFile(examplePath("no/such/file.mlir"));
  EXPECT_TRUE(failsWith(exe, "no/such/file.mlir: No such file or directory"));
}

TEST_F(ExecutableTest, RefusesOptionsItCannotHonour) {
  CompileOptions options;
  options.entry = "axpy";
  // A backend that cannot run here is an error, not a fallback to the CPU:
  // the GPU one without a CUDA driver or a GPU. (The MPI backend's errors:
  // MPIExecutableTest.)
  options.backend = Backend::GPU;
  if (!gpuAvailable().ok()) {
    EXPECT_TRUE(failsWith(Executable::compile(kAxpy, options),
                          gpuAvailable().message()));
  }
  options.backend = Backend::CPU;
  options.shards = -1;
  EXPECT_TRUE(failsWith(Executable::compile(kAxpy, options),
                        "shards must be 1 to 1024 (0: from the program's "
                        "mesh), got -1"));
  options.shards = 1;
  options.optLevel = 4;
  EXPECT_TRUE(failsWith(Executable::compile(kAxpy, options),
                        "optimization level must be 0 to 3, got 4"));
  options.optLevel = -1;
  EXPECT_TRUE(failsWith(Executable::compile(kAxpy, options),
                        "optimization level must be 0 to 3, got -1"));
  // Every level that is accepted compiles to the same results.
  options.optLevel = 0;
  auto o0 = Executable::compile(kAxpy, options);
  ASSERT_TRUE(o0.ok()) << o0.message();
  auto out = o0->call({vec4({1, 2, 3, 4}), vec4({0, 0, 0, 0})});
  ASSERT_TRUE(out.ok()) << out.message();
  EXPECT_EQ(floats((*out)[0]), (std::vector<float>{2, 4, 6, 8}));
}

TEST_F(ExecutableTest, ParsesOptionWords) {
  EXPECT_EQ(*parseBackend("cpu"), Backend::CPU);
  EXPECT_EQ(*parseDivergentPolicy("per-lane"), DivergentPolicy::PerLane);
  EXPECT_EQ(*parseDivergentPolicy("gang"), DivergentPolicy::Gang);
  EXPECT_EQ(*parseLoopSyncPolicy("local"), LoopSyncPolicy::Local);
  EXPECT_TRUE(failsWith(parseBackend("tpu"),
                        "unknown backend 'tpu' (expected one of: cpu, gpu, "
                        "mpi)"));
  EXPECT_TRUE(failsWith(parseDivergentPolicy("Masked"), "unknown divergent"));
  EXPECT_TRUE(failsWith(parseLoopSyncPolicy(""), "unknown loop-sync mode ''"));
}

//===----------------------------------------------------------------------===//
// call() errors
//===----------------------------------------------------------------------===//

TEST_F(ExecutableTest, RefusesWrongNumbersOfInputs) {
  Executable exe = compileOrDie(kAxpy, "axpy");
  EXPECT_TRUE(failsWith(exe.call({vec4({0, 0, 0, 0}), vec4({0, 0, 0, 0}),
                                  scalarF32(1), scalarI32(1), scalarI32(1)}),
                        "the entry takes 4 inputs, got 5"));
  EXPECT_TRUE(failsWith(exe.call({vec4({1, 2, 3, 4})}),
                        "input 'arg1' (#1) is missing and has no default"));
  EXPECT_TRUE(failsWith(exe.callNamed(std::map<std::string, HostBuffer>{
                            {"arg1", vec4({1, 2, 3, 4})}}),
                        "input 'x' (#0) is missing and has no default"));
}

TEST_F(ExecutableTest, RefusesWrongDTypesAndShapes) {
  Executable exe = compileOrDie(kAxpy, "axpy");
  HostBuffer y = vec4({0, 0, 0, 0});
  EXPECT_TRUE(
      failsWith(exe.call({owned<double>(DType::F64, {4}, {1, 2, 3, 4}), y}),
                "input 'x' (#0) must be 4xf32, got 4xf64"));
  EXPECT_TRUE(
      failsWith(exe.call({owned<float>(DType::F32, {5}, {1, 2, 3, 4, 5}), y}),
                "input 'x' (#0) must be 4xf32, got 5xf32"));
  EXPECT_TRUE(
      failsWith(exe.call({owned<float>(DType::F32, {2, 2}, {1, 2, 3, 4}), y}),
                "input 'x' (#0) must be 4xf32, got 2x2xf32"));
  EXPECT_TRUE(failsWith(exe.call({vec4({0, 0, 0, 0}), y, vec4({0, 0, 0, 0})}),
                        "input 'a' (#2) must be f32, got 4xf32"));
  EXPECT_TRUE(
      failsWith(exe.call({vec4({0, 0, 0, 0}), y, scalarF32(1), scalarF32(1)}),
                "input 'n' (#3) must be i32, got f32"));
  // u32 is accepted for i32 (JAX keys are uint32 words in signless tensors),
  // but nothing else converts.
  EXPECT_TRUE(exe.call({vec4({1, 2, 3, 4}), y, scalarF32(1),
                        owned<uint32_t>(DType::U32, {}, {1})})
                  .ok());
  EXPECT_TRUE(failsWith(exe.call({vec4({0, 0, 0, 0}), y, scalarF32(1),
                                  owned<int64_t>(DType::I64, {}, {1})}),
                        "input 'n' (#3) must be i32, got i64"));
  // By name, the same check.
  EXPECT_TRUE(failsWith(
      exe.callNamed(std::map<std::string, HostBuffer>{
          {"x", vec4({0, 0, 0, 0})}, {"arg1", y}, {"a", vec4({0, 0, 0, 0})}}),
      "input 'a' (#2) must be f32, got 4xf32"));
}

TEST_F(ExecutableTest, RefusesUnknownAndRepeatedNames) {
  Executable exe = compileOrDie(kAxpy, "axpy");
  HostBuffer v = vec4({1, 2, 3, 4});
  EXPECT_TRUE(failsWith(
      exe.callNamed(std::map<std::string, HostBuffer>{{"x", v}, {"z", v}}),
      "the entry has no input 'z' (inputs: x, arg1, a, n)"));
  EXPECT_TRUE(failsWith(
      exe.callNamed(std::map<std::string, HostBuffer>{{"x", v}, {"4", v}}),
      "the entry has no input '4'"));
  EXPECT_TRUE(failsWith(
      exe.callNamed(std::map<std::string, HostBuffer>{{"x", v}, {"0", v}}),
      "input 'x' is given twice"));
  EXPECT_TRUE(failsWith(exe.inputIndex("-1"), "the entry has no input '-1'"));
  EXPECT_TRUE(failsWith(exe.inputIndex(""), "the entry has no input ''"));
  // A position too large for any integer type is still just an unknown name.
  EXPECT_TRUE(failsWith(exe.inputIndex("99999999999999999999999"),
                        "the entry has no input"));
}

/// A mode selector the program defines for 0 to 2 only, and an i64 with a
/// negative lower bound: loom.range makes the API check them per call.
constexpr const char *kRanged = R"mlir(
func.func @pick(%x: tensor<4xf32> {loom.name = "x"},
                %mode: i32 {loom.name = "mode", loom.default = 0 : i32,
                            loom.range = [0, 2]},
                %k: i64 {loom.name = "k", loom.default = 5 : i64,
                         loom.range = [-10, 10]}) -> tensor<4xf32> {
  %c = arith.sitofp %mode : i32 to f32
  %b = tensor.splat %c : tensor<4xf32>
  %r = arith.addf %x, %b : tensor<4xf32>
  return %r : tensor<4xf32>
}
)mlir";

TEST_F(ExecutableTest, ChecksLoomRangeOnEveryCall) {
  Executable exe = compileOrDie(kRanged, "pick");
  EXPECT_EQ(exe.inputs()[0].range, std::nullopt);
  EXPECT_EQ(exe.inputs()[1].range, (std::pair<int64_t, int64_t>{0, 2}));
  EXPECT_EQ(exe.inputs()[2].range, (std::pair<int64_t, int64_t>{-10, 10}));
  HostBuffer x = vec4({1, 2, 3, 4});
  // Both bounds are inside; the defaults are too.
  for (int32_t mode : {0, 2}) {
    auto out = exe.call({x, scalarI32(mode)});
    ASSERT_TRUE(out.ok()) << out.message();
    EXPECT_EQ(floats((*out)[0])[0], 1.0f + mode);
  }
  ASSERT_TRUE(exe.call({x}).ok());
  for (int32_t mode : {3, -1, INT32_MIN})
    EXPECT_TRUE(failsWith(exe.call({x, scalarI32(mode)}),
                          "input 'mode' (#1) is " + std::to_string(mode) +
                              ", outside its loom.range [0, 2]"));
  // By name too, and for i64; a u32 is read as the unsigned value written.
  EXPECT_TRUE(
      failsWith(exe.callNamed(std::map<std::string, HostBuffer>{
                    {"x", x}, {"k", owned<int64_t>(DType::I64, {}, {-11})}}),
                "input 'k' (#2) is -11, outside its loom.range [-10, 10]"));
  EXPECT_TRUE(failsWith(
      exe.call({x, owned<uint32_t>(DType::U32, {}, {4294967295u})}),
      "input 'mode' (#1) is 4294967295, outside its loom.range [0, 2]"));
}

//===----------------------------------------------------------------------===//
// The seed programs against golden.md
//===----------------------------------------------------------------------===//

/// golden.md: compare within 1e-6 relative where a value goes through sin or
/// log1p.
testing::AssertionResult nearGolden(double actual, double golden) {
  if (std::abs(actual - golden) <= 1e-6 * std::abs(golden))
    return testing::AssertionSuccess();
  return testing::AssertionFailure()
         << actual << " differs from the golden " << golden;
}

TEST_F(ExecutableTest, MweLanesMatchGolden) {
  auto exe = compileExample("mwe/while_of_while.mlir", "solve");
  ASSERT_TRUE(exe.ok()) << exe.message();
  for (size_t lane = 0; lane < 3; ++lane) {
    auto out = exe->callNamed(mweLane(lane));
    ASSERT_TRUE(out.ok()) << out.message();
    ASSERT_EQ((*out)[0].shape(), std::vector<int64_t>{1});
    EXPECT_TRUE(nearGolden(scalarOf<float>((*out)[0]), kMweY[lane]))
        << "lane " << lane;
  }
}

TEST_F(ExecutableTest, OdeRowsMatchGolden) {
  auto exe = compileExample("diffrax/ode.mlir", "solve_ode");
  ASSERT_TRUE(exe.ok()) << exe.message();
  ASSERT_EQ(exe->outputs().size(), 5u);
  EXPECT_EQ(exe->outputs()[0].shape, (std::vector<int64_t>{100, 1}));

  // Row 1 (t1 = 1.0, dt0 = 0.05) by name; row 2 is the program's defaults,
  // so y0 alone, positionally.
  std::map<std::string, HostBuffer> row1;
  row1["y0"] = init01();
  row1["t1"] = scalarF32(1.0f);
  row1["dt0"] = scalarF32(0.05f);
  struct Row {
    Result<std::vector<HostBuffer>> out;
    int32_t steps, accepted, rejected;
    double ys0, ys50, ys99;
  } rows[] = {{exe->callNamed(row1), 54, 53, 1, 0.10000000149011612,
               0.23217232525348663, 0.5864452719688416},
              {exe->call({init01()}), 8, 8, 0, 0.10000000149011612,
               0.10178343951702118, 0.10601721704006195}};
  for (const Row &row : rows) {
    ASSERT_TRUE(row.out.ok()) << row.out.message();
    const std::vector<HostBuffer> &out = *row.out;
    EXPECT_EQ(scalarOf<int32_t>(out[1]), row.steps);
    EXPECT_EQ(scalarOf<int32_t>(out[2]), row.accepted);
    EXPECT_EQ(scalarOf<int32_t>(out[3]), row.rejected);
    EXPECT_EQ(scalarOf<int32_t>(out[4]), 0) << "result: successful";
    const float *ys = out[0].dataAs<float>();
    EXPECT_TRUE(nearGolden(ys[0], row.ys0));
    EXPECT_TRUE(nearGolden(ys[50], row.ys50));
    EXPECT_TRUE(nearGolden(ys[99], row.ys99));
  }
}

TEST_F(ExecutableTest, SdeLanesMatchGolden) {
  auto exe = compileExample("diffrax/sde.mlir", "solve_sde");
  ASSERT_TRUE(exe.ok()) << exe.message();
  for (size_t lane = 0; lane < 3; ++lane) {
    auto out = exe->callNamed(sdeLane(lane));
    ASSERT_TRUE(out.ok()) << out.message();
    EXPECT_EQ(scalarOf<int32_t>((*out)[1]), kSdeSteps[lane][0]) << lane;
    EXPECT_EQ(scalarOf<int32_t>((*out)[2]), kSdeSteps[lane][1]) << lane;
    EXPECT_EQ(scalarOf<int32_t>((*out)[3]), kSdeSteps[lane][2]) << lane;
    EXPECT_EQ(scalarOf<int32_t>((*out)[4]), 0) << lane;
  }
}

TEST_F(ExecutableTest, RepeatedCallsGiveIdenticalBits) {
  auto sde = compileExample("diffrax/sde.mlir", "solve_sde");
  ASSERT_TRUE(sde.ok()) << sde.message();
  auto mwe = compileExample("mwe/while_of_while.mlir", "solve");
  ASSERT_TRUE(mwe.ok()) << mwe.message();
  auto sdeFirst = sde->callNamed(sdeLane(0));
  auto mweFirst = mwe->callNamed(mweLane(0));
  ASSERT_TRUE(sdeFirst.ok() && mweFirst.ok());
  for (int i = 0; i < 5; ++i) {
    // Another lane in between, so state left over from a call would show.
    ASSERT_TRUE(sde->callNamed(sdeLane(1 + i)).ok());
    ASSERT_TRUE(mwe->callNamed(mweLane(1 + i)).ok());
    auto sdeAgain = sde->callNamed(sdeLane(0));
    auto mweAgain = mwe->callNamed(mweLane(0));
    ASSERT_TRUE(sdeAgain.ok() && mweAgain.ok());
    EXPECT_TRUE(sameBits(*sdeFirst, *sdeAgain)) << i;
    EXPECT_TRUE(sameBits(*mweFirst, *mweAgain)) << i;
  }
  // A second compilation computes the same bits as the first.
  auto sde2 = compileExample("diffrax/sde.mlir", "solve_sde");
  ASSERT_TRUE(sde2.ok()) << sde2.message();
  auto other = sde2->callNamed(sdeLane(0));
  ASSERT_TRUE(other.ok());
  EXPECT_TRUE(sameBits(*sdeFirst, *other));
}

} // namespace
