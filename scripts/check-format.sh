#!/usr/bin/env bash
# Fails, listing them, when C++ files differ from what clang-format-19 writes
# for them (.clang-format, LLVM style). `make check-format`; CI runs it.
#
#   scripts/check-format.sh         every tracked C++ file (what CI checks)
#   scripts/check-format.sh BASE    only the lines changed since commit BASE
#
# Installs clang-format-19 when it is missing: the version matters, since
# each release formats a few constructs differently.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh clang-format-19
format=clang-format-19

if [ $# -ge 1 ]; then
  out=$(git-clang-format-19 --binary "$format" --diff "$1" -- '*.cpp' '*.h')
  case $out in
  "" | "no modified files to format" | "clang-format did not modify any files")
    exit 0 ;;
  esac
  printf '%s\n' "$out"
  echo "check-format: lines changed since $1 are not clang-formatted (git-clang-format-19 $1 fixes them)" >&2
  exit 1
fi

bad=()
while IFS= read -r f; do
  "$format" --dry-run -Werror "$f" > /dev/null 2>&1 || bad+=("$f")
done < <(git ls-files '*.cpp' '*.h')
if [ ${#bad[@]} -gt 0 ]; then
  printf 'check-format: not clang-formatted: %s\n' "${bad[@]}" >&2
  echo "check-format: clang-format-19 -i FILE... fixes them" >&2
  exit 1
fi
echo "check-format: $(git ls-files '*.cpp' '*.h' | wc -l) files formatted"
