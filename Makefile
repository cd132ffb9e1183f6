# The two commands of the README's quick start: `make run` and `make test`.
SWIFT ?= swift
ARGS ?=

.PHONY: run test setup build release bench soak clean

setup:
	@.ci/ensure-packages.sh

build: setup
	$(SWIFT) build --product checkout

run: build
	@$$($(SWIFT) build --show-bin-path)/checkout $(ARGS)

test: setup
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build

# A fault soak: seeded checkouts across every provider against one shared sandbox, with random
# faults; SOAK_SEED reproduces a run (default: from the clock, printed).
SOAK_CHECKOUTS ?= 1000
SOAK_SEED ?=
soak: setup
	$(SWIFT) build
	$$($(SWIFT) build --show-bin-path)/checkout-soak --checkouts $(SOAK_CHECKOUTS) $(if $(SOAK_SEED),--seed $(SOAK_SEED))

release: setup
	$(SWIFT) build -c release --product checkout

clean:
	rm -rf .build
