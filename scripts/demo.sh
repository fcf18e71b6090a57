#!/usr/bin/env bash
# The demo: what Loom does with the seed's programs, one screen each.
set -euo pipefail
BUILD=${1:-build}
OPT="$BUILD/bin/loom-opt"
cd "$(dirname "$0")/.."

for prog in python-free-examples/mwe/while_of_while.mlir \
            python-free-examples/diffrax/*.mlir; do
  [ -f "$prog" ] || continue
  echo "== $prog"
  # Parse, verify and print again: the round trip must reproduce itself.
  a=$("$OPT" "$prog")
  b=$(printf '%s\n' "$a" | "$OPT")
  [ "$a" = "$b" ] && echo "   parses, verifies and round-trips"
  funcs=$(printf '%s\n' "$a" | grep -c 'func.func' || true)
  loops=$(printf '%s\n' "$a" | grep -c 'scf.while' || true)
  vmaps=$(printf '%s\n' "$a" | grep -o 'loom.vmap @[a-z_]*([^)]*) in_axes \[[^]]*\]' || true)
  echo "   $funcs functions, $loops while loops"
  [ -n "$vmaps" ] && echo "   $vmaps"
done
