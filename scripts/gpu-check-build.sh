#!/usr/bin/env bash
# Builds, on a machine with LLVM/MLIR and the CUDA toolkit (no GPU needed),
# what scripts/gpu-check.sh runs on the device machine, which has neither:
# GPU and CPU libraries of the seed programs and the vmap test programs, a
# loom-exec built without MPI (the device has no Open MPI), their inputs,
# and the CPU's outputs to check the GPU's against.
#
#   scripts/gpu-check-build.sh [BUILD_DIR] [BUNDLE_DIR]
#
# BUILD_DIR (default build) has loom-compile; BUNDLE_DIR (default
# gpu-check-bundle, git-ignored) is what the device's run command carries:
# it must stay under 64 MiB with the working tree.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$root/build}" && pwd)
bundle=${2:-$root/gpu-check-bundle}
compile="$build/bin/loom-compile"
nompi=${LOOM_NOMPI_BUILD:-$root/build-nompi}

if [ ! -x "$nompi/bin/loom-exec" ]; then
  echo "gpu-check-build: building loom-exec without MPI in $nompi"
  cmake -G Ninja -S "$root" -B "$nompi" -DLOOM_ENABLE_MPI=OFF >/dev/null
  cmake --build "$nompi" -j2 --target loom-exec >/dev/null
fi
rm -rf "$bundle"
mkdir -p "$bundle/bin" "$bundle/lib" "$bundle/ref"
cp "$nompi/bin/loom-exec" "$bundle/bin/"
python3 "$root/scripts/gpu_check.py" inputs "$bundle/inputs"

# .npy inputs are named relative to the bundle's inputs/.
specs() {
  local out=()
  for s in $1; do
    case "$s" in
      *=*.npy) out+=(--input "${s%%=*}=$2/${s#*=}") ;;
      *) out+=(--input "$s") ;;
    esac
  done
  printf '%s\n' "${out[@]}"
}

while IFS=$'\t' read -r name program entry klass inputs; do
  src="$root/$program"
  "$compile" "$src" --entry "$entry" --backend gpu --emit=so -o "$bundle/lib/$name.gpu.so"
  "$compile" "$src" --entry "$entry" --emit=so -o "$bundle/lib/$name.cpu.so"
  mapfile -t args < <(specs "$inputs" "$bundle/inputs")
  "$bundle/bin/loom-exec" "$bundle/lib/$name.cpu.so" "${args[@]}" \
    --output-dir "$bundle/ref/$name" >/dev/null
  echo "gpu-check-build: $name ($klass)"
done < "$bundle/inputs/cases.tsv"

# The CPU side of the timings, on the device's 16 cores, and at the seed's
# 10 shards beside JAX's 10 host devices.
for name in sde_b300 mwe_b3000; do
  read -r program entry < <(awk -F'\t' -v n="$name" '$1 == n {print $2, $3}' \
    "$bundle/inputs/cases.tsv")
  for shards in 10 16; do
    "$compile" "$root/$program" --entry "$entry" --shards $shards --emit=so \
      -o "$bundle/lib/$name.cpu$shards.so"
  done
done

size=$(du -sm "$bundle" | cut -f1)
echo "gpu-check-build: $bundle is $size MiB"
if [ "$size" -ge 48 ]; then
  echo "gpu-check-build: too big to travel with the working tree (64 MiB in all)" >&2
  exit 1
fi
