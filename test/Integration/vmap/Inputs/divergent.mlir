// Small programs with divergent loops for the vmap property test
// (vmap_property.py): each scalar @f has a @f_vmap entry that maps it over a
// dynamic batch. Inputs are chosen by the RUN lines so that lanes diverge.

// A single divergent loop (Collatz): lanes with x <= 1 never enter it.
func.func @collatz(%x0: i32 {loom.name = "x"}) -> (i32 {loom.name = "steps"}) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c3 = arith.constant 3 : i32
  %r:2 = scf.while (%x = %x0, %n = %c0) : (i32, i32) -> (i32, i32) {
    %go = arith.cmpi sgt, %x, %c1 : i32
    scf.condition(%go) %x, %n : i32, i32
  } do {
  ^bb0(%x: i32, %n: i32):
    %low = arith.andi %x, %c1 : i32
    %odd = arith.cmpi ne, %low, %c0 : i32
    %half = arith.shrsi %x, %c1 : i32
    %t = arith.muli %x, %c3 : i32
    %t1 = arith.addi %t, %c1 : i32
    %next = arith.select %odd, %t1, %half : i32
    %n1 = arith.addi %n, %c1 : i32
    scf.yield %next, %n1 : i32, i32
  }
  return %r#1 : i32
}
func.func @collatz_vmap(%xs: tensor<?xi32> {loom.name = "xs"})
    -> (tensor<?xi32> {loom.name = "steps"}) {
  %r = loom.vmap @collatz(%xs) in_axes [0] out_axes [0]
      : (tensor<?xi32>) -> tensor<?xi32>
  return %r : tensor<?xi32>
}

// A while-of-while on floats; the inner trip count grows with the outer
// iteration and differs per lane.
func.func @nested(%a: f32 {loom.name = "a"}, %b: f32 {loom.name = "b"})
    -> (f32 {loom.name = "acc"}, i32 {loom.name = "trips"}) {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %half = arith.constant 0.5 : f32
  %i0 = arith.constant 0 : i32
  %i1 = arith.constant 1 : i32
  %r:3 = scf.while (%t = %zero, %acc = %zero, %k = %i0)
      : (f32, f32, i32) -> (f32, f32, i32) {
    %go = arith.cmpf olt, %t, %a : f32
    scf.condition(%go) %t, %acc, %k : f32, f32, i32
  } do {
  ^bb0(%t: f32, %acc: f32, %k: i32):
    %limit = arith.mulf %t, %b : f32
    %step0 = arith.addf %one, %b : f32
    %step = arith.mulf %half, %step0 : f32
    %in:2 = scf.while (%s = %zero, %j = %i0) : (f32, i32) -> (f32, i32) {
      %more = arith.cmpf olt, %s, %limit : f32
      scf.condition(%more) %s, %j : f32, i32
    } do {
    ^bb0(%s: f32, %j: i32):
      %s1 = arith.addf %s, %step : f32
      %j1 = arith.addi %j, %i1 : i32
      scf.yield %s1, %j1 : f32, i32
    }
    %acc1 = arith.addf %acc, %in#0 : f32
    %t1 = arith.addf %t, %one : f32
    %k1 = arith.addi %k, %in#1 : i32
    scf.yield %t1, %acc1, %k1 : f32, f32, i32
  }
  return %r#1, %r#2 : f32, i32
}
func.func @nested_vmap(%as: tensor<?xf32> {loom.name = "as"},
                       %bs: tensor<?xf32> {loom.name = "bs"})
    -> (tensor<?xf32> {loom.name = "acc"}, tensor<?xi32> {loom.name = "trips"}) {
  %r:2 = loom.vmap @nested(%as, %bs) in_axes [0, 0] out_axes [0, 0]
      : (tensor<?xf32>, tensor<?xf32>) -> (tensor<?xf32>, tensor<?xi32>)
  return %r#0, %r#1 : tensor<?xf32>, tensor<?xi32>
}

// Three levels of divergent loops.
func.func @three(%n: i32 {loom.name = "n"}) -> (i32 {loom.name = "total"}) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c3 = arith.constant 3 : i32
  %extra = arith.remsi %n, %c3 : i32
  %r:2 = scf.while (%i = %c0, %total = %c0) : (i32, i32) -> (i32, i32) {
    %go = arith.cmpi slt, %i, %n : i32
    scf.condition(%go) %i, %total : i32, i32
  } do {
  ^bb0(%i: i32, %total: i32):
    %mid:2 = scf.while (%j = %c0, %t1 = %total) : (i32, i32) -> (i32, i32) {
      %go = arith.cmpi slt, %j, %i : i32
      scf.condition(%go) %j, %t1 : i32, i32
    } do {
    ^bb0(%j: i32, %t1: i32):
      %bound = arith.addi %j, %extra : i32
      %in:2 = scf.while (%k = %c0, %t2 = %t1) : (i32, i32) -> (i32, i32) {
        %go = arith.cmpi slt, %k, %bound : i32
        scf.condition(%go) %k, %t2 : i32, i32
      } do {
      ^bb0(%k: i32, %t2: i32):
        %ij = arith.muli %i, %j : i32
        %v = arith.addi %ij, %k : i32
        %t3 = arith.addi %t2, %v : i32
        %k1 = arith.addi %k, %c1 : i32
        scf.yield %k1, %t3 : i32, i32
      }
      %j1 = arith.addi %j, %c1 : i32
      scf.yield %j1, %in#1 : i32, i32
    }
    %i1 = arith.addi %i, %c1 : i32
    scf.yield %i1, %mid#1 : i32, i32
  }
  return %r#1 : i32
}
func.func @three_vmap(%ns: tensor<?xi32> {loom.name = "ns"})
    -> (tensor<?xi32> {loom.name = "total"}) {
  %r = loom.vmap @three(%ns) in_axes [0] out_axes [0]
      : (tensor<?xi32>) -> tensor<?xi32>
  return %r : tensor<?xi32>
}

