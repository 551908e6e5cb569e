"""Benchmark: the round's web page (``referee serve``) -- a player's round
trip, and the requests per second the page sustains.

A copy of ``fixtures/round`` (two battles, eight players) gets a roster
whose tokens are hashed at the real cost (scrypt N=2**14), and ``referee
serve`` runs on it in a process of its own.  From this process:

1. the check-and-submit round trip of one signed-in player -- their page,
   Check (a sheet checked against its battle, nothing stored), Submit (the
   same sheet filed) and the receipt page: four requests, timed whole, median
   and 90th percentile over ``--trips``;
2. the requests per second the page sustains, each kind alone, with
   ``--clients`` concurrent keep-alive HTTP clients (threads, each a player
   signed in) for ``--seconds``: the sign-in page (nothing but the page), a
   player's page (the ledger read), a Check, a Submit (a new version each).

    python benchmarks/bench_serve.py [--trips 30] [--clients 8] [--seconds 10]

The load comes from a second process on the same machine: on a small
machine, client and server share its cores.
"""

from __future__ import annotations

import argparse
import http.client
import os
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

PLAYERS = ("kagura", "tomoe", "ash", "bryn", "ren", "dana", "cole", "goro")


def make_round(folder: Path) -> dict[str, bytes]:
    """The round with its roster; each player's sheet as the fixture has it
    (the players' own sheets are removed: they submit them)."""
    from referee.intake.roster import hash_token

    shutil.copytree(ROOT / "fixtures" / "round", folder)
    (folder / "r3-broken.battle.yaml").unlink()
    sheets = {p: (folder / "sheets" / f"{p}.yaml").read_bytes() for p in PLAYERS}
    lines = ["round: Bench", "nmr: forfeit", "deadline: 2030-12-05T18:00:00+09:00", "players:"]
    for p in PLAYERS:
        lines += [f"  - id: {p}", f"    name: {p}", f"    addresses: [{p}@players.test]",
                  f"    sheets: [sheets/{p}.yaml]", f"    token: \"{hash_token('tok-' + p)}\""]
    (folder / "roster.yaml").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return sheets


class Visitor:
    """One browser's worth of requests: a keep-alive connection and its cookie."""

    def __init__(self, port: int) -> None:
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
        self.cookie = ""

    def request(self, method: str, path: str, fields: dict[str, str] | None = None) -> tuple[int, str, str]:
        headers = {"Cookie": self.cookie} if self.cookie else {}
        body = None
        if fields is not None:
            body = urllib.parse.urlencode(fields).encode()
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        self.conn.request(method, path, body, headers)
        answer = self.conn.getresponse()
        text = answer.read().decode("utf-8")
        cookie = answer.getheader("set-cookie")
        if cookie:
            self.cookie = cookie.split(";")[0]
        return answer.status, answer.getheader("location") or "", text

    def form(self, path: str) -> dict[str, str]:
        _, _, page = self.request("GET", path)
        return dict(re.findall(r'name="(csrf|nonce)" value="([^"]+)"', page))

    def sign_in(self, player: str) -> None:
        status, _, _ = self.request("POST", "/signin", {**self.form("/"), "player": player, "token": f"tok-{player}"})
        assert status == 303, f"sign-in of {player}: {status}"

    def send(self, action: str, rel: str, text: str) -> tuple[int, str]:
        status, location, _ = self.request("POST", "/player", {**self.form("/player"), "action": action,
                                                                f"text:{rel}": text, f"shown:{rel}": ""})
        return status, location


def start(folder: Path) -> tuple[subprocess.Popen[bytes], int]:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = int(probe.getsockname()[1])
    server = subprocess.Popen([sys.executable, "-m", "referee.cli", "serve", str(folder), "--port", str(port)],
                              stdin=subprocess.DEVNULL,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(600):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return server, port
        except OSError:
            time.sleep(0.1)
    server.kill()
    raise SystemExit("referee serve did not start")


def round_trips(port: int, sheets: dict[str, bytes], trips: int) -> list[float]:
    """Seconds of each check-and-submit round trip of one player."""
    visitor = Visitor(port)
    visitor.sign_in("kagura")
    times = []
    for i in range(trips):
        text = sheets["kagura"].decode() + f"# trip {i}\n"
        began = time.perf_counter()
        visitor.request("GET", "/player")
        status, _ = visitor.send("check", "sheets/kagura.yaml", text)
        assert status == 200
        status, receipt = visitor.send("submit", "sheets/kagura.yaml", text)
        assert status == 303
        status, _, page = visitor.request("GET", receipt)
        assert status == 200 and "The round will use this version." in page
        times.append(time.perf_counter() - began)
    return times


def sustained(port: int, sheets: dict[str, bytes], kind: str, clients: int, seconds: float) -> tuple[int, list[float]]:
    """Requests of ``kind`` answered in ``seconds`` by ``clients`` at once, and each one's latency."""
    visitors = []
    for i in range(clients):
        visitor = Visitor(port)
        if kind != "sign-in page":
            visitor.sign_in(PLAYERS[i % len(PLAYERS)])
        visitors.append(visitor)
    latencies: list[float] = []
    lock = threading.Lock()
    end = time.perf_counter() + seconds

    def load(index: int, visitor: Visitor) -> None:
        player = PLAYERS[index % len(PLAYERS)]
        rel = f"sheets/{player}.yaml"
        count = 0
        while time.perf_counter() < end:
            count += 1
            began = time.perf_counter()
            if kind == "sign-in page":
                status = visitor.request("GET", "/")[0]
            elif kind == "player's page":
                status = visitor.request("GET", "/player")[0]
            else:  # the form's GET is part of what a browser does for each Check or Submit, but not timed here
                fields = {**visitor.form("/player"), "action": "check" if kind == "check" else "submit",
                          f"text:{rel}": sheets[player].decode() + f"# {index}.{count}\n", f"shown:{rel}": ""}
                began = time.perf_counter()
                status = visitor.request("POST", "/player", fields)[0]
            took = time.perf_counter() - began
            assert status in (200, 303), status
            with lock:
                latencies.append(took)

    threads = [threading.Thread(target=load, args=(i, v)) for i, v in enumerate(visitors)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return len(latencies), latencies


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trips", type=int, default=30, help="check-and-submit round trips timed (default 30)")
    parser.add_argument("--clients", type=int, default=8, help="concurrent clients in the load (default 8)")
    parser.add_argument("--seconds", type=float, default=10.0, help="seconds of load per kind (default 10)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "round"
        sheets = make_round(folder)
        server, port = start(folder)
        try:
            times = round_trips(port, sheets, args.trips)
            cut = statistics.quantiles(times, n=10)
            print(f"check-and-submit round trip (page, Check, Submit, receipt): median {statistics.median(times) * 1000:.0f} ms, "
                  f"90th percentile {cut[-1] * 1000:.0f} ms over {len(times)} trips")
            base = None
            for kind in ("sign-in page", "player's page", "check", "submit"):
                count, latencies = sustained(port, sheets, kind, args.clients, args.seconds)
                rate = count / args.seconds
                base = base or rate
                print(f"{kind:14s} {rate:8.1f} requests/s with {args.clients} clients "
                      f"(median {statistics.median(latencies) * 1000:6.0f} ms; {rate / base:6.3f}x the sign-in page)")
        finally:
            server.send_signal(signal.SIGINT)
            server.wait(timeout=60)
    print(f"cpus: {os.cpu_count()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
