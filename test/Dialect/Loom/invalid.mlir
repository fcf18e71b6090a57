// RUN: loom-opt %s -split-input-file -verify-diagnostics -allow-unregistered-dialect

// A loom.vmap stands for a call: outside any function nothing runs it (and
// loom-vmap used to leave a func.call at module level, exit 0).
func.func private @g(f32) -> f32
%a = "test.source"() : () -> tensor<4xf32>
// expected-error @+1 {{'loom.vmap' op must be inside a func.func: it stands for a call, and only a function body runs}}
%b = loom.vmap @g(%a) in_axes [0] out_axes [0] : (tensor<4xf32>) -> tensor<4xf32>

// -----

// Operand count and in_axes must line up before anything else is checked.
func.func private @f(f32) -> f32
func.func @in_axes_count(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'loom.vmap' op in_axes has 2 entries but there are 1 operands}}
  %y = "loom.vmap"(%x) {callee = @f, in_axes = array<i64: 0, 0>, out_axes = array<i64: 0>} : (tensor<4xf32>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}

// -----

// Result count and out_axes must line up.
func.func private @f(f32) -> f32
func.func @out_axes_count(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'loom.vmap' op out_axes has 0 entries but there are 1 results}}
  %y = "loom.vmap"(%x) {callee = @f, in_axes = array<i64: 0>, out_axes = array<i64>} : (tensor<4xf32>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}

// -----

// The bug report's favourite: in_axes written for a different signature.
func.func private @solve(tensor<1xf32>, tensor<2xi32>, f32) -> tensor<1xf32>
func.func @wrong_arity(%x: tensor<4x1xf32>, %k: tensor<4x2xi32>) -> tensor<4x1xf32> {
  // expected-error @+1 {{'loom.vmap' op in_axes has 2 entries but @solve takes 3 arguments}}
  %y = loom.vmap @solve(%x, %k) in_axes [0, 0] out_axes [0] : (tensor<4x1xf32>, tensor<4x2xi32>) -> tensor<4x1xf32>
  return %y : tensor<4x1xf32>
}

// -----

// out_axes written for a different number of results.
func.func private @two(f32) -> (f32, f32)
func.func @wrong_results(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'loom.vmap' op out_axes has 1 entries but @two returns 2 results}}
  %y = loom.vmap @two(%x) in_axes [0] out_axes [0] : (tensor<4xf32>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}

// -----

// The callee must be a function that exists.
func.func @missing_callee(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'loom.vmap' op 'nowhere' does not reference a func.func}}
  %y = loom.vmap @nowhere(%x) in_axes [0] out_axes [0] : (tensor<4xf32>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}

// -----

