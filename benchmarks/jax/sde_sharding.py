"""The seed's diffrax SDE benchmark (the first script of the seed bug report),
ported from PositionalSharding, which current JAX no longer has, to
NamedSharding. Same problem: Heun with a PID controller, a
VirtualBrownianTree, SaveAt 100 points, b300, t1 1.0, dt0 0.05,
max_steps 10000.

  python3 sde_sharding.py --mode gpu            # vmap+jit on the one GPU
  python3 sde_sharding.py --mode cpu --devices 10
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
opts = parser.parse_args()
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
from diffrax import (ControlTerm, Heun, MultiTerm, ODETerm,  # noqa: E402
                     PIDController, SaveAt, VirtualBrownianTree, diffeqsolve)


def f(t, y, args):
    return jnp.sin(t) + args["theta"] * y


def g(t, y, args):
    return 0.1 * jnp.eye(1)


t0, t1, dt0 = 0.0, 1.0, 0.05
diffusion_shape = jax.ShapeDtypeStruct((1,), "float32")
solver, cont = Heun(), PIDController(1e-3, 1e-6)
ts = jnp.linspace(t0, t1, 100)


def solve(init, key, args):
    control = VirtualBrownianTree(t0=t0, t1=t1, tol=dt0 / 2,
                                  shape=diffusion_shape, key=key)
    terms = MultiTerm(ODETerm(f), ControlTerm(g, control))
    sol = diffeqsolve(terms, solver, y0=init, t0=t0, t1=t1, dt0=dt0,
                      args=args, saveat=SaveAt(ts=ts),
                      stepsize_controller=cont, max_steps=10_000)
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
inits = 0.1 * jnp.ones((batch, 1))
keys = jax.random.split(jax.random.PRNGKey(0), batch)
args = {"theta": 0.1}
fn = eqx.filter_jit(eqx.filter_vmap(solve, in_axes=(0, 0, None)))

if opts.mode == "gpu":
    print("jax devices: %s" % jax.devices())
    timed("sde vmap+jit b%d" % batch, fn, inits, keys, args)
    sys.exit(0)

n = len(jax.devices())
mesh = Mesh(jax.devices(), ("batch",))
sharding = NamedSharding(mesh, P("batch"))
replicated = NamedSharding(mesh, P())
x, y = eqx.filter_shard((inits, keys), sharding)
args_shard = eqx.filter_shard(args, replicated)
timed("sde jit+NamedSharding b%d on %d devices" % (batch, n), fn, x, y,
      args_shard)
inits_pmap = inits.reshape(n, batch // n, *inits.shape[1:])
keys_pmap = keys.reshape(n, batch // n, *keys.shape[1:])
pfn = eqx.filter_pmap(fn, in_axes=(0, 0, None))
timed("sde pmap b%d on %d devices" % (batch, n), pfn, inits_pmap, keys_pmap,
      args)
