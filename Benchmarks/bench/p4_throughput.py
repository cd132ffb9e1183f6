"""P4: the sandbox under wrk (create + retrieve), against Hummingbird answering the same script's requests with fixed JSON."""

from __future__ import annotations

import os
import queue
import re
import signal
import subprocess
import tempfile
import threading
from dataclasses import dataclass

from .common import WRK_SCRIPT, BenchError, Context, Row, failed_row, log, median

TARGET = "≥ 0.85× floor req/s, p99 ≤ 2× floor's, no errors"
UNITS = {"us": 1e-3, "ms": 1.0, "s": 1e3, "m": 60e3}


class Server:
    """A server that prints its base URL first; stdout is drained after, so it never blocks."""

    def __init__(self, argv: list[str], timeout: float = 30, env: dict[str, str] | None = None):
        # stderr to a file: a pipe nobody reads could fill and stall the server under load.
        self.stderr = tempfile.TemporaryFile()
        self.proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=self.stderr,
                                     env=None if env is None else {**os.environ, **env})
        urls: queue.Queue[str | None] = queue.Queue()
        threading.Thread(target=self._drain, args=(urls,), daemon=True).start()
        try:
            url = urls.get(timeout=timeout)
        except queue.Empty:
            url = None
        if url is None:
            why = (f"{argv[0].rsplit('/', 1)[-1]} {' '.join(argv[1:])} printed no URL "
                   f"(exit {self.proc.poll()}): {self.error_output()}")
            self.stop()
            raise BenchError(why)
        self.url = url.split()[0].rstrip("/")

    def _drain(self, urls: queue.Queue) -> None:
        """Lines until the URL; then the rest (the access log, a line per request) in large
        reads, as a file or terminal takes it: splitting it into lines here would spend the
        cores the measured server needs."""
        announced = False
        for raw in self.proc.stdout:
            line = raw.decode(errors="replace")
            if line.startswith("http"):
                urls.put(line.strip())
                announced = True
                break
        if not announced:
            urls.put(None)
            return
        fd = self.proc.stdout.fileno()
        while os.read(fd, 1 << 20):
            pass

    def error_output(self) -> str:
        self.stderr.seek(0)
        return self.stderr.read().decode(errors="replace").strip()[-300:]

    @property
    def pid(self) -> int:
        return self.proc.pid

    def stop(self) -> None:
        """Ctrl-C, as a person would; killed if it lingers."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
            try:
                self.proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.stderr.close()


def sandbox(ctx: Context) -> Server:
    return Server([ctx.bin("checkout"), "sandbox", "--port", "0"])


def floor_server(ctx: Context) -> Server:
    return Server([ctx.bin("bench-floor-http"), "serve", "0"])


@dataclass
class WrkResult:
    requests_per_second: float
    p99_ms: float
    non_2xx: int
    socket_errors: int

    @property
    def errors(self) -> int:
        return self.non_2xx + self.socket_errors


def wrk_command(url: str, seconds: float, script: bool) -> list[str]:
    command = ["wrk", "-t2", "-c16", f"-d{seconds:g}s", "--latency"]
    if script:
        command += ["-s", str(WRK_SCRIPT)]
        return command + [url]
    return command + [url + "/hello"]


def parse_wrk(text: str) -> WrkResult:
    """Requests/sec, the 99% line, and the error lines wrk prints only when there were some."""
    rps = re.search(r"^Requests/sec:\s+([\d.]+)", text, re.M)
    p99 = re.search(r"^\s+99%\s+([\d.]+)(us|ms|s|m)\b", text, re.M)
    if not rps or not p99:
        raise BenchError(f"wrk output not understood: {text.strip()[-300:]}")
    non_2xx = re.search(r"Non-2xx or 3xx responses:\s+(\d+)", text)
    sockets = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", text)
    return WrkResult(
        float(rps.group(1)), float(p99.group(1)) * UNITS[p99.group(2)],
        int(non_2xx.group(1)) if non_2xx else 0,
        sum(int(n) for n in sockets.groups()) if sockets else 0)


def run_wrk(url: str, seconds: float, script: bool) -> WrkResult:
    done = subprocess.run(wrk_command(url, seconds, script), capture_output=True, text=True,
                          timeout=seconds + 60)
    if done.returncode != 0:
        raise BenchError(f"wrk exited {done.returncode}: {done.stderr.strip()[-300:]}")
    return parse_wrk(done.stdout)


def measure(ctx: Context) -> list[Row]:
    row_id = "P4 sandbox throughput"
    servers: list[Server] = []
    try:
        floor = floor_server(ctx)
        servers.append(floor)
        ours = sandbox(ctx)
        servers.append(ours)
        results: dict[str, list[WrkResult]] = {"floor": [], "ours": []}
        # Floor then ours, round after round, so drift in the machine hits both.
        for _ in range(ctx.plan.p4_rounds):
            results["floor"].append(run_wrk(floor.url, ctx.plan.p4_seconds, script=True))
            results["ours"].append(run_wrk(ours.url, ctx.plan.p4_seconds, script=True))
    except BenchError as error:
        return [failed_row(row_id, "req/s", TARGET, str(error))]
    finally:
        for server in servers:
            server.stop()
    ours_rps = median([r.requests_per_second for r in results["ours"]])
    floor_rps = median([r.requests_per_second for r in results["floor"]])
    non_2xx = sum(r.non_2xx for r in results["ours"])
    sockets = sum(r.socket_errors for r in results["ours"])
    floor_errors = sum(r.errors for r in results["floor"])
    ours_p99 = max(r.p99_ms for r in results["ours"])
    floor_p99 = max(r.p99_ms for r in results["floor"])
    detail = (f"p99 {ours_p99:.1f} ms (floor {floor_p99:.1f} ms); errors: {non_2xx} non-2xx, "
              f"{sockets} socket (floor {floor_errors}); {len(results['ours'])}×{ctx.plan.p4_seconds} s "
              f"wrk -t2 -c16 each; the same create+retrieve script on both (the floor answers each with fixed JSON)")
    log(f"{row_id}: ours {ours_rps:.0f} req/s, floor {floor_rps:.0f} req/s; {detail}")
    met = ours_rps >= 0.85 * floor_rps and ours_p99 <= 2 * floor_p99 and non_2xx == 0 and sockets == 0
    return [Row(row_id, ours_rps, floor_rps, "req/s", TARGET, met, detail)]