// An axis beyond the operand's rank.
func.func private @f(f32) -> f32
func.func @axis_out_of_range(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'loom.vmap' op in_axes[0] = 1 is out of range for operand #0 of type 'tensor<4xf32>'}}
  %y = loom.vmap @f(%x) in_axes [1] out_axes [0] : (tensor<4xf32>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}

// -----

// An out axis beyond the result's rank.
func.func private @f(f32) -> f32
func.func @out_axis_out_of_range(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'loom.vmap' op out_axes[0] = 3 is out of range for result #0 of type 'tensor<4xf32>'}}
  %y = loom.vmap @f(%x) in_axes [0] out_axes [3] : (tensor<4xf32>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}

// -----

// The generic form can spell axes the custom syntax cannot.
func.func private @f(f32) -> f32
func.func @negative_axis(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'loom.vmap' op in_axes[0] = -3 is neither an axis nor none}}
  %y = "loom.vmap"(%x) {callee = @f, in_axes = array<i64: -3>, out_axes = array<i64: 0>} : (tensor<4xf32>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}

// -----

// In the custom syntax an unbatched operand is `none`, not -1.
func.func private @f(f32) -> f32
func.func @negative_axis_custom(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{axis -1 is negative (write `none` for an unbatched value)}}
  %y = loom.vmap @f(%x) in_axes [-1] out_axes [0] : (tensor<4xf32>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}

// -----

// A scalar has no axis to batch along.
func.func private @f(f32) -> f32
func.func @scalar_batched(%x: f32) -> tensor<4xf32> {
  // expected-error @+1 {{'loom.vmap' op operand #0 is batched along axis 0 but its type 'f32' has no axes}}
  %y = loom.vmap @f(%x) in_axes [0] out_axes [0] : (f32) -> tensor<4xf32>
  return %y : tensor<4xf32>
}

// -----

// A result batched along an axis must be a tensor.
func.func private @f(f32) -> f32
func.func @scalar_result_batched(%x: tensor<4xf32>) -> f32 {
  // expected-error @+1 {{'loom.vmap' op result #0 is batched along axis 0 but its type 'f32' has no axes}}
  %y = loom.vmap @f(%x) in_axes [0] out_axes [0] : (tensor<4xf32>) -> f32
  return %y : f32
}

// -----

// Inputs whose batch sizes disagree.
func.func private @g(f32, f32) -> f32
func.func @batch_mismatch(%x: tensor<30xf32>, %y: tensor<20xf32>) -> tensor<30xf32> {
  // expected-error @+1 {{'loom.vmap' op operand #1 has batch size 20 but operand #0 has batch size 30}}
  %r = loom.vmap @g(%x, %y) in_axes [0, 0] out_axes [0] : (tensor<30xf32>, tensor<20xf32>) -> tensor<30xf32>
  return %r : tensor<30xf32>
}

// -----

// A result batch size that no input gives.
func.func private @f(f32) -> f32
func.func @result_batch_mismatch(%x: tensor<?xf32>) -> tensor<30xf32> {
  // expected-error @+1 {{'loom.vmap' op result #0 has batch size 30 but the operands' batch size is ?}}
  %r = loom.vmap @f(%x) in_axes [0] out_axes [0] : (tensor<?xf32>) -> tensor<30xf32>
  return %r : tensor<30xf32>
}

// -----

// Nothing to map over.
func.func private @f(f32) -> f32
func.func @nothing_batched(%x: f32) -> f32 {
  // expected-error @+1 {{'loom.vmap' op has no batched operand: every in_axes entry is none, so there is no batch to map over}}
  %r = loom.vmap @f(%x) in_axes [none] out_axes [none] : (f32) -> f32
  return %r : f32
}

// -----

// Per-lane operand type must be the callee's argument type.
func.func private @solve(tensor<1xf32>) -> tensor<1xf32>
func.func @operand_type(%x: tensor<4x2xf32>) -> tensor<4x1xf32> {
  // expected-error @+1 {{'loom.vmap' op operand #0 has type 'tensor<4x2xf32>', which is 'tensor<2xf32>' per lane, but @solve takes 'tensor<1xf32>'}}
  %y = loom.vmap @solve(%x) in_axes [0] out_axes [0] : (tensor<4x2xf32>) -> tensor<4x1xf32>
  return %y : tensor<4x1xf32>
}

// -----

// An unbatched operand is passed as is.
func.func private @g(f32, f32) -> f32
func.func @unbatched_operand_type(%x: tensor<4xf32>, %t: f64) -> tensor<4xf32> {
  // expected-error @+1 {{'loom.vmap' op operand #1 has type 'f64', but @g takes 'f32'}}
  %y = loom.vmap @g(%x, %t) in_axes [0, none] out_axes [0] : (tensor<4xf32>, f64) -> tensor<4xf32>
  return %y : tensor<4xf32>
}

// -----

// Per-lane result type must be the callee's result type.
func.func private @f(f32) -> f32
func.func @result_type(%x: tensor<4xf32>) -> tensor<4xi32> {
  // expected-error @+1 {{'loom.vmap' op result #0 has type 'tensor<4xi32>', which is 'i32' per lane, but @f returns 'f32'}}
  %y = loom.vmap @f(%x) in_axes [0] out_axes [0] : (tensor<4xf32>) -> tensor<4xi32>
  return %y : tensor<4xi32>
}

// -----

// Reductions: the axis must exist.
func.func @reduce_axis(%m: tensor<4xi1>) -> i1 {
  // expected-error @+1 {{'loom.any' op axis 1 is out of range for an input of rank 1}}
  %a = loom.any %m along 1 : tensor<4xi1> -> i1
  return %a : i1
}

// -----

// Reductions: the result drops exactly the reduced axis.
func.func @reduce_result(%x: tensor<4x3xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'loom.sum' op reducing 'tensor<4x3xf32>' along axis 0 gives 'tensor<3xf32>', not 'tensor<4xf32>'}}
  %s = loom.sum %x along 0 : tensor<4x3xf32> -> tensor<4xf32>
  return %s : tensor<4xf32>
}

