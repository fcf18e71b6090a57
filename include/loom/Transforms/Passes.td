//===- Passes.td - Loom transforms on upstream IR ----------*- tablegen -*-===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//

#ifndef LOOM_TRANSFORMS_PASSES_TD
#define LOOM_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

//===----------------------------------------------------------------------===//
// Checks
//===----------------------------------------------------------------------===//

def LoomCheckStaticBounds : Pass<"loom-check-static-bounds"> {
  let summary = "Report constant indices and static slices out of bounds";
  let description = [{
    A `tensor.extract` or `tensor.insert` at a constant index past a static
    dimension, or a `tensor.extract_slice`, `tensor.insert_slice` or
    `tensor.parallel_insert_slice` whose static offset, size and stride
    reach outside it, is undefined behaviour: compiled, it reads or writes
    out of bounds at run time (a segfault, or silently wrong numbers).
    MLIR 19's verifiers do not check this, and patterns that trust the
    indices (picking an element of a `tensor.from_elements`) would read past
    the end at compile time. This pass reports each such op at its location,
    before anything is lowered: `loom-run`, the C++ API and `loom-bufferize`
    / `loom-to-llvm` run it first.

    An index is checked where it is a constant (`arith.constant` or any
    constant-like op, at any width: an `index` constant is 64-bit, so
    2^63 and above read as negative). A slice's last index
    `offset + (size - 1) * stride` is computed without overflow; a slice
    with a dynamic offset is still reported when its static size and stride
    cannot fit the dimension at any offset. Dynamic dimensions only rule out
    negative indices. An op that is never executed is reported too: the
    program means nothing that Loom could compile faithfully.

    ```mlir
    %c4 = arith.constant 4 : index
    %e = tensor.extract %t[%c4] : tensor<4xf32>
    // error: 'tensor.extract' op index 4 is out of bounds for dimension 0
    // of size 4
    ```
  }];
}

