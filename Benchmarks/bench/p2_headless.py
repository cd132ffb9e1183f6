"""P2: one headless approved checkout per provider, against the same HTTP calls made bare."""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import tempfile
from urllib.parse import urlsplit

from .common import BenchError, Context, Row, failed_row, fmt_ms, log, median

TARGET = "≤ 2× floor, not bimodal"


def provider_ids(ctx: Context) -> list[str]:
    """The providers `checkout providers --json` lists (never a hard-coded list). A provider with
    more than one measured variant (Adyen's `sessions` and `advanced` flows) gets a row per
    variant, `id variant`; with one, its row is `id` run with that variant's options."""
    done = subprocess.run([ctx.bin("checkout"), "providers", "--json"],
                          capture_output=True, text=True, timeout=30)
    if done.returncode != 0:
        raise BenchError(f"checkout providers --json exited {done.returncode}: {done.stderr.strip()}")
    try:
        listed = json.loads(done.stdout)["providers"]
        ids = []
        for provider in listed:
            measured = [variant for variant in provider.get("variants") or [] if variant.get("bench")]
            if len(measured) > 1:
                rows = {f"{provider['id']} {variant['name']}": variant["options"] for variant in measured}
            else:
                rows = {provider["id"]: measured[0]["options"] if measured else {}}
            ids += list(rows)
            VARIANT_OPTIONS.update(rows)
        return ids
    except (ValueError, KeyError, TypeError) as error:
        raise BenchError(f"checkout providers --json: unexpected output ({error})") from error


# `id variant` → the options that variant sets (flag without dashes → value).
VARIANT_OPTIONS: dict[str, dict[str, str]] = {}


def ours_command(ctx: Context, provider: str) -> list[str]:
    """`provider` is an id, or `id variant` for one of its variants (its options are added)."""
    provider_id = provider.split(" ", 1)[0]
    options = [arg for flag, value in sorted(VARIANT_OPTIONS.get(provider, {}).items()) for arg in (f"--{flag}", value)]
    return [ctx.bin("checkout"), "run", "--provider", provider_id, "--customer", "approve", *options]


def floor_command(ctx: Context, provider: str) -> list[str]:
    """The floor makes the calls our own run made, read from its transcript: no provider is
    written into the floor, so a new provider needs nothing here."""
    calls = ctx.floor_calls.get(provider)
    if calls is None:
        calls = os.path.join(ctx.work_dir(), f"floor-calls-{provider.replace(' ', '-')}.txt")
        with open(calls, "w") as out:
            out.write("".join(f"{' '.join(map(str, call))}\n" for call in recorded_calls(ctx, provider)))
        ctx.floor_calls[provider] = calls
    return [ctx.bin("bench-floor-http"), "calls", calls]


def recorded_calls(ctx: Context, provider: str) -> list[tuple[str, str, int, int]]:
    """(method, path, request bytes, response bytes) of each exchange in our run's HAR."""
    har = os.path.join(ctx.work_dir(), f"{provider.replace(' ', '-')}.har")
    done = subprocess.run(ours_command(ctx, provider) + ["--record", har],
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, timeout=120)
    if done.returncode != 0:
        raise BenchError(f"checkout run --provider {provider} --record exited {done.returncode}: {done.stderr.strip()[-300:]}")
    try:
        with open(har) as transcript:
            entries = json.load(transcript)["log"]["entries"]
        return [(entry["request"]["method"], urlsplit(entry["request"]["url"]).path,
                 max(0, int(entry["request"]["bodySize"])), max(0, int(entry["response"]["bodySize"])))
                for entry in entries]
    except (OSError, ValueError, KeyError, TypeError) as error:
        raise BenchError(f"{har}: not a transcript the floor can follow ({error})") from error


def check_runs(command: list[str]) -> None:
    """hyperfine would only say "non-zero exit"; one plain run first shows the program's own words."""
    done = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                          text=True, timeout=120)
    if done.returncode != 0:
        tail = " / ".join(done.stderr.strip().splitlines()[-3:]) or "(no stderr)"
        raise BenchError(f"{shlex.join(command[-5:])} exited {done.returncode}: {tail}")


def hyperfine_times(commands: list[str], runs: int) -> list[list[float]]:
    """Each command's run times (s), one hyperfine invocation, in the order given."""
    with tempfile.TemporaryDirectory() as tmp:
        export = os.path.join(tmp, "hyperfine.json")
        done = subprocess.run(
            ["hyperfine", "-N", "--warmup", "1", "--runs", str(runs), "--style", "none",
             "--export-json", export, *commands],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        if done.returncode != 0:
            raise BenchError(f"hyperfine failed: {done.stderr.strip()[-300:]}")
        with open(export) as file:
            return [result["times"] for result in json.load(file)["results"]]


def is_bimodal(times: list[float]) -> bool:
    """A slow mode: the slowest run > 2× the median and more than 0.1 s above it."""
    mid = median(times)
    return max(times) > 2 * mid and max(times) > mid + 0.1


def measure_provider(ctx: Context, provider: str) -> Row:
    row_id = f"P2 headless {provider}"
    try:
        ours_cmd, floor_cmd = ours_command(ctx, provider), floor_command(ctx, provider)
        check_runs(ours_cmd)
        check_runs(floor_cmd)
        ours: list[float] = []
        floor: list[float] = []
        # Rounds alternate which command goes first, so drift in the machine hits both.
        for round_number in range(ctx.plan.p2_rounds):
            pair = [shlex.join(floor_cmd), shlex.join(ours_cmd)]
            if round_number % 2:
                pair.reverse()
            first, second = hyperfine_times(pair, ctx.plan.p2_runs)
            floor_times, ours_times = (first, second) if round_number % 2 == 0 else (second, first)
            floor += floor_times
            ours += ours_times
    except BenchError as error:
        return failed_row(row_id, "ms", TARGET, str(error))
    bimodal = is_bimodal(ours)
    ratio = median(ours) / median(floor)
    detail = (f"p50 {fmt_ms(median(ours))} ms, max {fmt_ms(max(ours))} ms over {len(ours)} runs; "
              f"floor p50 {fmt_ms(median(floor))} ms, max {fmt_ms(max(floor))} ms"
              + ("; bimodal" if bimodal else ""))
    log(f"{row_id}: {detail}")
    return Row(row_id, median(ours) * 1000, median(floor) * 1000, "ms", TARGET,
               ratio <= 2 and not bimodal, detail)


def peak_rss_mb(command: list[str]) -> float:
    """The child's peak RSS from wait4's rusage (ru_maxrss is in KiB on Linux)."""
    child = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(child.pid, 0)
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode != 0:
        raise BenchError(f"{shlex.join(command)} exited {child.returncode}")
    return usage.ru_maxrss / 1024


def floor_peak_rss_mb(ctx: Context) -> float:
    """P5's floor: the most the HTTP floor ever holds, over a few runs of its cashapp calls."""
    if ctx.floor_rss_mb is None:
        ctx.floor_rss_mb = max(peak_rss_mb(floor_command(ctx, "cashapp"))
                               for _ in range(ctx.plan.p2_rss_runs))
        log(f"floor peak RSS {ctx.floor_rss_mb:.1f} MB")
    return ctx.floor_rss_mb


def measure(ctx: Context) -> list[Row]:
    try:
        providers = provider_ids(ctx)
    except BenchError as error:
        return [failed_row("P2 headless", "ms", TARGET, str(error))]
    rows = [measure_provider(ctx, provider) for provider in providers]
    try:
        floor_peak_rss_mb(ctx)
    except BenchError as error:
        ctx.notes.append(f"floor peak RSS not measured: {error}")
    return rows
