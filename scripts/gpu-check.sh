#!/usr/bin/env bash
# Everything GPU-related, in one command on the device machine (an H200 with
# CUDA 13 and Python, but no LLVM/MLIR): run under `timeout 240`, results
# under $OUT.
#
#   scripts/gpu-check-build.sh            # here, first: builds the bundle
#   timeout 240 scripts/gpu-check.sh [BUNDLE_DIR]   # there, carrying it
#
# For each case of the bundle (the seed programs and the vmap test
# programs), runs its GPU library with loom-exec, checks its outputs against
# the CPU's (bit-identical for programs of + - * / sqrt and integer ops; the
# largest ulp distance otherwise), then times the SDE b300 (t1 1.0, dt0 0.05,
# max_steps 10000), the MWE b3000 and the MWE b1 (the launch overhead of a
# call) on the GPU and, at 16 shards, on the CPU.
#
# LOOM_GPU_CHECK_DRY=1 runs the CPU libraries in place of the GPU ones: a
# check of this script's plumbing on a machine without a GPU.
#
# Exit status: 0 all passed; 1 a case failed; 2 no bundle; 3 no GPU here
# (no CUDA driver or no device: everything skipped, and said so).
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bundle=$(cd "${1:-$root/gpu-check-bundle}" 2>/dev/null && pwd) || {
  echo "gpu-check: no bundle at ${1:-$root/gpu-check-bundle}: run scripts/gpu-check-build.sh where Loom builds, and carry it" >&2
  exit 2
}
out=${OUT:-$root/gpu-check-out}
mkdir -p "$out"
summary="$out/summary.txt"
: > "$summary"
exec > >(tee "$out/log.txt") 2>&1
exe="$bundle/bin/loom-exec"
kind=gpu
[ "${LOOM_GPU_CHECK_DRY:-0}" = 1 ] && kind=cpu
cases="$bundle/inputs/cases.tsv"
[ -x "$exe" ] && [ -f "$cases" ] || { echo "gpu-check: $bundle is not a bundle" >&2; exit 2; }

say() { echo "$*" | tee -a "$summary"; }
specs() {
  local s
  for s in $1; do
    case "$s" in
      *=*.npy) printf '%s\n' --input "${s%%=*}=$bundle/inputs/${s#*=}" ;;
      *) printf '%s\n' --input "$s" ;;
    esac
  done
}
inputs_of() { awk -F'\t' -v n="$1" '$1 == n {print $5}' "$cases"; }

say "gpu-check $(date -u +%FT%TZ) on $(hostname)$([ $kind = cpu ] && echo ' (DRY RUN: CPU libraries)')"
command -v nvidia-smi >/dev/null && nvidia-smi --query-gpu=name,driver_version \
  --format=csv,noheader | sed 's/^/gpu: /' | tee -a "$summary"

# The driver first: without one every case would fail the same way.
mapfile -t probe < <(specs "$(inputs_of mwe_b1)")
if ! msg=$(timeout 60 "$exe" "$bundle/lib/mwe_b1.$kind.so" "${probe[@]}" 2>&1 >/dev/null); then
  case "$msg" in
    *"no CUDA driver"*|*"no GPU"*)
      say "SKIPPED: no GPU here: $msg"
      exit 3 ;;
  esac
fi

failures=0
printf 'case\tclass\tstatus\tmax_ulp\n' > "$out/results.tsv"
while IFS=$'\t' read -r name program entry klass inputs; do
  mapfile -t args < <(specs "$inputs")
  rm -rf "$out/gpu/$name"
  if ! err=$(timeout 60 "$exe" "$bundle/lib/$name.$kind.so" "${args[@]}" \
               --output-dir "$out/gpu/$name" 2>&1 >/dev/null); then
    say "FAIL $name: $err"
    printf '%s\t%s\tfailed\t-\n' "$name" "$klass" >> "$out/results.tsv"
    failures=$((failures + 1))
    continue
  fi
  report=$(python3 "$root/scripts/gpu_check.py" compare "$bundle/ref/$name" \
             "$out/gpu/$name" "$klass")
  rc=$?
  ulp=$(echo "$report" | sed -n 's/^max_ulp=\([0-9]*\).*/\1/p')
  if [ $rc -eq 0 ]; then
    say "PASS $name ($klass, max $ulp ulp)"
    printf '%s\t%s\tpassed\t%s\n' "$name" "$klass" "$ulp" >> "$out/results.tsv"
  else
    say "FAIL $name ($klass): $(echo "$report" | tr '\n' ' ')"
    printf '%s\t%s\tmismatch\t%s\n' "$name" "$klass" "$ulp" >> "$out/results.tsv"
    failures=$((failures + 1))
  fi
done < "$cases"

# Timings: loom-exec's median call over --repeat calls, after one warm-up
# (the first call loads the PTX and allocates the device buffers).
time_one() { # LABEL LIBRARY CASE REPEAT
  local args line
  mapfile -t args < <(specs "$(inputs_of "$3")")
  line=$(timeout 60 "$exe" "$2" "${args[@]}" --repeat "$4" --time 2>&1 |
         grep '^call:') || line="failed"
  say "time $1: $line"
}
time_one "sde_b300 gpu" "$bundle/lib/sde_b300.$kind.so" sde_b300 50
time_one "sde_b300 cpu16" "$bundle/lib/sde_b300.cpu16.so" sde_b300 10
time_one "sde_b300 cpu10" "$bundle/lib/sde_b300.cpu10.so" sde_b300 10
time_one "mwe_b3000 gpu" "$bundle/lib/mwe_b3000.$kind.so" mwe_b3000 200
time_one "mwe_b3000 cpu16" "$bundle/lib/mwe_b3000.cpu16.so" mwe_b3000 50
time_one "mwe_b1 gpu (launch overhead per call)" "$bundle/lib/mwe_b1.$kind.so" mwe_b1 500

# The seed's JAX scripts side by side (benchmarks/jax: SDE, ODE, MWE, MLP):
# vmap+jit on the GPU, jit+NamedSharding and pmap on 10 host devices. run.sh
# keeps to its own 105 s budget; the timeout is a backstop.
if [ -x "$root/benchmarks/jax/run.sh" ]; then
  timeout 120 "$root/benchmarks/jax/run.sh" "$out/jax" 2>&1 | tail -40 | tee -a "$summary"
fi

say "gpu-check: $failures failure(s)"
[ $failures -eq 0 ]
