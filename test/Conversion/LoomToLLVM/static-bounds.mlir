// RUN: loom-opt %s -loom-to-llvm -split-input-file -verify-diagnostics
// RUN: loom-opt %s -loom-bufferize -split-input-file -verify-diagnostics

// An out-of-bounds static slice of a split key (the fuzzed SDE's stride
// INT32_MIN) is reported before loom-scalarize-small-tensors, which read
// past the split's elements and crashed on it.
func.func @f(%k: tensor<2xi32>) -> tensor<2xi32> {
  %split = loom.random.split %k : tensor<3x2xi32>
  // expected-error @+1 {{'tensor.extract_slice' op slice's last index 0 + (2 - 1) * -2147483648 = -2147483648 is out of bounds for dimension 1 of size 2}}
  %s = tensor.extract_slice %split[1, 0] [1, 2] [1, -2147483648] : tensor<3x2xi32> to tensor<2xi32>
  return %s : tensor<2xi32>
}

// -----

// A row past the end of a from_elements.
func.func @f(%a: i32, %b: i32) -> tensor<2xi32> {
  %t = tensor.from_elements %a, %b, %a, %b, %a, %b : tensor<3x2xi32>
  // expected-error @+1 {{'tensor.extract_slice' op slice offset 5 is out of bounds for dimension 0 of size 3}}
  %s = tensor.extract_slice %t[5, 0] [1, 2] [1, 1] : tensor<3x2xi32> to tensor<2xi32>
  return %s : tensor<2xi32>
}
