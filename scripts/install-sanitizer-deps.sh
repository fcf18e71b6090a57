#!/usr/bin/env bash
# Installs what `make test-sanitizers` and `make fuzz` need beyond `make test`:
# clang 19 (the sanitizer builds are compiled with it, matching LLVM/MLIR 19),
# libFuzzer and the compiler-rt sanitizer runtimes. clang-19 only recommends
# libclang-rt-19-dev and install-deps.sh installs without recommends, yet
# -fsanitize=address|thread|fuzzer does not link without it: name it here.
exec "$(dirname "$0")/install-deps.sh" clang-19 libfuzzer-19-dev \
  libclang-rt-19-dev