// Lanes that start above the limit never enter the loop; a shared scale.
func.func @grow(%x0: f32 {loom.name = "x"}, %scale: f32 {loom.name = "scale"})
    -> (f32 {loom.name = "y"}, i32 {loom.name = "n"}) {
  %limit = arith.constant 10.0 : f32
  %one = arith.constant 1.0 : f32
  %i0 = arith.constant 0 : i32
  %i1 = arith.constant 1 : i32
  %r:2 = scf.while (%x = %x0, %n = %i0) : (f32, i32) -> (f32, i32) {
    %go = arith.cmpf olt, %x, %limit : f32
    scf.condition(%go) %x, %n : f32, i32
  } do {
  ^bb0(%x: f32, %n: i32):
    %m = arith.mulf %x, %scale : f32
    %x1 = arith.addf %m, %one : f32
    %n1 = arith.addi %n, %i1 : i32
    scf.yield %x1, %n1 : f32, i32
  }
  return %r#0, %r#1 : f32, i32
}
func.func @grow_vmap(%xs: tensor<?xf32> {loom.name = "xs"},
                     %scale: f32 {loom.name = "scale"})
    -> (tensor<?xf32> {loom.name = "y"}, tensor<?xi32> {loom.name = "n"}) {
  %r:2 = loom.vmap @grow(%xs, %scale) in_axes [0, none] out_axes [0, 0]
      : (tensor<?xf32>, f32) -> (tensor<?xf32>, tensor<?xi32>)
  return %r#0, %r#1 : tensor<?xf32>, tensor<?xi32>
}

// diffrax's SaveAt shape: after each outer step, an inner loop saves every
// requested time the step passed, at a per-lane index into a buffer.
func.func @save(%rate: f32 {loom.name = "rate"})
    -> (tensor<8xf32> {loom.name = "ys"}, i32 {loom.name = "saved"}) {
  %zero = arith.constant 0.0 : f32
  %two = arith.constant 2.0 : f32
  %end = arith.constant 8.0 : f32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %buf = tensor.splat %zero : tensor<8xf32>
  %r:3 = scf.while (%t = %zero, %ys = %buf, %i = %c0)
      : (f32, tensor<8xf32>, index) -> (f32, tensor<8xf32>, index) {
    %go = arith.cmpf olt, %t, %end : f32
    scf.condition(%go) %t, %ys, %i : f32, tensor<8xf32>, index
  } do {
  ^bb0(%t: f32, %ys: tensor<8xf32>, %i: index):
    %tn = arith.addf %t, %rate : f32
    %in:2 = scf.while (%ys2 = %ys, %j = %i) : (tensor<8xf32>, index)
        -> (tensor<8xf32>, index) {
      %room = arith.cmpi ult, %j, %c8 : index
      %ji = arith.index_cast %j : index to i32
      %tj = arith.sitofp %ji : i32 to f32
      %due = arith.cmpf ole, %tj, %tn : f32
      %go = arith.andi %room, %due : i1
      scf.condition(%go) %ys2, %j : tensor<8xf32>, index
    } do {
    ^bb0(%ys2: tensor<8xf32>, %j: index):
      %v = arith.mulf %tn, %two : f32
      %ys3 = tensor.insert %v into %ys2[%j] : tensor<8xf32>
      %j1 = arith.addi %j, %c1 : index
      scf.yield %ys3, %j1 : tensor<8xf32>, index
    }
    scf.yield %tn, %in#0, %in#1 : f32, tensor<8xf32>, index
  }
  %saved = arith.index_cast %r#2 : index to i32
  return %r#1, %saved : tensor<8xf32>, i32
}
func.func @save_vmap(%rates: tensor<?xf32> {loom.name = "rates"})
    -> (tensor<?x8xf32> {loom.name = "ys"}, tensor<?xi32> {loom.name = "saved"}) {
  %r:2 = loom.vmap @save(%rates) in_axes [0] out_axes [0, 0]
      : (tensor<?xf32>) -> (tensor<?x8xf32>, tensor<?xi32>)
  return %r#0, %r#1 : tensor<?x8xf32>, tensor<?xi32>
}

