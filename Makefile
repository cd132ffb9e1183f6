# The two commands of the README's quick start: `make run` and `make test`.
SWIFT ?= swift
ARGS ?=

# macOS: Homebrew's ncurses and zlib are keg-only (not linked into its prefix), so pkg-config
# finds their .pc files only through their own folders; everything built here sees them.
ifeq ($(shell uname -s),Darwin)
BREW_PREFIX := $(shell brew --prefix 2>/dev/null || echo /opt/homebrew)
export PKG_CONFIG_PATH := $(BREW_PREFIX)/opt/ncurses/lib/pkgconfig:$(BREW_PREFIX)/opt/zlib/lib/pkgconfig$(if $(PKG_CONFIG_PATH),:$(PKG_CONFIG_PATH))
endif

.PHONY: run test contract setup build release-inputs relink-if-reordered release install uninstall manual fuzz fuzz-smoke bench link-order warm-up-list soak clean

setup:
	@.ci/ensure-packages.sh
	@Build/write-build-info.sh

build: setup
	$(SWIFT) build --product checkout

run: build
	@$$($(SWIFT) build --show-bin-path)/checkout $(ARGS)

test: setup
	@.ci/ensure-packages.sh --with-python --with-bench-tools --with-browser --with-postgres
	$(SWIFT) build --build-tests
	@# The store's tests against a throw-away PostgreSQL (its URL in CHECKOUT_TEST_POSTGRES_URL), removed
	@# afterwards also on failure; without PostgreSQL they print a skip, unless CI is set.
	@# At most four tests per core at once (SWIFT_TEST_WIDTH): see .ci/swift-tests.sh.
	SWIFT=$(SWIFT) .ci/postgres-cluster.sh run .ci/swift-tests.sh
	@# The checks after the suite: one per core at once, each one's output printed whole when it ends
	@# (make 3.81, macOS's own, has no --output-sync: there they run one after another).
	@$(MAKE) --no-print-directory $(TEST_STAGE_FLAGS) $(TEST_STAGES)
	@# The benchmark suite alone: it times the app, so nothing else may load the machine meanwhile.
	@$(MAKE) --no-print-directory test-bench

# The checks `make test` runs after the Swift suite, on the debug build it made; not meant alone.
# None of them times anything (test-bench does, and runs after them, alone).
TEST_STAGES = test-contract test-browser test-manual test-icu-data test-install
CORES := $(shell getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)
TEST_STAGE_FLAGS = $(if $(filter 3.%,$(MAKE_VERSION)),,-j$(CORES) --output-sync=target)
.PHONY: $(TEST_STAGES) test-bench
test-contract:
	@# The sandbox against the providers' published API documents (schemathesis; `make contract` alone).
	python3 Tests/Conformance/contract/run.py --bin-dir "$$($(SWIFT) build --show-bin-path)"
test-browser:
	@# The sandbox's pages in headless Chromium (selenium); skipped with a message where Chromium cannot be installed, unless CI is set.
	.build/python/bin/python Tests/Browser/pages_test.py --bin-dir "$$($(SWIFT) build --show-bin-path)"
test-bench:
	@# The benchmark suite runs and prints every row (on the debug build: figures are not checked here).
	python3 Benchmarks/bench.py --quick --bin-dir "$$($(SWIFT) build --show-bin-path)"
test-manual:
	@# The committed man page matches the commands' definitions.
	Build/manual.sh --check
test-icu-data:
	@# What the release link keeps of ICU's data (Build/ICUData/trim.py), and that it reads back.
	SWIFT=$(SWIFT) python3 Tests/Tools/icu_data_trim_test.py
test-install:
	Tests/Shell/install-journey.sh

# The contract run alone: schemathesis against a `checkout sandbox`, for every document declared
# in Tests/Conformance/contract/documents/ (ARGS: --only NAME,... --seed N).
contract: setup
	@.ci/ensure-packages.sh --with-python
	$(SWIFT) build --product checkout
	python3 Tests/Conformance/contract/run.py --bin-dir "$$($(SWIFT) build --show-bin-path)" $(ARGS)

