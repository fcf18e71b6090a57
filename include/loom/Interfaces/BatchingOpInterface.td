//===- BatchingOpInterface.td - vmap batching rules --------*- tablegen -*-===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//

#ifndef LOOM_INTERFACES_BATCHINGOPINTERFACE_TD
#define LOOM_INTERFACES_BATCHINGOPINTERFACE_TD

include "mlir/IR/OpBase.td"

def Loom_BatchingOpInterface : OpInterface<"BatchingOpInterface"> {
  let cppNamespace = "::mlir::loom";
  let description = [{
    The batching rule of an op: how `loom-vmap` rewrites one op of a scalar
    (one-lane) function into the batched function, where every batched value
    carries the lanes as a new leading axis. This is JAX's per-primitive
    batching rule as an MLIR interface.

    Loom ops implement it directly; upstream ops (arith, math, tensor, scf,
    func) get it as external models, registered by `registerLoomInterfaces`.
    `loom-vmap` only calls the rule of an op that reads a batched value (any
    other op is cloned unchanged); an op that reads one and has no rule
    stops the pass with a diagnostic that names it.

    Terminators (`scf.yield`, `scf.condition`, `func.return`) have no rule of
    their own: the rule of their parent builds them, since only the parent
    knows which of its results are batched.
  }];
  let methods = [
    InterfaceMethod<[{
        Emits the batched form of this op at the insertion point of `builder`
        and maps each of its results in `context` (`context.map`), batched
        exactly when `context.isBatched` says so. Operands are read with
        `context.lookup` / `context.lookupBatched`. Returns failure after
        emitting a diagnostic at the op.
      }],
      "::mlir::LogicalResult", "batch",
      (ins "::mlir::loom::BatchingContext &":$context,
           "::mlir::OpBuilder &":$builder)
    >,
  ];
}

#endif // LOOM_INTERFACES_BATCHINGOPINTERFACE_TD
