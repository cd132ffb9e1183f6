# The two commands of the README's quick start: `make run` and `make test`.
SWIFT ?= swift
ARGS ?=

.PHONY: run test setup build release fuzz bench clean

setup:
	@.ci/ensure-packages.sh

build: setup
	$(SWIFT) build --product checkout

run: build
	@$$($(SWIFT) build --show-bin-path)/checkout $(ARGS)

test: setup
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build

release: setup
	$(SWIFT) build -c release --product checkout

# libFuzzer targets, each for FUZZ_SECONDS (default 60); FUZZ_TARGETS picks some (README's Fuzzing).
FUZZ_SECONDS ?= 60
FUZZ_TARGETS ?=
fuzz: setup
	@SWIFT="$(SWIFT)" FUZZ_SECONDS="$(FUZZ_SECONDS)" FUZZ_TARGETS="$(FUZZ_TARGETS)" Fuzz/run.sh

clean:
	rm -rf .build
