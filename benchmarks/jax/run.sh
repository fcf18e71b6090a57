#!/usr/bin/env bash
# The seed's JAX/diffrax SDE benchmark on this machine, for scripts/gpu-check.sh
# (side by side with Loom's libraries): JAX vmap+jit on the GPU, then the
# seed's CPU experiment (jit+NamedSharding against pmap on 10 host devices).
#   benchmarks/jax/run.sh OUT_DIR
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-jax-out}
mkdir -p "$out"
if ! python3 -c "import jax, diffrax, equinox" 2>/dev/null; then
  echo "jax: SKIPPED (no jax, diffrax or equinox in $(command -v python3))"
  exit 0
fi
timeout 100 python3 "$here/sde_sharding.py" --mode gpu > "$out/gpu.txt" 2>&1 ||
  echo "jax gpu: FAILED or timed out (see $out/gpu.txt)"
grep '^jax' "$out/gpu.txt"
timeout 100 python3 "$here/sde_sharding.py" --mode cpu --devices 10 \
  > "$out/cpu.txt" 2>&1 || echo "jax cpu: FAILED or timed out (see $out/cpu.txt)"
grep '^jax' "$out/cpu.txt"
