//===- ShardAxes.h - Which axis of each value is split across shards ------===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//
//
// loom-shard's analysis: from the entry arguments, which axis of each tensor
// is split across the shards, which index values are this shard's batch size
// or one of its lanes, and which loom reductions therefore cross shards.
//
//===----------------------------------------------------------------------===//

#ifndef LOOM_TRANSFORMS_SHARDAXES_H
#define LOOM_TRANSFORMS_SHARDAXES_H

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/DenseMap.h"

#include <optional>

namespace mlir::loom {

/// What loom-shard knows about one value of a sharded program. A value with
/// no fact is the same on every shard (or lane-local).
struct ShardFact {
  enum Kind : uint8_t {
    /// A tensor whose `axis` is split: each shard holds its own lanes.
    Split,
    /// An index: the size of a split axis on this shard (its lane count).
    LocalSize,
    /// An index: one of this shard's lanes (a loop over the local lanes).
    LaneIndex,
    /// A tensor of indices, each one of this shard's lanes (the lanes a
    /// refilled gang's slots hold).
    LaneIndices,
  };
  Kind kind = Split;
  int64_t axis = 0;

  bool operator==(const ShardFact &o) const {
    return kind == o.kind && (kind != Split || axis == o.axis);
  }
  bool operator!=(const ShardFact &o) const { return !(*this == o); }
};

/// The loom reductions, seen through one lens.
struct Reduction {
  Operation *op = nullptr;
  Value input;
  int64_t axis = 0;
  StringRef kind; // "any", "all", "sum", "max", "min"

  static Reduction match(Operation *op);
};

class ShardAxes {
public:
  explicit ShardAxes(ModuleOp module) : module(module) {}

  /// `v` (an entry argument) is split along `axis`.
  void seed(Value v, int64_t axis);

  /// Propagates to a fixpoint over every function (carries, calls and
  /// returns feed back into each other), then checks that every op reading
  /// a split value, a local batch size or a lane index has a rule that
  /// covers it. An op without one is a located error: guessing could put a
  /// collective where none belongs, or leave one out, silently.
  LogicalResult run();

  std::optional<ShardFact> lookup(Value v) const;

  /// The split axis of `v`, if it is a split tensor.
  std::optional<int64_t> splitAxis(Value v) const;

  /// Whether `r` reduces along the split axis of its input, so that its
  /// result needs every shard's lanes.
  bool crossesShards(const Reduction &r) const;

private:
  LogicalResult visit(Operation *op);
  LogicalResult set(Value v, ShardFact fact, Operation *at);
  LogicalResult unsupported(Operation *op, const Twine &why);

  LogicalResult visitReduction(const Reduction &r);
  LogicalResult visitLinalg(Operation *op);
  LogicalResult visitSized(Operation *op, ValueRange sizes);
  LogicalResult visitExtractSlice(Operation *op);
  LogicalResult visitInsertSlice(Operation *op);
  LogicalResult visitExtractOrInsert(Operation *op, Value tensor,
                                     ValueRange indices, Value scalar,
                                     Value result);
  LogicalResult visitReshape(Operation *op);
  LogicalResult visitLanePosition(Operation *op);
  LogicalResult visitOther(Operation *op);
  LogicalResult merge(ValueRange from, ArrayRef<Value> to, Operation *at);

  ModuleOp module;
  llvm::DenseMap<Value, ShardFact> facts;
  bool changed = false;
  /// After the fixpoint: report what the rules cannot cover.
  bool checking = false;
};

} // namespace mlir::loom

#endif // LOOM_TRANSFORMS_SHARDAXES_H
