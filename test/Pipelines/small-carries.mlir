// loom-pipeline carries small static tensors (a key, JAX's `y` of shape
// (1,)) as scalars before loom-vmap, so a loop with one gets the one-pass
// masked form: one loop over the lanes per trip, carries updated in place.
// Its remarks still count carries as written.
//
// RUN: loom-opt %s --loom-pipeline="divergent=masked shards=1" 2>&1 | FileCheck %s
// RUN: loom-opt %s -loom-annotate-batch-axes -loom-vmap=divergent=masked 2>&1 | FileCheck %s --check-prefix=SWEEPS

// CHECK: remark: loop is masked: predicate depends on carry #1 (initially n), batched through argument #1 (n)
// CHECK: scf.while {{.*}} : (tensor<?xi32>, tensor<?xi32>, tensor<?xi32>) ->
// CHECK: scf.for {{.*}} -> (tensor<?xi32>, tensor<?xi32>, tensor<?xi32>, tensor<?xi1>)
// CHECK-COUNT-4: tensor.insert
// CHECK: loom.any
// CHECK: } attributes {loom.strategy = #loom.strategy<masked>}

// Without the scalars, the key keeps the loop in sweeps over batched
// tensors, one per op.
// SWEEPS: remark: loop is masked: predicate depends on carry #1
// SWEEPS: scf.while {{.*}} : (tensor<?x2xi32>, tensor<?xi32>, tensor<?xi1>) ->

func.func @walk(%k: tensor<2xi32>, %n: i32 {loom.name = "n"}) -> i32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1 : i32
  %ten = arith.constant 10 : i32
  %r:2 = scf.while (%key = %k, %i = %n) : (tensor<2xi32>, i32) -> (tensor<2xi32>, i32) {
    %go = arith.cmpi slt, %i, %ten : i32
    scf.condition(%go) %key, %i : tensor<2xi32>, i32
  } do {
  ^bb0(%key: tensor<2xi32>, %i: i32):
    %a = tensor.extract %key[%c0] : tensor<2xi32>
    %b = tensor.extract %key[%c1] : tensor<2xi32>
    %s = arith.addi %a, %b : i32
    %next = tensor.from_elements %b, %s : tensor<2xi32>
    %i2 = arith.addi %i, %one : i32
    scf.yield %next, %i2 : tensor<2xi32>, i32
  }
  %x = tensor.extract %r#0[%c0] : tensor<2xi32>
  return %x : i32
}

func.func @main(%ks: tensor<?x2xi32>, %ns: tensor<?xi32>) -> tensor<?xi32> {
  %r = loom.vmap @walk(%ks, %ns) in_axes [0, 0] out_axes [0]
      : (tensor<?x2xi32>, tensor<?xi32>) -> tensor<?xi32>
  return %r : tensor<?xi32>
}
