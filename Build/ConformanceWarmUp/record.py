#!/usr/bin/env python3
"""Records the conformance questions a session's start asks the Swift runtime, and writes them
as `Sources/CConformanceWarmUp/entries.h`, which `checkout` asks on an idle core while it parses
its command line (see that target's header for why).

How: each provider's headless checkout (`checkout run --provider P --customer approve`, each
variant `checkout providers --json` marks for benchmarking) runs under gdb, with the warm-up
itself switched off (`CHECKOUT_CONFORMANCE_WARM_UP=0`: with it on, every question would already
be answered). gdb's breakpoint on the runtime's conformance entry points logs each question the
first time it is asked. Only questions about a nominal, non-generic type can be asked ahead (its
metadata accessor is a plain function); each becomes the type's accessor symbol and the
protocol's descriptor symbol, which the binary resolves weakly, so a symbol a dependency later
renames only drops its entry. The list:
- first, those the command line's parse asks, last first: the parse asks them from its first
  moment too, so the warm-up takes them from the other end and the two meet in the middle;
- then those the session asks once `RunCommand.run` began, in the order first asked.

Run it again when the dependencies or the session's start change much: `make warm-up-list`.
Usage: record.py --binary .build/release/checkout
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ENTRIES = HERE.parent.parent / "Sources" / "CConformanceWarmUp" / "entries.h"


def provider_runs(binary: Path) -> list[list[str]]:
    listed = json.loads(subprocess.run([str(binary), "providers", "--json"], capture_output=True, text=True, check=True).stdout)
    runs = []
    for provider in listed["providers"]:
        variants = [variant for variant in provider.get("variants") or [] if variant.get("bench")] or [{"options": {}}]
        for variant in variants:
            options = [arg for flag, value in sorted(variant["options"].items()) for arg in (f"--{flag}", value)]
            runs.append(["run", "--provider", provider["id"], "--customer", "approve", *options])
    return runs


def questions(binary: Path, arguments: list[str]) -> list[tuple[str, str, set[str]]]:
    with tempfile.TemporaryDirectory() as scratch:
        log = Path(scratch) / "questions.tsv"
        done = subprocess.run(
            ["gdb", "-q", "-batch", "-ex", "set pagination off", "-ex", "set print thread-events off",
             "-ex", f"source {HERE / 'gdb_lookups.py'}", "-ex", "run", "--args", str(binary), *arguments],
            env={**os.environ, "WARM_UP_LOG": str(log), "CHECKOUT_CONFORMANCE_WARM_UP": "0"}, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
            timeout=600)
        if not log.exists():
            sys.exit(f"record.py: gdb logged nothing for {' '.join(arguments)}: {done.stderr.strip()[-500:]}")
        rows = []
        for line in log.read_text().splitlines():
            fields = line.split("\t")
            if len(fields) == 3:
                rows.append((fields[0], fields[1], set(filter(None, fields[2].split(",")))))
        return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--binary", type=Path, required=True)
    binary = parser.parse_args().binary.resolve()
    parse: list[tuple[str, str]] = []
    session: list[tuple[str, str]] = []
    for arguments in provider_runs(binary):
        asked = questions(binary, arguments)
        kept = 0
        for type_symbol, protocol_symbol, flags in asked:
            if "nominal" not in flags or "generic" in flags:
                continue
            if not (type_symbol.endswith("Mn") and protocol_symbol.endswith("Mp")):
                continue
            pair = (type_symbol[:-2] + "Ma", protocol_symbol)
            found = parse if "early" in flags else session
            if pair not in parse and pair not in session:
                found.append(pair)
                kept += 1
        print(f"{' '.join(arguments)}: {len(asked)} questions, {kept} new entries", file=sys.stderr)
    pairs = list(reversed(parse)) + session
    types = list(dict.fromkeys(type_symbol for type_symbol, _ in pairs))
    protocols = list(dict.fromkeys(protocol_symbol for _, protocol_symbol in pairs))
    lines = ["// Written by `make warm-up-list` (Build/ConformanceWarmUp/record.py): do not edit.",
             "// Each type's metadata accessor, each protocol's descriptor, then the questions: the command",
             "// line's parse's, last first, then those a session's start asks, in the order it first asks them."]
    lines += [f'WARM_UP_TYPE({index}, "{symbol}")' for index, symbol in enumerate(types)]
    lines += [f'WARM_UP_PROTOCOL({index}, "{symbol}")' for index, symbol in enumerate(protocols)]
    lines += [f"WARM_UP_PAIR({types.index(t)}, {protocols.index(p)})" for t, p in pairs]
    ENTRIES.write_text("\n".join(lines) + "\n")
    print(f"wrote {ENTRIES.relative_to(HERE.parent.parent)}: {len(pairs)} questions, {len(types)} types, {len(protocols)} protocols",
          file=sys.stderr)


if __name__ == "__main__":
    main()
