// The seed's diffrax ODE solve (patrick-kidger/diffrax#407), as Loom IR.
//
//   def f(t, y, args): return jnp.sin(t) + args["theta"] * y
//   def solve(init, key, args):
//     sol = diffeqsolve(ODETerm(f), Heun(), t0=0., t1=0.1, dt0=0.01, y0=init,
//                       args=args, saveat=SaveAt(ts=jnp.linspace(t0, t1, 100)),
//                       stepsize_controller=PIDController(1e-3, 1e-6),
//                       max_steps=100)
//     return sol.ys
//   eqx.filter_jit(eqx.filter_vmap(solve, in_axes=(0, 0, None)))(
//       0.1 * jnp.ones((300, 1)), keys, {"theta": 0.1})
//
// It reproduces diffrax v0.7.2's `diffeqsolve` for this configuration, as
// shared/reference/diffrax-solver-spec.md reads it (§0 setup, §1 the outer
// loop and the SaveAt(ts) save loop, §2 the Heun step and its cubic Hermite
// dense output, §3 the PID controller, which with its default coefficients is
// an I-controller), and is transliterated line by line from the hand-written
// baseline benchmarks/baseline/Seed.cpp (`diffeqsolve`), which reproduces
// every ODE number in shared/reference/golden.md. Every float operation is
// one float32 operation of diffrax's, in diffrax's order, with no fused
// multiply-add: the adaptive step-size sequence depends on the last bit.
//
// The defaults are the seed's configuration (t1 0.1, dt0 0.01, max_steps 100:
// golden.md's second ODE row, 8 steps). golden.md's first row is t1 = 1.0,
// dt0 = 0.05 (54 steps, 53 accepted, 1 rejected).
//
// Both loops are divergent under vmap once anything per lane differs (y0
// here; the key in the SDE): the outer `tprev < t1` and the inner save loop's
// `keep & ts[i] <= tnext & i < 100` depend on the lane's accepted steps. That
// is the while-of-while whose predicate a sharded jax.jit all-reduces on
// every iteration.
//
// Errors. The scalar function returns diffrax's result code (0 successful,
// 1 max_steps_reached, and 2 dt0_wrong_sign for (t1 - t0) * dt0 < 0, which
// diffrax raises on before solving; loom/Support/SolverResults.h has the
// table and the messages) and leaves slots it never reached at +inf, which is
// `diffeqsolve(..., throw=False)`. With t0 == t1 it takes no step and saves
// y0 at every ts, as diffrax does. `on_error` carries loom.range = [0, 2], so
// a call with any other mode fails before it runs. equinox decides EQX_ON_ERROR with
// `unvmap_any(result != successful)`, over the whole batch, so @main applies
// it after the vmapped solve, selected by its `on_error` argument; the
// per-lane `result` output is returned in every mode:
//   0 raise (default)  outputs unchanged. A compiled call cannot throw, and
//                      which lanes failed is known only once the batch has
//                      run, so the caller raises on any nonzero `result`:
//                      `loom-run --raise-on=result` fails naming the lanes.
//   1 nan              if any lane failed, every output of every lane is
//                      replaced: floats by NaN, integers (the result codes
//                      too) by INT32_MAX, as equinox's _nan_like does. The
//                      "any lane" is one loom.max over the batch after the
//                      loops: sharded, one all-reduce outside them.
//   2 off              the outputs are returned as they are.
// @main's results carry loom.batch_axis explicitly: they pass through the
// scf.if that applies `nan`, so they are not the loom.vmap's results that
// loom-annotate-batch-axes recognises.

// diffrax's vector field, f(t, y, args) = sin t + theta * y.
func.func private @vf(%t: f32, %y: f32, %theta: f32) -> f32 {
  %s = math.sin %t : f32
  %ty = arith.mulf %theta, %y : f32
  %r = arith.addf %s, %ty : f32
  return %r : f32
}

// ts[i] of jnp.linspace(t0, t1, 100): t0 * (1 - i/99) + t1 * (i/99) in
// float32, and t1 itself at i = 99.
func.func private @ts_at(%t0: f32, %t1: f32, %i: i32) -> f32 {
  %one = arith.constant 1.0 : f32
  %div = arith.constant 99.0 : f32
  %last = arith.constant 99 : i32
  %fi = arith.sitofp %i : i32 to f32
  %step = arith.divf %fi, %div : f32
  %rest = arith.subf %one, %step : f32
  %a = arith.mulf %t0, %rest : f32
  %b = arith.mulf %t1, %step : f32
  %t = arith.addf %a, %b : f32
  %is_last = arith.cmpi eq, %i, %last : i32
  %r = arith.select %is_last, %t1, %t : f32
  return %r : f32
}

