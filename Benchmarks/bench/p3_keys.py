"""P3: key → screen. Arrow keys into a pseudo-terminal; the time until the redraw has landed."""

from __future__ import annotations

import fcntl
import os
import platform
import pty
import select
import struct
import subprocess
import termios
import time

from .common import BenchError, Context, Row, failed_row, log, percentile

TARGET = "p99 ≤ 4 ms"
LOAD = "cart=1000,log=100000"
SIZES = ((200, 60), (80, 24))
FIRST_BYTE_TIMEOUT = 2.0
FRAME_QUIET = 0.005   # a redraw is over once the app has been silent this long
SETTLE_QUIET = 0.5    # startup (first frame and the load) is over after this much silence
STARTUP_TIMEOUT = 60.0
GAP = 0.020           # pause between keys, so frames never overlap
GIVE_UP_AFTER = 5     # consecutive unanswered keys: the app is not redrawing on arrows at all

# DECCKM: with "application cursor keys" set (ncurses' keypad mode sends it), a terminal sends
# arrows as ESC O B / ESC O A instead of ESC [ B / ESC [ A; we send what a terminal would.
CURSOR_KEYS_APP, CURSOR_KEYS_NORMAL = b"\x1b[?1h", b"\x1b[?1l"
ARROWS = {False: (b"\x1b[B", b"\x1b[A"), True: (b"\x1bOB", b"\x1bOA")}

# glibc's built-in UTF-8 locale; macOS has none by that name, but always en_US.UTF-8.
UTF8_LOCALE = "en_US.UTF-8" if platform.system() == "Darwin" else "C.UTF-8"


class PtyApp:
    """The app on a fresh pty of a given size, its output drained and timestamped as it comes."""

    def __init__(self, argv: list[str], cols: int, rows: int):
        self.master, slave = pty.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
        env = dict(os.environ, TERM="xterm-256color", LANG=os.environ.get("LANG", UTF8_LOCALE))
        try:
            self.proc = subprocess.Popen(argv, stdin=slave, stdout=slave, stderr=slave, env=env,
                                         preexec_fn=take_terminal, close_fds=True)
        except OSError:
            os.close(self.master)
            raise
        finally:
            os.close(slave)  # the child has its copy; ours would keep the pty open after it exits
        self.seen = b""          # everything printed (kept short: only the tail matters)
        self.app_cursor = False  # DECCKM as the app last set it

    def read_chunk(self, timeout: float) -> tuple[float, bytes] | None:
        """One chunk and its arrival time; None on timeout; b"" once the app has gone."""
        if not select.select([self.master], [], [], max(timeout, 0.0))[0]:
            return None
        try:
            chunk = os.read(self.master, 1 << 16)
        except OSError:  # EIO: the slave side closed
            chunk = b""
        now = time.perf_counter()
        self.note(chunk)
        return now, chunk

    def note(self, chunk: bytes) -> None:
        tail = self.seen[-8:] + chunk
        on, off = tail.rfind(CURSOR_KEYS_APP), tail.rfind(CURSOR_KEYS_NORMAL)
        if on != off:
            self.app_cursor = on > off
        self.seen = (self.seen + chunk)[-4096:]

    def read_until_quiet(self, quiet: float, limit: float, last: float | None = None) -> float | None:
        """Read until `quiet` s pass with no new bytes after the last (`last`, or the first to
        come); the last arrival time, or None if nothing came within `limit` s."""
        deadline = time.perf_counter() + limit
        while True:
            now = time.perf_counter()
            wait = deadline - now if last is None else min(deadline, last + quiet) - now
            got = self.read_chunk(wait)
            if got is None:
                return last
            if got[1] == b"":
                return last
            last = got[0]

    def key_latency(self, key: bytes) -> float | None:
        """Seconds from writing the key to the last chunk of the redraw; None if nothing came."""
        t0 = time.perf_counter()
        os.write(self.master, key)
        first = self.read_chunk(FIRST_BYTE_TIMEOUT)
        if first is None or first[1] == b"":
            return None
        return self.read_until_quiet(FRAME_QUIET, FIRST_BYTE_TIMEOUT, last=first[0]) - t0

    def pause(self, seconds: float) -> None:
        """Sleep while draining, so the app never blocks on a full pty."""
        deadline = time.perf_counter() + seconds
        while (left := deadline - time.perf_counter()) > 0:
            got = self.read_chunk(left)
            if got is not None and got[1] == b"":
                time.sleep(left)

    def quit(self) -> None:
        """q, then y if it asks to confirm; killed if still alive 2 s later."""
        for key in (b"q", b"y"):
            if self.proc.poll() is not None:
                break
            try:
                os.write(self.master, key)
            except OSError:
                break
            self.pause(0.3)
        deadline = time.perf_counter() + 2
        while self.proc.poll() is None and time.perf_counter() < deadline:
            self.pause(0.05)
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait()
        os.close(self.master)


