#!/usr/bin/env bash
# Runs each libFuzzer target for SECONDS (make fuzz; FUZZ_SECONDS, 60 by
# default) and fails if any of them found something new.
#
#   scripts/fuzz.sh BUILD SECONDS [TARGET...]   (targets: ir npy spec)
#
# Each target runs in fork mode (-fork=2 -ignore_crashes=1): the IR target
# reaches upstream MLIR's parser crash (test/fuzz/known-upstream.txt) within
# seconds, and libFuzzer would otherwise stop there. Afterwards every
# artifact (crash, leak, timeout, oom) is run again alone, and a report whose
# stack matches a signature of test/fuzz/known-upstream.txt (fuzz-known.py)
# is known; any other is new: the script prints the reproducer's path, the
# first lines of its report and the command that reproduces it, and exits 1. Work files are
# under BUILD/fuzz/TARGET: corpus/ (kept between runs), artifacts/ and
# log (both replaced by each run).
set -uo pipefail

build=${1:?usage: fuzz.sh BUILD SECONDS [TARGET...]}
seconds=${2:?usage: fuzz.sh BUILD SECONDS [TARGET...]}
shift 2
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=(ir npy spec)
src=$(cd "$(dirname "$0")/.." && pwd)
known_file=$src/test/fuzz/known-upstream.txt
llvm_bin=${LLVM_BIN:-/usr/lib/llvm-19/bin}

# Symbolized stacks, which the known signatures are matched against.
sym=external_symbolizer_path=$llvm_bin/llvm-symbolizer
# allow_user_poisoning=0: see cmake/modules/LoomSanitizers.cmake (a false
# use-after-poison where Loom and the uninstrumented libMLIR share an
# allocator).
export ASAN_OPTIONS="$sym:detect_leaks=1:allow_user_poisoning=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
export UBSAN_OPTIONS="$sym:halt_on_error=1:print_stacktrace=1${UBSAN_OPTIONS:+:$UBSAN_OPTIONS}"
export LSAN_OPTIONS="suppressions=$src/test/sanitizers/lsan.supp:print_suppressions=0${LSAN_OPTIONS:+:$LSAN_OPTIONS}"

# Per-target limits: inputs as large as the largest seed, and a timeout that
# turns a pass that never finishes into a finding.
flags_for() {
  case $1 in
  ir) echo "-max_len=32768 -timeout=10 -dict=$build/fuzz/seeds/ir.dict" ;;
  npy) echo "-max_len=4096 -timeout=5" ;;
  spec) echo "-max_len=256 -timeout=5" ;;
  esac
}

# Sanitizer options of its own: the runtime's readers report a failed
# allocation as an error, which they can only do if calloc may return null.
env_for() {
  case $1 in
  npy | spec) echo "ASAN_OPTIONS=$ASAN_OPTIONS:allocator_may_return_null=1" ;;
  *) echo "ASAN_OPTIONS=$ASAN_OPTIONS" ;;
  esac
}

# FUZZ_UNLISTED_UPSTREAM=report: a crash inside upstream MLIR's parser that
# known-upstream.txt does not list yet is reported but does not fail the
# run (CI: the fuzzers keep finding new ones in MLIR 19's custom parsers,
# which no Loom change causes). By default it fails, like any new finding.
unlisted_upstream=${FUZZ_UNLISTED_UPSTREAM:-fail}

status=0
summaries=()
for t in "${targets[@]}"; do
  bin=$build/bin/loom-$t-fuzzer
  seeds=$build/fuzz/seeds/$t
  work=$build/fuzz/$t
  if [ ! -x "$bin" ] || [ ! -d "$seeds" ]; then
    echo "fuzz: $bin or $seeds missing; build the loom-fuzzers target" >&2
    exit 2
  fi
  rm -rf "$work/artifacts" "$work/reports"
  mkdir -p "$work/corpus" "$work/artifacts" "$work/reports"
  echo "fuzz: loom-$t-fuzzer for ${seconds} s (log: $work/log)"
  # shellcheck disable=SC2046
  env "$(env_for "$t")" "$bin" -fork=2 -ignore_crashes=1 -max_total_time="$seconds" \
    $(flags_for "$t") -artifact_prefix="$work/artifacts/" \
    "$work/corpus" "$seeds" > "$work/log" 2>&1
  rc=$?
  last=$(grep -E '^#[0-9]+: cov: ' "$work/log" | tail -1)
  # "#N: cov: C ft: F corp: K exec/s: E oom/timeout/crash: O/T/C time: ..."
  runs=$(sed -E 's/^#([0-9]+):.*/\1/' <<< "$last")
  cov=$(sed -E 's/.* cov: ([0-9]+).*/\1/' <<< "$last")
  corp=$(sed -E 's/.* corp: ([0-9]+).*/\1/' <<< "$last")
  if [ -z "$last" ]; then
    echo "fuzz: loom-$t-fuzzer did not run (exit $rc); last lines of $work/log:" >&2
    tail -20 "$work/log" >&2
    status=1
    continue
  fi

  n_known=0
  n_new=0
  n_upstream=0
  for a in "$work"/artifacts/*; do
    [ -e "$a" ] || continue
    name=$(basename "$a")
    case $name in
    crash-* | leak-* | timeout-* | oom-*) ;;
    *) continue ;; # slow-unit-*: slow, not wrong
    esac
    report=$work/reports/$name.txt
    # Memory corruption need not crash every time: give it three tries.
    for _ in 1 2 3; do
      # shellcheck disable=SC2046
      timeout 120 env "$(env_for "$t")" "$bin" $(flags_for "$t") "$a" > "$report" 2>&1 || break
    done
    python3 "$src/scripts/fuzz-known.py" "$known_file" "$report" > /dev/null
    case $? in
    0)
      n_known=$((n_known + 1))
      continue
      ;;
    2)
      # Inside upstream's parser, before any Loom code ran: not this
      # change's doing, and nothing Loom can fix; handle it as
      # docs/upstream-bugs.md says (document it, an XFAIL test, a
      # signature in known-upstream.txt).
      n_upstream=$((n_upstream + 1))
      [ "$unlisted_upstream" = report ] || status=1
      echo "fuzz: NEW upstream MLIR parser crash (no signature in test/fuzz/known-upstream.txt yet) by loom-$t-fuzzer: $a" >&2
      ;;
    *)
      n_new=$((n_new + 1))
      status=1
      echo "fuzz: NEW finding by loom-$t-fuzzer: $a" >&2
      ;;
    esac
    grep -E 'ERROR|SUMMARY|runtime error|#[0-9]+ 0x' "$report" | head -12 >&2
    echo "  reproduce: $(env_for "$t" | sed -E "s/external_symbolizer_path=[^:]*:?//") $bin $a" >&2
    echo "  report: $report" >&2
  done
  summaries+=("loom-$t-fuzzer: ${seconds} s, $runs inputs, coverage $cov, corpus $corp, $n_new new finding(s), $n_upstream new upstream parser crash(es), $n_known known upstream")
done

printf '%s\n' "${summaries[@]}"
exit $status
