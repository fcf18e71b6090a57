//===- LoomOps.td - Loom operations ------------------------*- tablegen -*-===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//

#ifndef LOOM_DIALECT_LOOM_IR_LOOMOPS_TD
#define LOOM_DIALECT_LOOM_IR_LOOMOPS_TD

include "loom/Dialect/Loom/IR/LoomDialect.td"
include "loom/Dialect/Loom/IR/LoomAttrs.td"
include "loom/Interfaces/BatchingOpInterface.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

//===----------------------------------------------------------------------===//
// Type constraints
//===----------------------------------------------------------------------===//

// A threefry key: JAX's raw uint32[2] key as signless words.
def Loom_Key : Type<CPred<"::mlir::loom::isKeyType($_self)">,
                    "threefry key (tensor<2xi32>)">,
               BuildableType<"::mlir::loom::getKeyType($_builder.getContext())">;

// An array of keys, as `split` returns: tensor<...x2xi32>, statically shaped.
def Loom_KeyArray : Type<CPred<"::mlir::loom::isKeyArrayType($_self)">,
                         "array of threefry keys (tensor<...x2xi32>)">;

def Loom_Scalar : AnyTypeOf<[AnySignlessInteger, AnyFloat, Index]>;

//===----------------------------------------------------------------------===//
// vmap
//===----------------------------------------------------------------------===//

def Loom_VmapOp : Loom_Op<"vmap", [
    DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "Map a function over a batch axis";
  let description = [{
    `loom.vmap` applies `callee` to every lane of its batched operands, as
    JAX's `vmap`. `in_axes` gives, per operand, the axis that carries the
    batch, or `none` for an operand every lane shares; `out_axes` gives the
    batch axis of each result. A batched operand's type is the callee's
    argument type with the batch axis inserted; a scalar argument (`f32`,
    `i32`, ...) is batched as a rank-1 tensor. The batch size may be dynamic
    (`?`): it is then read from the operands at run time, so one compiled
    program serves every batch size.

    The callee is not a call edge: the `loom-vmap` pass expands each
    `loom.vmap` into a call of a batched clone of the callee, one clone per
    batchedness signature.

    ```mlir
    %ys = loom.vmap @solve(%inits, %keys, %theta) in_axes [0, 0, none]
        out_axes [0]
        : (tensor<?x1xf32>, tensor<?x2xi32>, f32) -> tensor<?x100x1xf32>
    ```
  }];
  let arguments = (ins FlatSymbolRefAttr:$callee, Variadic<AnyType>:$inputs,
                       DenseI64ArrayAttr:$in_axes,
                       DenseI64ArrayAttr:$out_axes);
  let results = (outs Variadic<AnyType>:$results);
  let assemblyFormat = [{
    $callee `(` $inputs `)` `in_axes` custom<Axes>($in_axes)
    `out_axes` custom<Axes>($out_axes) attr-dict
    `:` functional-type($inputs, $results)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// Marks an operand or result that carries no batch axis (`none`).
    static constexpr int64_t kNotBatched = -1;

    /// The static batch size shared by the batched operands, or
    /// ShapedType::kDynamic when every batched operand leaves it dynamic.
    int64_t getBatchSize();
  }];
}

//===----------------------------------------------------------------------===//
// Axis reductions
//===----------------------------------------------------------------------===//

class Loom_ReduceOp<string mnemonic, Type elemType, string combine,
                    list<Trait> traits = []>
    : Loom_Op<mnemonic, !listconcat(traits, [Pure,
        DeclareOpInterfaceMethods<Loom_BatchingOpInterface>])> {
  let summary = "Reduce a tensor along one axis with `" # combine # "`";
  let arguments = (ins RankedTensorOf<[elemType]>:$input,
                       ConfinedAttr<I64Attr, [IntNonNegative]>:$axis);
  let results = (outs AnyTypeOf<[elemType, RankedTensorOf<[elemType]>]>:$result);
  let assemblyFormat = [{
    $input `along` $axis attr-dict `:` type($input) `->` type($result)
  }];
  let hasVerifier = 1;
  let hasFolder = 1;
  let extraClassDeclaration = [{
    /// The element or tensor type that reducing `input` along `axis` gives.
    static ::mlir::Type inferResultType(::mlir::RankedTensorType input,
                                        int64_t axis);
  }];
}

def Loom_AnyOp : Loom_ReduceOp<"any", I1, "or"> {
  let description = [{
    True where any element along `axis` is true; false over an empty axis.
    When `axis` is a sharded batch axis, this is the reduction that becomes a
    cross-shard all-reduce: it is the predicate of every masked loop.

    ```mlir
    %go = loom.any %active along 0 : tensor<?xi1> -> i1
    ```
  }];
}

def Loom_AllOp : Loom_ReduceOp<"all", I1, "and"> {
  let description = [{
    True where every element along `axis` is true; true over an empty axis.

    ```mlir
    %done = loom.all %finished along 0 : tensor<?xi1> -> i1
    ```
  }];
}