// diffrax's linear_rescale: (t - t0) / (t1 - t0), and 0 when t0 == t1.
func.func private @linear_rescale(%t0: f32, %t: f32, %t1: f32) -> f32 {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %empty = arith.cmpf oeq, %t0, %t1 : f32
  %tt = arith.select %empty, %t0, %t : f32
  %len = arith.subf %t1, %t0 : f32
  %div = arith.select %empty, %one, %len : f32
  %num = arith.subf %tt, %t0 : f32
  %q = arith.divf %num, %div : f32
  %r = arith.select %empty, %zero, %q : f32
  return %r : f32
}

// nextafter(x, -inf) (equinox's prevbefore), on the bits: one ulp towards
// -inf is one less for a positive float and one more for a negative one.
func.func private @prevbefore(%x: f32) -> f32 {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %c1 = arith.constant 1 : i32
  // 0x80000001, the smallest negative subnormal: nextafter(+-0, -inf).
  %neg_tiny = arith.constant -2147483647 : i32
  %bits = arith.bitcast %x : f32 to i32
  %down = arith.subi %bits, %c1 : i32
  %up = arith.addi %bits, %c1 : i32
  %pos = arith.cmpf ogt, %x, %zero : f32
  %is_zero = arith.cmpf oeq, %x, %zero : f32
  // -inf and NaN stay as they are.
  %neg = arith.cmpf ogt, %x, %ninf : f32
  %r0 = arith.select %neg, %up, %bits : i32
  %r1 = arith.select %is_zero, %neg_tiny, %r0 : i32
  %r2 = arith.select %pos, %down, %r1 : i32
  %r = arith.bitcast %r2 : i32 to f32
  return %r : f32
}

