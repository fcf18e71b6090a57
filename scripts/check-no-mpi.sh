#!/usr/bin/env bash
# A Loom built with -DLOOM_ENABLE_MPI=OFF (`make check-no-mpi`): loom-run
# still runs on the CPU, and `--backend mpi` is a one-line error that says
# why, with a non-zero exit.
set -uo pipefail
build=${1:?usage: check-no-mpi.sh BUILD_DIR}
program="$(dirname "$0")/../python-free-examples/mwe/while_of_while.mlir"
inputs=(--input inits=fill:0.1:8x1xf32 --input keys=jax-split:0:8 -O1)

"$build/bin/loom-run" "$program" "${inputs[@]}" --shards 2 >/dev/null || {
  echo "check-no-mpi: loom-run --backend cpu failed in $build" >&2
  exit 1
}
err=$("$build/bin/loom-run" "$program" "${inputs[@]}" --backend mpi 2>&1)
rc=$?
expected="loom-run: backend 'mpi': this Loom was built without MPI (-DLOOM_ENABLE_MPI=OFF)"
if [ "$rc" -eq 0 ] || [ "$err" != "$expected" ]; then
  echo "check-no-mpi: expected exit != 0 and '$expected', got $rc and '$err'" >&2
  exit 1
fi
echo "check-no-mpi: the build without MPI runs on the CPU and refuses --backend mpi"
