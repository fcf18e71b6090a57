// RUN: loom-opt %s -convert-loom-to-standard | FileCheck %s
// loom.any of a mask that one scf.for writes at every lane becomes an i32
// accumulator of that loop. The mask is the loop's second result here, so
// the fold must keep track of which result it is across the loop's
// replacement (it once read it from the erased loop: a use after free that
// picked a random result, and made masked loops stop early or never).

// CHECK-LABEL: func.func @second_result
// CHECK: %[[ZERO:.*]] = arith.constant 0 : i32
// CHECK: %[[FOR:.*]]:3 = scf.for %[[B:.*]] = %{{.*}} to %[[N:.*]] step %{{.*}} iter_args(%[[X:.*]] = %{{.*}}, %[[M:.*]] = %{{.*}}, %[[ACC:.*]] = %[[ZERO]]) -> (tensor<?xf32>, tensor<?xi1>, i32)
// CHECK:   %[[P:.*]] = arith.cmpf olt
// CHECK:   %[[X1:.*]] = tensor.insert %{{.*}} into %[[X]][%[[B]]]
// CHECK:   %[[M1:.*]] = tensor.insert %[[P]] into %[[M]][%[[B]]]
// CHECK:   %[[W:.*]] = arith.extui %[[P]] : i1 to i32
// CHECK:   %[[OR:.*]] = arith.ori %[[ACC]], %[[W]] : i32
// CHECK:   scf.yield %[[X1]], %[[M1]], %[[OR]]
// CHECK: %[[ANY:.*]] = arith.cmpi ne, %[[FOR]]#2, %[[ZERO]] : i32
// CHECK: return %[[FOR]]#0, %[[FOR]]#1, %[[ANY]]
func.func @second_result(%xs: tensor<?xf32>, %n: index)
    -> (tensor<?xf32>, tensor<?xi1>, i1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1.0 : f32
  %out = bufferization.alloc_tensor(%n) : tensor<?xf32>
  %mask = bufferization.alloc_tensor(%n) : tensor<?xi1>
  %r:2 = scf.for %b = %c0 to %n step %c1 iter_args(%x = %out, %m = %mask)
      -> (tensor<?xf32>, tensor<?xi1>) {
    %v = tensor.extract %xs[%b] : tensor<?xf32>
    %p = arith.cmpf olt, %v, %one : f32
    %w = arith.addf %v, %one : f32
    %x1 = tensor.insert %w into %x[%b] : tensor<?xf32>
    %m1 = tensor.insert %p into %m[%b] : tensor<?xi1>
    scf.yield %x1, %m1 : tensor<?xf32>, tensor<?xi1>
  }
  %a = loom.any %r#1 along 0 : tensor<?xi1> -> i1
  return %r#0, %r#1, %a : tensor<?xf32>, tensor<?xi1>, i1
}