// A per-lane branch inside a divergent loop writes a buffer on one side.
func.func @branchy(%x0: f32 {loom.name = "x"})
    -> (tensor<4xf32> {loom.name = "buf"}, f32 {loom.name = "y"}) {
  %zero = arith.constant 0.0 : f32
  %three = arith.constant 3.0 : f32
  %ten = arith.constant 10.0 : f32
  %a = arith.constant 1.3 : f32
  %b = arith.constant 0.7 : f32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %buf = tensor.splat %zero : tensor<4xf32>
  %r:3 = scf.while (%x = %x0, %bf = %buf, %n = %c0)
      : (f32, tensor<4xf32>, index) -> (f32, tensor<4xf32>, index) {
    %go = arith.cmpf olt, %x, %ten : f32
    scf.condition(%go) %x, %bf, %n : f32, tensor<4xf32>, index
  } do {
  ^bb0(%x: f32, %bf: tensor<4xf32>, %n: index):
    %big = arith.cmpf ogt, %x, %three : f32
    %slot = arith.remui %n, %c4 : index
    %bf1 = scf.if %big -> tensor<4xf32> {
      %w = tensor.insert %x into %bf[%slot] : tensor<4xf32>
      scf.yield %w : tensor<4xf32>
    } else {
      scf.yield %bf : tensor<4xf32>
    }
    %m = arith.mulf %x, %a : f32
    %x1 = arith.addf %m, %b : f32
    %n1 = arith.addi %n, %c1 : index
    scf.yield %x1, %bf1, %n1 : f32, tensor<4xf32>, index
  }
  return %r#1, %r#0 : tensor<4xf32>, f32
}
func.func @branchy_vmap(%xs: tensor<?xf32> {loom.name = "xs"})
    -> (tensor<?x4xf32> {loom.name = "buf"}, tensor<?xf32> {loom.name = "y"}) {
  %r:2 = loom.vmap @branchy(%xs) in_axes [0] out_axes [0, 0]
      : (tensor<?xf32>) -> (tensor<?x4xf32>, tensor<?xf32>)
  return %r#0, %r#1 : tensor<?x4xf32>, tensor<?xf32>
}

// An scf.for whose trip count differs per lane, calling a helper with a
// batched and with an unbatched argument.
func.func private @weight(%i: i32, %x: f32) -> f32 {
  %f = arith.sitofp %i : i32 to f32
  %s = math.sin %f : f32
  %r = arith.mulf %s, %x : f32
  return %r : f32
}
func.func @trips(%n: i32 {loom.name = "n"}, %x: f32 {loom.name = "x"})
    -> (f32 {loom.name = "sum"}) {
  %zero = arith.constant 0.0 : f32
  %two = arith.constant 2.0 : f32
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %s = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (f32) : i32 {
    %w = func.call @weight(%i, %x) : (i32, f32) -> f32
    %u = func.call @weight(%i, %two) : (i32, f32) -> f32
    %a1 = arith.addf %acc, %w : f32
    %a2 = arith.addf %a1, %u : f32
    scf.yield %a2 : f32
  }
  return %s : f32
}
func.func @trips_vmap(%ns: tensor<?xi32> {loom.name = "ns"},
                      %xs: tensor<?xf32> {loom.name = "xs"})
    -> (tensor<?xf32> {loom.name = "sum"}) {
  %r = loom.vmap @trips(%ns, %xs) in_axes [0, 0] out_axes [0]
      : (tensor<?xi32>, tensor<?xf32>) -> tensor<?xf32>
  return %r : tensor<?xf32>
}

// A divergent loop that calls a function with a divergent loop of its own
// (batched with the caller's mask) and a plain elementwise one. x >= 0 grows
// as 3x + 1, so every lane stops.
func.func private @halve(%x0: f32, %floor: f32) -> (f32, i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %half = arith.constant 0.5 : f32
  %r:2 = scf.while (%x = %x0, %k = %c0) : (f32, i32) -> (f32, i32) {
    %go = arith.cmpf ogt, %x, %floor : f32
    scf.condition(%go) %x, %k : f32, i32
  } do {
  ^bb0(%x: f32, %k: i32):
    %h = arith.mulf %x, %half : f32
    %k1 = arith.addi %k, %c1 : i32
    scf.yield %h, %k1 : f32, i32
  }
  return %r#0, %r#1 : f32, i32
}
func.func private @grow3(%x: f32) -> f32 {
  %three = arith.constant 3.0 : f32
  %one = arith.constant 1.0 : f32
  %y = arith.mulf %x, %three : f32
  %z = arith.addf %y, %one : f32
  return %z : f32
}
func.func @calls(%x0: f32 {loom.name = "x"}, %limit: f32 {loom.name = "limit"})
    -> (f32 {loom.name = "y"}, i32 {loom.name = "halvings"}) {
  %c0 = arith.constant 0 : i32
  %one = arith.constant 1.0 : f32
  %r:2 = scf.while (%x = %x0, %total = %c0) : (f32, i32) -> (f32, i32) {
    %go = arith.cmpf olt, %x, %limit : f32
    scf.condition(%go) %x, %total : f32, i32
  } do {
  ^bb0(%x: f32, %total: i32):
    %g = func.call @grow3(%x) : (f32) -> f32
    %h:2 = func.call @halve(%g, %one) : (f32, f32) -> (f32, i32)
    %t = arith.addi %total, %h#1 : i32
    scf.yield %g, %t : f32, i32
  }
  return %r#0, %r#1 : f32, i32
}
func.func @calls_vmap(%xs: tensor<?xf32> {loom.name = "xs"},
                      %limits: tensor<?xf32> {loom.name = "limits"})
    -> (tensor<?xf32> {loom.name = "y"}, tensor<?xi32> {loom.name = "halvings"}) {
  %r:2 = loom.vmap @calls(%xs, %limits) in_axes [0, 0] out_axes [0, 0]
      : (tensor<?xf32>, tensor<?xf32>) -> (tensor<?xf32>, tensor<?xi32>)
  return %r#0, %r#1 : tensor<?xf32>, tensor<?xi32>
}

