"""The seed's equinox MLP training-step benchmark (the second script of the
seed bug report: the control case, where its author finds jit+sharding
faster than pmap), ported from PositionalSharding, which current JAX no
longer has, to NamedSharding, and from optax, which the device machine
lacks, to a hand-written Adam state. The seed script is the one that
begins, after its imports,

    # Hyperparameters
    dataset_size = 64
    channel_size = 4

Same problem: xs normal of shape (64, 4), ys = sin(xs), the first 20 rows
as the batch, eqx.nn.MLP(4, 4, 32, depth 1, key PRNGKey(6789)), mean
squared error over jax.vmap(model); the timed train_step takes the model,
the optimiser state and the batch, and returns eqx.filter_grad of the loss
at layers[0].weight, as in the seed (which never applies an update). What
changed: optax.adam(3e-4).init is replaced by adam_init below, a few lines
of plain JAX that build the same contents (a step count and the first and
second moments, zeros shaped like the parameters; optax nests them in its
own state classes); since the seed's step only carries that state, no
update rule is needed, and the seed's unused learning_rate and num_steps
are gone. The mesh is Mesh(jax.devices(), ("batch",)) with
NamedSharding(P("batch")) for the batch and P() for the replicated model
and state, in place of PositionalSharding(create_device_mesh((n, 1))) and
its replicate(); the data come from a seeded NumPy generator (the seed's
np.random.normal is unseeded) and are JAX arrays before they are sharded;
the device count is --devices (the seed took multiprocessing.cpu_count(),
10 on its author's laptop); %%timeit is a timing loop; the pmap wrapper is
made once, not per call. On JAX 0.10 and later jax.pmap, which
eqx.filter_pmap calls, is itself jit of shard_map.

  python3 nn_sharding.py --mode gpu             # jit on the one GPU
  python3 nn_sharding.py --mode cpu --devices 10
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
parser.add_argument("--batch", type=int, default=20)
parser.add_argument("--repeat", type=int, default=100)
opts = parser.parse_args()
if opts.mode == "cpu":
    # Before jax is imported: the seed's 10 host devices.
    os.environ["XLA_FLAGS"] = (
        os.environ.get("XLA_FLAGS", "")
        + " --xla_force_host_platform_device_count=%d" % opts.devices)
    os.environ["JAX_PLATFORMS"] = "cpu"

import numpy as np  # noqa: E402
import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import jax.random as jr  # noqa: E402
import equinox as eqx  # noqa: E402
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P  # noqa: E402

# Hyperparameters (the seed's)
dataset_size = 64
channel_size = 4
hidden_size = 32
depth = 1
batch_size = opts.batch  # must be a multiple of the number of devices


def adam_init(params):
    """What optax.adam(lr).init(params) holds, without optax: the step count
    and Adam's first and second moment estimates, all zeros."""
    def zeros():
        return jax.tree_util.tree_map(jnp.zeros_like, params)
    return {"count": jnp.zeros((), jnp.int32), "mu": zeros(), "nu": zeros()}


# Synthetic data
xs = np.random.default_rng(0).normal(size=(dataset_size, channel_size))
ys = np.sin(xs)

model = eqx.nn.MLP(channel_size, channel_size, hidden_size, depth,
                   key=jr.PRNGKey(6789))
opt_state = adam_init(eqx.filter(model, eqx.is_inexact_array))


# Loss function for a batch of data
def compute_loss(model, x, y):
    pred_y = jax.vmap(model)(x)
    return jnp.mean((y - pred_y) ** 2)


@eqx.filter_jit
def train_step(model, opt_state, x, y):
    grads = eqx.filter_grad(compute_loss)(model, x, y)
    return grads.layers[0].weight


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


data = jnp.asarray(xs[:batch_size])
label = jnp.asarray(ys[:batch_size])

if opts.mode == "gpu":
    print("jax devices: %s" % jax.devices())
    timed("nn jit b%d" % batch_size, train_step, model, opt_state, data,
          label)
    sys.exit(0)

n = len(jax.devices())
mesh = Mesh(jax.devices(), ("batch",))
sharding = NamedSharding(mesh, P("batch"))
replicated = NamedSharding(mesh, P())
data_pmap = jnp.reshape(data, (n, len(data) // n, channel_size))
label_pmap = jnp.reshape(label, (n, len(label) // n, channel_size))
x, y = eqx.filter_shard((data, label), sharding)
model_shard, opt_state_shard = eqx.filter_shard((model, opt_state),
                                                replicated)
timed("nn jit+NamedSharding b%d on %d devices" % (batch_size, n), train_step,
      model_shard, opt_state_shard, x, y)
pstep = eqx.filter_pmap(train_step, in_axes=(None, None, 0, 0))
timed("nn pmap b%d on %d devices" % (batch_size, n), pstep, model, opt_state,
      data_pmap, label_pmap)