def LoomScalarizeSmallTensors : Pass<"loom-scalarize-small-tensors"> {
  let summary = "Carry and choose small static tensors as scalars";
  let description = [{
    A lane's state is often a tiny tensor: JAX's `y` of shape `(1,)`, a
    threefry key `tensor<2xi32>`. One-shot bufferization gives every new
    value of such a carry its own buffer, so a loop that builds one per
    iteration allocates per iteration (or fails: "Yield operand is not
    equivalent to the corresponding iter bbArg"). Carrying the elements as
    scalars instead lets canonicalization fold the `tensor.extract` of each
    `tensor.from_elements`, and the loop allocates nothing. For the same
    reason a static `tensor.extract_slice` of a `tensor.from_elements` (a key
    taken out of a split) becomes a `tensor.from_elements` of the picked
    elements, and an `arith.select` between two small tensors selects
    element by element. Run on a module, it also passes the small tensor
    arguments of private functions that only `func.call`s use as their
    elements (a key handed to a helper); `private-arguments=0` keeps
    their signatures, as `loom-pipeline` does before `loom-vmap`, whose
    remarks name arguments by number. Each loop it splits records, in
    `loom.source_carries`, the carry as written that each new one comes
    from.

    ```mlir
    scf.while (%y = %init) : (tensor<1xf32>) -> tensor<1xf32> { ... }
    // becomes
    %e = tensor.extract %init[%c0] : tensor<1xf32>
    scf.while (%y0 = %e) : (f32) -> f32 {
      %y = tensor.from_elements %y0 : tensor<1xf32>
      ...
    }
    ```
  }];
  let options = [
    Option<"maxElements", "max-elements", "int64_t", "4",
           "Largest tensor, in elements, carried as scalars">,
    Option<"privateArguments", "private-arguments", "bool", "true",
           "Also pass the small tensor arguments of private functions as "
           "their elements">
  ];
  let dependentDialects = ["::mlir::tensor::TensorDialect"];
}

def LoomCarryInPlace : Pass<"loom-carry-in-place"> {
  let summary = "Compute a loop carry's new value into its old one";
  let description = [{
    A loop whose batched carries are updated elementwise yields, after
    elementwise fusion, `linalg.generic`s that write into fresh
    `tensor.empty`s. One-shot bufferization then gives every iteration new
    buffers (and allocates and frees them per iteration, or copies into the
    carry). When the generic is elementwise with an identity map and the
    condition passes the carry through unchanged, this pass makes the old
    value of the carry the generic's `outs`, so bufferization updates the
    carry in place: reading a lane's old value and writing its new value in
    one elementwise op is no conflict. A generic is first moved after the
    ops of the same block that still read the old value, when nothing
    between needs its result; where that is not possible it is left alone.
    Runs on `scf.while` and `scf.for`.

    ```mlir
    ^bb0(%x: tensor<?xf32>):
      %e = tensor.empty(%n) : tensor<?xf32>
      %x1 = linalg.generic ... ins(%x : tensor<?xf32>) outs(%e : tensor<?xf32>)
      scf.yield %x1 : tensor<?xf32>
    // becomes
      %x1 = linalg.generic ... ins(%x : tensor<?xf32>) outs(%x : tensor<?xf32>)
    ```
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect"];
}

def LoomFillInBranches : Pass<"loom-fill-in-branches"> {
  let summary = "Give each branch of an scf.if its own copy of a fill it uses";
  let description = [{
    A `linalg.fill` of a `tensor.empty` above an `scf.if` whose branches
    both start from it (the batched initial values of a loop that
    `divergent=auto` compiled two ways, one in each branch) can be updated
    in place by one branch only: one-shot bufferization gives the other a
    buffer of its own besides, and ownership-based deallocation then clones
    what the first returns each time it runs, a copy of every output.
    Where every use of such a fill is inside `scf.if` branches, this pass
    fills a copy at the start of each branch that uses it and erases the
    one above, so that each branch writes into, and returns, a buffer of
    its own. A `tensor.empty` used only in branches (a destination no
    branch reads) is made anew in each the same way.

    ```mlir
    %e = tensor.empty(%n) : tensor<?xi32>
    %z = linalg.fill ins(%c0 : i32) outs(%e : tensor<?xi32>) -> tensor<?xi32>
    %r = scf.if %alt -> (tensor<?xi32>) { ... %z ... } else { ... %z ... }
    // becomes
    %r = scf.if %alt -> (tensor<?xi32>) {
      %e1 = tensor.empty(%n) : tensor<?xi32>
      %z1 = linalg.fill ins(%c0 : i32) outs(%e1 : tensor<?xi32>) -> tensor<?xi32>
      ... %z1 ...
    } else {
      %e2 = tensor.empty(%n) : tensor<?xi32>
      %z2 = linalg.fill ins(%c0 : i32) outs(%e2 : tensor<?xi32>) -> tensor<?xi32>
      ... %z2 ...
    }
    ```
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect"];
}

def LoomInlineBatchedCallees
    : Pass<"loom-inline-batched-callees", "ModuleOp"> {
  let summary = "Inline the functions loom-vmap batched at their calls";
  let description = [{
    A batched callee (marked `loom.batched` by `loom-vmap`) returns fresh
    batch-sized tensors: called in a loop, it allocates them on every
    iteration. Inlined, its buffers are the loop's, which
    `buffer-loop-hoisting` then allocates once. Scalar callees are left to
    LLVM, which inlines what pays: inlining them all here costs compile time
    (a fifth of the SDE solve's) for nothing. Callees left without calls
    are erased. Functions are visited callees first (the call graph's
    strongly connected components, bottom-up), so each is visited once; a
    batched function in a call cycle is an error.
  }];
}

def LoomCopySlicedCallOperands
    : Pass<"loom-copy-sliced-call-operands", "ModuleOp"> {
  let summary = "Pass a slice at a dynamic offset to a call as a tensor of "
                "its own";
  let description = [{
    With `function-boundary-type-conversion=identity-layout-map`, MLIR 19's
    one-shot bufferization passes a `tensor.extract_slice` at a dynamic
    offset to a callee as a `memref.cast` to the identity layout, which
    drops the offset: the callee reads the wrong elements. This pass copies
    such an operand into a tensor of its own (`linalg.copy` into
    `tensor.empty`) first. `loom-bufferize` runs it after inlining, so it
    only touches the calls that remain.

    ```mlir
    %s = tensor.extract_slice %t[%i] [4] [1] : tensor<?xf32> to tensor<4xf32>
    %r = func.call @f(%s) : (tensor<4xf32>) -> f32
    // becomes
    %e = tensor.empty() : tensor<4xf32>
    %c = linalg.copy ins(%s : tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
    %r = func.call @f(%c) : (tensor<4xf32>) -> f32
    ```
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect"];
}

def LoomLaneTensorsToVectors
    : Pass<"loom-lane-tensors-to-vectors", "ModuleOp"> {
  let summary = "Carry small static lane tensors as vector values";
  let description = [{
    A gang of `W` lanes (`loom-vmap`'s `divergent=gang`) computes on
    `tensor<W x T>` values. Bufferized, each is a `W`-element buffer and
    each op a loop over it, which LLVM must unroll or vectorize back into
    vector code. This pass carries every static 1-D tensor of 2 to 64
    integers, floats or indices as the vector of its shape instead, so that
    its ops reach LLVM as vector instructions, as ISPC compiles a gang.

    First, a loop over the lanes (`scf.for` from 0 to the lane count, step
    1) that is lanewise becomes its body's ops on lane tensors: each of its
    lane-tensor carries is read only at the loop's lane and written by one
    `tensor.insert` at it, each scalar carry is folded over the lanes by one
    combining op (a `linalg.reduce`, in lane order), and the rest of its
    body is elementwise ops, `tensor.extract`s at the lane of lane tensors
    from outside, and calls of functions whose bodies are one block of
    elementwise ops on scalars, which call a copy of the function on lane
    tensors (`<name>_lanes`, kept out of line). Then one dialect conversion
    turns the lane tensors into vectors, lane for lane the same: elementwise
    `arith` and `math` ops (a libm function on a vector calls
    `loom-libm-to-arith`'s vector variants, or the scalar function once per
    lane, as a loop would); constants; `tensor.empty` and
    `bufferization.alloc_tensor` (zeros: nothing reads them); `linalg.fill`
    and `tensor.splat` (a broadcast); `tensor.from_elements`;
    `tensor.extract` and `tensor.insert` at a constant lane; `linalg.copy`;
    a `linalg.generic` over the lanes whose body is elementwise ops; a
    `linalg.reduce` of the lanes by one op (a `vector.reduction`);
    `scf.for`, `scf.if` and `scf.while` carrying such values; and private
    functions taking or returning them, when every use is a call. Every
    other op keeps its tensors: the vector is written into a fresh tensor
    before it and read back after it (a mask as bytes: LLVM packs a vector
    of `i1` into bits in memory). So is the innermost `scf.for` around a
    lane read or written at a dynamic position (a loop over lanes that is
    not lanewise, a gang's refill), whole: on a vector each such lane would
    move the whole vector through the stack.

    ```mlir
    %e = tensor.empty() : tensor<32xf32>
    %b = linalg.fill ins(%s : f32) outs(%e : tensor<32xf32>) -> tensor<32xf32>
    %r = arith.addf %a, %b : tensor<32xf32>
    // becomes
    %b = vector.broadcast %s : f32 to vector<32xf32>
    %r = arith.addf %a, %b : vector<32xf32>
    ```

    `loom-bufferize` runs it before `convert-elementwise-to-linalg` with
    `lane-vectors=1` (`CompileOptions::laneVectors`, `--lane-vectors`). It
    is off by default: docs/vmap.md has what it gains and costs.
  }];
  let dependentDialects = ["::mlir::vector::VectorDialect",
                           "::mlir::tensor::TensorDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::arith::ArithDialect"];
}

def LoomWidenBoolBuffers : Pass<"loom-widen-bool-buffers"> {
  let summary = "Store a buffer of i1 as bytes, read and written by scalar "
                "loads and stores";
  let description = [{
    LLVM's loop vectorizer does not widen a load or store of `i1` (its size
    in bits is not its size in memory): a loop over lanes that reads a lane
    mask from memory, as a masked loop's entry mask or its carry selects do,
    then loads it byte by byte and inserts each bit into a vector. This pass
    gives every `i1` buffer allocated in the function whose only users are
    `memref.load`, `memref.store`, `memref.dim` and `memref.dealloc` the
    element type `i8` (the same bytes: LLVM stores an `i1` as a byte), with
    `arith.extui` before each store and `arith.trunci` after each load,
    which vectorize. `loom-to-llvm` runs it after `convert-linalg-to-loops`;
    buffers with other users are left as they are.

    ```mlir
    %m = memref.alloc(%n) : memref<?xi1>
    memref.store %bit, %m[%i] : memref<?xi1>
    // becomes
    %m = memref.alloc(%n) : memref<?xi8>
    %byte = arith.extui %bit : i1 to i8
    memref.store %byte, %m[%i] : memref<?xi8>
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

def LoomFuseLaneLoops : Pass<"loom-fuse-lane-loops"> {
  let summary = "Fuse adjacent loops over the same lanes into one";
  let description = [{
    In the sweeps form of a masked loop (docs/vmap.md) every batched op on
    the lane buffers is its own `linalg.generic`, so after
    `convert-linalg-to-loops` its own loop over the lanes: the seed SDE's
    masked `@main` has some 90 of them, each of which LLVM vectorizes with
    its own scalar remainder loop (and run-time overlap checks, where
    LLVM cannot tell its buffers apart), which is most of its
    compile time. This pass merges each run of adjacent sibling `scf.for`
    loops with the same lower bound, upper bound and step (the same SSA
    value, the same constant, or equal by `ValueBoundsOpInterface`) into
    one loop, with MLIR's `fuseIndependentSiblingForLoops`: the first's
    body, then the second's, in each iteration. `loom-to-llvm` runs it once
    linalg is loops and `loom-libm-to-arith` has chosen the sines it
    rewrites (which depends on where the loops are).

    Legality. Fused, the loops run A(0) B(0) A(1) B(1) ... where they ran
    A(0) ... A(n-1) B(0) ... B(n-1): B(i) moves before A(j) for every
    i < j, and nothing else changes order. That is the same program unless
    some access of B(i) and some access of A(j) touch the same element and
    one of them writes. A pair of loops is fused only when that is proved
    impossible, conservatively:
    - every op of both bodies is a `memref.load`, a `memref.store`, an op
      with no memory effects at all, with no region (no nested loop or
      branch), or a call of a function that reads and writes no memory: a
      `func.func` whose body holds only ops with no memory effects and
      such calls (loom-vector-variants' `_lanewise` copies, a program's
      scalar helpers), or an `llvm.func` declared with no memory effects
      (loom-libm-to-arith's `sinf`). Any other call's effects are unknown;
    - every index of every access is the induction variable or loop
      invariant, and every access's buffer is traced through
      `memref.subview` and `memref.cast` (whose operands are also the
      induction variable or invariant) to its root and to the root's
      dimension whose index is exactly the induction variable, its row: a
      view's row index `i` is the root's where the subview's offset there
      is 0 and its stride 1, and a subview at offset `i` of size 1 makes
      that dimension the row. In iteration j an access with a row touches
      only elements of row j of its root;
    - two accesses (one writing) to the same root both have a row, the
      same dimension, and the root has the identity layout: iteration i
      and iteration j != i then touch different elements, since an
      identity layout maps different indices to different addresses;
    - two accesses (one writing) to different roots are independent only
      where one root is a `memref.alloc` or `memref.alloca` and the other
      is another allocation or an argument of the function: a fresh
      allocation aliases nothing it is not a view of. Two different views
      may alias even where each is indexed at `i`: a subview at offset 1 of
      a buffer `m` has its element `i` at `m[i + 1]`, which is A(i + 1)'s
      and B(i)'s at once; so two arguments, or a root that is a block
      argument or an op's result (which may be any buffer, an allocation
      too), are taken to alias, and such a pair is not fused;
    - the loops carry nothing but integers (an `i32` OR of the lane masks;
      a float carried in order is not vectorized), and the first loop's
      results are used only after the second: the fused loop takes the
      second's place;
    - only memory-effect-free ops lie between the two loops (they stay
      where they are, before the fused loop; the first loop's body moves
      past them, which it does not read).
    Two further rules keep calls as fast as they were and the compile
    short: a loop that LLVM's loop vectorizer cannot widen (a math op that
    becomes a libm call, a call of a function with no vector variants) is
    fused only with another such loop, and one it can (a call of a
    function with `vector-function-abi-variant`s included) only with
    another it can; and a fused loop touches at most as many buffers as
    need 16 pairs (one of them written) checked for overlap at run time,
    where LLVM cannot tell them apart: it versions each vectorized loop on
    such checks, and gives up on a loop that needs too many. Two
    allocations need no check (the CPU lowering allocates with
    `aligned_alloc`, which LLVM knows aliases nothing else); an argument
    next to another buffer does, and a buffer that may be any (a loop's
    block argument) makes every pair count, since LLVM checks all pairs
    of the alias set it joins. A gang's W-lane loops (a constant trip count) are fused too:
    LLVM then vectorizes a fused body rather than fully unrolling each loop
    and widening the copies with the SLP vectorizer, which compiles the
    seed SDE's and ODE's gangs 19-26% faster, for calls up to 3% slower
    (docs/vmap.md).

    ```mlir
    scf.for %i = %c0 to %n step %c1 {
      %x = memref.load %a[%i] : memref<?xf32>
      %y = arith.mulf %x, %x : f32
      memref.store %y, %b[%i] : memref<?xf32>
    }
    scf.for %i = %c0 to %n step %c1 {
      %y = memref.load %b[%i] : memref<?xf32>
      %z = arith.addf %y, %y : f32
      memref.store %z, %c[%i] : memref<?xf32>
    }
    // becomes, where %b and %c are allocations
    scf.for %i = %c0 to %n step %c1 {
      %x = memref.load %a[%i] : memref<?xf32>
      %y = arith.mulf %x, %x : f32
      memref.store %y, %b[%i] : memref<?xf32>
      %y2 = memref.load %b[%i] : memref<?xf32>
      %z = arith.addf %y2, %y2 : f32
      memref.store %z, %c[%i] : memref<?xf32>
    }
    ```
  }];
  let dependentDialects = ["::mlir::scf::SCFDialect"];
}

def LoomLowerStridedCopies : Pass<"loom-lower-strided-copies"> {
  let summary = "Turn every memref.copy that is not a memcpy into a "
                "linalg.copy";
  let description = [{
    `finalize-memref-to-llvm` lowers a `memref.copy` to the `llvm.memcpy`
    intrinsic only when it can prove both sides contiguous: an identity
    layout, or a static, non-empty shape with row-major strides. Any other
    copy (a strided or dynamic-offset view, as bufferization makes for a
    `tensor.insert_slice` into a loop carry) becomes a call of `memrefCopy`
    from MLIR's C runner utils, which Loom's JIT does not provide and which
    an ahead-of-time library must not depend on. This pass rewrites exactly
    those copies into `linalg.copy`, which `convert-linalg-to-loops` turns
    into loops; copies that become memcpy are left alone. `loom-to-llvm`
    runs it after the last stage that can make a copy.

    ```mlir
    memref.copy %a, %b : memref<4xf32> to memref<4xf32, strided<[2]>>
    // becomes
    linalg.copy ins(%a : memref<4xf32>) outs(%b : memref<4xf32, strided<[2]>>)
    ```
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect"];
}

def LoomAllowFPContraction : Pass<"loom-allow-fp-contraction"> {
  let summary = "Let LLVM fuse a*b+c into a fused multiply-add";
  let description = [{
    Loom compiles without floating-point contraction by default, so the
    masked, per-lane and sharded forms of a program compute the same bits,
    and agree with JAX (XLA does not contract on CPU by default). This pass,
    run by `loom-to-llvm{fp-contraction=1}`, marks every `arith` float op
    with the `contract` fast-math flag, which LLVM honours per instruction
    when the target has FMA.
  }];
  let constructor = "::mlir::loom::createLoomAllowFPContraction()";
}

def LoomLibmToArith : Pass<"loom-libm-to-arith", "ModuleOp"> {
  let summary = "Give sinf and log1pf vector variants that compute glibc's "
                "bits in arithmetic";
  let description = [{
    A call to libm cannot be vectorized: a loop over lanes that calls
    `sinf` would make one call per lane however wide the loop is. This pass
    replaces `math.sin` and `math.log1p` on `f32` in the module's functions
    with calls of the C library's `sinf` and `log1pf`, declared with vector
    variants in LLVM's vector function ABI (the `vector-function-abi-variant`
    attribute): functions on 4 and 8 lanes that compute the algorithms
    of glibc's own functions, operation for operation as glibc 2.36's
    x86-64 machine code performs them:
    - `sinf` (2.28 and later, from Arm's optimized-routines; the variant
      glibc's ifunc picks where FMA and AVX2 are usable): the argument in
      double precision, Cody-Waite reduction by pi/2 below 120 and the 4/pi
      bit table above it, then the degree-7 sine or degree-8 cosine
      polynomial (one shape, so each lane evaluates its own on operands
      selected by quadrant), with the same fused multiply-adds
      (`llvm.intr.fma`); glibc's branches between its cases are selects,
      except that the reduction above 120 runs only when a lane needs it;
    - `log1pf` (fdlibm's, in float arithmetic, no contraction): 1 + x as
      2^k (1 + f) with its rounding error, then log(1 + f) from
      s = f / (2 + f) by a degree-7 polynomial in s^2, every branch a
      select, except that its rare cases (x <= -1, infinities and NaNs,
      tiny x) run only when a lane has one.

    Where LLVM's loop or SLP vectorizer widens a call, it calls the variant
    of its width; scalar code (a loop it leaves scalar, a vectorized loop's
    remainder) calls glibc, whose branches skip the cases that do not
    apply. Each variant is compiled once, however many loops call it.

    The results are glibc's to the bit for every one of the 2^32 inputs
    (`LibmToArithTest` checks them all against the C library it runs
    with), NaN payloads and signed zeros included. What differs is what no
    caller of Loom observes: the variants do not set `errno` (an infinite
    `sin`, a `log1p` at or below -1), and the declarations say the calls
    access no memory, so that they vectorize.

    Only valid where the program then runs with glibc on a CPU with FMA and
    AVX2, since elsewhere glibc computes other bits; `loom-to-llvm`'s
    `libm-to-arith` option adds it, which Loom's CPU backend sets for such
    targets. A module that already has a symbol named `sinf` or `log1pf`
    keeps that function's ops for `convert-math-to-libm`. The same ops on
    `vector<4xf32>` or `vector<8xf32>` (in `loom-vector-variants`' variants)
    call the variant of that width directly.

    ```mlir
    %y = math.sin %x : f32
    // becomes
    %y = llvm.call @sinf(%x) : (f32) -> f32
    llvm.func @sinf(f32) -> f32 attributes {memory = ..., no_unwind,
        passthrough = [["vector-function-abi-variant",
         "_ZGV_LLVM_N4v_sinf(__loom_sinf_v4),_ZGV_LLVM_N8v_sinf(...)"]]}
    func.func private @__loom_sinf_v8(%x: vector<8xf32>) -> vector<8xf32>
    // bitcasts, integer and double-precision arithmetic, llvm.intr.fma,
    // selects between glibc's cases, and an scf.if around the large
    // reduction on vector.reduction <or>
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::func::FuncDialect",
                           "::mlir::LLVM::LLVMDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::vector::VectorDialect"];
}

def LoomVectorVariants : Pass<"loom-vector-variants", "ModuleOp"> {
  let summary = "Keep large elementwise callees of lane loops out of line, "
                "with vector variants";
  let description = [{
    LLVM inlines a function into every loop that calls it before it
    vectorizes the loop, and each vectorized loop keeps a scalar copy for
    its remainder: a helper that k loops over lanes call is compiled 2k
    times. The seed SDE's masked `@main` calls the 20-round threefry block
    function (some 90 ops) from 9 lane loops and XLA's `erfinv` from 4,
    about a third of the code LLVM compiles for it.

    This pass gives such a callee one out-of-line scalar copy, marked
    `noinline`, and variants on 4, 8 and 16 lanes, declared to LLVM as its
    vector variants (the `vector-function-abi-variant` attribute, as
    `loom-libm-to-arith` declares glibc's): the loop vectorizer calls the
    variant of its width, the remainder the scalar copy, and each is
    compiled once. Loom's CPU pipeline vectorizes a loop that calls a
    16-lane variant at 16 lanes, so that each call computes two independent
    8-lane vectors: out of line, one 8-lane chain of dependent ops (the
    threefry rounds) would run alone, where inlined the scheduler
    interleaved a loop's several calls. The calls from lane loops (as `loom-libm-to-arith` finds
    them) are redirected to the copy; other calls keep the original, which
    LLVM inlines.

    A callee qualifies when a lane loop calls it and it has at least two
    calls in all (one call site's inlined copy costs no more; with two, LLVM
    inlines a large callee at neither, and a lane loop that calls the
    scalar function stays scalar: a random walk's timed variants, per-lane
    beside refill, ran the refill 2.5x slower than alone), and its body is
    one block of at least 32 elementwise-mappable ops on scalars besides
    constants (fewer cost less inlined than a call, and fold with their
    caller's constants).
    Its variants are the same ops on vectors, so every lane computes the
    bits the scalar body does. LLVM 19's vectorizers widen no call that
    returns a struct, so a callee with several results whose bits fit in
    64 returns them packed into one integer (threefry's two words as an
    i64), which each call site unpacks; a callee whose results do not fit
    is left alone.

    ```mlir
    scf.for %i = %c0 to %n step %c1 {
      %y:2 = func.call @__loom_threefry2x32(%k0, %k1, %c0_i32, %c1_i32)
          : (i32, i32, i32, i32) -> (i32, i32)
    // becomes
      %p = func.call @__loom_threefry2x32_lanewise(%k0, %k1, %c0_i32, %c1_i32)
          : (i32, i32, i32, i32) -> i64
      %y0 = arith.trunci %p : i64 to i32
      %y1 = arith.trunci (arith.shrui %p, 32) : i64 to i32
    func.func private @__loom_threefry2x32_lanewise(...) -> i64 attributes
        {passthrough = ["noinline", ["vector-function-abi-variant",
         "_ZGV_LLVM_N4vvvv___loom_threefry2x32_lanewise(...v4),..."]]}
    func.func private @__loom_threefry2x32_v16(vector<16xi32>, ...)
        -> vector<16xi64>
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::func::FuncDialect"];
}

def LoomExpandIntegerDivision : Pass<"loom-expand-integer-division"> {
  let summary = "Expand ceil/floor integer division into ops LLVM has";
  let description = [{
    `convert-arith-to-llvm` has no lowering for `arith.ceildivsi`,
    `arith.ceildivui` and `arith.floordivsi`, so a program using them could
    not be compiled at all. Upstream's `arith-expand` rewrites them, but in
    MLIR 19 it also rewrites `maximumf`/`minimumf`/`maxnumf`/`minnumf` into
    compare-and-select, which gives `maximumf(+0, -0) = -0` where LLVM's
    `llvm.maximum` (what they lower to otherwise) gives +0. This pass applies
    only upstream's ceil/floor division patterns
    (`arith::populateCeilFloorDivExpandOpsPatterns`). It runs once linalg is
    loops: the expansion builds dense constants, which a dynamic tensor
    cannot hold. The divisor of an op that could run on an inactive lane was
    made safe by loom-vmap before (a trap guard on the original op), and the
    expansion divides only by that divisor.

    ```mlir
    %q = arith.floordivsi %a, %b : i32
    // becomes divsi, cmpi, select and friends: q = a / b, less one when the
    // signs differ and the division is inexact
    ```
  }];
}

def LoomBitCountsToLLVM : Pass<"loom-bit-counts-to-llvm"> {
  let summary = "Lower math.ctlz, math.cttz and math.ctpop to LLVM intrinsics";
  let description = [{
    `convert-math-to-libm` in MLIR 19 marks every math op illegal, those on
    integers too, and has no C library call for the bit counts, so a program
    using `math.ctlz`, `math.cttz` or `math.ctpop` failed to compile. This
    pass lowers only those three, with `convert-math-to-llvm`'s own
    patterns, and runs before `convert-math-to-libm`; every other math op is
    left as it is. loom-vmap's gangs with refill visit the slots whose lanes
    leave by the set bits of a mask (`math.ctpop`, `math.cttz`).

    ```mlir
    %n = math.ctpop %bits : i64
    // becomes
    %n = "llvm.intr.ctpop"(%bits) : (i64) -> i64
    ```
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

def LoomSplitLaneTensors : Pass<"loom-split-lane-tensors"> {
  let summary = "Keep batches of small per-lane tensors as one lane vector per element";
  let description = [{
    A lane's small tensor (a PRNG key's two words, an ODE's three-component
    state) is, once batched, a `tensor<N x S>` whose elements of one lane
    lie together, so that each element of every lane, which is what
    vectorized code reads, is strided. loom-scalarize-small-tensors already
    carries such tensors through loops as scalars, that is, once batched,
    as one lane vector (`tensor<N>`) per element; around the carries,
    batching interleaves those vectors into a batch with `insert_slice`s
    wherever an op takes the whole tensor, and takes them out again as
    columns after. Bufferized, every interleaving is a strided copy of the
    batch, every column a strided view, on every trip. This pass keeps the
    elements apart instead, for `S` static of 2 to 16 elements:

    - A `tensor.extract` reads through slices: from an `extract_slice`, the
      sliced tensor (offsets plus the index times the strides, dropped
      dimensions at 0); from an `insert_slice` of unit strides, the
      inserted tensor where the index lies inside the inserted range in
      every dimension, the destination where it lies outside it in one (an
      index that is not a constant is inside only where the range covers
      the whole dimension).
    - An `extract_slice` of an `insert_slice` (unit strides) is the inserted
      tensor where both cover the same region, a slice of the destination
      where their constant ranges do not overlap in some dimension;
      consecutive slices are merged (upstream's patterns).
    - A lane loop's batch is split: an `scf.for` from 0 to N, step 1, whose
      `tensor<N x S>` iter_arg is only the destination of the lane's
      `tensor<S>` inserted at `[%lane, 0, ...]` and yielded (how an op with
      no batched form, a `loom.random` op, runs lane by lane), and whose
      result is only read element by element (`tensor.extract`, columns
      `[0, i, ...] [N, 1, ...]` rank-reduced to `tensor<N>`, or slices read
      so, with constant indices but in the lanes' dimension), inserts each
      element into its own `tensor<N>` instead.
    - An elementwise op (`ElementwiseMappable`: arith, math) on such
      batches runs once per element vector where every operand's vectors
      are known: inserted by `insert_slice`s (one operand at least), a
      `linalg.broadcast` of one lane's tensor, or a splat constant.

    The two splits rebuild the batch from the vectors after them, for their
    readers to read through by the folds; it dies where nothing reads it
    whole.

    ```mlir
    %s0 = tensor.insert_slice %w0 into %e[0, 0] [32, 1] [1, 1]
        : tensor<32xi32> into tensor<32x2xi32>
    %s1 = tensor.insert_slice %w1 into %s0[0, 1] [32, 1] [1, 1]
        : tensor<32xi32> into tensor<32x2xi32>
    %key = tensor.extract_slice %s1[%lane, 0] [1, 2] [1, 1]
        : tensor<32x2xi32> to tensor<2xi32>
    %hi = tensor.extract %key[%c1] : tensor<2xi32>
    // becomes
    %hi = tensor.extract %w1[%lane] : tensor<32xi32>
    ```
  }];
  let dependentDialects = ["::mlir::affine::AffineDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect"];
}

def LoomPadAlignedAllocSizes : Pass<"loom-pad-aligned-alloc-sizes"> {
  let summary = "Round each aligned_alloc size up to a multiple of its alignment";
  let description = [{
    C11 asks that `aligned_alloc`'s size be a multiple of its alignment, and
    AddressSanitizer aborts where it is not. `finalize-memref-to-llvm` (with
    `use-aligned-alloc`) pads only the sizes it does not believe to be
    multiples already, and in MLIR 19 it believes that of a memref with a
    zero dimension, whose buffer it still sizes as one element: a
    `memref<0xindex>` (`bufferization-lower-deallocations` makes them)
    becomes `aligned_alloc(16, 8)`. This pass, run after it, pads the size
    of every `llvm.call @aligned_alloc`; LLVM folds the padding where the
    size was already a multiple.

    ```mlir
    %p = llvm.call @aligned_alloc(%a, %n) : (i64, i64) -> !llvm.ptr
    // becomes
    %bumped = llvm.add %n, (%a - 1)
    %p = llvm.call @aligned_alloc(%a, %bumped - %bumped urem %a)
    ```
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

#endif // LOOM_TRANSFORMS_PASSES_TD
