"""P1: launch → the full first frame on screen, in a 100×30 tmux pane, against ncurses' floor."""

from __future__ import annotations

import os
import shlex
import signal
import time

from .common import BenchError, Context, Row, failed_row, fmt_ms, log, median
from .tmux import IDLE, ControlClient, TmuxServer

WIDTH, HEIGHT = 100, 30
TIMEOUT = 10.0
TARGET = "≤ 1.5× floor"
# Both programs draw the same four panes and a hint line, so one predicate serves both.
MUST_CONTAIN = ("Cart", "Shipping", "Payment", "HTTP log", "House Blend")
LAST_ROW_CONTAINS = "q quit"


def frame_complete(screen: list[str]) -> bool:
    """Every pane title and the first cart line are there, and the hint line (last row) is drawn."""
    if len(screen) < HEIGHT:
        return False
    text = "\n".join(screen)
    last = screen[HEIGHT - 1]
    return all(s in text for s in MUST_CONTAIN) and last.strip() != "" and LAST_ROW_CONTAINS in last


def pane_field(server: TmuxServer, client: ControlClient, name: str) -> str:
    return "".join(client.call(f"display -p -t {server.target} '#{{{name}}}'")).strip()


def end_program(server: TmuxServer, client: ControlClient) -> None:
    """Stop what runs in the pane and let the control client read the last of its output.

    Not `respawn-pane -k` while it runs: tmux (3.3a here, up to 3.6a) dies with "fatal: not
    enough data" (newer: SIGSEGV) when a pane is respawned while a control client has not yet
    been sent all of its output (tmux/tmux#5499). A dead pane (remain-on-exit) prints nothing
    more, and one round trip afterwards means every %output before it has reached us.
    """
    if pane_field(server, client, "pane_dead") != "1":
        pid = int(pane_field(server, client, "pane_pid"))
        if not (signal_and_wait(server, client, pid, signal.SIGHUP, 2)
                or signal_and_wait(server, client, pid, signal.SIGKILL, 3)):
            raise BenchError(f"the program in the tmux pane (pid {pid}) would not end")
    client.call("display -p synced")


def signal_and_wait(server: TmuxServer, client: ControlClient, pid: int, sig: int,
                    seconds: float) -> bool:
    """Signal the pane's process; True once tmux has seen the pane die (and read all it wrote)."""
    try:
        os.kill(pid, sig)
    except ProcessLookupError:
        pass
    deadline = time.perf_counter() + seconds
    while time.perf_counter() < deadline:
        if pane_field(server, client, "pane_dead") == "1":
            return True
        time.sleep(0.005)
    return False


def blank_pane(server: TmuxServer, client: ControlClient) -> None:
    """Put the pane back to an idle `sleep` and make sure nothing of the last run is visible."""
    for _ in range(20):
        end_program(server, client)
        client.call(f"respawn-pane -t {server.target} {shlex.quote(IDLE)}")
        client.call(f"clear-history -t {server.target}")
        if all(line.strip() == "" for line in client.call(f"capture-pane -p -t {server.target}")):
            return
        time.sleep(0.05)
    raise BenchError("the tmux pane would not come up blank")


def first_frame_seconds(server: TmuxServer, client: ControlClient, command: str) -> float:
    """One launch: seconds from respawn to the %output after which the frame was complete.

    Each %output asks for a capture (one in flight at a time); a capture shows everything
    notified before its %begin, so its time is that of the last %output before it.
    """
    blank_pane(server, client)
    t0 = time.perf_counter()
    # The pane runs `sleep` (silent), so -k cannot hit the tmux bug end_program() avoids.
    client.send(f"respawn-pane -k -t {server.target} {shlex.quote('exec ' + command)}", "respawn")
    deadline = t0 + TIMEOUT
    outputs, last_output, in_flight = 0, None, False
    screen: list[str] = []
    while (item := client.next_line(deadline)) is not None:
        arrived, line = item
        if line.startswith("%output "):
            outputs, last_output = outputs + 1, arrived
            if not in_flight:
                client.send(f"capture-pane -p -t {server.target}", "capture")
                in_flight = True
        elif line.startswith("%begin ") and int(line.split()[3]) & 1:
            seen, seen_at = outputs, last_output
            ok, body = client.read_block(line, deadline)
            if client.pending.popleft() != "capture":
                if not ok:
                    raise BenchError(f"tmux could not start {command}: {' '.join(body)}")
                continue
            in_flight, screen = False, body
            if ok and frame_complete(body):
                return seen_at - t0
            if ok and any(l.startswith("Pane is dead") for l in body):
                raise BenchError(f"{command.split()[-1]} exited before its first frame: "
                                 + " | ".join(l.strip() for l in body if l.strip())[-300:])
            if outputs > seen:  # it printed more since that capture
                client.send(f"capture-pane -p -t {server.target}", "capture")
                in_flight = True
    last_rows = " | ".join([l.strip() for l in screen if l.strip()][-3:]) or "(blank)"
    raise BenchError(f"no complete first frame within {TIMEOUT:.0f} s of launching "
                     f"{command.split()[-1]}; last rows: {last_rows}")


def drain_answers(client: ControlClient) -> None:
    """Wait out captures still in flight after a run ended, so the next run starts in step."""
    if client.pending:
        client.call("display -p drained")


def measure(ctx: Context) -> list[Row]:
    env = "env TERM=xterm-256color "
    commands = {"floor": env + shlex.quote(ctx.bin("bench-floor-frame")),
                "ours": env + shlex.quote(ctx.bin("checkout"))}
    runs: dict[str, list[float]] = {"floor": [], "ours": []}
    server = TmuxServer(f"bench-{os.getpid()}-p1", WIDTH, HEIGHT)
    try:
        client = ControlClient(server)
        try:
            # One unrecorded launch each warms the page cache; then floor and ours alternate.
            for i in range(ctx.plan.p1_runs + 1):
                for who in ("floor", "ours"):
                    seconds = first_frame_seconds(server, client, commands[who])
                    drain_answers(client)
                    if i > 0:
                        runs[who].append(seconds)
            blank_pane(server, client)
        finally:
            client.close()
    except BenchError as error:
        return [failed_row("P1 first frame", "ms", TARGET, str(error))]
    finally:
        server.close()
    ours, floor = median(runs["ours"]), median(runs["floor"])
    log(f"P1 ours {[round(s * 1000) for s in runs['ours']]} ms, "
        f"floor {[round(s * 1000) for s in runs['floor']]} ms")
    detail = (f"median of {len(runs['ours'])} launches each; ours max {fmt_ms(max(runs['ours']))} ms, "
              f"floor max {fmt_ms(max(runs['floor']))} ms; {WIDTH}×{HEIGHT} tmux")
    return [Row("P1 first frame", ours * 1000, floor * 1000, "ms", TARGET, ours <= 1.5 * floor, detail)]