// Zero-trip lanes at every level: lanes with n <= 0 never enter the outer
// loop; in an outer iteration i, lanes with m <= i never enter the middle
// one, and in a middle iteration j, lanes with n <= m + j never enter the
// inner one, while the loops around them still run. An scf.for whose trip
// count m - 2 is zero or negative for some lanes sits beside them.
func.func @zerotrip(%n: i32 {loom.name = "n"}, %m: i32 {loom.name = "m"})
    -> (i32 {loom.name = "total"}, i32 {loom.name = "inner"}) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %c3 = arith.constant 3 : i32
  %c7 = arith.constant 7 : i32
  %ib = arith.subi %n, %m : i32
  %fb = arith.subi %m, %c2 : i32
  %r:3 = scf.while (%i = %c0, %t = %c0, %c = %c0) : (i32, i32, i32)
      -> (i32, i32, i32) {
    %go = arith.cmpi slt, %i, %n : i32
    scf.condition(%go) %i, %t, %c : i32, i32, i32
  } do {
  ^bb0(%i: i32, %t: i32, %c: i32):
    %mb = arith.subi %m, %i : i32
    %mid:3 = scf.while (%j = %c0, %t1 = %t, %c1_ = %c) : (i32, i32, i32)
        -> (i32, i32, i32) {
      %go = arith.cmpi slt, %j, %mb : i32
      scf.condition(%go) %j, %t1, %c1_ : i32, i32, i32
    } do {
    ^bb0(%j: i32, %t1: i32, %c1_: i32):
      %kb = arith.subi %ib, %j : i32
      %in:3 = scf.while (%k = %c0, %t2 = %t1, %c2_ = %c1_) : (i32, i32, i32)
          -> (i32, i32, i32) {
        %go = arith.cmpi slt, %k, %kb : i32
        scf.condition(%go) %k, %t2, %c2_ : i32, i32, i32
      } do {
      ^bb0(%k: i32, %t2: i32, %c2_: i32):
        %i7 = arith.muli %i, %c7 : i32
        %j3 = arith.muli %j, %c3 : i32
        %v0 = arith.addi %i7, %j3 : i32
        %v = arith.addi %v0, %k : i32
        %t3 = arith.addi %t2, %v : i32
        %c3_ = arith.addi %c2_, %c1 : i32
        %k1 = arith.addi %k, %c1 : i32
        scf.yield %k1, %t3, %c3_ : i32, i32, i32
      }
      %j1 = arith.addi %j, %c1 : i32
      scf.yield %j1, %in#1, %in#2 : i32, i32, i32
    }
    %f = scf.for %q = %c0 to %fb step %c1 iter_args(%a = %mid#1) -> (i32)
        : i32 {
      %qi = arith.muli %q, %i : i32
      %a1 = arith.addi %a, %qi : i32
      scf.yield %a1 : i32
    }
    %i1 = arith.addi %i, %c1 : i32
    scf.yield %i1, %f, %mid#2 : i32, i32, i32
  }
  return %r#1, %r#2 : i32, i32
}
func.func @zerotrip_vmap(%ns: tensor<?xi32> {loom.name = "ns"},
                         %ms: tensor<?xi32> {loom.name = "ms"})
    -> (tensor<?xi32> {loom.name = "total"}, tensor<?xi32> {loom.name = "inner"}) {
  %r:2 = loom.vmap @zerotrip(%ns, %ms) in_axes [0, 0] out_axes [0, 0]
      : (tensor<?xi32>, tensor<?xi32>) -> (tensor<?xi32>, tensor<?xi32>)
  return %r#0, %r#1 : tensor<?xi32>, tensor<?xi32>
}

