"""Median time per battle to the end for 3v3, 8v8 and 16v16 (issue 4).

Run: ``python benchmarks/bench_engine.py [--profile]``.  Prints figures; it
is not a timed test.  Battles are random legal ones (tests/engine/randombattle)
with realistic plans (extension, friendly fire, target preferences).
"""

from __future__ import annotations

import cProfile
import pstats
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from referee.engine.battle import resolve_battle  # noqa: E402
from referee.engine.rng import BattleRng  # noqa: E402
from tests.engine.helpers import ruleset  # noqa: E402
from tests.engine.randombattle import random_setup  # noqa: E402


def bench(size: int, battles: int = 15) -> tuple[float, float]:
    rs = ruleset()
    times, turns = [], []
    for i in range(battles):
        src = BattleRng(f"bench-{size}-{i}")  # input generation only
        setup = random_setup(lambda n: src.randrange("setup", n), size)
        t0 = time.perf_counter()
        rec = resolve_battle(setup, rs, i)
        times.append(time.perf_counter() - t0)
        turns.append(rec.result.turns)
    return statistics.median(times) * 1000, statistics.median(turns)


def main() -> None:
    for size in (3, 8, 16):
        ms, turns = bench(size)
        print(f"{size}v{size}: median {ms:.1f} ms per battle (median {turns:.0f} turns)")
    if "--profile" in sys.argv:
        prof = cProfile.Profile()
        prof.enable()
        bench(8, 5)
        prof.disable()
        pstats.Stats(prof).sort_stats("cumulative").print_stats(18)


if __name__ == "__main__":
    main()
