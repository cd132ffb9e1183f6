#!/usr/bin/env python3
"""Records which functions `checkout` runs in everyday use and writes them, in the order they
first ran, as lld's --symbol-ordering-file (`functions.order` and `conformances.order` beside
this script, then `data.order`; make joins them into `checkout.order` for make release and make
bench).

Why: the release binary's code is 37 MB, and the kernel maps it in 64 KB at a time around each
page touched (fault-around). Spread thinly, the few megabytes a checkout runs kept 25 MB of code
resident; laid out together they keep a fraction of that (Benchmarks/README.md, P5). The
functions are read from callgrind runs of the release binary (valgrind counts what runs, not
how long), over: each provider's headless checkout, the screen with a few keys, and the demo.
After the functions come the protocol conformance descriptors, which the runtime reads all of
on each new dynamic cast (`conformance_descriptors`). Last the writable data the demo writes
(`data.order`, read from the running demo's memory): each page of it written is private memory,
and spread through 2.3 MB of metadata caches and type metadata it kept 1.4 MB dirty for 0.3 MB of
writes. The order is only a layout hint: a symbol missing from it still links, after the listed
ones.

Usage: record.py --binary .build/release/checkout [--demo-seconds 90] [--data-only]
"""
from __future__ import annotations

import argparse
import bisect
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import NamedTuple

HERE = Path(__file__).resolve().parent
PROVIDERS = ["cashapp", "afterpay", "adyen", "square", "antom", "wallet"]


def callgrind(binary: Path, out: Path, args: list[str]) -> list[str]:
    return ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", "--dump-instr=no",
            "--compress-strings=no", "--compress-pos=no", "--demangle=no", str(binary), *args]


def run_headless(binary: Path, work: Path) -> None:
    for provider in PROVIDERS:
        print(f"record: checkout run --provider {provider}", flush=True)
        subprocess.run(callgrind(binary, work / f"run-{provider}.cg",
                                 ["run", "--provider", provider, "--customer", "approve"]),
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=600, check=False)


def tmux(socket: str, *args: str) -> str:
    return subprocess.run(["tmux", "-L", socket, *args], capture_output=True, text=True, check=False).stdout


