# Entry points for people; CMake does the real work.
#   make demo   install what is missing, build, run the demo
#   make test   install what is missing, build, run every test
#   make bench  build and run the benchmarks; JSON in $(BUILD)/bench/,
#               rendered into docs/benchmarks.md and docs/img/
BUILD ?= build
JOBS ?= 2

.PHONY: all deps configure build demo test bench clean

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
	cd $(BUILD) && ctest --output-on-failure -j$(JOBS)

bench: configure
	@scripts/install-bench-deps.sh
	cmake --build $(BUILD) --target loom-bench-jit loom-bench-mesh \
	  loom-bench-seed -j$(JOBS)
	@mkdir -p $(BUILD)/bench
	$(BUILD)/bin/loom-bench-jit --benchmark_repetitions=5 \
	  --benchmark_display_aggregates_only=true \
	  --benchmark_out=$(BUILD)/bench/jit.json --benchmark_out_format=json
	$(BUILD)/bin/loom-bench-mesh \
	  --benchmark_display_aggregates_only=true \
	  --benchmark_out=$(BUILD)/bench/mesh.json --benchmark_out_format=json
	$(BUILD)/bin/loom-bench-seed --peak-memory-ode=100000 \
	  --peak-memory-out=$(BUILD)/bench/memory.json
	@# A mismatch fails the run, after the report shows what did run.
	$(BUILD)/bin/loom-bench-seed --benchmark_repetitions=3 \
	  --benchmark_min_time=0.05 --benchmark_display_aggregates_only=true \
	  --benchmark_out=$(BUILD)/bench/seed.json --benchmark_out_format=json; \
	status=$$?; \
	python3 benchmarks/report.py $(BUILD)/bench docs/benchmarks.md docs/img && \
	exit $$status

clean:
	rm -rf $(BUILD)
