// The seed's diffrax ODE solve in float64 (JAX with jax_enable_x64), as Loom
// IR.
//
// ode.mlir with every float32 value and operation made float64, op for op:
// the same Heun step, PID controller, end clipping, SaveAt(ts) loop, result
// codes and EQX_ON_ERROR handling (see ode.mlir's header for all of them).
// The differences are only those x64 mode makes: prevbefore steps one f64
// ulp on the 64-bit word, +inf/NaN are the f64 ones, and `rtol`/`atol` are
// arguments (defaults the seed's 1e-3/1e-6) so that a run can ask for the
// tolerances float64 makes meaningful. The step statistics and result codes
// stay int32, as diffrax's are.
//
// sde_f64.mlir is the SDE made float64 the same way, with float64 normals
// drawn from 64-bit words as JAX draws them in x64 mode.

// diffrax's vector field, f(t, y, args) = sin t + theta * y.
func.func private @vf(%t: f64, %y: f64, %theta: f64) -> f64 {
  %s = math.sin %t : f64
  %ty = arith.mulf %theta, %y : f64
  %r = arith.addf %s, %ty : f64
  return %r : f64
}

// ts[i] of jnp.linspace(t0, t1, 100): t0 * (1 - i/99) + t1 * (i/99) in
// float64, and t1 itself at i = 99.
func.func private @ts_at(%t0: f64, %t1: f64, %i: i32) -> f64 {
  %one = arith.constant 1.0 : f64
  %div = arith.constant 99.0 : f64
  %last = arith.constant 99 : i32
  %fi = arith.sitofp %i : i32 to f64
  %step = arith.divf %fi, %div : f64
  %rest = arith.subf %one, %step : f64
  %a = arith.mulf %t0, %rest : f64
  %b = arith.mulf %t1, %step : f64
  %t = arith.addf %a, %b : f64
  %is_last = arith.cmpi eq, %i, %last : i32
  %r = arith.select %is_last, %t1, %t : f64
  return %r : f64
}

// diffrax's linear_rescale: (t - t0) / (t1 - t0), and 0 when t0 == t1.
func.func private @linear_rescale(%t0: f64, %t: f64, %t1: f64) -> f64 {
  %zero = arith.constant 0.0 : f64
  %one = arith.constant 1.0 : f64
  %empty = arith.cmpf oeq, %t0, %t1 : f64
  %tt = arith.select %empty, %t0, %t : f64
  %len = arith.subf %t1, %t0 : f64
  %div = arith.select %empty, %one, %len : f64
  %num = arith.subf %tt, %t0 : f64
  %q = arith.divf %num, %div : f64
  %r = arith.select %empty, %zero, %q : f64
  return %r : f64
}

// nextafter(x, -inf) (equinox's prevbefore), on the bits: one ulp towards
// -inf is one less for a positive float and one more for a negative one.
func.func private @prevbefore(%x: f64) -> f64 {
  %zero = arith.constant 0.0 : f64
  %ninf = arith.constant 0xFFF0000000000000 : f64
  %c1 = arith.constant 1 : i64
  // 0x8000000000000001, the smallest negative subnormal: nextafter(+-0, -inf).
  %neg_tiny = arith.constant -9223372036854775807 : i64
  %bits = arith.bitcast %x : f64 to i64
  %down = arith.subi %bits, %c1 : i64
  %up = arith.addi %bits, %c1 : i64
  %pos = arith.cmpf ogt, %x, %zero : f64
  %is_zero = arith.cmpf oeq, %x, %zero : f64
  // -inf and NaN stay as they are.
  %neg = arith.cmpf ogt, %x, %ninf : f64
  %r0 = arith.select %neg, %up, %bits : i64
  %r1 = arith.select %is_zero, %neg_tiny, %r0 : i64
  %r2 = arith.select %pos, %down, %r1 : i64
  %r = arith.bitcast %r2 : i64 to f64
  return %r : f64
}