def Loom_SumOp : Loom_ReduceOp<"sum", AnyTypeOf<[AnySignlessInteger, AnyFloat]>,
                               "add"> {
  let description = [{
    Sum along `axis`. Floating-point sums are taken in increasing index
    order, whatever the sharding, so results are identical for every shard
    count.

    ```mlir
    %s = loom.sum %x along 0 : tensor<?x3xf32> -> tensor<3xf32>
    ```
  }];
}

def Loom_MaxOp : Loom_ReduceOp<"max", AnyTypeOf<[AnySignlessInteger, AnyFloat]>,
                               "max"> {
  let description = [{
    Maximum along `axis` (signed for integers; NaN propagates for floats, as
    `arith.maximumf`).

    ```mlir
    %m = loom.max %steps along 0 : tensor<?xi32> -> i32
    ```
  }];
}

def Loom_MinOp : Loom_ReduceOp<"min", AnyTypeOf<[AnySignlessInteger, AnyFloat]>,
                               "min"> {
  let description = [{
    Minimum along `axis` (signed for integers; NaN propagates for floats, as
    `arith.minimumf`).

    ```mlir
    %m = loom.min %t along 0 : tensor<?xf32> -> f32
    ```
  }];
}

//===----------------------------------------------------------------------===//
// Random numbers (JAX threefry2x32)
//===----------------------------------------------------------------------===//

// `partitionable` selects jax_threefry_partitionable=True (JAX >= 0.5.0's
// default); without it the op follows every JAX before 0.5.0.
class Loom_RandomOp<string mnemonic, list<Trait> traits = []>
    : Loom_Op<"random." # mnemonic, !listconcat(traits, [Pure,
        DeclareOpInterfaceMethods<Loom_BatchingOpInterface>])>;

def Loom_RandomKeyOp : Loom_RandomOp<"key"> {
  let summary = "jax.random.PRNGKey(seed) for an int32 seed";
  let description = [{
    The key `(0, seed)` with the seed's bits read as unsigned, as
    `jax.random.PRNGKey` builds it with x64 off: `PRNGKey(-2)` is
    `(0, 4294967294)`.

    ```mlir
    %k = loom.random.key %seed : i32
    ```
  }];
  let arguments = (ins I32:$seed);
  let results = (outs Loom_Key:$key);
  let assemblyFormat = "$seed attr-dict `:` type($seed)";
  let hasFolder = 1;
}

def Loom_RandomSplitOp : Loom_RandomOp<"split"> {
  let summary = "jax.random.split(key, shape)";
  let description = [{
    Splits a key into an array of new keys whose shape is the result's
    shape without its last axis: `tensor<30x2xi32>` is
    `split(key, 30)`. With the default (non-partitionable) threefry,
    `split(k, n)` for different `n` gives different keys.

    ```mlir
    %keys = loom.random.split %k : tensor<30x2xi32>
    ```
  }];
  let arguments = (ins Loom_Key:$key, UnitAttr:$partitionable);
  let results = (outs Loom_KeyArray:$keys);
  let assemblyFormat = "$key attr-dict `:` type($keys)";
  let hasFolder = 1;
}

def Loom_RandomFoldInOp : Loom_RandomOp<"fold_in"> {
  let summary = "jax.random.fold_in(key, data) for int32 data";
  let description = [{
    A new key from a key and a 32-bit integer, as `jax.random.fold_in`.

    ```mlir
    %k2 = loom.random.fold_in %k, %step : i32
    ```
  }];
  let arguments = (ins Loom_Key:$key, I32:$data, UnitAttr:$partitionable);
  let results = (outs Loom_Key:$result);
  let assemblyFormat = "$key `,` $data attr-dict `:` type($data)";
  let hasFolder = 1;
}

def Loom_RandomBitsOp : Loom_RandomOp<"bits"> {
  let summary = "jax.random.bits(key, shape) with 32- or 64-bit words";
  let description = [{
    Uniformly random words (read as unsigned) of the result's shape. `i32`
    words are `jax.random.bits(key, shape, uint32)`; `i64` words are
    `jax.random.bits(key, shape, uint64)` with x64 on, which does not widen
    the 32-bit words but hashes its own: without `partitionable`, word `i` of
    `n` joins the two outputs of the threefry block `(i, n + i)`, high word
    first; with it, those of the block `(0, i)`.

    ```mlir
    %b = loom.random.bits %k : tensor<4xi32>
    %w = loom.random.bits %k : i64
    ```
  }];
  let arguments = (ins Loom_Key:$key, UnitAttr:$partitionable);
  let results = (outs AnyTypeOf<[I32, I64, StaticShapeTensorOf<[I32, I64]>]>:
                 $bits);
  let assemblyFormat = "$key attr-dict `:` type($bits)";
  let hasFolder = 1;
}

// The float types JAX's uniform and normal draw: float32, and float64 with
// x64 on (from 64-bit words, so a float64 sample is not a widened float32
// one).
def Loom_RandomFloat : AnyTypeOf<[F32, F64, StaticShapeTensorOf<[F32, F64]>]>;