// NaN predicates, one loop after another. Ordered compares (olt, ogt) are
// false on NaN, so a NaN lane never enters or leaves at once; unordered ones
// (ult, une) are true on NaN, so a NaN lane runs to the trip cap. The carries
// turn NaN mid-loop (sqrt of a negative), at a per-lane iteration.
func.func @nanpred(%x: f32 {loom.name = "x"}, %y: f32 {loom.name = "y"})
    -> (f32 {loom.name = "v"}, f32 {loom.name = "w"}, f32 {loom.name = "u"},
        f32 {loom.name = "q"}, i32 {loom.name = "trips"}) {
  %zero = arith.constant 0.0 : f32
  %half = arith.constant 0.5 : f32
  %one = arith.constant 1.0 : f32
  %three = arith.constant 3.0 : f32
  %hundred = arith.constant 100.0 : f32
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %cap = arith.constant 12 : i32
  // olt: v = sqrt(v) - y goes negative, then NaN, for some lanes.
  %l1:2 = scf.while (%v = %x, %n = %c0) : (f32, i32) -> (f32, i32) {
    %lt = arith.cmpf olt, %v, %hundred : f32
    %room = arith.cmpi slt, %n, %cap : i32
    %go = arith.andi %lt, %room : i1
    scf.condition(%go) %v, %n : f32, i32
  } do {
  ^bb0(%v: f32, %n: i32):
    %s = math.sqrt %v : f32
    %v1 = arith.subf %s, %y : f32
    %n1 = arith.addi %n, %c1 : i32
    scf.yield %v1, %n1 : f32, i32
  }
  // ogt: w shrinks below 0.5, unless it is NaN (never enters) or inf (cap).
  %w0 = arith.mulf %l1#0, %y : f32
  %l2:2 = scf.while (%w = %w0, %n = %l1#1) : (f32, i32) -> (f32, i32) {
    %gt = arith.cmpf ogt, %w, %half : f32
    %room = arith.cmpi slt, %n, %cap : i32
    %go = arith.andi %gt, %room : i1
    scf.condition(%go) %w, %n : f32, i32
  } do {
  ^bb0(%w: f32, %n: i32):
    %w1 = arith.mulf %w, %half : f32
    %n1 = arith.addi %n, %c1 : i32
    scf.yield %w1, %n1 : f32, i32
  }
  // une: u halves down to 0 (or -1, then the cap); NaN runs to the cap.
  %u0 = arith.mulf %x, %three : f32
  %l3:2 = scf.while (%u = %u0, %k = %c0) : (f32, i32) -> (f32, i32) {
    %ne = arith.cmpf une, %u, %zero : f32
    %room = arith.cmpi slt, %k, %cap : i32
    %go = arith.andi %ne, %room : i1
    scf.condition(%go) %u, %k : f32, i32
  } do {
  ^bb0(%u: f32, %k: i32):
    %h = arith.mulf %u, %half : f32
    %u1 = math.floor %h : f32
    %k1 = arith.addi %k, %c1 : i32
    scf.yield %u1, %k1 : f32, i32
  }
  // ult around an olt: lanes whose y is NaN run the outer loop to the cap and
  // never enter the inner one; the inner carry can turn NaN too.
  %l4:2 = scf.while (%q = %y, %k = %l3#1) : (f32, i32) -> (f32, i32) {
    %lt = arith.cmpf ult, %q, %three : f32
    %room = arith.cmpi slt, %k, %cap : i32
    %go = arith.andi %lt, %room : i1
    scf.condition(%go) %q, %k : f32, i32
  } do {
  ^bb0(%q: f32, %k: i32):
    %in = scf.while (%p = %q) : (f32) -> f32 {
      %lt = arith.cmpf olt, %p, %x : f32
      scf.condition(%lt) %p : f32
    } do {
    ^bb0(%p: f32):
      %p1 = arith.addf %p, %one : f32
      %p2 = math.sqrt %p1 : f32
      %p3 = arith.addf %p2, %p1 : f32
      scf.yield %p3 : f32
    }
    %q1 = arith.addf %in, %one : f32
    %k1 = arith.addi %k, %c1 : i32
    scf.yield %q1, %k1 : f32, i32
  }
  %trips = arith.addi %l2#1, %l4#1 : i32
  return %l1#0, %l2#0, %l3#0, %l4#0, %trips : f32, f32, f32, f32, i32
}
func.func @nanpred_vmap(%xs: tensor<?xf32> {loom.name = "xs"},
                        %ys: tensor<?xf32> {loom.name = "ys"})
    -> (tensor<?xf32> {loom.name = "v"}, tensor<?xf32> {loom.name = "w"},
        tensor<?xf32> {loom.name = "u"}, tensor<?xf32> {loom.name = "q"},
        tensor<?xi32> {loom.name = "trips"}) {
  %r:5 = loom.vmap @nanpred(%xs, %ys) in_axes [0, 0] out_axes [0, 0, 0, 0, 0]
      : (tensor<?xf32>, tensor<?xf32>) -> (tensor<?xf32>, tensor<?xf32>,
         tensor<?xf32>, tensor<?xf32>, tensor<?xi32>)
  return %r#0, %r#1, %r#2, %r#3, %r#4 : tensor<?xf32>, tensor<?xf32>,
      tensor<?xf32>, tensor<?xf32>, tensor<?xi32>
}

// An outer level with straight-line code around two inner loops: a
// constant in the body, a quotient both the first inner loop and the new
// carries read, a value computed from the first inner loop's result for
// the second, and a division by a carry that is 0 once the lane is done.
func.func @stages(%n: i32 {loom.name = "n"})
    -> (i32 {loom.name = "total"}, i32 {loom.name = "last"}) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %r:3 = scf.while (%i = %n, %total = %c0, %last = %c0)
      : (i32, i32, i32) -> (i32, i32, i32) {
    %go = arith.cmpi sgt, %i, %c0 : i32
    scf.condition(%go) %i, %total, %last : i32, i32, i32
  } do {
  ^bb0(%i: i32, %total: i32, %last: i32):
    %c100 = arith.constant 100 : i32
    %q = arith.divsi %c100, %i : i32
    %j:1 = scf.while (%j = %c0) : (i32) -> i32 {
      %sq = arith.muli %j, %j : i32
      %more = arith.cmpi slt, %sq, %q : i32
      scf.condition(%more) %j : i32
    } do {
    ^bb0(%j: i32):
      %j1 = arith.addi %j, %c1 : i32
      scf.yield %j1 : i32
    }
    %m0 = arith.addi %j#0, %i : i32
    %h:2 = scf.while (%m = %m0, %k = %c0) : (i32, i32) -> (i32, i32) {
      %big = arith.cmpi sgt, %m, %c1 : i32
      scf.condition(%big) %m, %k : i32, i32
    } do {
    ^bb0(%m: i32, %k: i32):
      %half = arith.shrsi %m, %c1 : i32
      %k1 = arith.addi %k, %c1 : i32
      scf.yield %half, %k1 : i32, i32
    }
    %t0 = arith.addi %total, %h#1 : i32
    %t1 = arith.addi %t0, %q : i32
    %i1 = arith.subi %i, %c1 : i32
    scf.yield %i1, %t1, %j#0 : i32, i32, i32
  }
  return %r#1, %r#2 : i32, i32
}
func.func @stages_vmap(%ns: tensor<?xi32> {loom.name = "ns"})
    -> (tensor<?xi32> {loom.name = "total"}, tensor<?xi32> {loom.name = "last"}) {
  %r:2 = loom.vmap @stages(%ns) in_axes [0] out_axes [0, 0]
      : (tensor<?xi32>) -> (tensor<?xi32>, tensor<?xi32>)
  return %r#0, %r#1 : tensor<?xi32>, tensor<?xi32>
}