def take_terminal() -> None:
    """In the child: a new session whose controlling terminal is the pty (as a real terminal)."""
    os.setsid()
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)


def start(ctx: Context, cols: int, rows: int) -> tuple[PtyApp, str]:
    """The app with the bench load, or without it (and a note) when this build lacks the flag."""
    app = PtyApp([ctx.bin("checkout"), "--bench-load", LOAD], cols, rows)
    app.read_until_quiet(SETTLE_QUIET, STARTUP_TIMEOUT)
    if app.proc.poll() is None and b"Unknown option" not in app.seen:
        return app, ""
    app.quit()
    if app.proc.returncode not in (64, 0) and b"Unknown option" not in app.seen:
        raise BenchError(f"checkout --bench-load exited {app.proc.returncode}")
    app = PtyApp([ctx.bin("checkout")], cols, rows)
    if app.read_until_quiet(SETTLE_QUIET, STARTUP_TIMEOUT) is None:
        app.quit()
        raise BenchError("checkout printed nothing on the pty")
    return app, " (without the load: --bench-load missing)"


def measure_size(ctx: Context, cols: int, rows: int) -> Row:
    row_id = f"P3 key→screen {cols}×{rows}"
    try:
        app, note = start(ctx, cols, rows)
    except BenchError as error:
        return failed_row(row_id, "ms", TARGET, str(error))
    latencies: list[float] = []
    timeouts = streak = 0
    app_keys = False
    try:
        for i in range(ctx.plan.p3_keys):
            if app.proc.poll() is not None:
                raise BenchError(f"checkout exited ({app.proc.returncode}) after {i} keys")
            app_keys = app.app_cursor
            latency = app.key_latency(ARROWS[app_keys][i % 2])
            if latency is None:
                timeouts, streak = timeouts + 1, streak + 1
                if streak >= GIVE_UP_AFTER:
                    raise BenchError(f"no redraw for {streak} arrow keys in a row "
                                     f"(sent as {'ESC O' if app_keys else 'ESC ['} B/A)")
            else:
                latencies.append(latency)
                streak = 0
            app.pause(GAP)
    except BenchError as error:
        return failed_row(row_id, "ms", TARGET, str(error) + note)
    finally:
        app.quit()
    p50, p99 = percentile(latencies, 50) * 1000, percentile(latencies, 99) * 1000
    keys = "ESC O B/A (the app set DECCKM)" if app_keys else "ESC [ B/A"
    detail = (f"p50 {p50:.1f} ms, p99 {p99:.1f} ms, max {max(latencies) * 1000:.1f} ms; "
              f"{len(latencies)} keys as {keys}, {timeouts} timeouts{note}")
    log(f"{row_id}: {detail}")
    return Row(row_id, p99, None, "ms", TARGET, p99 <= 4 and timeouts == 0, detail,
               ours_text=f"p50 {p50:.1f} / p99 {p99:.1f} ms")


def measure(ctx: Context) -> list[Row]:
    return [measure_size(ctx, cols, rows) for cols, rows in SIZES]
