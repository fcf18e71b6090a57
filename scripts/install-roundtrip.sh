#!/usr/bin/env bash
# The install-and-consume round trip (README, "Installing and using Loom
# from CMake"): installs BUILD into a fresh prefix, then builds each example
# on its own, outside Loom's source and build trees, with find_package(Loom)
# against that prefix, and runs its tests:
#   python-free-examples/embed          Loom::Loom (the JIT API)
#   python-free-examples/runtime-embed  Loom::Runtime alone: configured
#                                       without finding MLIR or LLVM, runs
#                                       the MWE that the installed
#                                       loom-compile compiled, and it and
#                                       that library link nothing but the C
#                                       and C++ runtime libraries
# `make install-check`; CI runs it.
#
#   scripts/install-roundtrip.sh [BUILD]   BUILD defaults to build/
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
jobs=${JOBS:-2}

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
prefix=$work/prefix

cmake --install "$build" --prefix "$prefix" > "$work/install.log"
echo "install-roundtrip: installed $build into a temporary prefix"

# Copies, so that nothing can reach back into this tree; the MWE is the
# program the examples' tests run.
mkdir -p "$work/src"
cp -r python-free-examples/embed python-free-examples/runtime-embed \
  python-free-examples/mwe "$work/src/"

generator=()
if command -v ninja > /dev/null; then
  generator=(-G Ninja)
fi

consume() { # example, extra cmake arguments...
  local example=$1
  shift
  cmake "${generator[@]}" -S "$work/src/$example" -B "$work/build-$example" \
    -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_BUILD_TYPE=Release "$@" \
    > "$work/configure-$example.log" ||
    { cat "$work/configure-$example.log"; return 1; }
  cmake --build "$work/build-$example" -j"$jobs" > "$work/build-$example.log" ||
    { cat "$work/build-$example.log"; return 1; }
  (cd "$work/build-$example" && ctest --output-on-failure --no-label-summary)
}

# What CMake found: a path from the temporary prefix, or nothing.
expect_cache() { # example, variable, expected value ('' for unset)
  local value
  value=$(sed -n "s/^$2:[A-Z]*=//p" "$work/build-$1/CMakeCache.txt")
  if [ "$value" != "$3" ]; then
    echo "install-roundtrip: $1 has $2='$value', expected '$3'"
    return 1
  fi
}

consume embed
expect_cache embed Loom_DIR "$prefix/lib/cmake/loom"
consume runtime-embed
expect_cache runtime-embed Loom_DIR "$prefix/lib/cmake/loom"
# mwe.so came from the installed loom-compile (LoomConfig's LOOM_COMPILE).
if ! grep -rqF "$prefix/bin/loom-compile" "$work/build-runtime-embed"; then
  echo "install-roundtrip: runtime-embed did not run $prefix/bin/loom-compile"
  exit 1
fi
# find_package(Loom COMPONENTS Runtime) never looked for MLIR or LLVM.
expect_cache runtime-embed MLIR_DIR ""
expect_cache runtime-embed LLVM_DIR ""

# Anything past these is a library the machine that runs the program would
# have to have.
allowed='linux-vdso|libstdc\+\+|libm\.|libgcc_s|libc\.|ld-linux'
for binary in mwe_batch mwe.so; do
  extra=$(ldd "$work/build-runtime-embed/$binary" | grep -Ev "$allowed" || true)
  if [ -n "$extra" ]; then
    echo "install-roundtrip: $binary needs more than the C/C++ runtime:"
    echo "$extra"
    exit 1
  fi
done
echo "install-roundtrip: mwe_batch and mwe.so need only glibc, libstdc++, libm, libgcc_s"