// -----

// Reductions: a negative axis is rejected by the attribute constraint.
func.func @reduce_negative(%x: tensor<4xf32>) -> f32 {
  // expected-error @+1 {{'loom.max' op attribute 'axis' failed to satisfy constraint: 64-bit signless integer attribute whose value is non-negative}}
  %s = "loom.max"(%x) {axis = -1 : i64} : (tensor<4xf32>) -> f32
  return %s : f32
}

// -----

// any/all take masks.
func.func @any_of_floats(%x: tensor<4xf32>) -> f32 {
  // expected-error @+1 {{'loom.any' op operand #0 must be ranked tensor of 1-bit signless integer values}}
  %a = "loom.any"(%x) {axis = 0 : i64} : (tensor<4xf32>) -> f32
  return %a : f32
}

// -----

// A key is two 32-bit words.
func.func @bad_key(%k: tensor<3xi32>) -> f32 {
  // expected-error @+1 {{'loom.random.normal' op operand #0 must be threefry key (tensor<2xi32>)}}
  %n = "loom.random.normal"(%k) : (tensor<3xi32>) -> f32
  return %n : f32
}

// -----

// split returns an array of keys.
func.func @bad_split(%k: tensor<2xi32>) -> tensor<30x3xi32> {
  // expected-error @+1 {{'loom.random.split' op result #0 must be array of threefry keys (tensor<...x2xi32>)}}
  %s = loom.random.split %k : tensor<30x3xi32>
  return %s : tensor<30x3xi32>
}

// -----

// Random samples have a static shape. (The bounds' type is inferred from the
// result's, so the custom syntax checks the result while parsing.)
func.func @dynamic_uniform(%k: tensor<2xi32>, %lo: f32, %hi: f32) -> tensor<?xf32> {
  // expected-error @+1 {{custom op 'loom.random.uniform' 'result' must be 32-bit float or 64-bit float or statically shaped tensor of 32-bit float or 64-bit float values, but got 'tensor<?xf32>'}}
  %u = loom.random.uniform %k, %lo, %hi : tensor<?xf32>
  return %u : tensor<?xf32>
}

// -----

// JAX draws float32 and float64 (x64) samples only.
func.func @f16_normal(%k: tensor<2xi32>) -> f16 {
  // expected-error @+1 {{'loom.random.normal' op result #0 must be 32-bit float or 64-bit float or statically shaped tensor of 32-bit float or 64-bit float values}}
  %n = loom.random.normal %k : f16
  return %n : f16
}

// -----

// Random words are 32 or 64 bits wide.
func.func @i16_bits(%k: tensor<2xi32>) -> tensor<4xi16> {
  // expected-error @+1 {{'loom.random.bits' op result #0 must be 32-bit signless integer or 64-bit signless integer or statically shaped tensor of 32-bit signless integer or 64-bit signless integer values}}
  %b = loom.random.bits %k : tensor<4xi16>
  return %b : tensor<4xi16>
}

// -----

// The bounds of a uniform have the samples' type: a float64 sample is drawn
// from a 64-bit word, not rounded from float32 bounds.
func.func @uniform_bounds_type(%k: tensor<2xi32>, %lo: f32, %hi: f32) -> tensor<2xf64> {
  // expected-error @+1 {{'loom.random.uniform' op failed to verify that minval has the result's element type}}
  %u = "loom.random.uniform"(%k, %lo, %hi) : (tensor<2xi32>, f32, f32) -> tensor<2xf64>
  return %u : tensor<2xf64>
}

// -----

func.func @uniform_maxval_type(%k: tensor<2xi32>, %lo: f64, %hi: f32) -> f64 {
  // expected-error @+1 {{'loom.random.uniform' op failed to verify that maxval has the result's element type}}
  %u = "loom.random.uniform"(%k, %lo, %hi) : (tensor<2xi32>, f64, f32) -> f64
  return %u : f64
}

// -----

