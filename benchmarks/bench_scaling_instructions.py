"""Instructions per character-turn from 4v4 to 32v32, by callgrind (issue 18).

Run: ``python benchmarks/bench_scaling_instructions.py [--density] [SIZE ...]``
(default sizes 4 8 16 32; ``BENCH_BATTLES=N`` in the environment: the first N
battles only, for a quick comparison).  The same battles as ``bench_engine.py --scaling``
(5 random battles per size, same inputs and seeds), each resolved once under
``valgrind --tool=callgrind --dump-before=os_getppid`` after a warm-up battle,
so each dump holds exactly one battle.  Why instruction counts: on a shared
machine ``process_time`` per character-turn moves by 10-30 % with the load
(cache and frequency), the count of instructions a battle executes does not.
``--density``: the map side grows with the army (sqrt(16 x size), one
character per 8 areas), as in ``--scaling``'s second series.  Prints figures;
it is not a timed test.  Slow (valgrind: about a minute for 32v32).
"""

from __future__ import annotations

import glob
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BATTLES = int(os.environ.get("BENCH_BATTLES", "5"))  # fewer for a quick comparison


def side_for(size: int, density: bool) -> int:
    return min(32, round((16 * size) ** 0.5)) if density else 8


def run_battles(size: int, side: int) -> None:
    """The child: build the inputs, warm up, then one battle between each
    pair of ``os.getppid()`` calls (the dump points); prints the
    character-turns of each battle."""
    sys.path.insert(0, str(ROOT))
    from dataclasses import replace

    from benchmarks.bench_engine import setups
    from referee.engine.battle import resolve_battle
    from referee.engine.events import ActionStart
    from tests.engine.helpers import ruleset

    rs = ruleset()
    if side != 8:
        rs = replace(rs, map=replace(rs.map, width=side, height=side))
    inputs = setups(size, BATTLES)
    resolve_battle(inputs[0], rs, 0)  # imports and caches out of the first dump
    turns = []
    for i, setup in enumerate(inputs):
        os.getppid()
        rec = resolve_battle(setup, rs, i)
        turns.append(sum(1 for e in rec.events if isinstance(e, ActionStart)))
    os.getppid()
    print(" ".join(str(t) for t in turns))


def count(size: int, side: int) -> tuple[int, int]:
    """(instructions, character-turns) over the ``size`` battles."""
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "cg.out")
        proc = subprocess.run(["valgrind", "--tool=callgrind", "--dump-before=os_getppid",
                               f"--callgrind-out-file={out}", sys.executable, __file__, "--child",
                               str(size), str(side)],
                              check=True, cwd=ROOT, capture_output=True, text=True)
        turns = [int(t) for t in proc.stdout.split()]
        dumps = sorted(glob.glob(out + ".*"), key=lambda p: int(p.rsplit(".", 1)[1]))
        total = 0
        for path in dumps[1:1 + BATTLES]:  # the first dump: start-up and the warm-up battle
            with open(path) as fh:
                total += next(int(line.split()[1]) for line in fh if line.startswith("summary:"))
        return total, sum(turns)


def main() -> None:
    if sys.argv[1:2] == ["--child"]:
        run_battles(int(sys.argv[2]), int(sys.argv[3]))
        return
    density = "--density" in sys.argv
    sizes = [int(a) for a in sys.argv[1:] if a.isdigit()] or [4, 8, 16, 32]
    base = None
    for size in sizes:
        side = side_for(size, density)
        instructions, turns = count(size, side)
        per = instructions / max(turns, 1)
        base = base or per
        print(f"{size}v{size} on {side}x{side}: {per / 1e3:7.1f} k instructions per character-turn "
              f"({per / base:.2f}x {sizes[0]}v{sizes[0]}; {turns} character-turns in {BATTLES} battles)", flush=True)


if __name__ == "__main__":
    main()