def wait_for(socket: str, text: str, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if text in tmux(socket, "capture-pane", "-p", "-t", "rec"):
            return True
        time.sleep(0.5)
    return False


def ended(socket: str, seconds: float) -> bool:
    """Whether the tmux session ended within `seconds`."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if not tmux(socket, "list-sessions"):
            return True
        time.sleep(0.5)
    return False


def run_screen(binary: Path, work: Path, name: str, args: list[str], keys: list[str], seconds: float) -> None:
    """The screen in a 100×30 tmux: `keys` one by one (a second apart), then `seconds`, then q."""
    print(f"record: checkout {' '.join(args) or '(screen)'}", flush=True)
    socket = f"linkorder-{os.getpid()}"
    command = " ".join(callgrind(binary, work / f"{name}.cg", args))
    tmux(socket, "new-session", "-d", "-s", "rec", "-x", "100", "-y", "30", f"exec env TERM=xterm-256color {command}")
    try:
        wait_for(socket, "Cart", 120)
        for key in keys:
            tmux(socket, "send-keys", "-t", "rec", key)
            time.sleep(1.5)
        time.sleep(seconds)
        # Quit from wherever the demo is: an overlay open takes `q` as "close" (the cart picker),
        # and a payment in flight asks first; a screen that never quits leaves no profile.
        tmux(socket, "send-keys", "-t", "rec", "Escape")
        time.sleep(1.5)
        tmux(socket, "send-keys", "-t", "rec", "q")
        if not ended(socket, 20):
            tmux(socket, "send-keys", "-t", "rec", "y")
        ended(socket, 120)
    finally:
        tmux(socket, "kill-server")


FUNCTION = re.compile(r"^c?fn=(?:\(\d+\) )?(.+)$")


def functions_in(files: list[Path]) -> list[str]:
    """Every function the runs entered, in the order each first appears."""
    seen: dict[str, None] = {}
    for path in files:
        with open(path, errors="replace") as text:
            for line in text:
                match = FUNCTION.match(line)
                if match:
                    seen.setdefault(match.group(1).strip(), None)
    return list(seen)


class Symbol(NamedTuple):
    address: int
    size: int
    kind: str  # nm's letter: t/T/w/W code, b/B/d/D/r/R/v/V data
    name: str


def symbol_table(binary: Path) -> list[Symbol]:
    """Every defined symbol, local ones too, by address (one nm read serves every order)."""
    out = subprocess.run(["nm", "--defined-only", "-nS", str(binary)], capture_output=True, text=True, check=True).stdout
    table = []
    for parts in (line.split(maxsplit=3) for line in out.splitlines()):
        if len(parts) == 4:
            table.append(Symbol(int(parts[0], 16), int(parts[1], 16), parts[2], parts[3]))
        elif len(parts) == 3:  # no size: a label or an alias
            table.append(Symbol(int(parts[0], 16), 0, parts[1], parts[2]))
    return table


def defined_functions(table: list[Symbol]) -> set[str]:
    return {symbol.name for symbol in table if symbol.kind in "tTwW"}


def conformance_descriptors(table: list[Symbol]) -> list[str]:
    """The protocol conformance descriptors (`…Mc`), in address order. A dynamic cast the runtime
    has not answered before reads every one of them (14,000), a few hundred times in a headless
    checkout; spread through the read-only data they cost it 2–5 ms more than laid out together."""
    return [symbol.name for symbol in table if symbol.name.endswith("Mc")]


SECTION = re.compile(r"^\s*\[\s*\d+\]\s+(\S+)\s+\S+\s+([0-9a-f]+)\s+([0-9a-f]+)\s+([0-9a-f]+)")
WRITABLE = (".data", ".data.rel.ro", ".bss")


def sections(binary: Path) -> dict[str, tuple[int, int, int]]:
    """Section name → (address, file offset, size)."""
    out = subprocess.run(["readelf", "-SW", str(binary)], capture_output=True, text=True, check=True).stdout
    found = {}
    for line in out.splitlines():
        match = SECTION.match(line)
        if match:
            found[match.group(1)] = tuple(int(match.group(n), 16) for n in (2, 3, 4))
    return found


def data_symbols(table: list[Symbol]) -> list[Symbol]:
    """Every sized data symbol, by address."""
    return [symbol for symbol in table if symbol.kind in "bBdDrRvV" and symbol.size > 0]


def relocated_symbols(binary: Path, symbols: list[Symbol]) -> list[str]:
    """The data ld.so writes at start-up (C++ type info and vtables pointing into libstdc++):
    each page of it becomes private memory."""
    out = subprocess.run(["readelf", "-rW", str(binary)], capture_output=True, text=True, check=True).stdout
    places = [int(parts[0], 16) for parts in (line.split() for line in out.splitlines())
              if len(parts) >= 3 and parts[2] in ("R_X86_64_64", "R_AARCH64_ABS64") and re.fullmatch(r"[0-9a-f]+", parts[0])]
    return symbols_at(sorted(places), symbols)


def symbols_at(places: list[int], symbols: list[Symbol]) -> list[str]:
    """The symbols holding each address (ascending), each named once."""
    found: dict[str, None] = {}
    starts = [symbol.address for symbol in symbols]
    for place in places:
        index = bisect.bisect_right(starts, place) - 1
        if index >= 0 and place < symbols[index].address + symbols[index].size:
            found.setdefault(symbols[index].name, None)
    return list(found)


def written_data(pid: int, binary: Path, symbols: list[Symbol]) -> list[str]:
    """The data symbols a running (non-PIE) checkout has written: bytes that differ from the file,
    or in .bss from zero."""
    places: list[int] = []
    with open(binary, "rb") as file, open(f"/proc/{pid}/mem", "rb") as memory:
        for name, (address, offset, size) in sections(binary).items():
            if name not in WRITABLE:
                continue
            memory.seek(address)
            now = memory.read(size)
            if name == ".bss":
                before = bytes(size)
            else:
                file.seek(offset)
                before = file.read(size)
            for page in range(0, size, 4096):
                if now[page:page + 4096] != before[page:page + 4096]:
                    places.extend(address + index for index in range(page, min(page + 4096, size))
                                  if now[index] != before[index])
    return symbols_at(places, symbols)


def record_data(binary: Path, table: list[Symbol], seconds: float) -> list[str]:
    """Runs the demo (natively, not under valgrind) for `seconds` and reads what it wrote."""
    print(f"record: checkout demo, its written data after {seconds:g} s", flush=True)
    socket = f"linkorder-data-{os.getpid()}"
    tmux(socket, "new-session", "-d", "-s", "rec", "-x", "100", "-y", "30",
         f"exec env TERM=xterm-256color {binary} demo")
    try:
        if not wait_for(socket, "Cart", 30):
            raise RuntimeError("the demo drew no cart within 30 s")
        time.sleep(seconds)
        pid = int(tmux(socket, "display", "-p", "-t", "rec", "#{pane_pid}").strip())
        symbols = data_symbols(table)
        return list(dict.fromkeys(written_data(pid, binary, symbols) + relocated_symbols(binary, symbols)))
    finally:
        tmux(socket, "kill-server")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", required=True, type=Path, help="the release checkout (built as make release builds it)")
    parser.add_argument("--demo-seconds", type=float, default=90, help="how long the demo runs (default 90)")
    parser.add_argument("--output", type=Path, default=HERE, help="the folder for the .order files")
    parser.add_argument("--data-only", action="store_true", help="record data.order alone (no valgrind runs)")
    options = parser.parse_args()
    for tool in ("tmux", "nm", "strip", "readelf") + (() if options.data_only else ("valgrind",)):
        if not shutil.which(tool):
            print(f"record.py: {tool} is needed (apt-get install valgrind tmux binutils)", file=sys.stderr)
            return 2
    if not options.binary.is_file():
        print(f"record.py: --binary {options.binary}: no such file", file=sys.stderr)
        return 2
    if "EXEC (Executable file)" not in subprocess.run(["readelf", "-h", str(options.binary)], capture_output=True, text=True).stdout:
        print("record.py: the binary is position-independent; link it as make release does (-no-pie)", file=sys.stderr)
        return 2
    table = symbol_table(options.binary)
    data = record_data(options.binary.resolve(), table, options.demo_seconds)
    if len(data) < 100:
        print(f"record.py: only {len(data)} data symbols written by the demo; nothing written", file=sys.stderr)
        return 1
    (options.output / "data.order").write_text("".join(f"{name}\n" for name in data))
    print(f"record.py: {len(data)} data symbols written to {options.output / 'data.order'}")
    if options.data_only:
        return 0
    with tempfile.TemporaryDirectory(prefix="linkorder-") as temporary:
        work = Path(temporary)
        # valgrind cannot read the release binary's DWARF; the symbols are all it needs.
        binary = work / "checkout"
        subprocess.run(["strip", "--strip-debug", "-o", str(binary), str(options.binary)], check=True)
        for resources in options.binary.parent.glob("*.resources"):
            shutil.copytree(resources, work / resources.name)
        run_headless(binary, work)
        run_screen(binary, work, "screen", [], ["Down", "Down", "n", "Tab", "Tab", "Down", "Tab", "p"], 20)
        run_screen(binary, work, "demo", ["demo"], [], options.demo_seconds)
        # A run that left no profile (valgrind gave up, the screen never quit) would silently
        # leave its functions out of the order: P5's demo then pages in scattered code.
        runs = [f"run-{provider}" for provider in PROVIDERS] + ["screen", "demo"]
        empty = [run for run in runs if not any(path.stat().st_size > 0 for path in work.glob(f"{run}.cg*"))]
        if empty:
            print(f"record.py: no profile from {', '.join(empty)}; nothing written", file=sys.stderr)
            return 1
        names = functions_in(sorted(work.glob("*.cg*")))
    defined = defined_functions(table)
    descriptors = conformance_descriptors(table)
    listed = [name for name in names if name in defined]
    if len(listed) < 1000:
        print(f"record.py: only {len(listed)} functions recorded; the runs did not work", file=sys.stderr)
        return 1
    (options.output / "functions.order").write_text("".join(f"{name}\n" for name in listed))
    (options.output / "conformances.order").write_text("".join(f"{name}\n" for name in descriptors))
    print(f"record.py: {len(listed)} functions and {len(descriptors)} conformance descriptors written to {options.output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
