// RUN: loom-opt %s -loom-copy-sliced-call-operands | FileCheck %s

// A slice at a dynamic offset reaches the callee as a copy of its own; a
// slice at a static offset, and any other operand, as it is.
// CHECK-LABEL: func.func @caller
// CHECK-SAME: (%[[T:.*]]: tensor<?xf32>, %[[O:.*]]: index)
// CHECK: %[[S:.*]] = tensor.extract_slice %[[T]][%[[O]]] [4] [1]
// CHECK: %[[FIXED:.*]] = tensor.extract_slice %[[T]][2] [4] [1]
// CHECK: %[[E:.*]] = tensor.empty() : tensor<4xf32>
// CHECK: %[[C:.*]] = linalg.copy ins(%[[S]] : tensor<4xf32>) outs(%[[E]] : tensor<4xf32>)
// CHECK: call @callee(%[[C]], %[[FIXED]], %[[T]])
func.func private @callee(tensor<4xf32>, tensor<4xf32>, tensor<?xf32>) -> f32

func.func @caller(%t: tensor<?xf32>, %o: index) -> f32 {
  %s = tensor.extract_slice %t[%o] [4] [1] : tensor<?xf32> to tensor<4xf32>
  %fixed = tensor.extract_slice %t[2] [4] [1] : tensor<?xf32> to tensor<4xf32>
  %r = func.call @callee(%s, %fixed, %t)
      : (tensor<4xf32>, tensor<4xf32>, tensor<?xf32>) -> f32
  return %r : f32
}
