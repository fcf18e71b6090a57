#!/usr/bin/env bash
# Installs the Debian 12 packages Loom builds and tests with, when missing,
# plus any packages named as arguments (install-bench-deps.sh passes what
# `make bench` needs). Safe to run every time: it only calls apt-get when
# something is absent.
set -euo pipefail

packages=(
  cmake ninja-build g++ python3
  llvm-19-dev libmlir-19-dev mlir-19-tools llvm-19-tools
  libfmt-dev libgtest-dev libbenchmark-dev
  libopenmpi-dev openmpi-bin
  "$@"
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
    missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || {
    echo "install-deps: missing packages (${missing[*]}) and not root; install them or run as root" >&2
    exit 1
  }
  SUDO=sudo
fi
echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
