//===- Passes.td - Loom dialect passes ---------------------*- tablegen -*-===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//
//
// File organization: one section per pipeline stage, in pipeline order
// (vmap, then sharding); each pass says why it exists and shows a tiny
// before/after.
//
//===----------------------------------------------------------------------===//

#ifndef LOOM_DIALECT_LOOM_TRANSFORMS_PASSES_TD
#define LOOM_DIALECT_LOOM_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

//===----------------------------------------------------------------------===//
// vmap
//===----------------------------------------------------------------------===//

def LoomVmapPass : Pass<"loom-vmap", "ModuleOp"> {
  let summary = "Expand loom.vmap into calls of batched clones of the callee";
  let description = [{
    `loom.vmap` maps a scalar function over a batch axis. This pass makes the
    batching explicit: each `loom.vmap` becomes a `func.call` of a clone of
    the callee batched for the vmap's batchedness signature (one clone per
    signature and batch size), in which every value that may differ per lane
    carries the lanes as a new leading axis. `in_axes`/`out_axes` other than
    0 become `linalg.transpose` at the call boundary.

    Which values are batched comes from the batchedness analysis (a fixpoint
    over loop carries, as JAX's while batching rule). Each op is rewritten by
    its batching rule (`BatchingOpInterface`); an op that reads a per-lane
    value and has no rule stops the pass with a diagnostic that names it.

    Each loop is lowered one of three ways, and a remark at the loop says
    which and why, naming the carry and argument that make its predicate
    differ per lane:

    * `uniform`: the predicate is the same on every lane; the loop stays a
      scalar loop around a batched body, and carries that never meet a
      per-lane value stay unbatched.
    * `masked`: `while (any(active))`, the body on all lanes, each carry
      `select(active, new, old)`; the predicate is computed once per
      iteration; a nested divergent loop starts from the enclosing mask; a
      write into a buffer is a per-lane masked write, never a select of the
      whole buffer.
    * `per-lane`: an `scf.for` over lanes runs the original scalar loop on
      each lane: no masked work at all.

    `divergent=auto` takes uniform whenever it is legal and otherwise picks
    masked, per-lane, gang or gang with refill with the cost model in
    `docs/vmap.md`; the
    `loom.strategy` attribute on a loop pins its strategy. Afterwards the
    attribute records what was decided on every while loop of a batched
    clone (`loom-localize-loops` trusts only a decided `masked`), and pins
    elsewhere are dropped (with a warning where no vmap batches the
    function, since such a pin never meant anything).

    Before:
    ```mlir
    func.func @f(%x: f32) -> f32 {
      %r = scf.while (%v = %x) : (f32) -> f32 {
        %go = arith.cmpf olt, %v, %ten : f32
        scf.condition(%go) %v : f32
      } do {
      ^bb0(%v: f32):
        %n = arith.addf %v, %one : f32
        scf.yield %n : f32
      }
      return %r : f32
    }
    %ys = loom.vmap @f(%xs) in_axes [0] out_axes [0]
        : (tensor<?xf32>) -> tensor<?xf32>
    ```
    After (masked; `sel` stands for a linalg.generic selecting lane by lane
    into its `outs`, so the carry is updated in place):
    ```mlir
    %ys = call @f_vmap_b(%xs) : (tensor<?xf32>) -> tensor<?xf32>
    func.func private @f_vmap_b(%x: tensor<?xf32>) -> tensor<?xf32> {
      %r:2 = scf.while (%v = %x, %a = %all) : (...) -> (...) {
        %go = arith.cmpf olt, %v, %tens : tensor<?xf32>
        %a2 = linalg.generic ins(%go) outs(%a) { and }   // a & go
        %any = loom.any %a2 along 0 : tensor<?xi1> -> i1
        scf.condition(%any) %v, %a2 : tensor<?xf32>, tensor<?xi1>
      } do {
      ^bb0(%v: tensor<?xf32>, %a2: tensor<?xi1>):
        %n = arith.addf %v, %ones : tensor<?xf32>
        %s = linalg.generic ins(%a2, %n) outs(%v) { sel }  // a2 ? n : v
        scf.yield %s, %a2 : tensor<?xf32>, tensor<?xi1>
      }
      return %r#0 : tensor<?xf32>
    }
    ```
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::bufferization::BufferizationDialect",
    "::mlir::func::FuncDialect",
    "::mlir::linalg::LinalgDialect",
    "::mlir::math::MathDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::tensor::TensorDialect",
    "::mlir::loom::LoomDialect",
  ];
  let options = [
    Option<"divergent", "divergent", "::loom::DivergentPolicy",
           /*default=*/"::loom::DivergentPolicy::Auto",
           "Lowering of loops whose predicate differs per lane",
           [{::mlir::loom::divergentPolicyValues()}]>,
    Option<"gangWidth", "gang-width", "unsigned", /*default=*/"32",
           "Lanes of one gang (divergent=gang): each gang runs the masked "
           "loop nest on its own lanes">,
    Option<"refill", "refill", "bool", /*default=*/"false",
           "With divergent=gang: a gang's slot whose lane leaves the "
           "outermost loop takes the shard's next pending lane">,
    Option<"adaptive", "adaptive", "bool", /*default=*/"true",
           "divergent=auto on a CPU: where refill and a lock-step strategy "
           "are modelled within adaptive-factor of each other, compile "
           "both for the outermost loop of the nest and let each shard "
           "time them on its first calls and keep the faster "
           "(loom.variant_begin)">,
    Option<"adaptiveFactor", "adaptive-factor", "double", /*default=*/"4",
           "How much costlier than the cheapest the modelled second "
           "strategy may be, and still be compiled to be timed (adaptive)">,
    Option<"target", "target", "::mlir::loom::VmapTarget",
           /*default=*/"::mlir::loom::VmapTarget::CPU",
           "Where the batched code runs (input to the cost model)",
           [{::mlir::loom::vmapTargetValues()}]>,
    Option<"simdWidth", "simd-width", "unsigned", /*default=*/"8",
           "Lanes one SIMD instruction processes (cost model)">,
    Option<"divergencePerDoubling", "divergence-per-doubling", "double",
           /*default=*/"0.01562",
           "d in D(n) = 1 + d * log2(n), the expected ratio of the slowest "
           "lane's trip count to the mean one among n lanes run in "
           "lock-step, per divergent loop level (cost model)">,
    Option<"assumedBatch", "assumed-batch", "int64_t", /*default=*/"64",
           "Batch size the cost model assumes when it is dynamic">,
    Option<"maskedOpCost", "masked-op-cost", "double", /*default=*/"11.31",
           "Cost of one masked op on SIMD-width lanes, in scalar ops: its "
           "operands and results live in lane buffers, not registers "
           "(cost model)">,
    Option<"onePassOpCost", "one-pass-op-cost", "double",
           /*default=*/"2",
           "Cost of one masked op on SIMD-width lanes in a loop masked in "
           "one pass over the lanes (scalar carries, elementwise code), in "
           "scalar ops (cost model)">,
    Option<"gangOpCost", "gang-op-cost", "double", /*default=*/"4.362",
           "Cost of one op of a gang on SIMD-width lanes in a loop masked in "
           "sweeps, in scalar ops: its lane buffers are a gang's, on the "
           "stack (cost model)">,
    Option<"gangOnePassOpCost", "gang-one-pass-op-cost", "double",
           /*default=*/"2.181",
           "Cost of one op of a gang on SIMD-width lanes in a loop masked in "
           "one pass, in scalar ops (cost model)">,
    Option<"gangOverhead", "gang-overhead", "double", /*default=*/"90.51",
           "Fixed cost of one gang (gathering and scattering its lanes), in "
           "scalar ops (cost model)">,
    Option<"vectorLibmOps", "vector-libm-ops", "double", /*default=*/"14",
           "What an f32 sin or log1p costs the batched forms in vector "
           "ops, where the lowering computes it in vector arithmetic "
           "(loom-to-llvm's libm-to-arith); 0: it is a libm call per lane, "
           "as Loom's CPU backend sets where libm-to-arith does not apply "
           "(cost model)">,
    Option<"refillOpCost", "refill-op-cost", "double", /*default=*/"4",
           "What refill adds to every trip of the outermost loop, per "
           "carry, in gang ops: retiring a finished lane's carries and "
           "taking the next lane's (cost model)">,
    Option<"laneOpCost", "lane-op-cost", "double", /*default=*/"1.414",
           "Cost per lane of an op the batched forms run lane by lane (a "
           "libm call, a read at a per-lane index, a random number on a "
           "per-lane key) in the per-lane form, in scalar ops (cost model)">,
    Option<"carriedLatencyCost", "carried-latency-cost", "double",
           /*default=*/"1.682",
           "Cost of one cycle of latency on a per-lane trip's loop-carried "
           "dependency chain, in scalar ops: a per-lane trip takes its ops "
           "or that chain, whichever is longer (cost model)">,
    Option<"batchedLaneOpCost", "batched-lane-op-cost", "double",
           /*default=*/"8",
           "Cost per lane and trip of such an op in the masked and gang "
           "forms, which run it on every lane of the lock-step, idle ones "
           "included, in scalar ops (cost model)">,
    Option<"tableReadCost", "table-read-cost", "double", /*default=*/"4",
           "Cost per lane and trip of a read at a lane's index of a table "
           "every lane shares, in a loop masked in one pass, which loads it "
           "on every lane of the pass, in scalar ops: an element extracted, "
           "an address, a load and an insert (not fitted; in sweeps such a "
           "read costs batched-lane-op-cost) (cost model)">,
  ];
}

//===----------------------------------------------------------------------===//
// Sharding
//===----------------------------------------------------------------------===//

def LoomAnnotateBatchAxes : Pass<"loom-annotate-batch-axes", "ModuleOp"> {
  let summary = "Record which entry arguments and results carry a batch";
  let description = [{
    `loom.vmap` says which operands and results are batched, and along which
    axis; `loom-vmap` replaces it by a call and that knowledge would be lost.
    This pass, run before `loom-vmap`, copies it onto the function that
    applies `loom.vmap` to its own arguments as `loom.batch_axis` argument
    and result attributes, which `loom-shard` and the runtime use to split
    inputs and join outputs. A function argument batched along two different
    axes by two `loom.vmap`s is an error.

    ```mlir
    func.func @main(%x: tensor<?x1xf32>) -> tensor<?x1xf32> {
      %y = loom.vmap @f(%x) in_axes [0] out_axes [0] : ...
      return %y : tensor<?x1xf32>
    }
    // becomes
    func.func @main(%x: tensor<?x1xf32> {loom.batch_axis = 0 : i64})
        -> (tensor<?x1xf32> {loom.batch_axis = 0 : i64}) { ... }
    ```
  }];
}

def LoomShard : Pass<"loom-shard", "ModuleOp"> {
  let summary = "Partition batched functions over a mesh of shards";
  let description = [{
    Splits every argument marked `loom.batch_axis` across the shards of a
    1-d `mesh.mesh` along its batch axis, tracks which axis of each value
    is split through the program (elementwise ops, linalg through its
    indexing maps, tensor slices, inserts, reshapes, the loom reductions,
    calls, and the carries of `scf.while`, `scf.for` and `scf.if`, which
    upstream's propagation does not handle in MLIR 19), and rewrites it into
    the program one shard runs on its own lanes. A slice that takes one lane
    at a loop over the shard's lanes is lane-local: not split. An op with no
    rule that reads a split value, a local batch size or a lane index is an
    error. A reduction along the split axis of its input gets a collective,
    as GSPMD does; one along another axis, or over a lane's own tensor, does
    not:

    * `loom.any`, `all`, `max`, `min` and integer `sum` along the split axis
      reduce locally, then `mesh.all_reduce` across shards;
    * a float `loom.sum` along the split axis becomes a sum over
      `mesh.all_gather`, so it is added in lane order and gives the same bits
      for every shard count.

    Functions that now contain collectives, and their callers, take the
    shard context as a trailing `i64 {loom.context}` argument. A module that
    already has one, or a collective, is refused: it was sharded already.

    The shard count has one source of truth: the module's `mesh.mesh`. The
    `shards` option, when set, overrides its shape (and `loom-run --shards`
    and the C++ API set this option); without a mesh and without the option
    there is one shard. The batch need not divide evenly: the runtime gives
    the first `B mod N` shards one lane more.

    ```mlir
    %p = loom.any %active along 0 : tensor<?xi1> -> i1
    // becomes, with %active sharded
    %l = loom.any %active along 0 : tensor<?xi1> -> i1
    %t = tensor.from_elements %l : tensor<1xi1>
    %g = mesh.all_reduce %t on @loom_mesh mesh_axes = [0]
        reduction = <bitwise_or> : tensor<1xi1> -> tensor<1xi1>
    %p = tensor.extract %g[%c0] : tensor<1xi1>
    ```
  }];
  let options = [
    Option<"shards", "shards", "int64_t", "0",
           "Number of shards; overrides the mesh in the IR (0: keep it)">
  ];
  let dependentDialects = ["::mlir::mesh::MeshDialect",
                           "::mlir::tensor::TensorDialect"];
}

def LoomLocalizeLoops : Pass<"loom-localize-loops", "ModuleOp"> {
  let summary = "Drop per-iteration predicate collectives where legal";
  let description = [{
    After `loom-shard`, a masked loop's predicate `any(active)` is
    all-reduced across shards on every iteration, and every shard runs until
    the slowest lane anywhere is done: `jax.jit` with GSPMD. When nothing
    else in the loop crosses shards, each shard may instead reduce its own
    lanes and stop when they are done (`pmap`, `shard_map`): masked lanes
    keep their values, so the results are the same and the collective is
    gone. Only a loop carrying `loom.strategy = #loom.strategy<masked>`,
    which `loom-vmap` records on the loops it builds masked, is known to
    keep them: any other loop with a predicate collective (a batched loop
    written by hand) stays global.

    `loop-sync=global` keeps every predicate collective (it reproduces the
    seed's slowdown); `local` removes them, and is an error for a loop that
    also reduces across shards or is not masked, since that would change
    results; `auto`
    localizes exactly the loops for which that is legal. Loops are visited
    innermost first: a loop that still holds a collective after its inner
    loops were handled stays global, because a shard leaving it early would
    leave the others waiting. A `loom.loop_sync` attribute pins one loop.
    Each loop that had a predicate collective gets a remark saying which
    mode it got and why.
  }];
  let options = [
    Option<"loopSync", "loop-sync", "::loom::LoopSyncPolicy",
           /*default=*/"::loom::LoopSyncPolicy::Auto",
           "Predicate synchronisation of sharded loops",
           [{::mlir::loom::loopSyncPolicyValues()}]>
  ];
}

#endif // LOOM_DIALECT_LOOM_TRANSFORMS_PASSES_TD
