//===- LoomDialect.td - Loom dialect definition ------------*- tablegen -*-===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//

#ifndef LOOM_DIALECT_LOOM_IR_LOOMDIALECT_TD
#define LOOM_DIALECT_LOOM_IR_LOOMDIALECT_TD

include "mlir/IR/OpBase.td"

def Loom_Dialect : Dialect {
  let name = "loom";
  let cppNamespace = "::mlir::loom";
  let summary = "Batching, divergent loops and JAX-compatible random numbers";
  let description = [{
    The `loom` dialect adds to upstream MLIR only what Loom needs and upstream
    lacks. Scalar programs are written with `func`, `arith`, `math`, `tensor`
    and `scf`; meshes, shardings and collectives use the `mesh` dialect. This
    dialect contributes:

    * `loom.vmap`, which maps a function over a batch axis (JAX's `vmap`);
    * axis reductions (`loom.any`, `loom.all`, `loom.sum`, `loom.max`,
      `loom.min`) that the loop lowerings and the sharding pass must
      recognise, with their cross-shard semantics fixed;
    * JAX's threefry2x32 random numbers (`loom.random.*`), bit-compatible with
      `jax.random`;
    * argument and result attributes: `loom.name` names an entry argument or
      result so tools can address it, `loom.default` gives a scalar
      argument a default value so tools can omit it, `loom.range` bounds
      an integer scalar argument that every call checks, `loom.batch_axis`
      marks the axis a mesh splits across shards, and `loom.context` marks
      the shard context argument that `loom-shard` adds;
    * loop annotations (`loom.strategy`, `loom.loop_sync`) that pin the
      lowering of one loop, and `loom.lane_mask`, which names the live-slot
      mask of a refill loop for loop counters.

    **Keys.** A threefry key is JAX's raw `uint32[2]` key. MLIR's `arith`
    works on signless integers, so a key is a `tensor<2xi32>` whose two words
    are read as unsigned; an array of keys is `tensor<...x2xi32>`. `.npy` files
    of dtype `uint32` map onto these tensors bit for bit.
  }];
  let useDefaultAttributePrinterParser = 1;
  let hasConstantMaterializer = 1;
  let hasRegionArgAttrVerify = 1;
  let hasRegionResultAttrVerify = 1;
  let hasOperationAttrVerify = 1;
  let dependentDialects = ["::mlir::arith::ArithDialect"];
  let extraClassDeclaration = [{
    /// Argument/result attribute naming an entry argument or result.
    static constexpr ::llvm::StringLiteral kNameAttrName = "loom.name";
    /// Argument attribute giving a scalar argument its default value.
    static constexpr ::llvm::StringLiteral kDefaultAttrName = "loom.default";
    /// Argument attribute `[lo, hi]`: the values, inclusive, that an integer
    /// scalar argument may take; the API checks it before each call.
    static constexpr ::llvm::StringLiteral kRangeAttrName = "loom.range";
    /// Argument/result attribute: the axis that carries the batch, which a
    /// mesh splits across shards (set from loom.vmap's in_axes/out_axes).
    static constexpr ::llvm::StringLiteral kBatchAxisAttrName =
        "loom.batch_axis";
    /// Argument attribute marking the i64 shard context loom-shard adds.
    static constexpr ::llvm::StringLiteral kContextAttrName = "loom.context";
    /// Function attribute marking a clone loom-vmap batched, which
    /// loom-inline-batched-callees inlines at its calls.
    static constexpr ::llvm::StringLiteral kBatchedAttrName = "loom.batched";
    /// Module attribute: the loops loom-count-loop-iterations numbered.
    static constexpr ::llvm::StringLiteral kLoopsAttrName = "loom.loops";
    /// Module attribute: the loom.variant_begin sites that
    /// -convert-mesh-to-loom-runtime numbered, with their variants' names.
    static constexpr ::llvm::StringLiteral kVariantsAttrName =
        "loom.variants";
    /// Loop attribute pinning the vmap lowering strategy of one loop.
    static constexpr ::llvm::StringLiteral kStrategyAttrName = "loom.strategy";
    /// Loop attribute pinning the loop-sync mode of one loop.
    static constexpr ::llvm::StringLiteral kLoopSyncAttrName = "loom.loop_sync";
    /// Attribute of a refill loop (an integer): which of its before block's
    /// arguments is the mask of live slots, whose loop goes on by a flag
    /// rather than by a loom.any of that mask.
    static constexpr ::llvm::StringLiteral kLaneMaskAttrName = "loom.lane_mask";
    /// Attribute of an scf.while whose small tensor carries
    /// loom-scalarize-small-tensors split into their elements (an array of
    /// i64, one per before block argument): the carry of the loop as
    /// written that each comes from, which loom-vmap's remarks name.
    static constexpr ::llvm::StringLiteral kSourceCarriesAttrName =
        "loom.source_carries";

  private:
    void registerAttributes();

  public:
  }];
}

class Loom_Op<string mnemonic, list<Trait> traits = []>
    : Op<Loom_Dialect, mnemonic, traits>;

#endif // LOOM_DIALECT_LOOM_IR_LOOMDIALECT_TD
