# Entry points for people; CMake does the real work.
#   make demo   install what is missing, build, run the demo
#   make test   install what is missing, build, run every test
#   make bench  build and run the benchmarks; JSON in $(BUILD)/bench/,
#               rendered into docs/benchmarks.md and docs/img/
#   make bench-mpi  the MPI backend's benchmarks, into docs/benchmarks.md
#   make test-sanitizers  every test under ASan+UBSan ($(ASAN_BUILD)/), the
#               runtime and API tests under TSan ($(TSAN_BUILD)/), with clang-19
#   make fuzz   each libFuzzer target for FUZZ_SECONDS (built in $(ASAN_BUILD)/)
#   make check-format  every C++ file as clang-format-19 writes it
#   make install-check  install into a temporary prefix, build and run the
#               examples against it with find_package(Loom)
#   make check-no-mpi  build loom-run with -DLOOM_ENABLE_MPI=OFF (in
#               $(TSAN_BUILD)/) and check that --backend mpi says so
BUILD ?= build
ASAN_BUILD ?= build-asan
TSAN_BUILD ?= build-tsan
JOBS ?= 2
FUZZ_SECONDS ?= 60
# -O1, as OSS-Fuzz builds: a sanitizer build at -O3 compiles far longer and
# runs the tests (whose time goes into uninstrumented MLIR, LLVM and JIT'd
# code) hardly faster.
SANITIZER_CMAKE = -G Ninja -DCMAKE_C_COMPILER=clang-19 \
  -DCMAKE_CXX_COMPILER=clang++-19 \
  -DCMAKE_C_FLAGS_RELEASE="-O1 -DNDEBUG" \
  -DCMAKE_CXX_FLAGS_RELEASE="-O1 -DNDEBUG"

.PHONY: all deps configure build demo test bench clean sanitizer-deps \
  configure-asan configure-tsan test-asan test-tsan test-sanitizers fuzz \
  check-format install-check check-no-mpi bench-mpi

all: build

deps:
	@scripts/install-deps.sh

configure: deps
	@[ -f $(BUILD)/build.ninja ] || cmake -G Ninja -S . -B $(BUILD)

build: configure
	cmake --build $(BUILD) -j$(JOBS)

demo: build
	@scripts/demo.sh $(BUILD)

test: build
	cd $(BUILD) && ctest --output-on-failure --no-label-summary -j$(JOBS)

# The commit each benchmark JSON was measured at, for report.py: `-dirty`
# when tracked files differ from it.
BENCH_CONTEXT = --benchmark_context=commit=$(shell git describe --always \
  --dirty --abbrev=7 --exclude='*' 2>/dev/null || echo unknown)

bench: configure
	@scripts/install-bench-deps.sh
	cmake --build $(BUILD) --target loom-bench-jit loom-bench-aot \
	  loom-bench-mesh loom-bench-seed loom-bench-divergent loom-bench-masked \
	  loom-opt -j$(JOBS)
	@mkdir -p $(BUILD)/bench
	$(BUILD)/bin/loom-bench-jit --benchmark_repetitions=5 $(BENCH_CONTEXT) \
	  --benchmark_display_aggregates_only=true \
	  --benchmark_out=$(BUILD)/bench/jit.json --benchmark_out_format=json
	$(BUILD)/bin/loom-bench-aot --benchmark_repetitions=5 $(BENCH_CONTEXT) \
	  --benchmark_display_aggregates_only=true \
	  --benchmark_out=$(BUILD)/bench/aot.json --benchmark_out_format=json
	$(BUILD)/bin/loom-bench-mesh $(BENCH_CONTEXT) \
	  --benchmark_display_aggregates_only=true \
	  --benchmark_out=$(BUILD)/bench/mesh.json --benchmark_out_format=json
	$(BUILD)/bin/loom-bench-seed --peak-memory-ode=100000 \
	  --peak-memory-out=$(BUILD)/bench/memory.json
	@# A mismatch fails the run, after the report shows what did run.
	$(BUILD)/bin/loom-bench-seed --benchmark_repetitions=7 $(BENCH_CONTEXT) \
	  --benchmark_enable_random_interleaving=true \
	  --benchmark_min_time=0.03 --benchmark_display_aggregates_only=true \
	  --benchmark_out=$(BUILD)/bench/seed.json --benchmark_out_format=json; \
	status=$$?; \
	$(BUILD)/bin/loom-bench-divergent --benchmark_repetitions=9 $(BENCH_CONTEXT) \
	  --benchmark_enable_random_interleaving=true \
	  --benchmark_min_time=0.03 --benchmark_display_aggregates_only=true \
	  --benchmark_out=$(BUILD)/bench/divergent.json \
	  --benchmark_out_format=json || status=1; \
	rm -f $(BUILD)/bench/masked.json; \
	$(BUILD)/bin/loom-bench-masked --benchmark_repetitions=3 $(BENCH_CONTEXT) \
	  --benchmark_display_aggregates_only=true \
	  --benchmark_out=$(BUILD)/bench/masked.json \
	  --benchmark_out_format=json || status=1; \
	python3 benchmarks/report.py $(BUILD)/bench docs/benchmarks.md docs/img && \
	python3 benchmarks/fit-cost-model.py $(BUILD)/bench --loom-opt $(BUILD)/bin/loom-opt && \
	exit $$status

