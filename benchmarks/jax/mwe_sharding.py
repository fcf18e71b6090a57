"""The seed's pure-JAX while-of-while minimal example (the fifth script of
the seed bug report, filed as google/jax#20968; Loom's IR version is
python-free-examples/mwe/while_of_while.mlir), ported from
PositionalSharding, which current JAX no longer has, to NamedSharding. The
seed script is the one that begins, after its imports,

    def f(t, y, theta):
        return jnp.abs(jnp.sin(t)) + theta * y

Same problem, the seed's code with its while_loop aliases inlined: an
outer lax.while_loop while count < 5 (count from randint(key, -2, 2)) that
draws y = uniform(PRNGKey(count), (1,)) and runs an inner lax.while_loop
while y < 10 of (t, y) += (0.1, 0.1 f(t, y)), theta 5.0;
jax.jit(jax.vmap(solve)) on b30, and jax.pmap of it. What changed: the mesh
is Mesh(jax.devices(), ("batch",)) with NamedSharding(P("batch")) in place
of PositionalSharding(create_device_mesh((n, 1))) (the seed's unused
replicate() is gone); the device count is --devices (the seed took
multiprocessing.cpu_count(), 10 on its author's laptop); %%timeit is a
timing loop. On JAX 0.10 and later jax.pmap is itself jit of shard_map.

  python3 mwe_sharding.py --mode gpu            # vmap+jit on the one GPU
  python3 mwe_sharding.py --mode cpu --devices 10
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
parser.add_argument("--batch", type=int, default=30)
parser.add_argument("--repeat", type=int, default=100)
opts = parser.parse_args()
if opts.mode == "cpu":
    # Before jax is imported: the seed's 10 host devices.
    os.environ["XLA_FLAGS"] = (
        os.environ.get("XLA_FLAGS", "")
        + " --xla_force_host_platform_device_count=%d" % opts.devices)
    os.environ["JAX_PLATFORMS"] = "cpu"

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P  # noqa: E402


def f(t, y, theta):
    return jnp.abs(jnp.sin(t)) + theta * y


def solve(init, key):
    def inner_loop_cond(state):
        t, y, _ = state
        return y.squeeze() < 10

    def inner_loop_body(state):
        t, y, theta = state
        dy = f(t, y, theta)
        return (t + 0.1, y + 0.1 * dy, theta)

    def outer_loop_cond(state):
        _, _, _, count = state
        return count < 5

    def outer_loop_body(state):
        t, y, theta, count = state
        y = jax.random.uniform(jax.random.PRNGKey(count), shape=(1,))
        new_t, new_y, _ = jax.lax.while_loop(inner_loop_cond, inner_loop_body,
                                             (t, y, theta))
        return (new_t, new_y, theta, count + 1)

    theta = 5.0
    t_initial = 0.0
    y_initial = init
    count_initial = jax.random.randint(key, minval=-2, maxval=2, shape=())
    final_state = jax.lax.while_loop(
        outer_loop_cond, outer_loop_body,
        (t_initial, y_initial, theta, count_initial))
    return final_state[1]


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
fn = jax.jit(jax.vmap(solve))

if opts.mode == "gpu":
    print("jax devices: %s" % jax.devices())
    timed("mwe vmap+jit b%d" % batch, fn, inits, keys)
    sys.exit(0)

n = len(jax.devices())
mesh = Mesh(jax.devices(), ("batch",))
sharding = NamedSharding(mesh, P("batch"))
x, y = jax.device_put((inits, keys), sharding)
timed("mwe jit+NamedSharding b%d on %d devices" % (batch, n), fn, x, y)
inits_pmap = inits.reshape(n, batch // n, *inits.shape[1:])
keys_pmap = keys.reshape(n, batch // n, *keys.shape[1:])
pmap_fn = jax.pmap(fn)
timed("mwe pmap b%d on %d devices" % (batch, n), pmap_fn, inits_pmap,
      keys_pmap)