// Branches the masked forms if-convert (both branches on every lane, then
// a select): in an inner loop (one pass over the lanes), nested, and in the
// outer level of a nest after the inner loop. Each branch divides by a
// value that is 0 on lanes that do not take it; lanes with n <= 0 never
// enter the outer loop, lanes with d = 0 take only the other branches.
func.func @branches(%n0: i32 {loom.name = "n"}, %d0: i32 {loom.name = "d"},
                    %f0: f32 {loom.name = "f"})
    -> (i32 {loom.name = "acc"}, f32 {loom.name = "g"}) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c3 = arith.constant 3 : i32
  %c100 = arith.constant 100 : i32
  %zero = arith.constant 0.0 : f32
  %half = arith.constant 0.5 : f32
  %r:4 = scf.while (%n = %n0, %d = %d0, %acc = %c0, %g = %f0)
      : (i32, i32, i32, f32) -> (i32, i32, i32, f32) {
    %go = arith.cmpi sgt, %n, %c0 : i32
    scf.condition(%go) %n, %d, %acc, %g : i32, i32, i32, f32
  } do {
  ^bb0(%n: i32, %d: i32, %acc: i32, %g: f32):
    %in:3 = scf.while (%k = %n, %s = %c0, %h = %g) : (i32, i32, f32) -> (i32, i32, f32) {
      %more = arith.cmpi sgt, %k, %c0 : i32
      scf.condition(%more) %k, %s, %h : i32, i32, f32
    } do {
    ^bb0(%k: i32, %s: i32, %h: f32):
      %nz = arith.cmpi ne, %d, %c0 : i32
      %v:2 = scf.if %nz -> (i32, f32) {
        %q = arith.divsi %c100, %d : i32
        %odd = arith.andi %k, %c1 : i32
        %isodd = arith.cmpi ne, %odd, %c0 : i32
        %w = scf.if %isodd -> (i32) {
          %r3 = arith.remui %q, %odd : i32
          %w1 = arith.addi %r3, %k : i32
          scf.yield %w1 : i32
        } else {
          %w2 = arith.muli %k, %c3 : i32
          scf.yield %w2 : i32
        }
        %df = arith.sitofp %d : i32 to f32
        %hq = arith.divf %h, %df : f32
        scf.yield %w, %hq : i32, f32
      } else {
        %hs = arith.mulf %h, %half : f32
        scf.yield %k, %hs : i32, f32
      }
      %k1 = arith.subi %k, %c1 : i32
      %s1 = arith.addi %s, %v#0 : i32
      %h1 = arith.addf %v#1, %half : f32
      scf.yield %k1, %s1, %h1 : i32, i32, f32
    }
    %m = arith.andi %in#1, %c3 : i32
    %mnz = arith.cmpi ne, %m, %c0 : i32
    %pos = arith.cmpf ogt, %in#2, %zero : f32
    %both = arith.andi %mnz, %pos : i1
    %t = scf.if %both -> (i32) {
      %t1 = arith.divui %in#1, %m : i32
      scf.yield %t1 : i32
    } else {
      scf.yield %in#1 : i32
    }
    %acc1 = arith.addi %acc, %t : i32
    %n1 = arith.subi %n, %c1 : i32
    %d1 = arith.subi %d, %c1 : i32
    scf.yield %n1, %d1, %acc1, %in#2 : i32, i32, i32, f32
  }
  return %r#2, %r#3 : i32, f32
}
func.func @branches_vmap(%ns: tensor<?xi32> {loom.name = "ns"},
                         %ds: tensor<?xi32> {loom.name = "ds"},
                         %fs: tensor<?xf32> {loom.name = "fs"})
    -> (tensor<?xi32> {loom.name = "acc"}, tensor<?xf32> {loom.name = "g"}) {
  %r:2 = loom.vmap @branches(%ns, %ds, %fs) in_axes [0, 0, 0] out_axes [0, 0]
      : (tensor<?xi32>, tensor<?xi32>, tensor<?xf32>)
        -> (tensor<?xi32>, tensor<?xf32>)
  return %r#0, %r#1 : tensor<?xi32>, tensor<?xf32>
}

