"""What every figure shares: the result row, the run plan per mode, binaries, statistics, logging."""

from __future__ import annotations

import math
import os
import statistics
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

BENCH_DIR = Path(__file__).resolve().parent.parent  # Benchmarks/
REPO_DIR = BENCH_DIR.parent
WRK_SCRIPT = BENCH_DIR / "wrk" / "create_retrieve.lua"


class BenchError(Exception):
    """A figure could not be measured; the message says why and ends up in the row."""


@dataclass
class Row:
    """One line of the table (and one object of the JSON)."""

    id: str
    ours: float | None
    floor: float | None
    unit: str
    target: str
    met: bool
    detail: str = ""
    error: str | None = None
    figure: str = ""
    ours_text: str = ""  # the table's "ours" cell when the bare number is not enough (P3's p50/p99)

    def __post_init__(self) -> None:
        self.figure = self.figure or self.id

    @property
    def ratio(self) -> float | None:
        if self.ours is None or not self.floor:
            return None
        return self.ours / self.floor

    @property
    def measured(self) -> bool:
        return self.error is None and self.ours is not None

    def as_json(self) -> dict:
        data = {
            "id": self.id, "figure": self.figure, "ours": self.ours, "floor": self.floor,
            "unit": self.unit, "ratio": self.ratio, "target": self.target, "met": self.met,
            "detail": self.detail,
        }
        if self.error:
            data["error"] = self.error
        return data


def failed_row(row_id: str, unit: str, target: str, why: str) -> Row:
    """A row that could not be measured: shown with ✗ and its reason, and the run exits 1."""
    return Row(row_id, None, None, unit, target, False, error=why)


@dataclass(frozen=True)
class Plan:
    """How much of each figure a mode runs; `--quick` only checks that every row prints."""

    mode: str
    p1_runs: int
    p2_rounds: int
    p2_runs: int
    p2_rss_runs: int
    p3_keys: int
    p4_seconds: int
    p4_rounds: int
    p5_demo_every: float
    p5_demo_for: float
    p5_load_every: float
    p5_load_for: float


PLANS = {
    "quick": Plan("quick", p1_runs=3, p2_rounds=1, p2_runs=2, p2_rss_runs=2, p3_keys=30,
                  p4_seconds=2, p4_rounds=1, p5_demo_every=1, p5_demo_for=6,
                  p5_load_every=1, p5_load_for=5),
    "standard": Plan("standard", p1_runs=20, p2_rounds=4, p2_runs=5, p2_rss_runs=5, p3_keys=300,
                     p4_seconds=10, p4_rounds=2, p5_demo_every=30, p5_demo_for=180,
                     p5_load_every=10, p5_load_for=300),
    "soak": Plan("soak", p1_runs=20, p2_rounds=4, p2_runs=5, p2_rss_runs=5, p3_keys=300,
                 p4_seconds=10, p4_rounds=2, p5_demo_every=30, p5_demo_for=1800,
                 p5_load_every=10, p5_load_for=300),
}


@dataclass
class Context:
    """What the figures need from the command line, plus what one figure leaves for another."""

    bin_dir: Path
    plan: Plan
    floor_rss_mb: float | None = None  # P2's floor peak RSS, P5's floor
    notes: list[str] = field(default_factory=list)
    floor_calls: dict[str, str] = field(default_factory=dict)  # provider → the floor's calls file
    _work: tempfile.TemporaryDirectory | None = None

    def bin(self, name: str) -> str:
        return str(self.bin_dir / name)

    def work_dir(self) -> str:
        """A scratch folder for this run, removed when the process ends."""
        if self._work is None:
            self._work = tempfile.TemporaryDirectory(prefix="bench-")
        return self._work.name


REQUIRED_BINARIES = ("checkout", "bench-floor-frame", "bench-floor-http")


def missing_binaries(bin_dir: Path) -> list[str]:
    return [name for name in REQUIRED_BINARIES if not os.access(bin_dir / name, os.X_OK)]


def log(message: str) -> None:
    """Progress goes to stderr so stdout holds only the table."""
    print(f"bench: {message}", file=sys.stderr, flush=True)


def median(values: list[float]) -> float:
    return statistics.median(values)


def percentile(values: list[float], q: float) -> float:
    """Nearest-rank percentile: an observed value, never an interpolation below the tail."""
    ordered = sorted(values)
    rank = max(1, math.ceil(q / 100 * len(ordered)))
    return ordered[rank - 1]


def last_third_growth(samples: list[float]) -> float:
    """Percent growth from the first sample of the last third to the last sample."""
    tail = max(2, math.ceil(len(samples) / 3))
    start = samples[-tail]
    return (samples[-1] - start) / start * 100 if start else 0.0


def fmt_ms(seconds: float) -> str:
    ms = seconds * 1000
    return f"{ms:.1f}" if ms < 100 else f"{ms:.0f}"
