"""A private tmux server (never the user's) and a control-mode client to drive it.

The control client lets P1 ask for a capture whenever the pane prints, without spawning a
tmux process per poll; its %output notifications (octal-escaped pane bytes) serve only as the
trigger and their arrival time as the timestamp.
"""

from __future__ import annotations

import os
import select
import subprocess
import time
from collections import deque

from .common import BenchError

SESSION = "bench"
IDLE = "sleep 100000"  # what the pane runs between measured programs


class TmuxServer:
    """`tmux -L NAME -f /dev/null`: no user config, no user sessions; killed on close()."""

    def __init__(self, name: str, width: int, height: int):
        self.base = ["tmux", "-L", name, "-f", "/dev/null"]
        self.width, self.height = width, height
        self.target = f"{SESSION}:0.0"
        self.socket = ""
        self.tmux("new-session", "-d", "-s", SESSION, "-x", str(width), "-y", str(height), IDLE)
        try:
            # Manual size: no client (the control client included) may resize the window.
            # remain-on-exit: a program that dies leaves "Pane is dead (status N)" instead of
            # taking the window, the session and the server (and the control client) with it.
            self.tmux("set", "-g", "window-size", "manual", ";", "set", "-g", "status", "off",
                      ";", "set", "-g", "remain-on-exit", "on",
                      ";", "resize-window", "-t", SESSION, "-x", str(width), "-y", str(height))
            self.socket = self.tmux("display", "-p", "#{socket_path}").strip()
        except BenchError:
            self.close()
            raise

    def tmux(self, *args: str) -> str:
        done = subprocess.run([*self.base, *args], capture_output=True, text=True, timeout=10)
        if done.returncode != 0:
            raise BenchError(f"tmux {' '.join(args)}: {done.stderr.strip()}")
        return done.stdout

    def pane_pid(self) -> int:
        return int(self.tmux("display", "-p", "-t", self.target, "#{pane_pid}").strip())

    def capture(self) -> list[str]:
        return self.tmux("capture-pane", "-p", "-t", self.target).split("\n")[: self.height]

    def close(self) -> None:
        subprocess.run([*self.base, "kill-server"], capture_output=True, timeout=10)
        if self.socket:
            try:
                os.unlink(self.socket)  # tmux 3.3a leaves it behind; one per run would pile up
            except OSError:
                pass


class ControlClient:
    """`tmux -C attach`: send commands as lines, read %begin/%end blocks and notifications.

    Lines are timestamped when read; commands are answered in the order sent, so a FIFO of
    pending command kinds tells which block answers what.
    """

    def __init__(self, server: TmuxServer):
        self.proc = subprocess.Popen(
            [*server.base, "-u", "-C", "attach", "-t", SESSION],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        self.fd = self.proc.stdout.fileno()
        self.partial = b""
        self.lines: deque[tuple[float, str]] = deque()
        self.pending: deque[str] = deque()
        self.call("display -p ready", timeout=10)  # skips attach's own block and any greeting

    def send(self, command: str, kind: str = "call") -> None:
        self.pending.append(kind)
        self.proc.stdin.write(command.encode() + b"\n")
        self.proc.stdin.flush()

    def next_line(self, deadline: float) -> tuple[float, str] | None:
        """The next line with its arrival time, or None at the deadline."""
        while not self.lines:
            left = deadline - time.perf_counter()
            if left <= 0 or not select.select([self.fd], [], [], left)[0]:
                return None
            chunk = os.read(self.fd, 1 << 16)
            now = time.perf_counter()
            if not chunk:
                raise BenchError("the tmux control client exited (was the private tmux server killed?)")
            *complete, self.partial = (self.partial + chunk).split(b"\n")
            self.lines.extend((now, line.decode(errors="replace")) for line in complete)
        arrived, line = self.lines.popleft()
        if line.startswith("%exit"):  # the server went away or detached us; it says why
            raise BenchError(f"the tmux control client was told {line!r}")
        return arrived, line

    def read_block(self, first: str, deadline: float) -> tuple[bool, list[str]]:
        """After a `%begin` line: the block's lines up to its %end (ok) or %error."""
        number = first.split()[2]
        body = []
        while (item := self.next_line(deadline)) is not None:
            words = item[1].split()
            if len(words) >= 3 and words[0] in ("%end", "%error") and words[2] == number:
                return words[0] == "%end", body
            body.append(item[1])
        raise BenchError("tmux did not answer in time")

    def call(self, command: str, timeout: float = 10) -> list[str]:
        """Send one command and wait for its answer, dropping notifications meanwhile."""
        self.send(command)
        deadline = time.perf_counter() + timeout
        while (item := self.next_line(deadline)) is not None:
            if not is_own_begin(item[1]):
                continue
            ok, body = self.read_block(item[1], deadline)
            kind = self.pending.popleft()
            if kind == "call" and not self.pending:
                if not ok:
                    raise BenchError(f"tmux {command}: {' '.join(body)}")
                return body
        raise BenchError(f"tmux did not answer {command!r} within {timeout} s")

    def close(self) -> None:
        try:
            self.proc.stdin.close()
        except OSError:
            pass
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


def is_own_begin(line: str) -> bool:
    """A %begin answering a command this client sent (flags bit 1), not attach's own block."""
    words = line.split()
    return len(words) >= 4 and words[0] == "%begin" and int(words[3]) & 1 == 1
