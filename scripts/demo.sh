#!/usr/bin/env bash
# The demo: the seed's slowdown in one screen. The MWE and the diffrax SDE
# are vmapped (masked, as JAX does), sharded over 10 CPU threads, and run
# once with every loop synchronised across shards on every iteration (what
# jax.jit + GSPMD does) and once with loop-sync=auto (what Loom picks: pmap's
# shard-local loops, legal here). Same bits, very different time.
set -euo pipefail
BUILD=${1:-build}
cd "$(dirname "$0")/.."
OPT="$BUILD/bin/loom-opt"
RUN="$BUILD/bin/loom-run"
SHARDS=10

say() { printf '\n\033[1m%s\033[0m\n' "$*"; }

run() { # program, label, extra args...
  local prog=$1 label=$2
  shift 2
  "$RUN" "$prog" --divergent masked --shards $SHARDS --stats --time \
    --repeat 5 --output-dir "$OUT/$label" "$@" |
    grep -E '^(loop|collectives|call)' |
    sed -e 's/^call: /time per call: /' -e "s|python-free-examples/||" \
        -e 's/^/   /'
}

OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT

for prog in mwe/while_of_while diffrax/sde; do
  file=python-free-examples/$prog.mlir
  case $prog in
    mwe/*) args=(--input inits=fill:0.1:3000x1xf32 --input keys=jax-split:0:3000)
           title="the pure-JAX MWE, batch 3000" ;;
    *) args=(--input inits=fill:0.1:300x1xf32 --input keys=jax-split:0:300
             --input t1=fill:1.0:f32 --input max_steps=fill:10000:i32)
       title="the diffrax SDE (Heun + PID + SaveAt(ts) + VirtualBrownianTree), batch 300" ;;
  esac
  say "== $title ($file)"
  echo "loom-vmap decides, per loop:"
  "$OPT" "$file" -loom-annotate-batch-axes -loom-vmap=divergent=masked \
      -o /dev/null 2>&1 | grep 'remark: loop is' |
    sed -e 's/: remark:/:/' -e "s|python-free-examples/||" -e 's/^/   /'
  echo "sharded over $SHARDS threads, loop-sync=global (jax.jit + GSPMD):"
  run "$file" global "${args[@]}" --loop-sync global
  echo "sharded over $SHARDS threads, loop-sync=auto (Loom's choice):"
  "$OPT" "$file" -loom-annotate-batch-axes -loom-vmap=divergent=masked \
      -loom-shard=shards=$SHARDS -loom-localize-loops -o /dev/null 2>&1 |
    grep 'remark: loop-sync' | sed -e 's/: remark:/:/' \
      -e "s|python-free-examples/||" -e 's/^/   /'
  run "$file" auto "${args[@]}" --loop-sync auto
  if cmp -s "$OUT/global/ys.npy" "$OUT/auto/ys.npy"; then
    echo "   outputs of both runs are identical, bit for bit"
  else
    echo "   OUTPUTS DIFFER" && exit 1
  fi
done
