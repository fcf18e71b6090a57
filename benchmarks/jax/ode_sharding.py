"""The seed's simple diffrax ODE benchmark (the fourth script of the seed bug
report, the one whose author finds jit+sharding ~50x slower than pmap when a
step size controller meets SaveAt(ts=...)), ported from PositionalSharding,
which current JAX no longer has, to NamedSharding. The seed script is the
one that begins, after its imports,

    os.environ['EQX_ON_ERROR'] = 'nan'
    ...
    t0 = 0.
    t1 = 0.1
    dt0 = 0.01

Same problem: dy/dt = sin(t) + theta y, theta 0.1, y0 0.1, Heun with
PIDController(1e-3, 1e-6), SaveAt(ts=linspace(t0, t1, 100)), t1 0.1,
dt0 0.01, max_steps 100, b300 (the keys are vmapped over but unused, as in
the seed), EQX_ON_ERROR=nan. What changed: the mesh is
Mesh(jax.devices(), ("batch",)) with NamedSharding(P("batch")) for the
batch and P() for the replicated args, in place of
PositionalSharding(create_device_mesh((n, 1))) and its replicate(); the
device count is --devices (the seed took multiprocessing.cpu_count(), 10 on
its author's laptop); %%timeit is a timing loop; the pmap wrapper is made
once, not per call. --saveat t1 and --controller constant give the seed's
three other cases (SaveAt(t1=True), no controller). On JAX 0.10 and later
jax.pmap, which eqx.filter_pmap calls, is itself jit of shard_map.

  python3 ode_sharding.py --mode gpu            # vmap+jit on the one GPU
  python3 ode_sharding.py --mode cpu --devices 10
                                                # jit+sharding vs pmap on
                                                # 10 host devices

Prints one line per variant: `jax <mode> <variant>: median X ms, min Y ms
over N calls` (compile excluded: one call first).
"""
import argparse
import os
import statistics
import sys
import time

parser = argparse.ArgumentParser()
parser.add_argument("--mode", choices=["gpu", "cpu"], required=True)
parser.add_argument("--devices", type=int, default=10)
parser.add_argument("--batch", type=int, default=300)
parser.add_argument("--repeat", type=int, default=20)
parser.add_argument("--saveat", choices=["ts", "t1"], default="ts")
parser.add_argument("--controller", choices=["pid", "constant"],
                    default="pid")
opts = parser.parse_args()
# Before equinox is imported, as in the seed.
os.environ["EQX_ON_ERROR"] = "nan"
if opts.mode == "cpu":
    # Before jax is imported: the seed's 10 host devices.
    os.environ["XLA_FLAGS"] = (
        os.environ.get("XLA_FLAGS", "")
        + " --xla_force_host_platform_device_count=%d" % opts.devices)
    os.environ["JAX_PLATFORMS"] = "cpu"

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import equinox as eqx  # noqa: E402
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P  # noqa: E402
from diffrax import (ConstantStepSize, Heun, ODETerm,  # noqa: E402
                     PIDController, SaveAt, diffeqsolve)


def f(t, y, args):
    return jnp.sin(t) + args["theta"] * y


t0, t1, dt0 = 0.0, 0.1, 0.01
solver = Heun()
cont = (PIDController(1e-3, 1e-6) if opts.controller == "pid"
        else ConstantStepSize())
ts = jnp.linspace(t0, t1, 100)
saving = SaveAt(ts=ts) if opts.saveat == "ts" else SaveAt(t1=True)


def solve(init, key, args):
    sol = diffeqsolve(ODETerm(f), solver, y0=init, t0=t0, t1=t1, dt0=dt0,
                      args=args, saveat=saving, stepsize_controller=cont,
                      max_steps=100)
    return sol.ys


def timed(label, fn, *args):
    jax.block_until_ready(fn(*args))  # compile
    times = []
    for _ in range(opts.repeat):
        start = time.perf_counter()
        jax.block_until_ready(fn(*args))
        times.append((time.perf_counter() - start) * 1e3)
    print("jax %s %s: median %.3f ms, min %.3f ms over %d calls" %
          (opts.mode, label, statistics.median(times), min(times),
           opts.repeat))
    sys.stdout.flush()


batch = opts.batch
case = "ode %s+%s" % (opts.saveat, opts.controller)
inits = 0.1 * jnp.ones((batch, 1))
keys = jax.random.split(jax.random.PRNGKey(0), batch)
args = {"theta": 0.1}
fn = eqx.filter_jit(eqx.filter_vmap(solve, in_axes=(0, 0, None)))

if opts.mode == "gpu":
    print("jax devices: %s" % jax.devices())
    timed("%s vmap+jit b%d" % (case, batch), fn, inits, keys, args)
    sys.exit(0)

n = len(jax.devices())
mesh = Mesh(jax.devices(), ("batch",))
sharding = NamedSharding(mesh, P("batch"))
replicated = NamedSharding(mesh, P())
x, y = eqx.filter_shard((inits, keys), sharding)
args_shard = eqx.filter_shard(args, replicated)
timed("%s jit+NamedSharding b%d on %d devices" % (case, batch, n), fn, x, y,
      args_shard)
inits_pmap = inits.reshape(n, batch // n, *inits.shape[1:])
keys_pmap = keys.reshape(n, batch // n, *keys.shape[1:])
pfn = eqx.filter_pmap(fn, in_axes=(0, 0, None))
timed("%s pmap b%d on %d devices" % (case, batch, n), pfn, inits_pmap,
      keys_pmap, args)
