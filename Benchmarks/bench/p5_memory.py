"""P5: resident memory of the looping demo (against the HTTP floor's peak) and of the sandbox
under P4's load, sampled over minutes so a leak shows as growth in the last third."""

from __future__ import annotations

import os
import shlex
import subprocess
import threading
import time

from .common import BenchError, Context, Row, failed_row, last_third_growth, log
from .p2_headless import floor_peak_rss_mb
from .p4_throughput import parse_wrk, sandbox, wrk_command
from .tmux import TmuxServer

DEMO_TARGET = "≤ 1.2× floor, flat (last third < 1%)"
LOAD_TARGET = "flat (last third < 1%)"
FLAT_PERCENT = 1.0


def rss_mb(pid: int) -> float:
    """Resident memory in MB: VmRSS from /proc on Linux, `ps -o rss=` (kB) where there is no
    /proc (macOS; not yet run on a Mac); a process that is gone cannot be sampled."""
    if os.path.isdir("/proc"):
        try:
            with open(f"/proc/{pid}/status") as status:
                for line in status:
                    if line.startswith("VmRSS:"):
                        return int(line.split()[1]) / 1024
        except FileNotFoundError:
            pass
    else:
        done = subprocess.run(["ps", "-o", "rss=", "-p", str(pid)], capture_output=True, text=True)
        if done.returncode == 0 and done.stdout.strip().isdigit():
            return int(done.stdout.strip()) / 1024
    raise BenchError(f"process {pid} is gone")


def sample_rss(pid: int, every: float, duration: float, first_at: float) -> list[float]:
    """RSS at first_at, then every `every` s until `duration` s have passed (on a fixed clock)."""
    start, samples = time.monotonic(), []
    at = first_at
    while at <= duration + 1e-6:
        time.sleep(max(0.0, start + at - time.monotonic()))
        samples.append(rss_mb(pid))
        at += every
    return samples


def samples_text(samples: list[float]) -> str:
    return "[" + ", ".join(f"{s:.1f}" for s in samples) + "] MB"


def wait_for_screen(server: TmuxServer, timeout: float = 15) -> None:
    """Sample the demo once it is drawing, not while it is still starting."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if any(line.strip() for line in server.capture()):
            return
        time.sleep(0.2)
    raise BenchError(f"checkout demo drew nothing within {timeout:.0f} s")


def check_alive(server: TmuxServer) -> None:
    words = server.tmux("display", "-p", "-t", server.target,
                        "#{pane_dead} #{pane_dead_status}").split()
    if words and words[0] == "1":
        status = words[1] if len(words) > 1 else "?"
        screen = " | ".join(line.strip() for line in server.capture() if line.strip())
        raise BenchError(f"checkout demo exited ({status}): {screen[-300:]}")


def demo_row(ctx: Context) -> Row:
    row_id = "P5 memory demo"
    server = None
    try:
        floor = floor_peak_rss_mb(ctx)
        command = f"exec env TERM=xterm-256color {shlex.quote(ctx.bin('checkout'))} demo"
        server = TmuxServer(f"bench-{os.getpid()}-p5", 100, 30)
        server.tmux("respawn-pane", "-k", "-t", server.target, command)
        pid = server.pane_pid()  # `exec`: the pane's process is checkout itself
        wait_for_screen(server)
        check_alive(server)
        samples = sample_rss(pid, ctx.plan.p5_demo_every, ctx.plan.p5_demo_for, first_at=0)
    except BenchError as error:
        return failed_row(row_id, "MB", DEMO_TARGET, str(error))
    finally:
        if server:
            server.close()
    growth = last_third_growth(samples)
    ours = max(samples)
    detail = (f"max {ours:.1f} MB, last third {growth:+.2f}%; samples every "
              f"{ctx.plan.p5_demo_every:g} s: {samples_text(samples)}")
    log(f"{row_id}: {detail}")
    return Row(row_id, ours, floor, "MB", DEMO_TARGET,
               ours <= 1.2 * floor and growth < FLAT_PERCENT, detail)


def load_row(ctx: Context) -> Row:
    """The sandbox under P4's create+retrieve wrk load for the whole sampling window."""
    row_id = "P5 sandbox under load"
    server = None
    try:
        server = sandbox(ctx)
        seconds = ctx.plan.p5_load_for
        wrk = subprocess.Popen(wrk_command(server.url, seconds, script=True),
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            samples = sample_rss(server.pid, ctx.plan.p5_load_every, seconds,
                                 first_at=ctx.plan.p5_load_every)
            out, err = wrk.communicate(timeout=60)
        finally:
            if wrk.poll() is None:
                wrk.kill()
                wrk.wait()
        if wrk.returncode != 0:
            raise BenchError(f"wrk exited {wrk.returncode}: {err.strip()[-300:]}")
        load = parse_wrk(out)
    except BenchError as error:
        return failed_row(row_id, "MB", LOAD_TARGET, str(error))
    finally:
        if server:
            server.stop()
    growth = last_third_growth(samples)
    detail = (f"last third {growth:+.2f}%, max {max(samples):.1f} MB; {load.requests_per_second:.0f} "
              f"req/s, {load.errors} errors; samples every {ctx.plan.p5_load_every:g} s: "
              f"{samples_text(samples)}")
    log(f"{row_id}: {detail}")
    return Row(row_id, samples[-1], None, "MB", LOAD_TARGET, growth < FLAT_PERCENT, detail)


def measure(ctx: Context) -> list[Row]:
    """Both at once to save time: the load runs in a thread while the demo is sampled."""
    try:
        floor_peak_rss_mb(ctx)  # before the load starts, so the floor is measured on a quiet machine
    except BenchError as error:
        ctx.notes.append(f"floor peak RSS not measured: {error}")
    rows: dict[str, Row] = {}

    def under_load() -> None:
        try:
            rows["load"] = load_row(ctx)
        except Exception as error:  # a thread's exception would otherwise vanish
            rows["load"] = failed_row("P5 sandbox under load", "MB", LOAD_TARGET, repr(error))

    thread = threading.Thread(target=under_load)
    thread.start()
    rows["demo"] = demo_row(ctx)
    thread.join()
    return [rows["demo"], rows["load"]]
