"""Tournament figures: swiss pairing time for 1,000 players, and
``referee site`` for a 6-round tournament of 100 battles a round.

Pairing: a 1,000-player swiss played on paper for ``--rounds`` rounds with
random results (the standings computed as ``referee tournament standings``
does), each round's :func:`referee.app.tourney.plan_round` timed.

Site: the fixture's 3v3 battles stand in for a big tournament: 200 players in
100 armies of 2, six rounds of 100 battles each whose results and JSON reports
are the example tournament's (copied round-robin into every table), then
``build_site`` timed -- the replay and text report of 600 battles rendered from
their JSON.

Usage: python benchmarks/bench_tournament.py [--players 1000] [--rounds 6] [--skip-site]
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from test_pairing import play, tournament  # noqa: E402

from referee.app.site import build_site  # noqa: E402
from referee.app.tournament import load_tournament  # noqa: E402

FIXTURE = Path(__file__).resolve().parent.parent / "fixtures" / "tournament"


def bench_pairing(players: int, rounds: int) -> None:
    t = tournament(players, rounds, {})
    timings: list[float] = []
    play(t, random.Random(7), timings)
    for number, took in enumerate(timings, 1):
        print(f"pairing round {number} of {players} players: {took:6.2f} s")
    print(f"median {sorted(timings)[len(timings) // 2]:.2f} s, rounds 2+ against round 1: "
          f"{sum(timings[1:]) / max(1, len(timings) - 1) / timings[0]:.1f}x")


def big_tournament(folder: Path, armies: int, rounds: int) -> Path:
    """``armies`` armies of two players; every round's 100 battles reuse the
    fixture's results and JSON reports (sheets stand in by name)."""
    ids = [f"p{i:03d}" for i in range(2 * armies)]
    (folder / "players").mkdir(parents=True)
    sheet = (FIXTURE / "players/aiko/kagura.yaml").read_text(encoding="utf-8")
    lines = ["name: Big Cup", "format: swiss", "army_size: 2", "players:"]
    for i, pid in enumerate(ids):
        (folder / "players" / f"{pid}.yaml").write_text(sheet, encoding="utf-8")
        lines.append(f"  - {{id: {pid}, army: a{i // 2:03d}, sheets: [players/{pid}.yaml]}}")
    lines.append("rounds:")
    lines += [f"  - {{folder: rounds/{r}, deadline: '2026-12-{r:02d}T20:00:00Z'}}" for r in range(1, rounds + 1)]
    (folder / "tournament.yaml").write_text("\n".join(lines) + "\n", encoding="utf-8")
    sources = [(FIXTURE / "rounds" / str(r) / "reports", b) for r in range(1, 7)
               for b in json.loads((FIXTURE / "rounds" / str(r) / "reports/standings.json").read_text())["battles"]]
    for r in range(1, rounds + 1):
        reports = folder / "rounds" / str(r) / "reports"
        reports.mkdir(parents=True)
        battles, rows = [], []
        for k in range(armies // 2):
            name = f"t{k + 1:03d}.battle.yaml"
            a, b = f"a{(2 * k + r) % armies:03d}", f"a{(2 * k + 1 + 3 * r) % armies:03d}"
            if a == b:
                b = f"a{(int(b[1:]) + 1) % armies:03d}"
            side = {"white": a, "black": b}
            battles.append({"battle": name, "table": k + 1, **{
                team: {"army": army, "players": [{"id": f"p{2 * int(army[1:]) + j:03d}", "sheets": []} for j in (0, 1)]}
                for team, army in side.items()}})
            source, row = sources[(r * 100 + k) % len(sources)]
            rows.append({**row, "battle": name})
            shutil.copy2(source / row["battle"].replace(".battle.yaml", ".json"), reports / name.replace(".battle.yaml", ".json"))
        (folder / "rounds" / str(r) / "pairings.json").write_text(json.dumps(
            {"round": r, "battles": battles, "byes": [], "left_out": []}), encoding="utf-8")
        (reports / "standings.json").write_text(json.dumps({"battles": rows}), encoding="utf-8")
    return folder


def bench_site(rounds: int, armies: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        folder = big_tournament(Path(tmp) / "cup", armies, rounds)
        t = load_tournament(folder)
        start = time.perf_counter()
        files, _ = build_site(t, Path(tmp) / "site")
        took = time.perf_counter() - start
        battles = rounds * armies // 2
        print(f"site for {rounds} rounds x {armies // 2} battles ({len(files)} files): {took:6.2f} s, "
              f"{1000 * took / battles:.1f} ms per battle")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--skip-site", action="store_true")
    args = parser.parse_args()
    bench_pairing(args.players, args.rounds)
    if not args.skip_site:
        bench_site(6, 200)


if __name__ == "__main__":
    main()