# A fault soak: seeded checkouts across every provider against one shared sandbox, with random
# faults; SOAK_SEED reproduces a run (default: from the clock, printed).
# SOAK_STORE=postgres runs it on `checkout sandbox --store` over a throw-away PostgreSQL cluster
# (.ci/postgres-cluster.sh), SOAK_STORE=postgres://… on that (empty) database; SOAK_INSTANCES=N
# runs N instances on it, each checkout's calls alternating between them, one of them killed
# (SIGKILL) and restarted halfway (SOAK_KILL=no keeps them all up).
SOAK_CHECKOUTS ?= 1000
SOAK_SEED ?=
SOAK_STORE ?= memory
SOAK_INSTANCES ?= 1
SOAK_KILL ?= yes
SOAK_ARGS = --checkouts $(SOAK_CHECKOUTS) $(if $(SOAK_SEED),--seed $(SOAK_SEED)) \
	$(if $(filter-out 1,$(SOAK_INSTANCES)),--instances $(SOAK_INSTANCES) $(if $(filter no,$(SOAK_KILL)),--no-kill))
soak: setup
	$(SWIFT) build
ifeq ($(SOAK_STORE),memory)
	$$($(SWIFT) build --show-bin-path)/checkout-soak $(SOAK_ARGS)
else ifeq ($(SOAK_STORE),postgres)
	@.ci/ensure-packages.sh --with-postgres
	.ci/postgres-cluster.sh run sh -c 'exec "$$0" "$$@" --store "$$CHECKOUT_TEST_POSTGRES_URL"' \
	  "$$($(SWIFT) build --show-bin-path)/checkout-soak" $(SOAK_ARGS)
else
	@# The URL through the environment, so its password is not echoed with the command.
	@SOAK_STORE_URL='$(SOAK_STORE)' sh -c 'exec "$$0" "$$@" --store "$$SOAK_STORE_URL"' \
	  "$$($(SWIFT) build --show-bin-path)/checkout-soak" $(SOAK_ARGS)
endif

# Release builds link Swift's runtime and Foundation statically (a binary that runs without the
# toolchain, and starts faster) and as a fixed-address executable (no start-up relocations).
# Every function in a section of its own, linked by lld with the functions everyday use runs
# laid out together (Build/LinkOrder/record.py): the kernel maps code 64 KB at a time, so spread
# thinly they kept 25 MB resident (P5); after them the protocol conformance descriptors, which
# each new dynamic cast reads all of (P2); then the writable data written at run time, which
# spread out kept 1.4 MB of private pages for 0.3 MB of writes (P5). `make link-order` records
# the order again. Functions without a symbol (the order cannot name them) are gathered by
# Build/LinkOrder/private-functions.ld.
# A generic type's metadata is reached through its accessor, with the conformances it needs
# passed in, not looked up by mangled name at run time: each such lookup scans every conformance
# record in the binary (14,000), and a headless run made hundreds (P1, P2: a third of their time).
METADATA_FLAGS = -Xswiftc -Xfrontend -Xswiftc -disable-concrete-type-metadata-mangled-name-accessors
# On macOS the Swift runtime and Foundation are part of the system (so the binary already runs
# without the toolchain; Apple's platforms refuse --static-swift-stdlib), and Apple's linker has
# neither lld's ordering file nor -no-pie on arm64: a plain release build, dead code stripped.
ifeq ($(shell uname -s),Darwin)
RELEASE_FLAGS = -c release -Xlinker -dead_strip $(METADATA_FLAGS)
else
# Two things left out on Linux (P7): ICU's data a checkout never reaches (release-inputs:
# Build/ICUData, 34 MB → 7 MB) and the dynamic symbol table the toolchain's -export-dynamic
# makes of every Swift symbol (8 MB; the symbol table still names functions in a backtrace).
# No $ORIGIN run path: nothing is loaded from beside the binary (it links no Swift library
# dynamically), so an installed one never looks in its own folder for a library, and ld.so
# stops trying that folder (and its hwcaps subfolders) for each of the system's libraries.
RELEASE_FLAGS = -c release --static-swift-stdlib --disable-local-rpath -Xlinker -no-pie \
	-Xswiftc -Xfrontend -Xswiftc -function-sections -Xcc -ffunction-sections -Xswiftc -use-ld=lld \
	$(METADATA_FLAGS) \
	-Xlinker --symbol-ordering-file=$(CURDIR)/Build/LinkOrder/checkout.order -Xlinker --no-warn-symbol-ordering \
	-Xlinker --script=$(CURDIR)/Build/LinkOrder/private-functions.ld \
	-Xlinker --no-export-dynamic $(shell cat .build/icu-data/link-flags 2>/dev/null)
