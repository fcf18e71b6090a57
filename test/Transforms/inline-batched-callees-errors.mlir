// RUN: loom-opt %s -split-input-file -loom-inline-batched-callees -verify-diagnostics

// A batched function that calls itself could never be inlined away (it used
// to be inlined into itself for 64 rounds, then left as a call).
// expected-error @below {{cannot inline the batched function @self: it is part of a call cycle}}
func.func private @self(%x: tensor<?xf32>) -> tensor<?xf32> attributes {loom.batched} {
  %y = func.call @self(%x) : (tensor<?xf32>) -> tensor<?xf32>
  return %y : tensor<?xf32>
}
func.func @main(%x: tensor<?xf32>) -> tensor<?xf32> {
  %r = func.call @self(%x) : (tensor<?xf32>) -> tensor<?xf32>
  return %r : tensor<?xf32>
}

// -----

// Two batched functions calling each other: the error is on the first.
// expected-error @below {{it is part of a call cycle}}
func.func private @ping(%x: tensor<?xf32>) -> tensor<?xf32> attributes {loom.batched} {
  %y = func.call @pong(%x) : (tensor<?xf32>) -> tensor<?xf32>
  return %y : tensor<?xf32>
}
func.func private @pong(%x: tensor<?xf32>) -> tensor<?xf32> attributes {loom.batched} {
  %y = func.call @ping(%x) : (tensor<?xf32>) -> tensor<?xf32>
  return %y : tensor<?xf32>
}
func.func @main(%x: tensor<?xf32>) -> tensor<?xf32> {
  %r = func.call @ping(%x) : (tensor<?xf32>) -> tensor<?xf32>
  return %r : tensor<?xf32>
}