// A divergent loop under a per-lane branch that the first lanes do not
// take: a gang with refill starts from the first lanes the branch keeps,
// not from lanes 0 .. W-1 (whose slots would all start empty).
func.func @late(%x0: i32 {loom.name = "x"}) -> (i32 {loom.name = "steps"}) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c10 = arith.constant 10 : i32
  %big = arith.cmpi sgt, %x0, %c10 : i32
  %r = scf.if %big -> (i32) {
    %w:2 = scf.while (%x = %x0, %n = %c0) : (i32, i32) -> (i32, i32) {
      %go = arith.cmpi sgt, %x, %c1 : i32
      scf.condition(%go) %x, %n : i32, i32
    } do {
    ^bb0(%x: i32, %n: i32):
      %h = arith.shrsi %x, %c1 : i32
      %n1 = arith.addi %n, %c1 : i32
      scf.yield %h, %n1 : i32, i32
    }
    scf.yield %w#1 : i32
  } else {
    %m = arith.subi %c0, %c1 : i32
    scf.yield %m : i32
  }
  return %r : i32
}
func.func @late_vmap(%xs: tensor<?xi32> {loom.name = "xs"})
    -> (tensor<?xi32> {loom.name = "steps"}) {
  %r = loom.vmap @late(%xs) in_axes [0] out_axes [0]
      : (tensor<?xi32>) -> tensor<?xi32>
  return %r : tensor<?xi32>
}

// A buffer the outer level builds anew every iteration from the scalars
// (a splat, then an entry written at a per-lane index by an inner loop):
// the masked forms keep the old buffer on finished lanes by a select.
func.func @rebuild(%rate: f32 {loom.name = "rate"})
    -> (tensor<6xf32> {loom.name = "buf"}, i32 {loom.name = "trips"}) {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %end = arith.constant 5.0 : f32
  %i0 = arith.constant 0 : i32
  %i1 = arith.constant 1 : i32
  %c1 = arith.constant 1 : index
  %c6 = arith.constant 6 : index
  %buf0 = tensor.splat %zero : tensor<6xf32>
  %r:3 = scf.while (%t = %zero, %buf = %buf0, %n = %i0)
      : (f32, tensor<6xf32>, i32) -> (f32, tensor<6xf32>, i32) {
    %go = arith.cmpf olt, %t, %end : f32
    scf.condition(%go) %t, %buf, %n : f32, tensor<6xf32>, i32
  } do {
  ^bb0(%t: f32, %buf: tensor<6xf32>, %n: i32):
    %tn = arith.addf %t, %rate : f32
    %fresh = tensor.splat %tn : tensor<6xf32>
    %in:2 = scf.while (%b = %fresh, %j = %c1) : (tensor<6xf32>, index)
        -> (tensor<6xf32>, index) {
      %ji = arith.index_cast %j : index to i32
      %jf = arith.sitofp %ji : i32 to f32
      %room = arith.cmpi ult, %j, %c6 : index
      %due = arith.cmpf olt, %jf, %tn : f32
      %go = arith.andi %room, %due : i1
      scf.condition(%go) %b, %j : tensor<6xf32>, index
    } do {
    ^bb0(%b: tensor<6xf32>, %j: index):
      %ji = arith.index_cast %j : index to i32
      %jf = arith.sitofp %ji : i32 to f32
      %v = arith.subf %tn, %jf : f32
      %b1 = tensor.insert %v into %b[%j] : tensor<6xf32>
      %j1 = arith.addi %j, %c1 : index
      scf.yield %b1, %j1 : tensor<6xf32>, index
    }
    %n1 = arith.addi %n, %i1 : i32
    %t1 = arith.addf %tn, %one : f32
    scf.yield %t1, %in#0, %n1 : f32, tensor<6xf32>, i32
  }
  return %r#1, %r#2 : tensor<6xf32>, i32
}
func.func @rebuild_vmap(%rates: tensor<?xf32> {loom.name = "rates"})
    -> (tensor<?x6xf32> {loom.name = "buf"}, tensor<?xi32> {loom.name = "trips"}) {
  %r:2 = loom.vmap @rebuild(%rates) in_axes [0] out_axes [0, 0]
      : (tensor<?xf32>) -> (tensor<?x6xf32>, tensor<?xi32>)
  return %r#0, %r#1 : tensor<?x6xf32>, tensor<?xi32>
}

// A key split every trip of a divergent loop, as the SDE's Brownian tree
// descends: one subkey goes on, one draws a normal and one a pair of
// uniforms, and the loop also returns the last key. Lanes with n <= 0 never
// enter. Batched, the random ops run lane by lane on the key's words.
func.func @descend(%key: tensor<2xi32> {loom.name = "key"},
                   %n: i32 {loom.name = "n"})
    -> (f32 {loom.name = "acc"}, tensor<2xi32> {loom.name = "last"},
        tensor<2xf32> {loom.name = "pair"}) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %pair0 = arith.constant dense<0.0> : tensor<2xf32>
  %r:4 = scf.while (%i = %c0, %k = %key, %acc = %zero, %p = %pair0)
      : (i32, tensor<2xi32>, f32, tensor<2xf32>)
     -> (i32, tensor<2xi32>, f32, tensor<2xf32>) {
    %go = arith.cmpi slt, %i, %n : i32
    scf.condition(%go) %i, %k, %acc, %p
        : i32, tensor<2xi32>, f32, tensor<2xf32>
  } do {
  ^bb0(%i: i32, %k: tensor<2xi32>, %acc: f32, %p: tensor<2xf32>):
    %s = loom.random.split %k : tensor<3x2xi32>
    %k0 = tensor.extract_slice %s[0, 0] [1, 2] [1, 1]
        : tensor<3x2xi32> to tensor<2xi32>
    %k1 = tensor.extract_slice %s[1, 0] [1, 2] [1, 1]
        : tensor<3x2xi32> to tensor<2xi32>
    %k2 = tensor.extract_slice %s[2, 0] [1, 2] [1, 1]
        : tensor<3x2xi32> to tensor<2xi32>
    %x = loom.random.normal %k1 : f32
    %u = loom.random.uniform %k2, %zero, %one : tensor<2xf32>
    %a = arith.addf %acc, %x : f32
    %q = arith.addf %p, %u : tensor<2xf32>
    %in = arith.addi %i, %c1 : i32
    scf.yield %in, %k0, %a, %q : i32, tensor<2xi32>, f32, tensor<2xf32>
  }
  return %r#2, %r#1, %r#3 : f32, tensor<2xi32>, tensor<2xf32>
}

