#!/usr/bin/env bash
# Runs the built Swift test suite with at most SWIFT_TEST_WIDTH tests at once (default: four per
# core). Unbounded, every one of the ~1,100 tests starts at once; on two cores the tests that
# serve over a socket then miss their own deadlines (a 5 s client timeout, a 2 s idle timeout)
# and the whole run is slower (121 s against 100 s at eight at once). `swift test` cannot pass
# Swift Testing's width option through, so on Linux the test binary is run itself; elsewhere
# (macOS, more cores) `swift test` runs it. Arguments are passed on (--filter, --skip).
set -euo pipefail
swift=${SWIFT:-swift}
cores=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2)
width=${SWIFT_TEST_WIDTH:-$((cores * 4))}
if ! [[ $width =~ ^[1-9][0-9]*$ ]]; then
    echo "SWIFT_TEST_WIDTH must be a whole number of tests, 1 or more (got '$width')" >&2
    exit 64
fi
if [ "$(uname -s)" = Linux ]; then
    bundle="$("$swift" build --show-bin-path)/TerminalCheckoutPackageTests.xctest"
    if [ ! -x "$bundle" ]; then
        echo "no test build at $bundle: run '$swift build --build-tests' first" >&2
        exit 66
    fi
    echo "swift tests: at most $width at once ($cores cores)"
    exec "$bundle" --testing-library swift-testing --experimental-maximum-parallelization-width "$width" "$@"
fi
exec "$swift" test --skip-build "$@"
