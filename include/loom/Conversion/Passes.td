//===- Passes.td - Loom conversion passes ------------------*- tablegen -*-===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//
//
// File organization: one section per conversion, in pipeline order. Every
// conversion is also a stage of a pipeline in lib/Pipelines: `loom-to-llvm`,
// or `loom-pipeline` for the loop counters.
//
//===----------------------------------------------------------------------===//

#ifndef LOOM_CONVERSION_PASSES_TD
#define LOOM_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

//===----------------------------------------------------------------------===//
// LoomToStandard
//===----------------------------------------------------------------------===//

def ConvertLoomToStandard : Pass<"convert-loom-to-standard", "ModuleOp"> {
  let summary = "Lower loom reductions and random numbers to upstream dialects";
  let description = [{
    Loom's ops exist so that vmap and sharding can recognise them; once those
    passes have run, each becomes upstream IR that bufferizes and lowers like
    any other:

    * `loom.any`/`all`/`sum`/`max`/`min` become `linalg.reduce` over the axis,
      which `convert-linalg-to-loops` turns into loops in increasing index
      order (the order that makes float sums independent of sharding);
    * `loom.random.*` become `arith` ops on 32-bit words calling one private
      `@__loom_threefry2x32` function per module, inside `tensor.generate`
      for tensor results. Being plain arith, they vectorize and can run on a
      GPU. `normal` calls a private `@__loom_erfinv_f32` that evaluates
      XLA's float32 `erfinv` polynomial (MLIR 19 has no `math.erfinv`).

    ```mlir
    %k = loom.random.key %seed : i32
    // becomes
    %c0 = arith.constant 0 : i32
    %k = tensor.from_elements %c0, %seed : tensor<2xi32>
    ```
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::func::FuncDialect",
    "::mlir::linalg::LinalgDialect", "::mlir::math::MathDialect",
    "::mlir::tensor::TensorDialect"
  ];
}

//===----------------------------------------------------------------------===//
// MeshToLoomRuntime
//===----------------------------------------------------------------------===//

def ConvertMeshToLoomRuntime : Pass<"convert-mesh-to-loom-runtime", "ModuleOp"> {
  let summary = "Lower mesh collectives to calls into Loom's runtime";
  let description = [{
    Each collective `loom-shard` inserted becomes a call to the C ABI of
    `include/loom/Runtime/ABI.h`, with the function's `loom.context`
    argument, so the same program runs on any mesh the runtime provides
    (CPU threads now; MPI ranks or GPUs later).

    * `mesh.all_reduce` of a small static tensor: one call per element.
      Predicates (`i1`) come back as 1, 0 or -1 when the mesh was aborted;
      the lowered IR reads only 1 as true, so a loop driven by the predicate
      ends when any shard fails, instead of waiting forever.
    * `loom.sum` of `mesh.all_gather(x)` along axis 0 (how `loom-shard`
      writes a float sum across shards): one call that adds every lane's
      value in global lane order.
    * `loom.variant_begin` and its `loom.variant_end`: calls of
      `loom_rt_variant_begin` and `loom_rt_variant_end` with the site's
      number (in module order); in a function without a shard context, the
      primary variant (`false`).

    ```mlir
    %g = mesh.all_reduce %t on @loom_mesh mesh_axes = [0]
        reduction = <bitwise_or> : tensor<1xi1> -> tensor<1xi1>
    // becomes
    %r = func.call @loom_rt_all_reduce_i1(%ctx, %c7, %v) : (i64, i32, i32) -> i32
    %b = arith.cmpi eq, %r, %c1 : i32
    ```
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::bufferization::BufferizationDialect",
    "::mlir::func::FuncDialect", "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect", "::mlir::tensor::TensorDialect"
  ];
}

//===----------------------------------------------------------------------===//
// LoopCountersToRuntime
//===----------------------------------------------------------------------===//

def LoomCountLoopIterations : Pass<"loom-count-loop-iterations", "ModuleOp"> {
  let summary = "Count each loop's iterations and active lanes per shard";
  let description = [{
    For `loom-run --stats`: every `scf.while` in a function that runs on a
    mesh calls `loom_rt_count_iteration(ctx, id, lanes)` once per iteration
    it executes, where `lanes` is the number of lanes doing useful work — the
    active lanes of a masked loop (`loom.any(mask)` decides it), one for any
    other loop (a per-lane loop runs one lane). The runtime keeps the counts
    per shard, so lane utilisation and the time every shard spends waiting
    for the slowest lane become numbers. Loop ids are numbered in walk
    order; the module's `loom.loops` attribute lists, per id, the loop's
    location and whether it is masked. Only run when counters are asked for:
    a masked loop pays one extra reduction per iteration.
  }];
}

//===----------------------------------------------------------------------===//
// LoomToGPU
//===----------------------------------------------------------------------===//

def LoomMarkLaneLoops : Pass<"loom-mark-lane-loops", "ModuleOp"> {
  let summary = "Mark the lane loops of per-lane loop nests, before bufferization";
  let description = [{
    `loom-vmap` runs a per-lane loop as an `scf.for` over lanes and records
    `#loom.strategy<per_lane>` on the `scf.while` inside; bufferization's
    canonicalizations rebuild that `scf.while` and drop the record. This pass,
    run on tensors right after `loom-pipeline`, marks each outermost `scf.for`
    that holds such a loop with `loom_gpu.lane_loop`, which
    `convert-lane-loops-to-gpu` reads after bufferization. A loop decided
    `masked` (pinned so in the program) is an error: the GPU backend runs
    divergent loops per lane, and after bufferization nothing would tell
    that loop from host code.
  }];
}

def LoomMergeGPUModules : Pass<"loom-merge-gpu-modules", "ModuleOp"> {
  let summary = "Put every outlined kernel into one gpu.module";
  let description = [{
    `gpu-kernel-outlining` makes one `gpu.module` per launch, each with its
    own copy of the functions the kernel calls. After it, this pass moves
    every kernel into the first module (dropping the second copies, which
    are clones of the same host functions) and retargets the
    `gpu.launch_func`s, so that a program is one PTX module: one `.ptx`
    file that ptxas takes, loaded once per device.
  }];
}

def LoomExactMathToLLVM : Pass<"loom-exact-math-to-llvm"> {
  let summary = "libdevice calls of exact math back to LLVM intrinsics";
  let description = [{
    Run on a `gpu.module` after `convert-gpu-to-nvvm`, which lowers
    `math.sqrt`, `absf`, `floor` and `ceil` to libdevice (and marks the LLVM
    intrinsics illegal). libdevice's `__nv_sqrtf` is `sqrt.approx.f32` unless
    told otherwise, so GPU results would differ from the CPU's. As LLVM
    intrinsics, NVPTX selects its correctly rounded instructions (`sqrt.rn`,
    `abs`, `cvt.rmi`, ...), and these ops need no libdevice, so kernels
    using only them compile without a CUDA toolkit too.

    Calls of `__nv_{sqrt,fabs,floor,ceil,trunc,round}[f]` become
    `llvm.intr.*`; other calls stay.

    ```mlir
    %r = llvm.call @__nv_sqrtf(%x) : (f32) -> f32
    // becomes
    %r = llvm.intr.sqrt(%x) : (f32) -> f32
    ```
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

def ConvertLaneLoopsToGPU : Pass<"convert-lane-loops-to-gpu", "ModuleOp"> {
  let summary = "Run each per-lane loop nest as one gpu.launch, a thread per lane";
  let description = [{
    The GPU backend's step on buffers (after `loom-bufferize`). Each lane
    loop (the `scf.for` over lanes that `loom-vmap` writes for a `per-lane`
    loop, marked `loom_gpu.lane_loop` by `loom-mark-lane-loops`) becomes one
    `gpu.launch`: a grid of
    ceildiv(n, block-size) blocks of block-size threads, thread `i` running
    lane `i` behind an `i < n` guard, with the whole scalar loop nest inside.
    The code around it stays on the host; a launch of no lanes is skipped.

    A kernel holds only what fits in registers or local memory:

    * a static buffer allocated outside the lane loop and used only inside it
      (scratch that `buffer-loop-hoisting` moved out) becomes a per-thread
      `memref.alloca`, since lanes would otherwise share it;
    * any other allocation or deallocation inside the loop, or in a function
      it calls, is an error naming the op, as is a call of a function with
      no body (the runtime's, say), a lane loop that carries a value from
      one lane to the next;
    * with `libdevice=0` (no CUDA toolkit to link libdevice from), a `math`
      op or `arith.remf` in a kernel is an error naming it: NVVM lowers them
      to libdevice calls (all but those `loom-exact-math-to-llvm` takes).

    ```mlir
    scf.for %i = %c0 to %n step %c1 { ...per-lane while... } {loom_gpu.lane_loop}
    // becomes
    scf.if %any {
      gpu.launch blocks(%bx, ...) in (%gx = %grid, ...)
                 threads(%tx, ...) in (%sx = %c128, ...) {
        %i = arith.addi (%bx * 128), %tx
        scf.if (%i < %n) { ...per-lane while... }
        gpu.terminator
      }
    }
    ```
  }];
  let options = [
    Option<"blockSize", "block-size", "int64_t", /*default=*/"128",
           "Threads per block">,
    Option<"libdevice", "libdevice", "bool", /*default=*/"true",
           "libdevice will be linked, so math ops may appear in kernels">,
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::gpu::GPUDialect",
    "::mlir::memref::MemRefDialect", "::mlir::scf::SCFDialect"
  ];
}

def ConvertGPULaunchesToLoomRuntime
    : Pass<"convert-gpu-launches-to-loom-runtime", "ModuleOp"> {
  let summary = "Kernel launches to calls of Loom's GPU runtime";
  let description = [{
    The GPU backend's host step, after `gpu-module-to-binary`. The PTX of
    each `gpu.binary` becomes an `llvm.mlir.global` constant
    `__loom_gpu_ptx_<name>` (NUL-terminated, as the driver wants it), which a
    library then embeds, and each host `gpu.launch_func` becomes a call of
    `loom_rt_gpu_launch(ctx, ptx, kernel, grid, block, count, layout, args)`:
    `layout` holds two i64 per kernel argument (the memref's rank, or -1 for
    a scalar; then the element's or the scalar's bytes) and `args` the
    values as the default calling convention explodes them, less the
    allocated pointer (the runtime passes its device buffer for both): a
    memref's aligned pointer, offset, sizes and strides, a scalar's bits.
    The runtime copies each memref to device memory and back around the
    launch. A launch needs the shard's context, so it must be in a sharded
    function; a grid or block that is not one-dimensional, async tokens, or
    an argument of another type is an error.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::func::FuncDialect",
    "::mlir::LLVM::LLVMDialect", "::mlir::memref::MemRefDialect"
  ];
}

#endif // LOOM_CONVERSION_PASSES_TD
