//===- Batchedness.h - Which values differ from lane to lane ----*- C++ -*-===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//
//
// The batchedness analysis answers, for a function called with some of its
// arguments batched, which SSA values may differ from one lane to another.
// `loom-vmap` and its loop cost model use it to decide what to batch and
// how to lower each loop. (`loom-shard` does not: it tracks which axis of
// each value is split, lib/Dialect/Loom/Transforms/ShardAxes.h.)
//
// A value is batched when it is computed from a batched value (data
// dependence) or when it is produced by a region op whose control is batched
// (control dependence: the lanes leave a loop at different iterations, or
// take different branches). Loop carries are a fixpoint: a carry is batched
// if its init is, or if the body makes it depend on a batched value.
//
// MLIR's sparse dataflow framework is not used: it is context-insensitive
// across calls (Loom analyses a callee once per batchedness signature, as it
// clones it once per signature) and has no notion of control dependence
// through a batched loop predicate.
//
//===----------------------------------------------------------------------===//

#ifndef LOOM_ANALYSIS_BATCHEDNESS_H
#define LOOM_ANALYSIS_BATCHEDNESS_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

#include <map>
#include <memory>
#include <vector>

namespace mlir::loom {

class BatchednessSolver;

/// Why one value is batched: the batched value it was computed from, or the
/// region op whose batched control (loop predicate, loop bounds or `scf.if`
/// condition) makes it differ per lane. Function arguments have neither.
struct BatchedReason {
  Value source;
  Operation *control = nullptr;
};

/// The result of analysing one function under one batchedness signature.
class BatchednessAnalysis {
public:
  func::FuncOp getFunction() const { return func; }
  ArrayRef<bool> getArgBatched() const { return argBatched; }
  /// Batchedness of each value the function returns.
  ArrayRef<bool> getResultBatched() const { return resultBatched; }

  /// True when `value` (defined in this function) may differ between lanes.
  bool isBatched(Value value) const { return batched.contains(value); }

  /// True when `op`, or any op nested in it, reads a batched value. An op
  /// that does not can be cloned unchanged into the batched function.
  bool usesBatched(Operation *op) const { return users.contains(op); }

  /// True when the control of a region op is batched: the predicate of an
  /// `scf.while`, a bound of an `scf.for`, the condition of an `scf.if`.
  bool isControlBatched(Operation *op) const {
    return batchedControl.contains(op);
  }

  /// Why `value` is batched; std::nullopt for an unbatched value.
  std::optional<BatchedReason> getReason(Value value) const;

  /// The chain of values through which `value` became batched, from `value`
  /// back to a batched function argument (control dependences are followed
  /// through the predicate of the controlling op). Empty when unbatched.
  SmallVector<Value> getReasonChain(Value value) const;

  /// The analysis of the callee of `call` under the signature of its
  /// operands, or null for an external callee.
  const BatchednessAnalysis *getCalleeAnalysis(func::CallOp call) const {
    return callees.lookup(call);
  }

private:
  friend class BatchednessSolver;
  BatchednessAnalysis(func::FuncOp func, ArrayRef<bool> argBatched)
      : func(func), argBatched(argBatched.begin(), argBatched.end()) {}

  LogicalResult run(BatchednessSolver &solver);
  bool mark(Value value, BatchedReason reason);
  bool markControl(Operation *op);
  LogicalResult visit(Operation *op, BatchednessSolver &solver);
  void visitGeneric(Operation *op);
  void visitWhile(Operation *op);
  void visitFor(Operation *op);
  void visitIf(Operation *op);
  LogicalResult visitCall(func::CallOp call, BatchednessSolver &solver);
  Value firstBatched(ValueRange values) const;

  func::FuncOp func;
  SmallVector<bool> argBatched;
  SmallVector<bool> resultBatched;
  DenseSet<Value> batched;
  DenseMap<Value, BatchedReason> reasons;
  DenseSet<Operation *> batchedControl;
  DenseSet<Operation *> users;
  DenseMap<Operation *, const BatchednessAnalysis *> callees;
  bool changed = false;
};

/// Analyses functions per batchedness signature and owns the results. One
/// solver serves a whole pass: callees reached from several places are
/// analysed once per signature, and recursion is reported where it closes.
class BatchednessSolver {
public:
  /// `symbolTableOp` resolves callees (usually the module); functions being
  /// analysed need not be inside it.
  explicit BatchednessSolver(Operation *symbolTableOp)
      : symbolTableOp(symbolTableOp) {}

  /// Analyses `func` with the arguments marked in `argBatched` batched.
  /// Fails, with a diagnostic at the offending call, on recursion, on a
  /// function with more than one block, or on a call to an unknown symbol.
  /// `callSite`, when given, is where a recursion error is reported.
  FailureOr<const BatchednessAnalysis *> analyze(func::FuncOp func,
                                                 ArrayRef<bool> argBatched,
                                                 Operation *callSite = nullptr);

  /// Resolves the callee of `call` in the solver's symbol table.
  func::FuncOp lookupCallee(func::CallOp call);

  /// Drops the analyses of `func` (after it was rewritten, or before it is
  /// destroyed and its address reused).
  void forget(func::FuncOp func);

private:
  Operation *symbolTableOp;
  std::map<std::pair<Operation *, std::vector<bool>>,
           std::unique_ptr<BatchednessAnalysis>>
      cache;
  SmallVector<Operation *> stack;
};

} // namespace mlir::loom

#endif // LOOM_ANALYSIS_BATCHEDNESS_H
