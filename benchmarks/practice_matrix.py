"""The win matrix of the bundled gauntlets: every army against every other.

Run: ``python benchmarks/practice_matrix.py [RULESET ...] [-n 200] [--jobs 2]``.
Prints, per ruleset, a matrix whose cell (row A, column B) is A's win share
(in the player's seat, White) against B over N seeds, ``*`` where that share
is more than half, and a line per army saying which armies it beats and
whether its declared ``beats`` hold.  The test suite checks the declared
pairs on fewer seeds (tests/test_practice_gauntlets.py); this prints them all.
"""

from __future__ import annotations

import argparse
import time

from referee.app.odds import derive_seeds
from referee.app.practice import builtin_gauntlets, gauntlet_matrix, load_gauntlet
from referee.diagnostics import display_width


def _cell(share: float, mark: bool) -> str:
    return f"{100 * share:4.0f}{'*' if mark else ' '}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("rulesets", nargs="*", metavar="RULESET", help="default: every bundled gauntlet")
    parser.add_argument("-n", type=int, default=200, help="seeds per pair (default 200)")
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    for name in args.rulesets or builtin_gauntlets():
        gauntlet = load_gauntlet(name)
        ids = [a.id for a in gauntlet.armies]
        start = time.perf_counter()
        matrix = gauntlet_matrix(gauntlet, derive_seeds("matrix", args.n), "matrix", jobs=args.jobs)
        seconds = time.perf_counter() - start
        width = max(display_width(i) for i in ids)
        print(f"{name}: {len(ids)} armies, {args.n} seeds a pair, {seconds:.1f} s "
              f"(row's win share in % against the column; * more than half)")
        print(" " * width + " " + " ".join(f"{i[:5]:>5}" for i in ids))
        for a in ids:
            cells = []
            for b in ids:
                if a == b:
                    cells.append("    -")
                    continue
                rate = matrix[(a, b)].rates["white"]
                cells.append(_cell(rate.share, rate.share > 0.5))
            print(f"{a:<{width}} " + " ".join(cells))
        for army in gauntlet.armies:
            beaten = [b for b in ids if b != army.id and matrix[(army.id, b)].rates["white"].share > 0.5]
            declared = ", ".join(f"{b} {100 * matrix[(army.id, b)].rates['white'].share:.0f}% "
                                 f"(low {100 * matrix[(army.id, b)].rates['white'].low:.0f}%)" for b in army.beats)
            print(f"  {army.id}: beats {', '.join(beaten) or 'none'}; declared: {declared or 'none'}")
        print()


if __name__ == "__main__":
    main()
