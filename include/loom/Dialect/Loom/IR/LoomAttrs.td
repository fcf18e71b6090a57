//===- LoomAttrs.td - Loom attributes ----------------------*- tablegen -*-===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//

#ifndef LOOM_DIALECT_LOOM_IR_LOOMATTRS_TD
#define LOOM_DIALECT_LOOM_IR_LOOMATTRS_TD

include "loom/Dialect/Loom/IR/LoomDialect.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"

// How a while loop reached by loom.vmap is batched. Upstream has no notion of
// this: it is Loom's own decision, recorded so a user can pin it per loop.
def Loom_LoopStrategy : I32EnumAttr<"LoopStrategy", "vmap loop lowering", [
    I32EnumAttrCase<"Uniform", 0, "uniform">,
    I32EnumAttrCase<"Masked", 1, "masked">,
    I32EnumAttrCase<"PerLane", 2, "per_lane">,
    I32EnumAttrCase<"Gang", 3, "gang">
  ]> {
  let cppNamespace = "::mlir::loom";
  let genSpecializedAttr = 0;
}

def Loom_LoopStrategyAttr
    : EnumAttr<Loom_Dialect, Loom_LoopStrategy, "strategy"> {
  let summary = "Lowering of one batched while loop";
  let description = [{
    `uniform`: the predicate is the same for every lane, the loop stays a
    scalar loop around a batched body. `masked`: `while (any(active))` with
    every carry selected by the lane mask (JAX's lowering). `per_lane`: a
    parallel loop over lanes, each running the scalar loop. `gang`: a loop
    over gangs of `gang-width` lanes, each running the masked loop nest on
    its own lanes (ISPC's model; the outermost divergent loop of a nest).
  }];
  let assemblyFormat = "`<` $value `>`";
}

// Whether a sharded loop synchronises its predicate across shards. The mesh
// dialect describes where data lives, not how control flow is replicated, so
// this has no upstream counterpart.
def Loom_LoopSync : I32EnumAttr<"LoopSync", "sharded loop synchronisation", [
    I32EnumAttrCase<"Global", 0, "global">,
    I32EnumAttrCase<"Local", 1, "local">
  ]> {
  let cppNamespace = "::mlir::loom";
  let genSpecializedAttr = 0;
}

def Loom_LoopSyncAttr : EnumAttr<Loom_Dialect, Loom_LoopSync, "loop_sync"> {
  let summary = "Predicate synchronisation of one sharded loop";
  let description = [{
    `global`: the predicate is all-reduced over every shard on each iteration
    and all shards run until the slowest lane anywhere is done (`jax.jit` with
    GSPMD). `local`: each shard reduces only its own lanes (`pmap`,
    `shard_map`).
  }];
  let assemblyFormat = "`<` $value `>`";
}

#endif // LOOM_DIALECT_LOOM_IR_LOOMATTRS_TD
