# Entry points for people; CMake does the real work.
#   make demo   install what is missing, build, run the demo
#   make test   install what is missing, build, run every test
BUILD ?= build
JOBS ?= 2

.PHONY: all deps configure build demo test clean

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

clean:
	rm -rf $(BUILD)
