// The seed's MWE (a while-of-while whose predicates both differ per lane)
// under each strategy, and the remarks that explain them.
// RUN: loom-opt %examples/mwe/while_of_while.mlir -loom-vmap=divergent=masked -mlir-print-op-on-diagnostic=false 2>/dev/null | FileCheck %s --check-prefix=MASKED
// RUN: loom-opt %examples/mwe/while_of_while.mlir -loom-vmap=divergent=per-lane -mlir-print-op-on-diagnostic=false 2>/dev/null | FileCheck %s --check-prefix=PERLANE
// RUN: loom-opt %examples/mwe/while_of_while.mlir -loom-vmap -mlir-print-op-on-diagnostic=false -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARKS

// REMARKS: while_of_while.mlir:41:12: remark: loop is gang (width 32): predicate depends on carry #2, batched through argument #1 (key); cost model: masked {{[0-9]+}} {{[<>=]+}} per-lane {{[0-9]+}} (2 divergent levels, 64 lanes assumed, SIMD width 8, divergence {{[0-9.]+}} a level){{.*}}: gang is cheapest
// REMARKS: while_of_while.mlir:49:13: remark: loop is masked: it runs inside a gang of 32 lanes, on the gang's lanes

// Masked: two lock-step levels. count comes from the key lane by lane; the
// outer loop draws the inner loop's start lane by lane; the inner loop
// ANDs the outer mask into its predicate; the vector field is a batched call; t leaves
// the inner loop already right on finished outer lanes, so only y and count
// are selected at the outer level.
// MASKED-LABEL: func.func private @f_vmap_bbu(
// MASKED-SAME: tensor<?xf32> {{.*}}, %{{.*}}: tensor<?xf32> {{.*}}, %{{.*}}: f32) -> tensor<?xf32>
// MASKED: math.sin %{{.*}} : tensor<?xf32>
// MASKED-LABEL: func.func private @solve_vmap_bb(
// MASKED-SAME: %[[INIT:.*]]: tensor<?x1xf32> {bufferization.writable = false, loom.name = "init"}, %[[KEY:.*]]: tensor<?x2xi32> {bufferization.writable = false, loom.name = "key"}) -> (tensor<?x1xf32> {loom.name = "y"})
// MASKED: %[[B:.*]] = tensor.dim %[[INIT]], %c0
// MASKED: %[[COUNT0:.*]] = scf.for
// MASKED:   loom.random.randint %{{.*}}, %{{.*}}, %{{.*}} : i32
// MASKED: %[[M0:.*]] = bufferization.alloc_tensor(%[[B]]) : tensor<?xi1>
// MASKED: %[[OUT:.*]]:4 = scf.while (%{{.*}} = %{{.*}}, %{{.*}} = %[[INIT]], %{{.*}} = %[[COUNT0]], %{{.*}} = %[[M0]]) : (tensor<?xf32>, tensor<?x1xf32>, tensor<?xi32>, tensor<?xi1>)
// MASKED:   arith.cmpi slt, %{{.*}}, %{{.*}} : tensor<?xi32>
// MASKED:   %[[ANY:.*]] = loom.any %{{.*}} along 0 : tensor<?xi1> -> i1
// MASKED:   scf.condition(%[[ANY]])
// MASKED: ^bb0(%[[T:.*]]: tensor<?xf32>, %[[Y:.*]]: tensor<?x1xf32>, %[[COUNT:.*]]: tensor<?xi32>, %[[A:.*]]: tensor<?xi1>):
// MASKED:   scf.for
// MASKED:     loom.random.key %{{.*}} : i32
// MASKED:   %[[Y1:.*]] = scf.for
// MASKED:     loom.random.uniform %{{.*}}, %{{.*}}, %{{.*}} : tensor<1xf32>
// MASKED:   %[[M1:.*]] = bufferization.alloc_tensor(%[[B]]) : tensor<?xi1>
// MASKED:   %[[IN:.*]]:3 = scf.while (%{{.*}} = %[[T]], %{{.*}} = %[[Y1]], %{{.*}} = %[[M1]]) : (tensor<?xf32>, tensor<?x1xf32>, tensor<?xi1>)
// MASKED:     arith.cmpf olt, %{{.*}}, %{{.*}} : tensor<?xf32>
// MASKED:     tensor.extract %[[A]]
// MASKED:     arith.andi
// MASKED:     loom.any
// MASKED:     func.call @f_vmap_bbu(
// MASKED:     scf.yield
// MASKED:   %[[YS:.*]] = linalg.generic {{.*}} ins(%[[A]], %[[IN]]#1 : tensor<?xi1>, tensor<?x1xf32>) outs(%[[Y]] : tensor<?x1xf32>)
// MASKED:   %[[CS:.*]] = linalg.generic {{.*}} outs(%[[COUNT]] : tensor<?xi32>)
// MASKED:   scf.yield %[[IN]]#0, %[[YS]], %[[CS]], %[[A]]
// MASKED: return %[[OUT]]#1 : tensor<?x1xf32>
// MASKED-LABEL: func.func @main
// MASKED: call @solve_vmap_bb(%{{.*}}, %{{.*}}) : (tensor<?x1xf32>, tensor<?x2xi32>) -> tensor<?x1xf32>

// Per-lane: one loop over lanes around the scalar while-of-while, which
// calls the scalar vector field; y is read from and written into its own
// init, through a copy: a loop carry that starts as a view would bufferize
// with a fully dynamic layout.
// PERLANE-LABEL: func.func private @solve_vmap_bb(
// PERLANE-SAME: %[[INIT:.*]]: tensor<?x1xf32>
// PERLANE: %[[R:.*]]:3 = scf.for %[[L:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%{{.*}} = %{{.*}}, %[[ACCY:.*]] = %[[INIT]], %{{.*}} = %{{.*}}) -> (tensor<?xf32>, tensor<?x1xf32>, tensor<?xi32>) {
// PERLANE:   %[[YL:.*]] = tensor.extract_slice %[[ACCY]][%[[L]], 0] [1, 1] [1, 1] : tensor<?x1xf32> to tensor<1xf32>
// PERLANE:   %[[YC:.*]] = linalg.copy ins(%[[YL]] : tensor<1xf32>) outs(%{{.*}} : tensor<1xf32>)
// PERLANE:   %[[S:.*]]:3 = scf.while (%{{.*}} = %{{.*}}, %{{.*}} = %[[YC]], %{{.*}} = %{{.*}}) : (f32, tensor<1xf32>, i32) -> (f32, tensor<1xf32>, i32)
// PERLANE:     loom.random.uniform %{{.*}} : tensor<1xf32>
// PERLANE:     scf.while {{.*}} : (f32, tensor<1xf32>) -> (f32, tensor<1xf32>)
// PERLANE:       func.call @f(%{{.*}}, %{{.*}}, %{{.*}}) : (f32, f32, f32) -> f32
// PERLANE:   tensor.insert_slice %[[S]]#1 into %[[ACCY]][%[[L]], 0] [1, 1] [1, 1] : tensor<1xf32> into tensor<?x1xf32>
// PERLANE: return %[[R]]#1 : tensor<?x1xf32>