def Loom_RandomUniformOp : Loom_RandomOp<"uniform", [
    TypesMatchWith<"minval has the result's element type", "result", "minval",
                   "::mlir::getElementTypeOrSelf($_self)">,
    TypesMatchWith<"maxval has the result's element type", "result", "maxval",
                   "::mlir::getElementTypeOrSelf($_self)">]> {
  let summary = "jax.random.uniform(key, shape, dtype, minval, maxval)";
  let description = [{
    Uniform samples in `[minval, maxval)` of `float32` or `float64`, built
    exactly as JAX does: the top 23 (52) bits of each 32-bit (64-bit) random
    word become the mantissa of a float in `[1, 2)`, which is shifted to
    `[0, 1)`, scaled, and clamped below: `max(minval, u * (maxval - minval) +
    minval)`. The bounds have the result's element type.

    ```mlir
    %u = loom.random.uniform %k, %lo, %hi : tensor<1xf32>
    %v = loom.random.uniform %k, %lo64, %hi64 : f64
    ```
  }];
  let arguments = (ins Loom_Key:$key, AnyTypeOf<[F32, F64]>:$minval,
                       AnyTypeOf<[F32, F64]>:$maxval,
                       UnitAttr:$partitionable);
  let results = (outs Loom_RandomFloat:$result);
  let assemblyFormat = [{
    $key `,` $minval `,` $maxval attr-dict `:` type($result)
  }];
}

def Loom_RandomNormalOp : Loom_RandomOp<"normal"> {
  let summary = "jax.random.normal(key, shape, dtype)";
  let description = [{
    Standard normal samples: `sqrt(2) * erfinv(u)` with `u` uniform in
    `[nextafter(-1, 0), 1)` and XLA's `erfinv` polynomial, Giles'
    single-precision one for `float32` and his double-precision one for
    `float64` (drawn from 64-bit words, as JAX does with x64 on).

    ```mlir
    %n = loom.random.normal %k : tensor<1xf32>
    %m = loom.random.normal %k : f64
    ```
  }];
  let arguments = (ins Loom_Key:$key, UnitAttr:$partitionable);
  let results = (outs Loom_RandomFloat:$result);
  let assemblyFormat = "$key attr-dict `:` type($result)";
}

def Loom_RandomRandIntOp : Loom_RandomOp<"randint"> {
  let summary = "jax.random.randint(key, shape, minval, maxval, int32)";
  let description = [{
    Integers in `[minval, maxval)`, drawn as JAX does: the key is split in
    two, and the high and low words are combined modulo the span to reduce
    bias. When `maxval <= minval` every sample is `minval`.

    ```mlir
    %c = loom.random.randint %k, %lo, %hi : i32
    ```
  }];
  let arguments = (ins Loom_Key:$key, I32:$minval, I32:$maxval,
                       UnitAttr:$partitionable);
  let results = (outs AnyTypeOf<[I32, StaticShapeTensorOf<[I32]>]>:$result);
  let assemblyFormat = [{
    $key `,` $minval `,` $maxval attr-dict `:` type($result)
  }];
}

//===----------------------------------------------------------------------===//
// Variants timed at run time
//===----------------------------------------------------------------------===//

def Loom_VariantBeginOp : Loom_Op<"variant_begin"> {
  let summary = "Picks one of two lowerings of a loop nest, timing both first";
  let description = [{
    Starts a region of code compiled two ways: the `scf.if` on its result
    runs the alternative lowering where it is true, the primary one where it
    is false, and the `loom.variant_end` of the same result ends the region.
    loom-vmap `divergent=auto` builds one where its cost model cannot tell
    from the IR which of two strategies is faster for a loop nest, because
    that depends on how unevenly the lanes' trip counts spread (`adaptive`).

    At run time each shard times the two on its first calls, alternately,
    then keeps the faster for every later call. Both compute the same bits,
    so the choice changes only the time. Lowered by
    `-convert-mesh-to-loom-runtime` to `loom_rt_variant_begin` and
    `loom_rt_variant_end`; in a function without a shard context it is the
    primary (`false`).

    `names`, when present, says what the two are, primary first, as
    loom-vmap's remarks name strategies; the runtime reports each shard's
    choice under these names (`loom-run --stats`).

    ```mlir
    %alt = loom.variant_begin {names = ["gang (width 32)",
                                        "gang with refill (width 32)"]}
    %r = scf.if %alt -> (tensor<?xf32>) { ... } else { ... }
    loom.variant_end %alt
    ```
  }];
  let arguments = (ins OptionalAttr<StrArrayAttr>:$names);
  let results = (outs I1:$alternative);
  let assemblyFormat = "attr-dict";
  let hasVerifier = 1;
}

def Loom_VariantEndOp : Loom_Op<"variant_end"> {
  let summary = "Ends the region a loom.variant_begin started";
  let description = [{
    Where the time of the variant `loom.variant_begin` chose stops counting.
    Its operand is that op's result, in the same block.
  }];
  let arguments = (ins I1:$alternative);
  let assemblyFormat = "$alternative attr-dict";
  let hasVerifier = 1;
}

#endif // LOOM_DIALECT_LOOM_IR_LOOMOPS_TD