bench-mpi: configure
	cmake --build $(BUILD) --target loom-compile loom-exec -j$(JOBS)
	python3 benchmarks/mpi/mpi_bench.py $(BUILD) --markdown docs/benchmarks.md

sanitizer-deps: deps
	@scripts/install-sanitizer-deps.sh

# One ASan+UBSan build folder serves the tests and the fuzzers.
configure-asan: sanitizer-deps
	@[ -f $(ASAN_BUILD)/build.ninja ] || cmake -S . -B $(ASAN_BUILD) \
	  $(SANITIZER_CMAKE) -DLLVM_USE_SANITIZER="Address;Undefined" \
	  -DLOOM_ENABLE_FUZZERS=ON

# Also the build without MPI (check-no-mpi): no sanitizer folder builds the
# MPI backend's tests anyway (test/unit/CMakeLists.txt), and sharing it
# saves CI a whole build of the compiler. A folder configured with MPI is
# configured again.
configure-tsan: sanitizer-deps
	@grep -qs '^LOOM_ENABLE_MPI:BOOL=OFF$$' $(TSAN_BUILD)/CMakeCache.txt || \
	  cmake -S . -B $(TSAN_BUILD) $(SANITIZER_CMAKE) \
	  -DLLVM_USE_SANITIZER=Thread -DLOOM_ENABLE_MPI=OFF

test-asan: configure-asan
	cmake --build $(ASAN_BUILD) --target loom-test-deps -j$(JOBS)
	cd $(ASAN_BUILD) && ctest --output-on-failure --no-label-summary -j$(JOBS)

test-tsan: configure-tsan
	cmake --build $(TSAN_BUILD) --target loom-tsan-tests -j$(JOBS)
	cd $(TSAN_BUILD) && ctest -L threads --output-on-failure --no-label-summary -j$(JOBS)

test-sanitizers: test-asan test-tsan

fuzz: configure-asan
	cmake --build $(ASAN_BUILD) --target loom-fuzzers -j$(JOBS)
	scripts/fuzz.sh $(ASAN_BUILD) $(FUZZ_SECONDS)

check-format:
	@scripts/check-format.sh

install-check: build
	JOBS=$(JOBS) scripts/install-roundtrip.sh $(BUILD)

clean:
	rm -rf $(BUILD) $(ASAN_BUILD) $(TSAN_BUILD)

# The build without MPI stays working: loom-run from the TSan folder, which
# is configured without MPI, runs one small program on the thread mesh.
check-no-mpi: configure-tsan
	cmake --build $(TSAN_BUILD) --target loom-run -j$(JOBS)
	@. $(TSAN_BUILD)/SanitizerEnv.sh && scripts/check-no-mpi.sh $(TSAN_BUILD)
