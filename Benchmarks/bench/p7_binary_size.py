"""P7: the installed binary's size. `Build/install.sh` (what `make install` runs) into a scratch
prefix, from the binaries measured; the file it leaves is what a user's disk holds."""

from __future__ import annotations

import os
import subprocess
import sys

from .common import REPO_DIR, BenchError, Context, Row, failed_row, log

TARGET = "≤ 45 MB, one file, no toolchain libraries"
LIMIT_MB = 45.0
ROW_ID = "P7 installed binary"


def toolchain_libraries(binary: str) -> list[str]:
    """The Swift runtime libraries the binary loads from outside itself (none for a release
    build, which links them in); empty where `ldd` is missing (macOS: the system has them)."""
    if sys.platform != "linux":
        return []
    try:
        done = subprocess.run(["ldd", binary], capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return []
    return [line.split()[0] for line in done.stdout.splitlines() if "libswift" in line or "libFoundation" in line]


def measure(ctx: Context) -> list[Row]:
    prefix = os.path.join(ctx.work_dir(), "p7-prefix")
    try:
        done = subprocess.run(["Build/install.sh", "install", str(ctx.bin_dir), prefix], cwd=REPO_DIR,
                              capture_output=True, text=True, timeout=600)
        if done.returncode != 0:
            raise BenchError(f"Build/install.sh exited {done.returncode}: {done.stderr.strip()[-300:]}")
        binary = os.path.join(prefix, "bin", "checkout")
        size_mb = os.path.getsize(binary) / 1e6
    except (OSError, subprocess.TimeoutExpired, BenchError) as error:
        return [failed_row(ROW_ID, "MB", TARGET, str(error))]
    outside = toolchain_libraries(binary)
    detail = (f"{size_mb:.1f} MB after `strip -S -x` (debug info and local symbols out); "
              + (f"loads {', '.join(outside)} from outside" if outside else "loads no Swift library from outside"))
    log(f"{ROW_ID}: {detail}")
    return [Row(ROW_ID, size_mb, None, "MB", TARGET, size_mb <= LIMIT_MB and not outside, detail)]
