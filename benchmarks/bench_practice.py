"""``referee practice``: a 4-character army against a bundled gauntlet (issue 33).

Run: ``python benchmarks/bench_practice.py [-n 500] [--jobs 2] [--ruleset tcgt] [--compare] [--dask]``.
Prints figures; it is not a timed test.  The army is four fixture sheets
(``fixtures/sheets``: Kagura, Tomoe, Ren and Dana for tcgt), copied to a
temporary folder; the whole command is timed as a user runs it (start-up
included), against the ruleset's eight opponents, N seeds each.

``--compare`` also runs ``--jobs 1`` (and ``--dask``: a two-worker
``LocalCluster`` on 127.0.0.1) and checks that the JSON tables are equal.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
from pathlib import Path

from bench_odds import timed

ROOT = Path(__file__).resolve().parents[1]

#: Four fixture sheets per ruleset: an army of four.
ARMIES = {
    "tcgt": ["kagura", "tomoe", "ren", "dana"],
    "orm": ["orm-pyra", "orm-kai", "orm-rin", "orm-sena"],
    "wiz": ["wiz-aoi", "wiz-ban", "wiz-chie", "wiz-gen"],
    "soulwired": ["soul-walker", "soul-kaede", "soul-archer", "soul-ginko"],
    "d20pool": ["d20pool-akane", "d20pool-botan", "d20pool-chiyo", "d20pool-goro"],
}


def write_army(folder: Path, names: list[str]) -> list[str]:
    """The army's sheets (and any plan files beside them) in ``folder``."""
    for name in names:
        for found in (ROOT / "fixtures" / "sheets").glob(f"{name}.*"):
            shutil.copy(found, folder / found.name)
    return [str(folder / f"{name}.yaml") for name in names]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("-n", type=int, default=500, help="seeds per opponent (default 500)")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--ruleset", default="tcgt", choices=sorted(ARMIES))
    parser.add_argument("--compare", action="store_true", help="also --jobs 1, and compare the numbers")
    parser.add_argument("--dask", action="store_true", help="also a local Dask cluster (needs the extra)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        sheets = write_army(Path(tmp), ARMIES[args.ruleset])
        base = [sys.executable, "-m", "referee.cli", "practice", *sheets, "--ruleset", args.ruleset,
                "-n", str(args.n), "--format", "json"]
        seconds, cpu, first = timed(base + ["--jobs", str(args.jobs)])
        rows = json.loads(first)["opponents"]
        battles = args.n * len(rows)
        print(f"referee practice, {args.ruleset}, a 4-character army against {len(rows)} opponents x {args.n} seeds "
              f"({battles} battles), --jobs {args.jobs}: {seconds:.1f} s ({1000 * seconds / battles:.2f} ms per "
              f"battle); on {args.jobs} idle cores about {cpu / args.jobs:.1f} s (CPU / jobs)")
        for row in rows:
            rates = row["rates"]
            print(f"  {row['id']:<14} win {100 * rates['white']['share']:5.1f}%  loss {100 * rates['black']['share']:5.1f}%"
                  f"  median turns {row['median_turns']}")
        if args.compare:
            seconds, _, one = timed(base + ["--jobs", "1"])
            print(f"  --jobs 1: {seconds:.1f} s; same numbers: {one == first}")
        if args.dask:
            from distributed import LocalCluster

            with LocalCluster(n_workers=2, threads_per_worker=1, host="127.0.0.1",
                              dashboard_address=None, processes=True) as cluster:
                seconds, _, dasked = timed(base + ["--executor", cluster.scheduler_address.replace("tcp", "dask")])
            print(f"  Dask LocalCluster (2 workers): {seconds:.1f} s; same numbers: {dasked == first}")


if __name__ == "__main__":
    main()