// One lane: diffeqsolve with Heun, PIDController(rtol, atol) and
// SaveAt(ts=linspace(t0, t1, 100)).
func.func @solve_ode(
    %y0: tensor<1xf64> {loom.name = "y0"},
    %t0: f64 {loom.name = "t0", loom.default = 0.0 : f64},
    %t1: f64 {loom.name = "t1", loom.default = 0.1 : f64},
    %dt0: f64 {loom.name = "dt0", loom.default = 0.01 : f64},
    %theta: f64 {loom.name = "theta", loom.default = 0.1 : f64},
    %max_steps: i32 {loom.name = "max_steps", loom.default = 100 : i32},
    %rtol: f64 {loom.name = "rtol", loom.default = 1.0e-3 : f64},
    %atol: f64 {loom.name = "atol", loom.default = 1.0e-6 : f64})
    -> (tensor<100x1xf64> {loom.name = "ys"},
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
  %f0 = arith.constant 0.0 : f64
  %half = arith.constant 0.5 : f64
  %neg_half = arith.constant -0.5 : f64
  %one = arith.constant 1.0 : f64
  %two = arith.constant 2.0 : f64
  %neg_two = arith.constant -2.0 : f64
  %three = arith.constant 3.0 : f64
  %inf = arith.constant 0x7FF0000000000000 : f64
  %safety = arith.constant 0.9 : f64
  %factormin = arith.constant 0.2 : f64
  %factormax = arith.constant 10.0 : f64
  // 1 / error_order, with Heun.order() = 2 for an ODE.
  %exponent = arith.constant 0.5 : f64

  %y_init = tensor.extract %y0[%c0] : tensor<1xf64>

  // Slots no step reaches stay +inf (diffrax's out_ys = full(+inf)). With
  // t0 == t1 no step is taken, and diffrax, having nothing to interpolate,
  // saves y0 at every ts (each equal to t0) instead: the buffer starts full
  // of y0 then, which costs nothing (a fill either way), where an scf.if
  // after the loop would allocate a second buffer.
  %no_span = arith.cmpf oeq, %t0, %t1 : f64
  %slot_init = arith.select %no_span, %y_init, %inf : f64
  %ys_init = tensor.splat %slot_init : tensor<100x1xf64>

  // t1 stepped down 100 ulps: a tnext above it is snapped to t1.
  %t1_clip_floor = scf.for %k = %c0 to %c100 step %c1
      iter_args(%x = %t1) -> (f64) {
    %p = func.call @prevbefore(%x) : (f64) -> f64
    scf.yield %p : f64
  }

  %t_first = arith.addf %t0, %dt0 : f64
  %tnext_init = arith.minimumf %t_first, %t1 : f64

  // diffrax checks (t1 - t0) * dt0 >= 0 before it solves, and raises "Must
  // have (t1 - t0) * dt0 >= 0" otherwise. A compiled call cannot raise: such
  // a lane takes no step and returns result 2 (dt0_wrong_sign, in
  // loom/Support/SolverResults.h), which the caller raises on. A NaN passes,
  // as it passes diffrax's `(t1 - t0) * dt0 < 0`.
  %span = arith.subf %t1, %t0 : f64
  %span_dt = arith.mulf %span, %dt0 : f64
  %wrong_sign = arith.cmpf olt, %span_dt, %f0 : f64
  %step_budget = arith.select %wrong_sign, %i0, %max_steps : i32

  %out:8 = scf.while (%y = %y_init, %tprev = %t0, %tnext = %tnext_init,
                      %steps = %i0, %accepted = %i0, %rejected = %i0,
                      %save_i = %i0, %ys = %ys_init)
      : (f64, f64, f64, i32, i32, i32, i32, tensor<100x1xf64>)
     -> (f64, f64, f64, i32, i32, i32, i32, tensor<100x1xf64>) {
    %running = arith.cmpf olt, %tprev, %t1 : f64
    %budget = arith.cmpi slt, %steps, %step_budget : i32
    %go = arith.andi %running, %budget : i1
    scf.condition(%go) %y, %tprev, %tnext, %steps, %accepted, %rejected,
                       %save_i, %ys
        : f64, f64, f64, i32, i32, i32, i32, tensor<100x1xf64>
  } do {
  ^bb0(%y: f64, %tprev: f64, %tnext: f64, %steps: i32, %accepted: i32,
       %rejected: i32, %save_i: i32, %ys: tensor<100x1xf64>):
    // Heun on [tprev, tnext]: k = dt * f, stage 1 at exactly tnext.
    %dt = arith.subf %tnext, %tprev : f64
    %f_a = func.call @vf(%tprev, %y, %theta) : (f64, f64, f64) -> f64
    %k0 = arith.mulf %dt, %f_a : f64
    %y_stage = arith.addf %y, %k0 : f64
    %f_b = func.call @vf(%tnext, %y_stage, %theta) : (f64, f64, f64) -> f64
    %k1 = arith.mulf %dt, %f_b : f64
    %hk0 = arith.mulf %half, %k0 : f64
    %hk1 = arith.mulf %half, %k1 : f64
    %inc = arith.addf %hk0, %hk1 : f64
    %y1 = arith.addf %y, %inc : f64
    %nhk1 = arith.mulf %neg_half, %k1 : f64
    %err_raw = arith.addf %hk0, %nhk1 : f64
    %err_nan = arith.cmpf uno, %err_raw, %err_raw : f64
    %err = arith.select %err_nan, %inf, %err_raw : f64

    // PIDController.adapt_step_size: scaled error, then the I-controller.
    %y1_nan = arith.cmpf uno, %y1, %y1 : f64
    %y1_safe = arith.select %y1_nan, %y, %y1 : f64
    %ay = math.absf %y : f64
    %ay1 = math.absf %y1_safe : f64
    %ymax = arith.maximumf %ay, %ay1 : f64
    %rel = arith.mulf %ymax, %rtol : f64
    %scale = arith.addf %atol, %rel : f64
    %ratio = arith.divf %err, %scale : f64
    %scaled_error = math.absf %ratio : f64
    %keep = arith.cmpf olt, %scaled_error, %one : f64
    %inv = arith.divf %one, %scaled_error : f64
    %pow = math.powf %inv, %exponent : f64
    %factor_raw = arith.mulf %safety, %pow : f64
    // An accepted step never shrinks dt; a rejected one shrinks it to
    // between 0.2 and 0.9 of itself.
    %lo = arith.select %keep, %one, %factormin : f64
    %hi = arith.select %keep, %factormax, %safety : f64
    %factor_lo = arith.maximumf %factor_raw, %lo : f64
    %factor = arith.minimumf %factor_lo, %hi : f64
    %dt_new = arith.mulf %dt, %factor : f64
    %tp_ctrl = arith.select %keep, %tnext, %tprev : f64
    %tn_ctrl = arith.addf %tp_ctrl, %dt_new : f64

    // Clip to the end: close to t1 means t1 for an accepted step, and the
    // midpoint of what is left for a rejected one.
    %tp_new = arith.minimumf %tp_ctrl, %t1 : f64
    %near_end = arith.cmpf ogt, %tn_ctrl, %t1_clip_floor : f64
    %left = arith.subf %t1, %tp_new : f64
    %half_left = arith.mulf %half, %left : f64
    %mid = arith.addf %tp_new, %half_left : f64
    %t_end = arith.select %keep, %t1, %mid : f64
    %tn_new = arith.select %near_end, %t_end, %tn_ctrl : f64

    %y_new = arith.select %keep, %y1, %y : f64
    %steps_new = arith.addi %steps, %i1 : i32
    %keep_i = arith.extui %keep : i1 to i32
    %accepted_new = arith.addi %accepted, %keep_i : i32
    %reject_i = arith.subi %i1, %keep_i : i32
    %rejected_new = arith.addi %rejected, %reject_i : i32

    // Cubic Hermite dense output on the attempted [tprev, tnext] with
    // K0 = k0 and K1 = k1 (the stage increment, not dt * f(tnext, y1)):
    // p(s) = ((a s + b) s + k0) s + y.
    %two_y = arith.mulf %two, %y : f64
    %two_y1 = arith.mulf %two, %y1 : f64
    %a0 = arith.addf %k0, %k1 : f64
    %a1 = arith.addf %a0, %two_y : f64
    %a = arith.subf %a1, %two_y1 : f64
    %three_y = arith.mulf %three, %y : f64
    %three_y1 = arith.mulf %three, %y1 : f64
    %m2k0 = arith.mulf %neg_two, %k0 : f64
    %b0 = arith.subf %m2k0, %k1 : f64
    %b1 = arith.subf %b0, %three_y : f64
    %b = arith.addf %b1, %three_y1 : f64

    // SaveAt(ts): every ts[i] <= tnext of an accepted step, written in
    // place into the buffer the loop carries. ts[i] is read before i < 100
    // is known, so the index is clamped as JAX clamps the read.
    %saved:2 = scf.while (%i = %save_i, %buf = %ys)
        : (i32, tensor<100x1xf64>) -> (i32, tensor<100x1xf64>) {
      %in_range = arith.cmpi slt, %i, %n_saves : i32
      %i_read = arith.minsi %i, %last_save : i32
      %t_i = func.call @ts_at(%t0, %t1, %i_read) : (f64, f64, i32) -> f64
      %due = arith.cmpf ole, %t_i, %tnext : f64
      %c_a = arith.andi %keep, %due : i1
      %more = arith.andi %c_a, %in_range : i1
      scf.condition(%more) %i, %buf : i32, tensor<100x1xf64>
    } do {
    ^bb0(%i: i32, %buf: tensor<100x1xf64>):
      %t_i = func.call @ts_at(%t0, %t1, %i) : (f64, f64, i32) -> f64
      %s = func.call @linear_rescale(%tprev, %t_i, %tnext)
          : (f64, f64, f64) -> f64
      // jnp.polyval starts from 0 * s + a, which is a.
      %h0 = arith.mulf %a, %s : f64
      %h1 = arith.addf %h0, %b : f64
      %h2 = arith.mulf %h1, %s : f64
      %h3 = arith.addf %h2, %k0 : f64
      %h4 = arith.mulf %h3, %s : f64
      %y_t = arith.addf %h4, %y : f64
      %row = arith.index_cast %i : i32 to index
      %buf_new = tensor.insert %y_t into %buf[%row, %c0] : tensor<100x1xf64>
      %i_next = arith.addi %i, %i1 : i32
      scf.yield %i_next, %buf_new : i32, tensor<100x1xf64>
    }

    scf.yield %y_new, %tp_new, %tn_new, %steps_new, %accepted_new,
              %rejected_new, %saved#0, %saved#1
        : f64, f64, f64, i32, i32, i32, i32, tensor<100x1xf64>
  }

  // Still short of t1 after max_steps attempts: max_steps_reached (1); a
  // dt0 pointing away from t1: dt0_wrong_sign (2).
  %unfinished = arith.cmpf olt, %out#1, %t1 : f64
  %code_unfinished = arith.extui %unfinished : i1 to i32
  %code_wrong_sign = arith.constant 2 : i32
  %result = arith.select %wrong_sign, %code_wrong_sign, %code_unfinished
      : i32
  return %out#7, %out#3, %out#4, %out#5, %result
      : tensor<100x1xf64>, i32, i32, i32, i32
}

