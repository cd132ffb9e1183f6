# The two commands of the README's quick start: `make run` and `make test`.
SWIFT ?= swift
ARGS ?=

.PHONY: run test setup build release bench clean

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

clean:
	rm -rf .build