// Argument names are strings.
// expected-error @+1 {{'loom.name' on argument #0 must be a non-empty string}}
func.func private @bad_name(f32 {loom.name = 3 : i32})

// -----

// Argument names are unique: tools address arguments by name.
// expected-error @+1 {{argument #1 is named "x" like argument #0}}
func.func private @dup_name(f32 {loom.name = "x"}, f32 {loom.name = "x"})

// -----

// Result names are unique too.
// expected-error @+1 {{result #1 is named "y" like result #0}}
func.func private @dup_result_name() -> (f32 {loom.name = "y"}, f32 {loom.name = "y"})

// -----

// A default must have the argument's type.
// expected-error @+1 {{'loom.default' on argument #0 has type 'f64' but the argument has type 'f32'}}
func.func private @bad_default_type(f32 {loom.default = 1.0 : f64})

// -----

// Only scalar arguments have defaults.
// expected-error @+1 {{'loom.default' on argument #0 needs a scalar argument, but its type is 'tensor<2xf32>'}}
func.func private @tensor_default(tensor<2xf32> {loom.default = 1.0 : f32})

// -----

// A default is a number.
// expected-error @+1 {{'loom.default' on argument #0 must be an integer or float constant, got "five"}}
func.func private @string_default(f32 {loom.default = "five"})

// -----

// Defaults make sense on arguments only.
// expected-error @+1 {{unknown result attribute 'loom.default'}}
func.func private @result_default() -> (f32 {loom.default = 1.0 : f32})

// -----

// A range bounds integers only: a float argument is refused.
// expected-error @+1 {{'loom.range' on argument #0 needs a scalar integer argument (i32 or i64), but its type is 'f32'}}
func.func private @float_range(f32 {loom.range = [0, 2]})

// -----

// A range is checked on one scalar per call, not on a tensor's elements.
// expected-error @+1 {{'loom.range' on argument #0 needs a scalar integer argument (i32 or i64), but its type is 'tensor<2xi32>'}}
func.func private @tensor_range(tensor<2xi32> {loom.range = [0, 2]})

// -----

// An i1 has no range worth stating.
// expected-error @+1 {{'loom.range' on argument #0 needs a scalar integer argument (i32 or i64), but its type is 'i1'}}
func.func private @bool_range(i1 {loom.range = [0, 1]})

// -----

// A range is two integers, not one, three, floats or a string.
// expected-error @+1 {{'loom.range' on argument #0 must be [lo, hi], two integers, got [2]}}
func.func private @one_bound(i32 {loom.range = [2]})

// -----

// expected-error @+1 {{'loom.range' on argument #0 must be [lo, hi], two integers, got [0, 1, 2]}}
func.func private @three_bounds(i32 {loom.range = [0, 1, 2]})

// -----

// expected-error @+1 {{'loom.range' on argument #0 must be [lo, hi], two integers, got [0.000000e+00, 2.000000e+00]}}
func.func private @float_bounds(i32 {loom.range = [0.0, 2.0]})

// -----

// expected-error @+1 {{'loom.range' on argument #0 must be [lo, hi], two integers, got "0..2"}}
func.func private @string_range(i32 {loom.range = "0..2"})

// -----

// lo > hi admits no value at all.
// expected-error @+1 {{'loom.range' on argument #1 is empty: [3, 1] has lo > hi}}
func.func private @empty_range(i32, i32 {loom.range = [3, 1]})

// -----

// A bound the argument's type cannot hold.
// expected-error @+1 {{'loom.range' on argument #0: bound 4294967295 does not fit in 'i32'}}
func.func private @wide_bound(i32 {loom.range = [0, 4294967295]})

// -----

// A default outside the range would fail every call that omits it.
// expected-error @+1 {{'loom.default' 3 of argument #0 is outside its 'loom.range' [0, 2]}}
func.func private @default_outside(i32 {loom.default = 3 : i32, loom.range = [0, 2]})

// -----

// Ranges make sense on arguments only.
// expected-error @+1 {{unknown result attribute 'loom.range'}}
func.func private @result_range() -> (i32 {loom.range = [0, 2]})

// -----

// A misspelt argument attribute is not silently ignored.
// expected-error @+1 {{unknown argument attribute 'loom.nmae'}}
func.func private @typo(f32 {loom.nmae = "x"})