// jax.vmap(solve) over any batch size; the scalar parameters are shared.
func.func @main(
    %y0s: tensor<?x1xf64> {loom.name = "inits"},
    %t0: f64 {loom.name = "t0", loom.default = 0.0 : f64},
    %t1: f64 {loom.name = "t1", loom.default = 0.1 : f64},
    %dt0: f64 {loom.name = "dt0", loom.default = 0.01 : f64},
    %theta: f64 {loom.name = "theta", loom.default = 0.1 : f64},
    %max_steps: i32 {loom.name = "max_steps", loom.default = 100 : i32},
    %rtol: f64 {loom.name = "rtol", loom.default = 1.0e-3 : f64},
    %atol: f64 {loom.name = "atol", loom.default = 1.0e-6 : f64},
    %on_error: i32 {loom.name = "on_error", loom.default = 0 : i32,
                    loom.range = [0, 2]})
    -> (tensor<?x100x1xf64> {loom.name = "ys",
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
      loom.vmap @solve_ode(%y0s, %t0, %t1, %dt0, %theta, %max_steps, %rtol,
                           %atol)
      in_axes [0, none, none, none, none, none, none, none]
      out_axes [0, 0, 0, 0, 0]
      : (tensor<?x1xf64>, f64, f64, f64, f64, i32, f64, f64)
     -> (tensor<?x100x1xf64>, tensor<?xi32>, tensor<?xi32>, tensor<?xi32>,
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
      -> (tensor<?x100x1xf64>, tensor<?xi32>, tensor<?xi32>, tensor<?xi32>,
          tensor<?xi32>) {
    %b = tensor.dim %result, %c0 : tensor<?xi32>
    %nan = arith.constant 0x7FF8000000000000 : f64
    %imax = arith.constant 2147483647 : i32
    %nan_ys = tensor.splat %nan[%b] : tensor<?x100x1xf64>
    %imax_b = tensor.splat %imax[%b] : tensor<?xi32>
    scf.yield %nan_ys, %imax_b, %imax_b, %imax_b, %imax_b
        : tensor<?x100x1xf64>, tensor<?xi32>, tensor<?xi32>, tensor<?xi32>,
          tensor<?xi32>
  } else {
    scf.yield %ys, %steps, %accepted, %rejected, %result
        : tensor<?x100x1xf64>, tensor<?xi32>, tensor<?xi32>, tensor<?xi32>,
          tensor<?xi32>
  }
  return %outs#0, %outs#1, %outs#2, %outs#3, %outs#4
      : tensor<?x100x1xf64>, tensor<?xi32>, tensor<?xi32>, tensor<?xi32>,
        tensor<?xi32>
}
