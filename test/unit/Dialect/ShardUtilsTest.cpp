//===- ShardUtilsTest.cpp - The shard context and Loom's collectives ------===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//

#include "loom/Dialect/Loom/Utils/ShardUtils.h"
#include "loom/Dialect/Loom/IR/LoomDialect.h"
#include "loom/Dialect/Loom/Utils/LocationUtils.h"
#include "loom/InitAllDialects.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"

#include <gtest/gtest.h>

using namespace mlir;

namespace {

class ShardUtilsTest : public ::testing::Test {
protected:
  ShardUtilsTest() : context(makeRegistry()) {
    context.loadAllAvailableDialects();
  }

  static DialectRegistry makeRegistry() {
    DialectRegistry registry;
    loom::registerAllLoom(registry);
    return registry;
  }

  OwningOpRef<ModuleOp> parse(StringRef ir) {
    return parseSourceString<ModuleOp>(ir, &context);
  }

  MLIRContext context;
};

TEST_F(ShardUtilsTest, ContextsReachEveryCallerThroughACycle) {
  // @leaf needs a context; @a and @b call each other and @leaf; @main calls
  // @a; @alone calls nothing that needs one.
  auto module = parse(R"mlir(
    func.func @leaf() { return }
    func.func @a(%n: i32) { call @b(%n) : (i32) -> () call @leaf() : () -> () return }
    func.func @b(%n: i32) { call @a(%n) : (i32) -> () return }
    func.func @main() { %c = arith.constant 1 : i32 call @a(%c) : (i32) -> () return }
    func.func @alone() { return }
  )mlir");
  ASSERT_TRUE(module);
  auto lookup = [&](StringRef name) {
    return module->lookupSymbol<func::FuncOp>(name);
  };
  loom::addShardContexts(*module, {lookup("leaf")});
  for (StringRef name : {"leaf", "a", "b", "main"}) {
    func::FuncOp func = lookup(name);
    Value ctx = loom::getShardContext(func);
    ASSERT_TRUE(ctx) << name.str();
    // One context, the last argument.
    EXPECT_EQ(ctx, func.getArguments().back()) << name.str();
    unsigned contexts = 0;
    for (unsigned i = 0; i < func.getNumArguments(); ++i)
      contexts += static_cast<bool>(
          func.getArgAttr(i, loom::LoomDialect::kContextAttrName));
    EXPECT_EQ(contexts, 1u) << name.str();
    // Every call passes the caller's own context on.
    func.walk([&](func::CallOp call) {
      EXPECT_EQ(call.getOperands().back(), ctx) << name.str();
      EXPECT_EQ(loom::getEnclosingShardContext(call), ctx);
    });
  }
  EXPECT_FALSE(loom::getShardContext(lookup("alone")));
  EXPECT_TRUE(succeeded(verify(*module)));
  // Adding again adds nothing.
  loom::addShardContexts(*module, {lookup("leaf"), lookup("main")});
  EXPECT_EQ(lookup("a").getNumArguments(), 2u);
  EXPECT_TRUE(succeeded(verify(*module)));
}

TEST_F(ShardUtilsTest, ScalarAllReduceIsMatchedAsBuilt) {
  auto module = parse(R"mlir(
    mesh.mesh @m(shape = 4)
    func.func @f(%p: i1) -> i1 { return %p : i1 }
  )mlir");
  ASSERT_TRUE(module);
  EXPECT_EQ(loom::getNumShards(*module), 4);
  auto func = module->lookupSymbol<func::FuncOp>("f");
  Value p = func.getArgument(0);
  OpBuilder b(func.getBody().front().getTerminator());
  loom::ScalarAllReduce built = loom::buildScalarAllReduce(
      b, func.getLoc(), p, "m", mesh::ReductionKind::BitwiseOr);
  EXPECT_TRUE(loom::isShardCollective(built.reduce));
  EXPECT_EQ(built.reduce.getReduction(), mesh::ReductionKind::BitwiseOr);

  std::optional<loom::ScalarAllReduce> matched =
      loom::matchScalarAllReduce(built.whole());
  ASSERT_TRUE(matched);
  EXPECT_EQ(matched->local, p);
  EXPECT_EQ(matched->reduce, built.reduce);
  EXPECT_EQ(matched->wrap, built.wrap);
  EXPECT_EQ(loom::lookThroughScalarAllReduce(built.whole()), p);
  // A value that is no such collective is itself.
  EXPECT_FALSE(loom::matchScalarAllReduce(p));
  EXPECT_EQ(loom::lookThroughScalarAllReduce(p), p);
  EXPECT_TRUE(succeeded(verify(*module)));
}

TEST_F(ShardUtilsTest, AModuleWithoutAMeshHasOneShard) {
  auto module = parse("func.func @f() { return }");
  ASSERT_TRUE(module);
  EXPECT_EQ(loom::getNumShards(*module), 1);
  EXPECT_TRUE(succeeded(loom::checkNotYetSharded(*module)));
}

TEST_F(ShardUtilsTest, LocationsPrintAsFileLineColumn) {
  EXPECT_EQ(loom::locationString(FileLineColLoc::get(&context, "a.mlir", 3, 7)),
            "a.mlir:3:7");
  EXPECT_EQ(loom::locationString(UnknownLoc::get(&context)), "loc(unknown)");
}

} // namespace
