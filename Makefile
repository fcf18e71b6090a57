# Entry points for people; CMake does the real work.
#   make demo   install what is missing, build, run the demo
#   make test   install what is missing, build, run every test
#   make bench  build and run the JIT benchmarks; JSON in $(BUILD)/bench/
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
	cmake --build $(BUILD) --target loom-bench-jit -j$(JOBS)
	@mkdir -p $(BUILD)/bench
	$(BUILD)/bin/loom-bench-jit --benchmark_repetitions=5 \
	  --benchmark_display_aggregates_only=true \
	  --benchmark_out=$(BUILD)/bench/jit.json --benchmark_out_format=json

clean:
	rm -rf $(BUILD)
