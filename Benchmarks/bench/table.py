"""The one table (terminal and Markdown), the JSON document, and the README section."""

from __future__ import annotations

import datetime
import json
import os
import subprocess
from pathlib import Path

from .common import REPO_DIR, REQUIRED_BINARIES, Row

HEADER = ("figure", "ours", "floor", "ratio", "target", "✓/✗")
BEGIN, END = "<!-- bench:begin -->", "<!-- bench:end -->"


def fmt_value(value: float | None, unit: str) -> str:
    if value is None:
        return "—"
    if unit == "req/s":
        return f"{value:,.0f} req/s"
    if unit == "ms" and value >= 100:
        return f"{value:.0f} ms"
    return f"{value:.1f} {unit}"


def cells(row: Row) -> tuple[str, ...]:
    ours = row.ours_text if row.measured and row.ours_text else fmt_value(row.ours, row.unit)
    ratio = "—" if row.ratio is None else f"{row.ratio:.2f}×"
    mark = "✓" if row.met and row.measured else "✗"
    return (row.figure, ours if row.measured else "—", fmt_value(row.floor, row.unit), ratio,
            row.target, mark)


def text_table(rows: list[Row]) -> str:
    """Aligned columns; below them, each row's detail, and the reason a row was not measured."""
    table = [HEADER, *(cells(row) for row in rows)]
    widths = [max(len(line[i]) for line in table) for i in range(len(HEADER))]
    lines = ["  ".join(c.ljust(w) for c, w in zip(line, widths)).rstrip() for line in table]
    lines.insert(1, "  ".join("-" * w for w in widths))
    notes = []
    for row in rows:
        if row.error:
            notes.append(f"  ✗ {row.id}: not measured: {row.error}")
        elif row.detail:
            notes.append(f"  {row.id}: {row.detail}")
    return "\n".join(lines + ([""] + notes if notes else []))


def markdown_table(rows: list[Row]) -> str:
    def line(values: tuple[str, ...]) -> str:
        return "| " + " | ".join(v.replace("|", "\\|") for v in values) + " |"

    out = [line(HEADER), "|" + "|".join("---" for _ in HEADER) + "|"]
    out += [line(cells(row)) for row in rows]
    return "\n".join(out)


def git_commit() -> str:
    """Short HEAD, marked +dirty when the tree has changes (the numbers are of that tree)."""
    def git(*args: str) -> str:
        done = subprocess.run(["git", "-C", str(REPO_DIR), *args], capture_output=True, text=True)
        return done.stdout.strip() if done.returncode == 0 else ""

    commit = git("rev-parse", "--short", "HEAD") or "unknown"
    return commit + ("+dirty" if git("status", "--porcelain", "--untracked-files=no") else "")


def cpu_model() -> str:
    """/proc/cpuinfo's model name on Linux; sysctl's brand string on macOS."""
    try:
        with open("/proc/cpuinfo") as cpuinfo:
            for line in cpuinfo:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        try:
            done = subprocess.run(["sysctl", "-n", "machdep.cpu.brand_string"], capture_output=True, text=True)
            if done.returncode == 0 and done.stdout.strip():
                return done.stdout.strip()
        except OSError:
            pass
    return "unknown CPU"


def machine() -> dict:
    uname = os.uname()
    return {"cpu": cpu_model(), "cores": os.cpu_count(), "kernel": f"{uname.sysname} {uname.release}"}


def now() -> str:
    return datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")


def machine_line(mode: str, when: str, commit: str) -> str:
    m = machine()
    return (f"Measured on {m['cpu']}, {m['cores']} cores, {m['kernel']}, {when}, "
            f"commit {commit}, mode {mode}.")


def binaries_built(bin_dir: Path) -> dict[str, str]:
    """When each measured binary was built: the commit names the tree, which may be newer."""
    built = {}
    for name in REQUIRED_BINARIES:
        stamp = (bin_dir / name).stat().st_mtime
        built[name] = datetime.datetime.fromtimestamp(stamp, datetime.timezone.utc).isoformat(
            timespec="seconds")
    return built


def write_json(path: Path, rows: list[Row], mode: str, when: str, commit: str, notes: list[str],
               bin_dir: Path) -> None:
    document = {"mode": mode, "timestamp": when, "commit": commit, "machine": machine(),
                "binaries_built": binaries_built(bin_dir),
                "rows": [row.as_json() for row in rows], "notes": notes}
    path.write_text(json.dumps(document, indent=2, ensure_ascii=False) + "\n")


def readme_markers_present(path: Path) -> str | None:
    """None when the file has both markers in order, else what is wrong (checked before running)."""
    try:
        lines = [line.strip() for line in path.read_text().splitlines()]
    except OSError as error:
        return f"cannot read {path}: {error.strerror}"
    if BEGIN not in lines or END not in lines or lines.index(BEGIN) > lines.index(END):
        return f"{path} lacks the lines {BEGIN} and {END} (in that order)"
    return None


def rewrite_readme(path: Path, rows: list[Row], mode: str, when: str, commit: str) -> None:
    """Replace what lies between the markers; everything else in the file stays as it was."""
    lines = path.read_text().splitlines(keepends=True)
    stripped = [line.strip() for line in lines]
    begin, end = stripped.index(BEGIN), stripped.index(END)
    section = f"{markdown_table(rows)}\n\n{machine_line(mode, when, commit)}\n"
    path.write_text("".join(lines[: begin + 1]) + section + "".join(lines[end:]))