# LTO=full: every module optimized once more at link time, and Swift's runtime records (type
# metadata, conformances) kept only where what they name is (-conditional-runtime-records):
# the installed binary 68.8 → 57.3 MB (P7), the same P1/P2. Not the default: a cold build takes
# about 16 minutes on 2 cores and every relink about 10 (one core), and the link order, recorded
# on the default build, fits it less (P5's demo 22 → 29 MB). Its own build folder, so
# switching builds neither again. (-enable-llvm-vfe/-wme would strip more, but call dispatch
# thunks the toolchain's Foundation does not have: the link fails.)
ifeq ($(LTO),full)
RELEASE_FLAGS += --scratch-path .build-lto --experimental-lto-mode=full \
	-Xswiftc -Xfrontend -Xswiftc -conditional-runtime-records -Xswiftc -Xfrontend -Xswiftc -internalize-at-link
else ifneq ($(LTO),)
$(error LTO must be full or empty, not "$(LTO)")
endif
endif

# The link order lld reads: the functions, the conformance descriptors, then the writable data the
# demo writes (three files, so none is large to commit; `make link-order` writes them all).
Build/LinkOrder/checkout.order: Build/LinkOrder/functions.order Build/LinkOrder/conformances.order Build/LinkOrder/data.order
	@cat $^ > $@

# What a release link takes besides the sources; read by RELEASE_FLAGS as each recipe runs.
release-inputs: Build/LinkOrder/checkout.order
ifneq ($(shell uname -s),Darwin)
	@Build/ICUData/build.sh "$(SWIFT)" .build/icu-data
endif

# The link order, its script and ICU's trimmed data are linker inputs SwiftPM does not track: any
# newer than the binary relinks it.
relink-if-reordered: release-inputs
	@bin="$$($(SWIFT) build $(RELEASE_FLAGS) --show-bin-path)/checkout"; \
	  if [ -e "$$bin" ]; then for input in Build/LinkOrder/checkout.order Build/LinkOrder/private-functions.ld .build/icu-data/icudata.o; do \
	    if [ "$$input" -nt "$$bin" ]; then rm -f "$$bin"; break; fi; done; fi

release: setup relink-if-reordered
	$(SWIFT) build $(RELEASE_FLAGS) --product checkout