// One lane: diffeqsolve with Heun, PIDController(rtol=1e-3, atol=1e-6) and
// SaveAt(ts=linspace(t0, t1, 100)).
func.func @solve_ode(
    %y0: tensor<1xf32> {loom.name = "y0"},
    %t0: f32 {loom.name = "t0", loom.default = 0.0 : f32},
    %t1: f32 {loom.name = "t1", loom.default = 0.1 : f32},
    %dt0: f32 {loom.name = "dt0", loom.default = 0.01 : f32},
    %theta: f32 {loom.name = "theta", loom.default = 0.1 : f32},
    %max_steps: i32 {loom.name = "max_steps", loom.default = 100 : i32})
    -> (tensor<100x1xf32> {loom.name = "ys"},
        i32 {loom.name = "num_steps"},
        i32 {loom.name = "num_accepted_steps"},
        i32 {loom.name = "num_rejected_steps"},
        i32 {loom.name = "result"}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c100 = arith.constant 100 : index
  %i0 = arith.constant 0 : i32
  %i1 = arith.constant 1 : i32
  %n_saves = arith.constant 100 : i32
  %last_save = arith.constant 99 : i32
  %f0 = arith.constant 0.0 : f32
  %half = arith.constant 0.5 : f32
  %neg_half = arith.constant -0.5 : f32
  %one = arith.constant 1.0 : f32
  %two = arith.constant 2.0 : f32
  %neg_two = arith.constant -2.0 : f32
  %three = arith.constant 3.0 : f32
  %inf = arith.constant 0x7F800000 : f32
  %rtol = arith.constant 1.0e-3 : f32
  %atol = arith.constant 1.0e-6 : f32
  %safety = arith.constant 0.9 : f32
  %factormin = arith.constant 0.2 : f32
  %factormax = arith.constant 10.0 : f32
  // 1 / error_order, with Heun.order() = 2 for an ODE.
  %exponent = arith.constant 0.5 : f32

  %y_init = tensor.extract %y0[%c0] : tensor<1xf32>

  // Slots no step reaches stay +inf (diffrax's out_ys = full(+inf)). With
  // t0 == t1 no step is taken, and diffrax, having nothing to interpolate,
  // saves y0 at every ts (each equal to t0) instead: the buffer starts full
  // of y0 then, which costs nothing (a fill either way), where an scf.if
  // after the loop would allocate a second buffer.
  %no_span = arith.cmpf oeq, %t0, %t1 : f32
  %slot_init = arith.select %no_span, %y_init, %inf : f32
  %ys_init = tensor.splat %slot_init : tensor<100x1xf32>

  // t1 stepped down 100 ulps: a tnext above it is snapped to t1.
  %t1_clip_floor = scf.for %k = %c0 to %c100 step %c1
      iter_args(%x = %t1) -> (f32) {
    %p = func.call @prevbefore(%x) : (f32) -> f32
    scf.yield %p : f32
  }

  %t_first = arith.addf %t0, %dt0 : f32
  %tnext_init = arith.minimumf %t_first, %t1 : f32

  // diffrax checks (t1 - t0) * dt0 >= 0 before it solves, and raises "Must
  // have (t1 - t0) * dt0 >= 0" otherwise. A compiled call cannot raise: such
  // a lane takes no step and returns result 2 (dt0_wrong_sign, in
  // loom/Support/SolverResults.h), which the caller raises on. A NaN passes,
  // as it passes diffrax's `(t1 - t0) * dt0 < 0`.
  %span = arith.subf %t1, %t0 : f32
  %span_dt = arith.mulf %span, %dt0 : f32
  %wrong_sign = arith.cmpf olt, %span_dt, %f0 : f32
  %step_budget = arith.select %wrong_sign, %i0, %max_steps : i32

  %out:8 = scf.while (%y = %y_init, %tprev = %t0, %tnext = %tnext_init,
                      %steps = %i0, %accepted = %i0, %rejected = %i0,
                      %save_i = %i0, %ys = %ys_init)
      : (f32, f32, f32, i32, i32, i32, i32, tensor<100x1xf32>)
     -> (f32, f32, f32, i32, i32, i32, i32, tensor<100x1xf32>) {
    %running = arith.cmpf olt, %tprev, %t1 : f32
    %budget = arith.cmpi slt, %steps, %step_budget : i32
    %go = arith.andi %running, %budget : i1
    scf.condition(%go) %y, %tprev, %tnext, %steps, %accepted, %rejected,
                       %save_i, %ys
        : f32, f32, f32, i32, i32, i32, i32, tensor<100x1xf32>
  } do {
  ^bb0(%y: f32, %tprev: f32, %tnext: f32, %steps: i32, %accepted: i32,
       %rejected: i32, %save_i: i32, %ys: tensor<100x1xf32>):
    // Heun on [tprev, tnext]: k = dt * f, stage 1 at exactly tnext.
    %dt = arith.subf %tnext, %tprev : f32
    %f_a = func.call @vf(%tprev, %y, %theta) : (f32, f32, f32) -> f32
    %k0 = arith.mulf %dt, %f_a : f32
    %y_stage = arith.addf %y, %k0 : f32
    %f_b = func.call @vf(%tnext, %y_stage, %theta) : (f32, f32, f32) -> f32
    %k1 = arith.mulf %dt, %f_b : f32
    %hk0 = arith.mulf %half, %k0 : f32
    %hk1 = arith.mulf %half, %k1 : f32
    %inc = arith.addf %hk0, %hk1 : f32
    %y1 = arith.addf %y, %inc : f32
    %nhk1 = arith.mulf %neg_half, %k1 : f32
    %err_raw = arith.addf %hk0, %nhk1 : f32
    %err_nan = arith.cmpf uno, %err_raw, %err_raw : f32
    %err = arith.select %err_nan, %inf, %err_raw : f32

    // PIDController.adapt_step_size: scaled error, then the I-controller.
    %y1_nan = arith.cmpf uno, %y1, %y1 : f32
    %y1_safe = arith.select %y1_nan, %y, %y1 : f32
    %ay = math.absf %y : f32
    %ay1 = math.absf %y1_safe : f32
    %ymax = arith.maximumf %ay, %ay1 : f32
    %rel = arith.mulf %ymax, %rtol : f32
    %scale = arith.addf %atol, %rel : f32
    %ratio = arith.divf %err, %scale : f32
    %scaled_error = math.absf %ratio : f32
    %keep = arith.cmpf olt, %scaled_error, %one : f32
    %inv = arith.divf %one, %scaled_error : f32
    %pow = math.powf %inv, %exponent : f32
    %factor_raw = arith.mulf %safety, %pow : f32
    // An accepted step never shrinks dt; a rejected one shrinks it to
    // between 0.2 and 0.9 of itself.
    %lo = arith.select %keep, %one, %factormin : f32
    %hi = arith.select %keep, %factormax, %safety : f32
    %factor_lo = arith.maximumf %factor_raw, %lo : f32
    %factor = arith.minimumf %factor_lo, %hi : f32
    %dt_new = arith.mulf %dt, %factor : f32
    %tp_ctrl = arith.select %keep, %tnext, %tprev : f32
    %tn_ctrl = arith.addf %tp_ctrl, %dt_new : f32

    // Clip to the end: close to t1 means t1 for an accepted step, and the
    // midpoint of what is left for a rejected one.
    %tp_new = arith.minimumf %tp_ctrl, %t1 : f32
    %near_end = arith.cmpf ogt, %tn_ctrl, %t1_clip_floor : f32
    %left = arith.subf %t1, %tp_new : f32
    %half_left = arith.mulf %half, %left : f32
    %mid = arith.addf %tp_new, %half_left : f32
    %t_end = arith.select %keep, %t1, %mid : f32
    %tn_new = arith.select %near_end, %t_end, %tn_ctrl : f32

    %y_new = arith.select %keep, %y1, %y : f32
    %steps_new = arith.addi %steps, %i1 : i32
    %keep_i = arith.extui %keep : i1 to i32
    %accepted_new = arith.addi %accepted, %keep_i : i32
    %reject_i = arith.subi %i1, %keep_i : i32
    %rejected_new = arith.addi %rejected, %reject_i : i32

    // Cubic Hermite dense output on the attempted [tprev, tnext] with
    // K0 = k0 and K1 = k1 (the stage increment, not dt * f(tnext, y1)):
    // p(s) = ((a s + b) s + k0) s + y.
    %two_y = arith.mulf %two, %y : f32
    %two_y1 = arith.mulf %two, %y1 : f32
    %a0 = arith.addf %k0, %k1 : f32
    %a1 = arith.addf %a0, %two_y : f32
    %a = arith.subf %a1, %two_y1 : f32
    %three_y = arith.mulf %three, %y : f32
    %three_y1 = arith.mulf %three, %y1 : f32
    %m2k0 = arith.mulf %neg_two, %k0 : f32
    %b0 = arith.subf %m2k0, %k1 : f32
    %b1 = arith.subf %b0, %three_y : f32
    %b = arith.addf %b1, %three_y1 : f32

    // SaveAt(ts): every ts[i] <= tnext of an accepted step, written in
    // place into the buffer the loop carries. ts[i] is read before i < 100
    // is known, so the index is clamped as JAX clamps the read.
    %saved:2 = scf.while (%i = %save_i, %buf = %ys)
        : (i32, tensor<100x1xf32>) -> (i32, tensor<100x1xf32>) {
      %in_range = arith.cmpi slt, %i, %n_saves : i32
      %i_read = arith.minsi %i, %last_save : i32
      %t_i = func.call @ts_at(%t0, %t1, %i_read) : (f32, f32, i32) -> f32
      %due = arith.cmpf ole, %t_i, %tnext : f32
      %c_a = arith.andi %keep, %due : i1
      %more = arith.andi %c_a, %in_range : i1
      scf.condition(%more) %i, %buf : i32, tensor<100x1xf32>
    } do {
    ^bb0(%i: i32, %buf: tensor<100x1xf32>):
      %t_i = func.call @ts_at(%t0, %t1, %i) : (f32, f32, i32) -> f32
      %s = func.call @linear_rescale(%tprev, %t_i, %tnext)
          : (f32, f32, f32) -> f32
      // jnp.polyval starts from 0 * s + a, which is a.
      %h0 = arith.mulf %a, %s : f32
      %h1 = arith.addf %h0, %b : f32
      %h2 = arith.mulf %h1, %s : f32
      %h3 = arith.addf %h2, %k0 : f32
      %h4 = arith.mulf %h3, %s : f32
      %y_t = arith.addf %h4, %y : f32
      %row = arith.index_cast %i : i32 to index
      %buf_new = tensor.insert %y_t into %buf[%row, %c0] : tensor<100x1xf32>
      %i_next = arith.addi %i, %i1 : i32
      scf.yield %i_next, %buf_new : i32, tensor<100x1xf32>
    }

    scf.yield %y_new, %tp_new, %tn_new, %steps_new, %accepted_new,
              %rejected_new, %saved#0, %saved#1
        : f32, f32, f32, i32, i32, i32, i32, tensor<100x1xf32>
  }

  // Still short of t1 after max_steps attempts: max_steps_reached (1); a
  // dt0 pointing away from t1: dt0_wrong_sign (2).
  %unfinished = arith.cmpf olt, %out#1, %t1 : f32
  %code_unfinished = arith.extui %unfinished : i1 to i32
  %code_wrong_sign = arith.constant 2 : i32
  %result = arith.select %wrong_sign, %code_wrong_sign, %code_unfinished
      : i32
  return %out#7, %out#3, %out#4, %out#5, %result
      : tensor<100x1xf32>, i32, i32, i32, i32
}

