//===- BatchingOpInterface.h - vmap batching rules --------------*- C++ -*-===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//
//
// The batching-rule interface and the context a rule runs in. The context is
// implemented by `loom-vmap`: it owns the batchedness analysis, the mapping
// from scalar values to batched ones, the current lane mask and the policy
// (loop strategies, batched callees). The ops every rule builds (lane
// extraction, masked selects, loops over lanes) are utilities in
// loom/Dialect/Loom/Utils/BatchingUtils.h: this library holds the interface
// and the context, and builds no ops.
//
// Representation: a batched value has the lanes as a new leading axis of
// size B (static, or `?` read at run time); a scalar lane type T becomes
// tensor<BxT>, tensor<S...xT> becomes tensor<BxS...xT>.
//
//===----------------------------------------------------------------------===//

#ifndef LOOM_INTERFACES_BATCHINGOPINTERFACE_H
#define LOOM_INTERFACES_BATCHINGOPINTERFACE_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/OpDefinition.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

#include <optional>

namespace mlir::loom {

/// Declared by the Loom dialect (LoomAttrs.td); opaque here so that this
/// library does not depend on the dialect that implements the interface.
enum class LoopStrategy : uint32_t;

//===----------------------------------------------------------------------===//
// Ops that trap
//===----------------------------------------------------------------------===//

/// An operand that makes an op trap for some of its values, and a value of
/// it that never does.
struct TrapGuard {
  unsigned operand;
  int64_t safeValue;
};

/// How `op` can trap, if it can: integer division and remainder (signed and
/// unsigned, ceil and floor) trap on a zero divisor, and the signed ones on
/// INT_MIN / -1; a divisor of 1 is safe for both. Batched code runs an op on
/// lanes the scalar program would not run it on (finished lanes of a masked
/// loop, the untaken side of a per-lane branch), whose operands are stale or
/// arbitrary: every rule that does so makes this operand safe there. An op
/// that can trap is added here, in one place. A constant divisor that is
/// neither 0 nor, for a signed op, -1 traps on no lane, and needs no guard:
/// left constant, LLVM divides a vector by it with multiplies and shifts
/// where a guarded divisor has it divide lane by lane.
std::optional<TrapGuard> getTrapGuard(Operation *op);

/// What a batching rule sees of `loom-vmap`. Values passed to `isBatched`,
/// `lookup` and `map` are values of the scalar (original) function.
class BatchingContext {
public:
  virtual ~BatchingContext();

  //===--------------------------------------------------------------------===//
  // The analysis and the value mapping
  //===--------------------------------------------------------------------===//

  /// True when `original` differs per lane (batchedness analysis).
  virtual bool isBatched(Value original) const = 0;
  /// True when the predicate, bounds or condition of `original` is batched.
  virtual bool isControlBatched(Operation *original) const = 0;
  /// The value `original` stands for in the batched function: batched
  /// (leading lane axis) exactly when `isBatched(original)`.
  virtual Value lookup(Value original) const = 0;
  /// Records that `original` is now `replacement`.
  virtual void map(Value original, Value replacement) = 0;

  /// The number of lanes, an `index` that dominates the whole function.
  virtual Value getBatchSize() const = 0;
  /// The number of lanes if static, else ShapedType::kDynamic.
  virtual int64_t getStaticBatchSize() const = 0;

  //===--------------------------------------------------------------------===//
  // Recursion and policy
  //===--------------------------------------------------------------------===//

  /// Batches every op of `original` but its terminator at `builder`'s
  /// insertion point. Rules of region ops build their terminators.
  virtual LogicalResult batchBlock(Block &original, OpBuilder &builder) = 0;
  /// Batches the one op `original` at `builder`'s insertion point, as
  /// `batchBlock` batches each op of a block.
  virtual LogicalResult batchOp(Operation &original, OpBuilder &builder) = 0;

  /// The clone of `call`'s callee batched for its operands' batchedness;
  /// `resultBatched` receives which of its results are batched.
  virtual FailureOr<func::FuncOp>
  getBatchedCallee(func::CallOp call, SmallVectorImpl<bool> &resultBatched) = 0;

  /// The strategy for a loop (the pass's option, the loop's `loom.strategy`
  /// and the cost model); emits the loop's remark. Fails, after a
  /// diagnostic, when the loop is pinned to a strategy it cannot have.
  virtual FailureOr<LoopStrategy> getLoopStrategy(Operation *loop) = 0;

  /// Called when `original` is cloned unbatched (as `clone`) into a
  /// per-lane loop, so the pass can explain and record the loops in it.
  virtual void notifyClonedPerLane(Operation *original, Operation *clone) {}

