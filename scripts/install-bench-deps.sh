#!/usr/bin/env bash
# Installs what `make bench` needs beyond `make test`: gnuplot, which draws
# the plots of docs/benchmarks.md. Kept apart from install-deps.sh so that
# building and testing Loom never needs it. Only calls apt-get when missing.
set -euo pipefail

packages=(gnuplot-nox)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
    missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || {
    echo "install-bench-deps: missing packages (${missing[*]}) and not root; install them or run as root" >&2
    exit 1
  }
  SUDO=sudo
fi
echo "install-bench-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
