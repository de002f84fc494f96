#!/usr/bin/env python3
"""Bot seats against the clock: plays whole matches of bots through a real `plateau serve` at the
lobby's clocks and counts the seats that lost on time (there should be none: docs/bots.md,
"For the match service").

Each match seats the chosen level at every seat, so every seat of every match is a bot seat under
test. The server is started on a fresh SQLite file in a temporary folder, with no bot delay and
the per-address limits lifted for 127.0.0.1 (every match of the trial comes from one address).

    cargo build --release
    scripts/clock-trial.py --games 50                # every game at each of its clocks
    scripts/clock-trial.py --only mad --games 5      # a quick look

Prints one line per game and clock (matches, seats that lost on time, wall-clock per match) and
exits with status 1 when any seat lost on time or a match did not finish within --max-minutes.
Python 3 standard library only.
"""

import argparse
import json
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from concurrent.futures import ThreadPoolExecutor

# The lobby's clocks, the tightest it accepts and its defaults (docs/protocol.md section 3.2).
# Bataille Navale has no per-move or Fischer clock: its rules set the clocks, default or tightened.
CLOCKS = {
    "per_move 1 s": {"time_control": {"kind": "per_move", "seconds": 1}},
    "per_move 60 s": {"time_control": {"kind": "per_move", "seconds": 60}},
    "fischer 1 min + 0": {"time_control": {"kind": "fischer", "base_seconds": 60, "increment_seconds": 0}},
    "fischer 5 min + 3": {"time_control": {"kind": "fischer", "base_seconds": 300, "increment_seconds": 3}},
}
NAVAL_CLOCKS = {
    "rules, 90 s placement, 60 s turns": {"time_control": {"kind": "game"}},
    "rules, 20 s placement, 5 s turns": {
        "time_control": {"kind": "game"},
        "config": {"placement_seconds": 20, "turn_seconds": 5},
    },
}
SEATS = {"mad": 2, "moonleap": 2, "chakart": 2, "naval": 4}


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def request(url, body=None):
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(url, data=data, headers={"content-type": "application/json"})
    with urllib.request.urlopen(req, timeout=30) as resp:
        return json.load(resp)


def start_server(plateau, folder):
    port = free_port()
    log = open(f"{folder}/serve.log", "w")
    proc = subprocess.Popen(
        [plateau, "serve", "--addr", f"127.0.0.1:{port}", "--database", f"{folder}/trial.sqlite",
         "--bot-delay-ms", "0", "--exempt-address", "127.0.0.1"],
        stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    for _ in range(100):
        try:
            request(f"{url}/health")
            return proc, url
        except OSError:
            time.sleep(0.1)
    proc.kill()
    sys.exit(f"plateau serve did not answer on {url}; see {folder}/serve.log")


def play(url, game, clock, level, max_minutes):
    """Creates one all-bot match and waits for its end: (seats lost on time, seconds, outcome kind)."""
    body = {"game": game, "seats": [{"kind": "bot", "bot": level}] * SEATS[game], **clock}
    created = request(f"{url}/api/matches", body)
    started = time.monotonic()
    while True:
        summary = request(f"{url}/api/matches/{created['id']}")
        if summary["status"] == "finished":
            break
        if time.monotonic() - started > max_minutes * 60:
            return None, time.monotonic() - started, f"unfinished {created['id']}"
        time.sleep(0.5)
    record = request(f"{url}/api/matches/{created['id']}/record")
    timeouts = sum(1 for e in record.get("endings", []) if isinstance(e.get("ending"), dict) and "timeout" in e["ending"])
    kind = (summary.get("outcome") or {}).get("kind")
    return max(timeouts, int(kind == "timeout")), time.monotonic() - started, kind


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--plateau", default="target/release/plateau", help="the binary to serve with")
    ap.add_argument("--games", type=int, default=50, help="matches per game and clock")
    ap.add_argument("--parallel", type=int, default=2, help="matches played at once")
    ap.add_argument("--level", default="expert", help="the bot at every seat (a level or a spec)")
    ap.add_argument("--only", action="append", help="a game to try (repeatable; default all four)")
    ap.add_argument("--max-minutes", type=float, default=30, help="a match longer than this is a failure")
    args = ap.parse_args()

    folder = tempfile.mkdtemp(prefix="plateau-clock-trial-")
    proc, url = start_server(args.plateau, folder)
    failed = False
    try:
        print(f"{'game':9} {'clock':36} {'matches':>7} {'seats lost on time':>18} {'s per match':>11}  outcomes")
        for game in args.only or list(SEATS):
            for name, clock in (NAVAL_CLOCKS if game == "naval" else CLOCKS).items():
                with ThreadPoolExecutor(args.parallel) as pool:
                    results = list(pool.map(lambda _: play(url, game, clock, args.level, args.max_minutes), range(args.games)))
                lost = sum(r[0] or 0 for r in results)
                stuck = [r[2] for r in results if r[0] is None]
                kinds = {}
                for r in results:
                    kinds[r[2]] = kinds.get(r[2], 0) + 1
                mean = sum(r[1] for r in results) / len(results)
                print(f"{game:9} {name:36} {len(results):7} {lost:18} {mean:11.1f}  {json.dumps(kinds)}", flush=True)
                failed |= lost > 0 or bool(stuck)
    finally:
        proc.terminate()
        proc.wait()
    print(f"server log and database: {folder}")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
