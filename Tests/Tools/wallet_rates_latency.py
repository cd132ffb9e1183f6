#!/usr/bin/env python3
"""How long a wallet rates lookup takes from the keypress to the updated sheet, as a person sees
it: the real binary in tmux (100x30, embedded sandbox), the address switched between Home and
Office N times, each time timed from the Enter that chooses the address to the first screen
that shows that address with its rates in (no spinner). Prints each time and the median.

    python3 Tests/Tools/wallet_rates_latency.py [.build/release/checkout] [N]
"""
import statistics
import subprocess
import sys
import time

SPINNER = "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏"
SESSION = "wallet-latency"


def tmux(*args):
    return subprocess.run(["tmux", *args], check=True, capture_output=True, text=True).stdout


def screen():
    return tmux("capture-pane", "-p", "-t", SESSION)


def wait(condition, what, timeout=30):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        text = screen()
        if condition(text):
            return text
        time.sleep(0.001)
    raise SystemExit(f"timed out waiting for {what}:\n{screen()}")


def settled(label):
    def check(text):
        return label in text and not any(glyph in text for glyph in SPINNER) and "Shipping rates" not in text
    return check


def main():
    binary = sys.argv[1] if len(sys.argv) > 1 else ".build/debug/checkout"
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 20
    subprocess.run(["tmux", "kill-session", "-t", SESSION], capture_output=True)
    tmux("new-session", "-d", "-s", SESSION, "-x", "100", "-y", "30")
    try:
        tmux("send-keys", "-t", SESSION, "-l", f"clear; '{binary}'")
        tmux("send-keys", "-t", SESSION, "Enter")
        wait(lambda t: "notStarted" in t, "the screen")
        tmux("send-keys", "-t", SESSION, "Tab", "Tab", "Down", "Down", "Down", "Down", "Down", "Enter")
        wait(lambda t: "(•) Wallet (Apple Pay style)" in t, "the wallet chosen")
        tmux("send-keys", "-t", SESSION, "p")
        wait(settled("Home · 1200 NW Naito Pkwy"), "the sheet with Home's rates")
        times = []
        for index in range(rounds):
            target, step = ("Office · 350 Fifth Ave", "Down") if index % 2 == 0 else ("Home · 1200 NW Naito Pkwy", "Up")
            tmux("send-keys", "-t", SESSION, "Down", "Enter")
            wait(lambda t: "Enter a new address…" in t, "the address picker")
            tmux("send-keys", "-t", SESSION, step)
            time.sleep(0.05)  # the cursor move is drawn; only the choosing Enter is timed
            started = time.monotonic()
            tmux("send-keys", "-t", SESSION, "Enter")
            wait(lambda t: "Enter a new address…" not in t and settled(target)(t), f"{target} with rates")
            times.append((time.monotonic() - started) * 1000)
            print(f"{index + 1:2d} {target.split(' ·')[0]:6s} {times[-1]:6.1f} ms")
        print(f"median of {rounds}: {statistics.median(times):.1f} ms (min {min(times):.1f}, max {max(times):.1f})")
    finally:
        tmux("send-keys", "-t", SESSION, "Escape", "q", "y")
        time.sleep(0.3)
        subprocess.run(["tmux", "kill-session", "-t", SESSION], capture_output=True)


if __name__ == "__main__":
    main()
