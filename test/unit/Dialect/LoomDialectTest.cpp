//===- LoomDialectTest.cpp - The loom dialect from C++ --------------------===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//

#include "loom/Dialect/Loom/IR/LoomOps.h"
#include "loom/InitAllDialects.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include <gtest/gtest.h>

using namespace mlir;

namespace {

class LoomDialectTest : public ::testing::Test {
protected:
  LoomDialectTest() : context(makeRegistry()) {
    context.loadAllAvailableDialects();
  }

  static DialectRegistry makeRegistry() {
    DialectRegistry registry;
    loom::registerAllLoom(registry);
    return registry;
  }

  /// Parses `ir`, collecting diagnostics instead of printing them.
  OwningOpRef<ModuleOp> parse(StringRef ir) {
    diagnostics.clear();
    ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diag) {
      diagnostics.push_back(diag.str());
      return success();
    });
    return parseSourceString<ModuleOp>(ir, &context);
  }

  MLIRContext context;
  std::vector<std::string> diagnostics;
};

TEST_F(LoomDialectTest, VmapReportsItsBatchSize) {
  auto module = parse(R"mlir(
    func.func private @f(tensor<1xf32>, f32) -> tensor<1xf32>
    func.func @main(%x: tensor<30x1xf32>, %t: f32) -> tensor<30x1xf32> {
      %y = loom.vmap @f(%x, %t) in_axes [0, none] out_axes [0]
          : (tensor<30x1xf32>, f32) -> tensor<30x1xf32>
      return %y : tensor<30x1xf32>
    }
  )mlir");
  ASSERT_TRUE(module) << (diagnostics.empty() ? "" : diagnostics.front());
  loom::VmapOp vmap;
  module->walk([&](loom::VmapOp op) { vmap = op; });
  ASSERT_TRUE(vmap);
  EXPECT_EQ(vmap.getBatchSize(), 30);
  EXPECT_EQ(vmap.getInAxes()[1], loom::VmapOp::kNotBatched);
}

TEST_F(LoomDialectTest, DynamicBatchStaysDynamic) {
  auto module = parse(R"mlir(
    func.func private @f(f32) -> f32
    func.func @main(%x: tensor<?xf32>) -> tensor<?xf32> {
      %y = loom.vmap @f(%x) in_axes [0] out_axes [0]
          : (tensor<?xf32>) -> tensor<?xf32>
      return %y : tensor<?xf32>
    }
  )mlir");
  ASSERT_TRUE(module);
  loom::VmapOp vmap;
  module->walk([&](loom::VmapOp op) { vmap = op; });
  EXPECT_TRUE(ShapedType::isDynamic(vmap.getBatchSize()));
}

TEST_F(LoomDialectTest, BadInAxesIsADiagnosticNotACrash) {
  auto module = parse(R"mlir(
    func.func private @f(f32, f32) -> f32
    func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
      %y = loom.vmap @f(%x) in_axes [0] out_axes [0]
          : (tensor<4xf32>) -> tensor<4xf32>
      return %y : tensor<4xf32>
    }
  )mlir");
  EXPECT_FALSE(module);
  ASSERT_EQ(diagnostics.size(), 1u);
  EXPECT_NE(diagnostics[0].find("in_axes has 1 entries but @f takes 2 "
                                "arguments"),
            std::string::npos)
      << diagnostics[0];
}

TEST_F(LoomDialectTest, BatchTypeHelpersInvertEachOther) {
  Type f32 = Float32Type::get(&context);
  auto batched = cast<RankedTensorType>(loom::batchType(f32, 0, 7));
  EXPECT_EQ(batched, RankedTensorType::get({7}, f32));
  EXPECT_EQ(loom::unbatchType(batched, 0), f32);
  auto row = RankedTensorType::get({100, 1}, f32);
  auto rows =
      cast<RankedTensorType>(loom::batchType(row, 1, ShapedType::kDynamic));
  EXPECT_EQ(rows.getShape(), ArrayRef<int64_t>({100, ShapedType::kDynamic, 1}));
  EXPECT_EQ(loom::unbatchType(rows, 1), row);
  EXPECT_FALSE(loom::batchType(f32, 1, 4));
}

} // namespace