func.func @descend_vmap(%keys: tensor<?x2xi32> {loom.name = "keys"},
                        %ns: tensor<?xi32> {loom.name = "ns"})
    -> (tensor<?xf32> {loom.name = "acc"}, tensor<?x2xi32> {loom.name = "last"},
        tensor<?x2xf32> {loom.name = "pair"}) {
  %a, %l, %p = loom.vmap @descend(%keys, %ns) in_axes [0, 0]
      out_axes [0, 0, 0]
      : (tensor<?x2xi32>, tensor<?xi32>)
     -> (tensor<?xf32>, tensor<?x2xi32>, tensor<?x2xf32>)
  return %a, %l, %p : tensor<?xf32>, tensor<?x2xi32>, tensor<?x2xf32>
}

// A three-component state (the Lorenz system, Heun's method) stepped until
// a per-lane end time: elementwise ops on tensor<3xf32> with splat and
// dense constants, which batching applies to whole batches of states and
// loom-split-lane-tensors splits into one lane vector per component.
func.func private @lorenz_field(%y: tensor<3xf32>) -> tensor<3xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %x = tensor.extract %y[%c0] : tensor<3xf32>
  %v = tensor.extract %y[%c1] : tensor<3xf32>
  %z = tensor.extract %y[%c2] : tensor<3xf32>
  %zyx = tensor.from_elements %v, %x, %x : tensor<3xf32>
  %xyz = tensor.from_elements %x, %z, %v : tensor<3xf32>
  %coef = arith.constant dense<[10.0, 28.0, 2.6666]> : tensor<3xf32>
  // 10 (v - x), x (28 - z) - v, x v - 2.6666 z
  %a = arith.subf %zyx, %xyz : tensor<3xf32>
  %s = arith.mulf %coef, %a : tensor<3xf32>
  %d0 = tensor.extract %s[%c0] : tensor<3xf32>
  %r = arith.constant 28.0 : f32
  %b = arith.constant 2.6666 : f32
  %rz = arith.subf %r, %z : f32
  %xrz = arith.mulf %x, %rz : f32
  %d1 = arith.subf %xrz, %v : f32
  %xv = arith.mulf %x, %v : f32
  %bz = arith.mulf %b, %z : f32
  %d2 = arith.subf %xv, %bz : f32
  %d = tensor.from_elements %d0, %d1, %d2 : tensor<3xf32>
  return %d : tensor<3xf32>
}

func.func @lorenz(%y0: tensor<3xf32> {loom.name = "y0"},
                  %tend: f32 {loom.name = "tend"})
    -> (tensor<3xf32> {loom.name = "y"}, i32 {loom.name = "steps"}) {
  %zero = arith.constant 0.0 : f32
  %h = arith.constant 0.01 : f32
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %hs = arith.constant dense<0.01> : tensor<3xf32>
  %halfs = arith.constant dense<0.5> : tensor<3xf32>
  %r:3 = scf.while (%t = %zero, %y = %y0, %n = %c0)
      : (f32, tensor<3xf32>, i32) -> (f32, tensor<3xf32>, i32) {
    %go = arith.cmpf olt, %t, %tend : f32
    scf.condition(%go) %t, %y, %n : f32, tensor<3xf32>, i32
  } do {
  ^bb0(%t: f32, %y: tensor<3xf32>, %n: i32):
    %k1 = func.call @lorenz_field(%y) : (tensor<3xf32>) -> tensor<3xf32>
    %s1 = arith.mulf %hs, %k1 : tensor<3xf32>
    %y1 = arith.addf %y, %s1 : tensor<3xf32>
    %k2 = func.call @lorenz_field(%y1) : (tensor<3xf32>) -> tensor<3xf32>
    %ks = arith.addf %k1, %k2 : tensor<3xf32>
    %ka = arith.mulf %ks, %halfs : tensor<3xf32>
    %s2 = arith.mulf %hs, %ka : tensor<3xf32>
    %yn = arith.addf %y, %s2 : tensor<3xf32>
    %tn = arith.addf %t, %h : f32
    %nn = arith.addi %n, %c1 : i32
    scf.yield %tn, %yn, %nn : f32, tensor<3xf32>, i32
  }
  return %r#1, %r#2 : tensor<3xf32>, i32
}

func.func @lorenz_vmap(%y0s: tensor<?x3xf32> {loom.name = "y0s"},
                       %tends: tensor<?xf32> {loom.name = "tends"})
    -> (tensor<?x3xf32> {loom.name = "y"}, tensor<?xi32> {loom.name = "steps"}) {
  %y, %n = loom.vmap @lorenz(%y0s, %tends) in_axes [0, 0] out_axes [0, 0]
      : (tensor<?x3xf32>, tensor<?xf32>) -> (tensor<?x3xf32>, tensor<?xi32>)
  return %y, %n : tensor<?x3xf32>, tensor<?xi32>
}