# `make install` (PREFIX, default ~/.local; DESTDIR for packagers): the release binary, its
# resources, the man page and bash/zsh/fish completions; `make uninstall` removes exactly those.
# `make release && sudo make install PREFIX=/usr/local` installs system-wide without building as root.
PREFIX ?= $(HOME)/.local
DESTDIR ?=
# INSTALL_FROM=debug installs the debug build instead (the tests do, to skip a release build).
INSTALL_FROM ?= release
ifeq ($(INSTALL_FROM),debug)
INSTALL_BUILD_FLAGS =
else
INSTALL_BUILD_FLAGS = $(RELEASE_FLAGS)
endif
install: setup $(if $(filter release,$(INSTALL_FROM)),release-inputs)
	@# Under sudo, a build that is someone else's (its own folder: .build, or .build-lto) is used as it is, not rebuilt as root.
	@bin="$$($(SWIFT) build $(INSTALL_BUILD_FLAGS) --show-bin-path)"; \
	  if [ "$$(id -u)" = 0 ] && [ -x "$$bin/checkout" ] && [ "$$(ls -nd "$$bin/checkout" | awk '{print $$3}')" != 0 ]; then \
	    echo "install: using the $(INSTALL_FROM) build already made by the build folder's owner (make release as them after changes)"; \
	  else $(SWIFT) build $(INSTALL_BUILD_FLAGS) --product checkout || exit 1; fi; \
	  Build/install.sh install "$$bin" "$(DESTDIR)$(PREFIX)"

uninstall:
	@Build/install.sh uninstall "" "$(DESTDIR)$(PREFIX)"

# Docs/checkout.1 from the commands' definitions, by swift-argument-parser's manual generator.
manual: setup
	Build/manual.sh

link-order: setup release-inputs
	@.ci/ensure-packages.sh --with-bench-tools
	$(SWIFT) build $(RELEASE_FLAGS) --product checkout
	python3 Build/LinkOrder/record.py --binary "$$($(SWIFT) build $(RELEASE_FLAGS) --show-bin-path)/checkout"

# Sources/CConformanceWarmUp/entries.h: the Swift runtime's conformance questions a headless
# start asks, recorded under gdb over each provider's checkout (Build/ConformanceWarmUp/record.py).
warm-up-list: setup release-inputs
	@command -v gdb >/dev/null || { echo "make warm-up-list needs gdb (apt-get install gdb)" >&2; exit 1; }
	$(SWIFT) build $(RELEASE_FLAGS) --product checkout
	python3 Build/ConformanceWarmUp/record.py --binary "$$($(SWIFT) build $(RELEASE_FLAGS) --show-bin-path)/checkout"

# Benchmarks/README.md: every figure next to its floor, measured in the same run. ARGS=--json F,
# --soak (30 minutes of memory), --quick (seconds; `make test` runs it), --readme README.md.
bench: setup relink-if-reordered
	@.ci/ensure-packages.sh --with-bench-tools --with-postgres
	$(SWIFT) build $(RELEASE_FLAGS) --product checkout
	$(SWIFT) build $(RELEASE_FLAGS) --product bench-floor-frame
	$(SWIFT) build $(RELEASE_FLAGS) --product bench-floor-http
	python3 Benchmarks/bench.py --bin-dir "$$($(SWIFT) build $(RELEASE_FLAGS) --show-bin-path)" $(ARGS)

# libFuzzer targets, each for FUZZ_SECONDS (default 60) or FUZZ_RUNS executions, whichever ends
# first; FUZZ_TARGETS picks some, FUZZ_FORK=N runs N workers (README's Fuzzing).
FUZZ_SECONDS ?= 60
FUZZ_TARGETS ?=
FUZZ_RUNS ?=
FUZZ_FORK ?=
fuzz: setup
	@SWIFT="$(SWIFT)" FUZZ_SECONDS="$(FUZZ_SECONDS)" FUZZ_TARGETS="$(FUZZ_TARGETS)" \
	  FUZZ_RUNS="$(FUZZ_RUNS)" FUZZ_FORK="$(FUZZ_FORK)" Fuzz/run.sh

# CI's short pass: each harness, linked beside the debug build, for FUZZ_SECONDS on its seed corpus.
fuzz-smoke: setup
	@SWIFT="$(SWIFT)" FUZZ_SECONDS="$(FUZZ_SECONDS)" FUZZ_TARGETS="$(FUZZ_TARGETS)" FUZZ_BUILD=smoke Fuzz/run.sh

clean:
	rm -rf .build
