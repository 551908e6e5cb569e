"""Time of one Gase-Wiz area selection (variant-wiz.md R-WIZ-AREA-5..7) among
30 candidates in 5 groups (issue 11: "under 10 ms, the benchmark prints it").

Run: ``python benchmarks/bench_wiz_area.py``.  Five groups of six on squares
three apart (so each is its own group), mixed roles (a spared ally and a
risked one among the wanted), and every roll of a 5x5 area with the seed's
<魔法変化>4 and <魔法増幅>2: the worst case and the median are printed.
Prints figures; the same case is asserted under 10 ms by
``tests/engine/test_r_wiz_area_selection.py`` only loosely (it is not a
timed test).
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from referee.board import Square  # noqa: E402
from referee.engine.mechanics.metric import Chebyshev  # noqa: E402
from referee.engine.mechanics.wiz_area import AreaParams, Candidate, Role, area_groups, select  # noqa: E402


def field() -> list[Candidate]:
    """30 candidates, 5 groups of 6: group k on file 3k-ish, members spread
    over two neighbouring squares."""
    out: list[Candidate] = []
    spots = [(0, 3), (3, 3), (6, 3), (0, 6), (3, 6)]
    for g, (f, r) in enumerate(spots):
        for m in range(6):
            role: Role = "spared" if (g, m) == (1, 3) else "risked" if (g, m) == (3, 2) else "wanted"
            out.append(Candidate(f"G{g}M{m}", Square(file=f + m % 2, rank=r), g * 6 + m, role))
    return out


def main() -> None:
    metric = Chebyshev()
    cands = field()
    user = Square(file=0, rank=0)
    times: list[float] = []
    for roll in range(5, 26):
        best = float("inf")
        for _ in range(5):
            t0 = time.perf_counter()
            groups = area_groups(user, cands, metric.distance)
            select(groups, AreaParams(roll=roll, cap=25, change_levels=4, amplify_levels=2))
            best = min(best, time.perf_counter() - t0)
        times.append(best * 1000)
    print(f"wiz area selection, 30 candidates in 5 groups, rolls 5..25: "
          f"median {statistics.median(times):.2f} ms, worst {max(times):.2f} ms (goal: under 10 ms)")


if __name__ == "__main__":
    main()