// -----

// Loop annotations belong on loops.
func.func @strategy_on_func() {
  // expected-error @+1 {{'loom.strategy' annotates scf.while and scf.for loops only}}
  "test.op"() {loom.strategy = #loom.strategy<masked>} : () -> ()
  return
}

// -----

// A loop's sync is a while loop's.
func.func @loop_sync_on_for(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{'loom.loop_sync' annotates scf.while loops only}}
  scf.for %i = %c0 to %n step %c1 {
  } {loom.loop_sync = #loom.loop_sync<local>}
  return
}

// -----

// A refill loop's lane mask is one of its before block's arguments...
func.func @lane_mask_out_of_range(%m: tensor<4xi1>, %go: i1) {
  // expected-error @+1 {{'loom.lane_mask' names argument #2 of a before block with 2}}
  %r:2 = scf.while (%a = %m, %b = %go) : (tensor<4xi1>, i1) -> (tensor<4xi1>, i1) {
    scf.condition(%b) %a, %b : tensor<4xi1>, i1
  } do {
  ^bb0(%a: tensor<4xi1>, %b: i1):
    scf.yield %a, %b : tensor<4xi1>, i1
  } attributes {loom.lane_mask = 2 : i64}
  return
}

// -----

// ...and a mask: loom-count-loop-iterations sums it as the loop's lanes.
func.func @lane_mask_not_a_mask(%m: tensor<4xi1>, %go: i1) {
  // expected-error @+1 {{'loom.lane_mask' names argument #1 of type 'i1', not a rank-1 tensor of i1}}
  %r:2 = scf.while (%a = %m, %b = %go) : (tensor<4xi1>, i1) -> (tensor<4xi1>, i1) {
    scf.condition(%b) %a, %b : tensor<4xi1>, i1
  } do {
  ^bb0(%a: tensor<4xi1>, %b: i1):
    scf.yield %a, %b : tensor<4xi1>, i1
  } attributes {loom.lane_mask = 1 : i64}
  return
}

// -----

// It annotates while loops only.
func.func @lane_mask_on_op() {
  // expected-error @+1 {{'loom.lane_mask' is an integer on scf.while loops}}
  "test.op"() {loom.lane_mask = 0 : i64} : () -> ()
  return
}

// -----

// loom-scalarize-small-tensors' record of a split loop's carries: one entry
// per before block argument...
func.func @source_carries_count(%a: i32, %go: i1) {
  // expected-error @+1 {{'loom.source_carries' has 1 entries for a before block with 2 arguments}}
  %r:2 = scf.while (%x = %a, %b = %go) : (i32, i1) -> (i32, i1) {
    scf.condition(%b) %x, %b : i32, i1
  } do {
  ^bb0(%x: i32, %b: i1):
    scf.yield %x, %b : i32, i1
  } attributes {loom.source_carries = array<i64: 0>}
  return
}

// -----

// ...each a carry's number...
func.func @source_carries_negative(%a: i32, %go: i1) {
  // expected-error @+1 {{'loom.source_carries' names a negative carry}}
  %r:2 = scf.while (%x = %a, %b = %go) : (i32, i1) -> (i32, i1) {
    scf.condition(%b) %x, %b : i32, i1
  } do {
  ^bb0(%x: i32, %b: i1):
    scf.yield %x, %b : i32, i1
  } attributes {loom.source_carries = array<i64: 0, -1>}
  return
}

// -----

// ...on while loops only.
func.func @source_carries_on_op() {
  // expected-error @+1 {{'loom.source_carries' is an array<i64> on scf.while loops}}
  "test.op"() {loom.source_carries = array<i64: 0>} : () -> ()
  return
}

// -----

// Loop annotations have their own attribute kinds.
func.func @strategy_wrong_kind(%n: i1) {
  // expected-error @+1 {{'loom.loop_sync' must be a #loom.loop_sync<...> attribute, got #loom.strategy<masked>}}
  scf.while : () -> () {
    scf.condition(%n)
  } do {
    scf.yield
  } attributes {loom.loop_sync = #loom.strategy<masked>}
  return
}

// -----

// An unknown strategy word.
func.func @unknown_strategy(%n: i1) {
  scf.while : () -> () {
    scf.condition(%n)
  } do {
    scf.yield
  // expected-error @+2 {{expected ::mlir::loom::LoopStrategy to be one of: uniform, masked, per_lane}}
  // expected-error @+1 {{failed to parse Loom_LoopStrategyAttr parameter 'value'}}
  } attributes {loom.strategy = #loom.strategy<diagonal>}
  return
}

// -----

// loom.batched marks functions, and carries no value.
// expected-error @+1 {{'loom.batched' is a unit attribute on functions}}
func.func private @batched_with_value() attributes {loom.batched = 1 : i64}

// -----

func.func @batched_on_an_op() {
  // expected-error @+1 {{'loom.batched' is a unit attribute on functions}}
  "test.op"() {loom.batched} : () -> ()
  return
}

// -----

// Unknown loom attributes on operations are errors.
func.func @unknown_op_attr() {
  // expected-error @+1 {{unknown operation attribute 'loom.bogus'}}
  "test.op"() {loom.bogus = 1} : () -> ()
  return
}

// -----

// A batch axis must exist in the argument.
// expected-error @+1 {{'loom.batch_axis' on argument #0 names axis 2, which 'tensor<4x1xf32>' does not have}}
func.func private @batch_axis_range(tensor<4x1xf32> {loom.batch_axis = 2 : i64})

// -----

// A batch axis is an axis number.
// expected-error @+1 {{'loom.batch_axis' on result #0 must be a non-negative integer}}
func.func private @batch_axis_kind() -> (tensor<4xf32> {loom.batch_axis = "zero"})

// -----

// The shard context is an i64 handle.
// expected-error @+1 {{'loom.context' marks an i64 argument and takes no value}}
func.func private @context_type(i32 {loom.context})

// -----

// The runtime times what lies between a variant_begin and its one end.
func.func @variant_without_end() -> i1 {
  // expected-error @+1 {{'loom.variant_begin' op must have exactly one loom.variant_end, found 0}}
  %alt = loom.variant_begin
  return %alt : i1
}

// -----

func.func @variant_two_ends() {
  // expected-error @+1 {{'loom.variant_begin' op must have exactly one loom.variant_end, found 2}}
  %alt = loom.variant_begin
  loom.variant_end %alt
  loom.variant_end %alt
  return
}

// -----

func.func @variant_end_elsewhere(%c: i1) {
  // expected-error @+1 {{'loom.variant_begin' op must be ended by a loom.variant_end in its block}}
  %alt = loom.variant_begin
  scf.if %c {
    loom.variant_end %alt
  }
  return
}

// -----

// What the runtime reports a shard kept is one of two names.
func.func @variant_one_name() {
  // expected-error @+1 {{'loom.variant_begin' op 'names' must name the two variants, primary first, not 1}}
  %alt = loom.variant_begin {names = ["gang (width 32)"]}
  loom.variant_end %alt
  return
}

// -----

func.func @variant_end_of_other(%c: i1) {
  // expected-error @+1 {{'loom.variant_end' op operand must be the result of a loom.variant_begin}}
  loom.variant_end %c
  return
}

// -----

// The tables the runtime reads are arrays on the module.
// expected-error @+1 {{'loom.variants' is an array on the module}}
module attributes {loom.variants = 3 : i64} {
}

// -----

// expected-error @+1 {{'loom.loops' is an array on the module}}
func.func @loops_table_on_function() attributes {loom.loops = []} {
  return
}

// -----

// The runtime reads each entry by name.
// expected-error @+1 {{'loom.loops' entry #1 must be {loc = string, masked = bool} (with an integer 'lanes' and a string 'variant' optional)}}
module attributes {loom.loops = [{loc = "a.mlir:1:1", masked = true}, {}]} {
}

// -----

// expected-error @+1 {{'loom.loops' entry #0 must be {loc = string, masked = bool}}}
module attributes {loom.loops = [{loc = "a.mlir:1:1", masked = true, lanes = "32"}]} {
}

// -----

// expected-error @+1 {{'loom.variants' entry #0 must be {loc, primary, alternative = string}}}
module attributes {loom.variants = [{loc = "a.mlir:1:1", primary = "masked"}]} {
}
