#!/usr/bin/env bash
# `make fuzz`: builds the libFuzzer targets (release, ASan) and runs each for FUZZ_SECONDS on a
# working copy of its seed corpus, so new inputs never dirty the repository. Prints one line
# per target and fails when any target found a crash, a hang or a leak.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds="${FUZZ_SECONDS:-60}"
# Every folder under Fuzz/ with a corpus is a target (FuzzScenario from Fuzz/Scenario, and so on).
targets="${FUZZ_TARGETS:-$(cd Fuzz && for folder in */; do [ -d "$folder/corpus" ] && printf '%s ' "${folder%/}"; done)}"
swift="${SWIFT:-swift}"
if [ "${FUZZ_BUILD:-full}" = smoke ]; then
  # CI's short pass: the debug build `make test` has just made (testing is enabled there, for
  # the harnesses' @testable imports), and only the harnesses linked with libFuzzer, so it
  # costs seconds on top. The library modules carry no coverage counters here: this pass
  # replays the seed corpora (crashes found before are among them) and mutates them blindly;
  # `make fuzz` is the guided search.
  scratch=.build
  build=("$swift" build)
  export TERMINALCHECKOUT_FUZZ=smoke
else
  scratch=.build/fuzz
  build=("$swift" build -c release --sanitize fuzzer --sanitize address
    # As SwiftPM passes them, the two flags leave Swift code without coverage counters (seen on
    # Swift 6.3); one combined flag keeps both, so libFuzzer sees which Swift branches ran.
    -Xswiftc -sanitize=fuzzer,address
    # The harnesses reach internal entry points (the sandbox's body checks) through @testable.
    -Xswiftc -enable-testing --scratch-path "$scratch")
  export TERMINALCHECKOUT_FUZZ=1
fi

for target in $targets; do
  [ -d "Fuzz/$target" ] || { echo "fuzz: no target Fuzz/$target" >&2; exit 64; }
done
if [ "${FUZZ_BUILD:-full}" = smoke ] && [ -z "${FUZZ_TARGETS:-}" ]; then
  # Every harness in one build: one package load instead of one per target (the rest is built).
  "${build[@]}"
else
  for target in $targets; do "${build[@]}" --product "Fuzz$target"; done
fi
bin="$("${build[@]}" --show-bin-path)"
# Working corpora, findings and logs: beside the sanitized build, or their own folder for smoke.
corpora="$scratch"
[ "${FUZZ_BUILD:-full}" = smoke ] && corpora=.build/fuzz-smoke

# Targets run FUZZ_JOBS at once (default: one per core for the smoke pass, whose harnesses are
# single-threaded; one for `make fuzz`, where FUZZ_FORK spreads a target over the cores).
if [ "${FUZZ_BUILD:-full}" = smoke ]; then jobs="${FUZZ_JOBS:-$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)}"; else jobs="${FUZZ_JOBS:-1}"; fi
[[ $jobs =~ ^[1-9][0-9]*$ ]] || { echo "FUZZ_JOBS must be a whole number, 1 or more (got '$jobs')" >&2; exit 64; }
results=$(mktemp -d)
trap 'rm -rf "$results"' EXIT

# Runs one target; its report goes to $results/<target> (the last line says ok or FAILED).
fuzz_target() {
  local target=$1
  local corpus="$corpora/corpus/$target" findings="$corpora/findings/$target" log="$corpora/logs/$target.log"
  mkdir -p "$corpus" "$findings" "$(dirname "$log")"
  for seed in Fuzz/"$target"/corpus/*; do [ -e "$corpus/${seed##*/}" ] || cp "$seed" "$corpus/"; done
  local options=(-max_total_time="$seconds" -timeout=10 -print_final_stats=1 -artifact_prefix="$findings/")
  # FUZZ_RUNS stops a target after that many executions (whichever of it and FUZZ_SECONDS
  # comes first); FUZZ_FORK runs that many workers, one per core, merging what they find.
  [ -n "${FUZZ_RUNS:-}" ] && options+=(-runs="$FUZZ_RUNS")
  [ -n "${FUZZ_FORK:-}" ] && options+=(-fork="$FUZZ_FORK" -ignore_crashes=0)
  [ -f "Fuzz/$target/fuzz.dict" ] && options+=(-dict="Fuzz/$target/fuzz.dict")
  local status=0
  # Swift's own crash reporter would take a trap before libFuzzer could save the input. Set
  # here only: a changed environment makes SwiftPM rebuild everything.
  SWIFT_BACKTRACE=enable=no "$bin/Fuzz$target" "${options[@]}" "$corpus" >"$log" 2>&1 || status=$?
  local runs elapsed finding
  runs="$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)"
  elapsed="$(sed -n 's/^Done [0-9]* runs in \([0-9]*\) second.*/\1/p' "$log" | tail -1)"
  # Fork mode prints no final stats: its last progress line carries the total and the time.
  [ -z "$runs" ] && runs="$(sed -n 's/^#\([0-9]*\): cov:.*/\1/p' "$log" | tail -1)"
  [ -z "$elapsed" ] && elapsed="$(sed -n 's/^#[0-9]*: cov:.* time: \([0-9]*\)s.*/\1/p' "$log" | tail -1)"
  finding="$(sed -n 's/.*Test unit written to \(.*\)$/\1/p' "$log" | tail -1)"
  if [ "$status" -eq 0 ]; then
    echo "fuzz: Fuzz$target ok: ${runs:-?} executions in ${elapsed:-?} s, crashes=0" > "$results/$target"
  else
    {
      grep -m 12 -E "ERROR: |Fatal error|SUMMARY: |#0 |#1 |#2 |#3 " "$log" | sed 's/^/    /' || true
      echo "fuzz: Fuzz$target FAILED (exit $status) after ${runs:-?} executions: ${finding:-no input written}; log $log"
    } > "$results/$target"
  fi
}

running=0
for target in $targets; do
  if [ "$running" -ge "$jobs" ]; then wait -n || true; running=$((running - 1)); fi
  fuzz_target "$target" &
  running=$((running + 1))
done
wait

failed=()
for target in $targets; do
  report="$results/$target"
  [ -f "$report" ] || echo "fuzz: Fuzz$target FAILED: it wrote no report" > "$report"
  # The ok or FAILED line first, then what the log says of a failure.
  tail -1 "$report"
  grep -q "^fuzz: Fuzz$target ok:" "$report" || { failed+=("$target"); sed '$d' "$report"; }
done

if [ ${#failed[@]} -gt 0 ]; then
  echo "fuzz: ${#failed[@]} target(s) failed: ${failed[*]}; reproduce with $bin/Fuzz<Target> <input>" >&2
  exit 1
fi
