#!/usr/bin/env python3
"""`make bench`: seven figures of the checkout app, each next to its floor, in one table.

Exit 0 when every row was measured (targets met or not), 1 when a row could not be measured,
2 for bad usage. Benchmarks/README.md says what each figure and floor is.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from bench import p1_first_frame, p2_headless, p3_keys, p4_throughput, p5_memory, p6_postgres, p7_binary_size, table
from bench.common import PLANS, BenchError, Context, Row, failed_row, log, missing_binaries

# In this order: P1–P4 each run alone; P5 last of the in-memory ones, as it loads the machine for
# minutes; P6 (the sandbox on PostgreSQL, its own throw-away cluster) after it; P7 (the installed
# binary's size) loads nothing.
FIGURES = {
    "P1": p1_first_frame.measure,
    "P2": p2_headless.measure,
    "P3": p3_keys.measure,
    "P4": p4_throughput.measure,
    "P5": p5_memory.measure,
    "P6": p6_postgres.measure,
    "P7": p7_binary_size.measure,
}


def parse_args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="bench.py", description=__doc__.splitlines()[0])
    parser.add_argument("--bin-dir", type=Path, default=Path(".build/release"),
                        help="where checkout, bench-floor-frame and bench-floor-http are")
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--quick", action="store_true", help="tiny runs: checks every row prints")
    mode.add_argument("--soak", action="store_true", help="P5's demo sampled for 30 minutes")
    parser.add_argument("--json", type=Path, metavar="FILE", help="write the results as JSON")
    parser.add_argument("--readme", type=Path, metavar="FILE",
                        help="rewrite FILE between <!-- bench:begin --> and <!-- bench:end -->")
    parser.add_argument("--only", metavar="P1,P3", help="run only these figures")
    args = parser.parse_args(argv)
    args.figures = selected_figures(parser, args.only)
    return args


def selected_figures(parser: argparse.ArgumentParser, only: str | None) -> list[str]:
    if not only:
        return list(FIGURES)
    wanted = {name.strip().upper() for name in only.split(",") if name.strip()}
    unknown = wanted - FIGURES.keys()
    if unknown or not wanted:
        parser.error(f"--only takes some of {','.join(FIGURES)}; got {only!r}")
    return [name for name in FIGURES if name in wanted]  # always in P1…P7 order


def run_figure(name: str, ctx: Context) -> list[Row]:
    """A figure's rows; a crash becomes an unmeasured row instead of losing the whole table."""
    log(f"{name} …")
    try:
        return FIGURES[name](ctx)
    except (BenchError, OSError, ValueError) as error:
        return [failed_row(name, "", "", f"{type(error).__name__}: {error}")]


def main(argv: list[str]) -> int:
    args = parse_args(argv)
    missing = missing_binaries(args.bin_dir)
    if missing:
        print(f"bench.py: not in {args.bin_dir}: {', '.join(missing)} "
              "(build them, or point --bin-dir at them)", file=sys.stderr)
        return 2
    if args.readme and (problem := table.readme_markers_present(args.readme)):
        print(f"bench.py: {problem}", file=sys.stderr)  # before minutes of measuring, not after
        return 1
    mode = "quick" if args.quick else "soak" if args.soak else "standard"
    ctx = Context(bin_dir=args.bin_dir.resolve(), plan=PLANS[mode])
    when, commit = table.now(), table.git_commit()

    rows = [row for name in args.figures for row in run_figure(name, ctx)]

    print(table.text_table(rows))
    print(table.machine_line(mode, when, commit))
    for note in ctx.notes:
        print(f"note: {note}")
    if args.json:
        table.write_json(args.json, rows, mode, when, commit, ctx.notes, ctx.bin_dir)
    if args.readme:
        table.rewrite_readme(args.readme, rows, mode, when, commit)
    unmeasured = [row.id for row in rows if not row.measured]
    if unmeasured:
        print(f"bench.py: not measured: {', '.join(unmeasured)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