// jax.vmap(solve) over any batch size; the scalar parameters are shared.
func.func @main(
    %y0s: tensor<?x1xf32> {loom.name = "inits"},
    %t0: f32 {loom.name = "t0", loom.default = 0.0 : f32},
    %t1: f32 {loom.name = "t1", loom.default = 0.1 : f32},
    %dt0: f32 {loom.name = "dt0", loom.default = 0.01 : f32},
    %theta: f32 {loom.name = "theta", loom.default = 0.1 : f32},
    %max_steps: i32 {loom.name = "max_steps", loom.default = 100 : i32},
    %on_error: i32 {loom.name = "on_error", loom.default = 0 : i32,
                    loom.range = [0, 2]})
    -> (tensor<?x100x1xf32> {loom.name = "ys",
                              loom.batch_axis = 0 : i64},
        tensor<?xi32> {loom.name = "num_steps",
                      loom.batch_axis = 0 : i64},
        tensor<?xi32> {loom.name = "num_accepted_steps",
                      loom.batch_axis = 0 : i64},
        tensor<?xi32> {loom.name = "num_rejected_steps",
                      loom.batch_axis = 0 : i64},
        tensor<?xi32> {loom.name = "result",
                      loom.batch_axis = 0 : i64}) {
  %ys, %steps, %accepted, %rejected, %result =
      loom.vmap @solve_ode(%y0s, %t0, %t1, %dt0, %theta, %max_steps)
      in_axes [0, none, none, none, none, none] out_axes [0, 0, 0, 0, 0]
      : (tensor<?x1xf32>, f32, f32, f32, f32, i32)
     -> (tensor<?x100x1xf32>, tensor<?xi32>, tensor<?xi32>, tensor<?xi32>,
         tensor<?xi32>)
  // EQX_ON_ERROR=nan: equinox's unvmap_any(result != successful) is one
  // reduction over the batch, after the solve's loops, so a sharded program
  // all-reduces it once. Result codes are >= 0, so an empty batch (whose max
  // is the smallest i32) counts as successful.
  %c0 = arith.constant 0 : index
  %i0 = arith.constant 0 : i32
  %nan_mode = arith.constant 1 : i32
  %worst = loom.max %result along 0 : tensor<?xi32> -> i32
  %any_failed = arith.cmpi sgt, %worst, %i0 : i32
  %is_nan_mode = arith.cmpi eq, %on_error, %nan_mode : i32
  %poison = arith.andi %any_failed, %is_nan_mode : i1
  // Only a poisoned batch allocates the replacement buffers.
  %outs:5 = scf.if %poison
      -> (tensor<?x100x1xf32>, tensor<?xi32>, tensor<?xi32>, tensor<?xi32>,
          tensor<?xi32>) {
    %b = tensor.dim %result, %c0 : tensor<?xi32>
    %nan = arith.constant 0x7FC00000 : f32
    %imax = arith.constant 2147483647 : i32
    %nan_ys = tensor.splat %nan[%b] : tensor<?x100x1xf32>
    %imax_b = tensor.splat %imax[%b] : tensor<?xi32>
    scf.yield %nan_ys, %imax_b, %imax_b, %imax_b, %imax_b
        : tensor<?x100x1xf32>, tensor<?xi32>, tensor<?xi32>, tensor<?xi32>,
          tensor<?xi32>
  } else {
    scf.yield %ys, %steps, %accepted, %rejected, %result
        : tensor<?x100x1xf32>, tensor<?xi32>, tensor<?xi32>, tensor<?xi32>,
          tensor<?xi32>
  }
  return %outs#0, %outs#1, %outs#2, %outs#3, %outs#4
      : tensor<?x100x1xf32>, tensor<?xi32>, tensor<?xi32>, tensor<?xi32>,
        tensor<?xi32>
}
