"""``referee odds`` over 2,000 seeds of an 8v8 battle (issue 16).

Run: ``python benchmarks/bench_odds.py [-n 2000] [--jobs 2] [--compare] [--dask]``.
Prints figures; it is not a timed test.  The battle is the sixteen fixture
sheets (``fixtures/sheets``), eight a side, copied to a temporary folder.
The whole command is timed, as a user runs it (start-up included).

``--compare`` also runs ``--jobs 1`` (and ``--dask``: a two-worker
``LocalCluster`` on 127.0.0.1) and checks that the JSON summaries are equal.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
WHITE = ["ash", "bryn", "cole", "dana", "eiji", "fumi", "goro", "hana"]
BLACK = ["isamu", "kagura", "mizuki", "nagi", "oboro", "peko", "ren", "tomoe"]


def write_battle(folder: Path) -> Path:
    """An 8v8 battle of the fixture sheets in ``folder``."""
    shutil.copytree(ROOT / "fixtures" / "sheets", folder / "sheets")
    battle = folder / "eight.battle.yaml"
    battle.write_text(
        "title: Eight a side\nruleset: tcgt\nseed: 8\nteams:\n"
        f"  white: [{', '.join(f'sheets/{n}.yaml' for n in WHITE)}]\n"
        f"  black: [{', '.join(f'sheets/{n}.yaml' for n in BLACK)}]\n", encoding="utf-8")
    return battle


def timed(cmd: list[str]) -> tuple[float, float, str]:
    """Wall-clock seconds and stdout of ``cmd``; also prints the CPU seconds
    it and its worker processes used, which other users of a shared machine
    do not inflate (CPU / jobs = the wall time on that many idle cores)."""
    load = os.getloadavg()[0]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(cmd, capture_output=True, text=True)
    if done.returncode:
        sys.exit(f"{cmd} failed:\n{done.stderr}")
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    print(f"  load average at the start {load:.1f}; CPU {cpu:.1f} s in all the command's processes")
    return wall, cpu, done.stdout


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("-n", type=int, default=2000)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--compare", action="store_true", help="also --jobs 1, and compare the numbers")
    parser.add_argument("--dask", action="store_true", help="also a local Dask cluster (needs the extra)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        battle = write_battle(Path(tmp))
        base = [sys.executable, "-m", "referee.cli", "odds", str(battle), "-n", str(args.n), "--format", "json"]
        seconds, cpu, first = timed(base + ["--jobs", str(args.jobs)])
        print(f"referee odds 8v8, {args.n} seeds, --jobs {args.jobs}: {seconds:.1f} s "
              f"({1000 * seconds / args.n:.1f} ms per seed); on {args.jobs} idle cores about "
              f"{cpu / args.jobs:.1f} s (CPU / jobs)")
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
