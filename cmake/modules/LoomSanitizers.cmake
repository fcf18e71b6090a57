# Sanitizer and fuzzer builds (README, "Robustness checks"). Included before
# HandleLLVMOptions, which turns LLVM_USE_SANITIZER and
# LLVM_USE_SANITIZE_COVERAGE into compiler flags for every target, Loom's
# libraries, tools and GoogleTest binaries alike.

# Sanitizer builds use LLVM's own switch, in a build folder of their own:
#   -DLLVM_USE_SANITIZER="Address;Undefined" (or Thread), compiled with clang-19.
# HandleLLVMOptions appends LLVM_UBSAN_FLAGS for
# Undefined, but only LLVM's own top-level CMakeLists defines them, so against
# an installed LLVM it would add nothing. This is LLVM's value: findings abort
# (so they fail tests), and vptr and function stay off, as in LLVM, because
# the JIT-compiled code is called through plain function pointers.
set(LLVM_UBSAN_FLAGS
    "-fsanitize=undefined -fno-sanitize=vptr,function -fno-sanitize-recover=all"
    CACHE STRING "Compiler flags for LLVM_USE_SANITIZER=Undefined")
# The libFuzzer targets (tools/loom-fuzz) need every Loom library built with
# coverage instrumentation (-fsanitize=fuzzer-no-link), which HandleLLVMOptions
# adds with LLVM_USE_SANITIZE_COVERAGE. They are meant for the ASan+UBSan build
# folder, so that one instrumented build serves the tests and the fuzzers.
option(LOOM_ENABLE_FUZZERS
       "Build the libFuzzer targets (clang, with LLVM_USE_SANITIZER=Address...)"
       OFF)
if(LOOM_ENABLE_FUZZERS)
  if(NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang" OR
     NOT LLVM_USE_SANITIZER MATCHES "Address")
    message(FATAL_ERROR "LOOM_ENABLE_FUZZERS needs clang (clang++-19) and "
                        "-DLLVM_USE_SANITIZER=\"Address;Undefined\"")
  endif()
  set(LLVM_USE_SANITIZE_COVERAGE ON)
endif()

# The sanitizers' runtime options, for every test (lit's through
# lit.site.cfg.py, GoogleTest's through ctest). A finding aborts: lit's `not`
# counts a signal as a failure, while it would count a sanitizer's plain
# exit code 1 as the failure the test expects. LeakSanitizer's suppressions
# name leaks in the uninstrumented LLVM/MLIR libraries; see the file.
# Unused (and harmless) in a build without LLVM_USE_SANITIZER.
set(symbolizer external_symbolizer_path=${LLVM_TOOLS_BINARY_DIR}/llvm-symbolizer)
set(LOOM_ASAN_OPTIONS "abort_on_error=1:detect_leaks=1:${symbolizer}")
set(LOOM_UBSAN_OPTIONS
    "abort_on_error=1:halt_on_error=1:print_stacktrace=1:${symbolizer}")
set(LOOM_LSAN_OPTIONS
    "suppressions=${CMAKE_SOURCE_DIR}/test/sanitizers/lsan.supp:print_suppressions=0")
set(LOOM_TSAN_OPTIONS
    "halt_on_error=1:abort_on_error=1:second_deadlock_stack=1:${symbolizer}")
set(LOOM_SANITIZER_ENV
    "ASAN_OPTIONS=${LOOM_ASAN_OPTIONS}"
    "UBSAN_OPTIONS=${LOOM_UBSAN_OPTIONS}"
    "LSAN_OPTIONS=${LOOM_LSAN_OPTIONS}"
    "TSAN_OPTIONS=${LOOM_TSAN_OPTIONS}")