  /// Lanes of one gang, and whether the slots of `loop`'s gang (a loop
  /// getLoopStrategy decided gang) refill: the option under divergent=gang,
  /// the cost model's choice under auto.
  virtual int64_t getGangWidth() const = 0;
  virtual bool getGangRefill(Operation *loop) const = 0;
  /// Whether getLoopStrategy decided to compile `loop` two ways, its
  /// strategy and an alternative, for the runtime to time
  /// (loom.variant_begin).
  virtual bool hasAlternative(Operation *loop) const = 0;
  /// Makes the alternative (or, with false, the strategy getLoopStrategy
  /// returned) what getGangRefill and the loops nested in `loop` see while
  /// that form is built, and returns its strategy.
  virtual LoopStrategy useVariant(Operation *loop, bool alternative) = 0;
  /// The name of one of `loop`'s two forms as remarks give it, e.g.
  /// "gang with refill (width 32)": what the runtime reports a shard kept.
  virtual std::string describeVariant(Operation *loop,
                                      bool alternative) const = 0;
  /// Inserts `scalar` (a function a rule outlined, not yet in any module)
  /// into the module and returns its clone batched at `getGangWidth()` lanes
  /// for `signature`, under a mask (a trailing tensor<Wxi1>), with every
  /// divergent loop in it masked: the body of one gang. `isGangLoop`: its
  /// top-level loop is the gang's loop itself (whose remark the rule gave),
  /// else its loops are nested in it. `resultBatched` receives which
  /// results are batched. loom-vmap erases `scalar` when it is done.
  virtual FailureOr<func::FuncOp>
  batchGangBody(func::FuncOp scalar, ArrayRef<bool> signature, Operation *site,
                bool isGangLoop, SmallVectorImpl<bool> &resultBatched) = 0;

  //===--------------------------------------------------------------------===//
  // Lane mask
  //===--------------------------------------------------------------------===//

  /// The lanes whose results are kept at this point (a tensor<Bxi1>), or null
  /// when every lane is. Inside a masked loop this is the loop's active set.
  Value getMask() const { return mask; }
  /// Makes `narrower` the mask; it must not set a lane the current mask
  /// clears. Returns the previous mask, to pass back to `restoreMask`.
  Value narrowMask(Value narrower);
  void restoreMask(Value previous) { mask = previous; }

  /// Records that the current mask sets at least one lane (the active set of
  /// a loop that is running). The mask of a per-lane branch may set none.
  void recordMaskNonEmpty();
  /// True when the current mask is null or known to set a lane.
  bool isMaskNonEmpty() const;

  /// Records that `value` equals `base` on every lane the current mask
  /// clears: a masked write. A loop whose carry is only updated this way
  /// needs no `select` of the whole carry, which would copy a buffer per
  /// iteration once bufferized.
  void recordUnchangedOnInactive(Value value, Value base);
  /// True when `value` is known to equal `base` on every lane the current
  /// mask clears (trivially when they are the same value).
  bool isUnchangedOnInactive(Value value, Value base) const;
  /// The oldest value `value` is known to equal on inactive lanes, following
  /// recorded masked writes as far as the current mask allows.
  Value getUnchangedBase(Value value) const;

  //===--------------------------------------------------------------------===//
  // Values as rules read them
  //===--------------------------------------------------------------------===//

  /// `laneType` with the leading lane axis.
  Type getBatchedType(Type laneType) const;
  /// `lookup(original)`, broadcast to every lane when it is unbatched.
  Value lookupBatched(OpBuilder &builder, Location loc, Value original);
  /// `lookupBatched` when `batched`, else `lookup`.
  Value lookupAs(OpBuilder &builder, Location loc, Value original,
                 bool batched);
  /// The same value on every lane (linalg.fill for a scalar,
  /// linalg.broadcast for a tensor), built once per value where the value is
  /// defined, so that it is hoisted out of loops.
  virtual Value broadcast(OpBuilder &builder, Location loc,
                          Value unbatched) = 0;
  /// An all-true tensor<Bxi1>, built once per function.
  virtual Value getAllTrue(OpBuilder &builder, Location loc) = 0;

private:
  bool isMaskWithin(Value narrow, Value wide) const;

  Value mask;
  DenseMap<Value, Value> maskParents;
  llvm::DenseSet<Value> nonEmptyMasks;
  struct Unchanged {
    Value base;
    Value mask;
  };
  DenseMap<Value, Unchanged> unchanged;
};

} // namespace mlir::loom

#include "loom/Interfaces/BatchingOpInterface.h.inc"

#endif // LOOM_INTERFACES_BATCHINGOPINTERFACE_H
