#!/usr/bin/env bash
# The seed's JAX scripts on this machine, for scripts/gpu-check.sh (side by
# side with Loom's libraries), each as JAX vmap+jit (the MLP: jit) on the
# GPU and as the seed's CPU experiment, jit+NamedSharding against pmap on 10
# host devices: the diffrax SDE (sde_sharding.py), the diffrax ODE with a
# step size controller and SaveAt(ts) (ode_sharding.py), the pure-JAX
# while-of-while MWE (mwe_sharding.py; on the GPU at b3000, beside Loom's
# mwe_b3000) and the equinox MLP step (nn_sharding.py).
#   benchmarks/jax/run.sh OUT_DIR
#
# Device time is short: the whole script stops starting runs after
# LOOM_JAX_BUDGET seconds (105 by default; gpu-check.sh gives it 120), each
# run has its own timeout (its cap, cut to what is left of the budget) and
# small --repeat counts, and the runs most wanted come first: the SDE, then
# the CPU experiments, then the GPU runs of the others. A run cut short keeps
# the lines it printed; a run with under 5 s left is skipped, and says so.
set -uo pipefail
end=$((SECONDS + ${LOOM_JAX_BUDGET:-105}))
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-jax-out}
mkdir -p "$out"
if ! python3 -c "import jax, diffrax, equinox" 2>/dev/null; then
  echo "jax: SKIPPED (no jax, diffrax or equinox in $(command -v python3))"
  exit 0
fi
run() { # NAME CAP SCRIPT ARGS...: one run under timeout; its ^jax lines
  local name=$1 cap=$2 script=$3 left rc=0
  shift 3
  left=$((end - SECONDS))
  [ "$left" -lt "$cap" ] && cap=$left
  if [ "$cap" -lt 5 ]; then
    echo "jax $name: SKIPPED (run.sh's time budget is spent)"
    return
  fi
  timeout -k 2 "$cap" python3 "$here/$script" "$@" > "$out/$name.txt" 2>&1 ||
    rc=$?
  grep '^jax' "$out/$name.txt"
  case $rc in
    0) ;;
    124|137) echo "jax $name: timed out after $cap s (see $out/$name.txt)" ;;
    *) echo "jax $name: FAILED, exit $rc (see $out/$name.txt)" ;;
  esac
}
run sde-gpu 25 sde_sharding.py --mode gpu --repeat 5
run sde-cpu 30 sde_sharding.py --mode cpu --devices 10 --repeat 5
run ode-cpu 25 ode_sharding.py --mode cpu --devices 10 --repeat 10
run mwe-cpu 15 mwe_sharding.py --mode cpu --devices 10 --repeat 50
run nn-cpu 15 nn_sharding.py --mode cpu --devices 10 --repeat 50
run ode-gpu 20 ode_sharding.py --mode gpu --repeat 10
run mwe-gpu 15 mwe_sharding.py --mode gpu --batch 3000 --repeat 50
run nn-gpu 15 nn_sharding.py --mode gpu --repeat 50
