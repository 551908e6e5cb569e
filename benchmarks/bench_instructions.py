"""Instructions per 8v8 battle, tcgt against a variant, by callgrind (issue 12).

Run: ``python benchmarks/bench_instructions.py [RULESET ...]`` (default
``soulwired``), or ``python benchmarks/bench_instructions.py --stages [N]``
for issue 18's stages (load, engine, json, text) of ``N`` (default 5) random
8v8 battles of ``bench_batch.py``'s round, written as ``referee batch``
writes them (a lean json) and as a json with decision events.  Why instruction counts: the machine is shared, and a wall-time
ratio of two rulesets timed minutes apart moves with the load; the count of
instructions a battle executes does not.  The 21 random 8v8 battles of
``bench_engine.py`` (same inputs, same seeds) run once each under ``valgrind
--tool=callgrind --dump-before=os_getppid``; the script calls ``os.getppid()``
between battles, so each dump holds exactly one battle.  Prints the median and
total instructions per ruleset and the ratios to tcgt.  Slow (valgrind: a few
minutes per ruleset); needs ``valgrind`` on PATH.
"""

from __future__ import annotations

import argparse
import glob
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BATTLES = 21


def run_battles(name: str) -> None:
    """The child: build the inputs, warm up, then one battle between each
    pair of ``os.getppid()`` calls (the dump points)."""
    sys.path.insert(0, str(ROOT))
    from benchmarks.bench_engine import setups
    from referee.engine.battle import resolve_battle
    from tests.engine.helpers import ruleset

    rs = ruleset(name)
    inputs = setups(8, BATTLES)
    resolve_battle(inputs[0], rs, 0)  # imports and caches out of the first dump
    for i, setup in enumerate(inputs):
        os.getppid()
        resolve_battle(setup, rs, i)
    os.getppid()


def _child_env() -> dict[str, str]:
    """The child's environment with a fixed ``PYTHONHASHSEED``: string hashes
    decide dict and set layouts, so an unset seed moves a battle's count by
    1-3 M from run to run of the same code (no outcome depends on it)."""
    return {**os.environ, "PYTHONHASHSEED": "0"}


def count(name: str) -> list[int]:
    """Instructions of each battle of ``name``, in battle order."""
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "cg.out")
        subprocess.run(["valgrind", "--tool=callgrind", "--dump-before=os_getppid",
                        f"--callgrind-out-file={out}", sys.executable, __file__, "--child", name],
                       check=True, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=_child_env())
        dumps = sorted(glob.glob(out + ".*"), key=lambda p: int(p.rsplit(".", 1)[1]))
        totals = []
        for path in dumps[1:]:  # the first dump is the start-up and the warm-up battle
            with open(path) as fh:
                totals.append(next(int(line.split()[1]) for line in fh if line.startswith("summary:")))
        return totals


#: The stages of one battle of the round, in the order they run (issue 18).
STAGES = ("load", "engine", "json (lean)", "text", "json (decisions)")


def run_stages(battles: int) -> None:
    """The child for ``--stages``: one warm-up battle, then each stage of each
    battle between two ``os.getppid()`` calls."""
    sys.path.insert(0, str(ROOT))
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from bench_batch import write_random_round

    from dataclasses import replace

    from referee.app.inputs import battle_inputs, resolve_inputs
    from referee.battlefile import load_battle
    from referee.report import render

    with tempfile.TemporaryDirectory() as tmp:
        write_random_round(Path(tmp) / "round", battles + 1, seed=2007)
        for n, path in enumerate(sorted((Path(tmp) / "round").glob("*.battle.yaml"))):
            if n:
                os.getppid()
            battle, _ = load_battle(path)
            assert battle is not None
            inputs = battle_inputs(battle)
            if n:
                os.getppid()
            seed = battle.seed if battle.seed is not None else 0
            report = resolve_inputs(inputs, battle.ruleset, seed, "file")
            if n:
                os.getppid()
            render(replace(report, decisions=False), "json")
            if n:
                os.getppid()
            render(report, "text")
            if n:
                os.getppid()
            render(report, "json")
        os.getppid()


def stages(battles: int) -> None:
    """Mean instructions per battle and stage (``--stages``)."""
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "cg.out")
        subprocess.run(["valgrind", "--tool=callgrind", "--dump-before=os_getppid",
                        f"--callgrind-out-file={out}", sys.executable, __file__, "--stages-child", str(battles)],
                       check=True, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        dumps = sorted(glob.glob(out + ".*"), key=lambda p: int(p.rsplit(".", 1)[1]))
        totals = []
        for path in dumps[1:]:
            with open(path) as fh:
                totals.append(next(int(line.split()[1]) for line in fh if line.startswith("summary:")))
    print(f"instructions per random 8v8 battle of the round, mean of {battles} (callgrind):")
    per = {name: totals[i::len(STAGES)] for i, name in enumerate(STAGES)}
    for name, values in per.items():
        print(f"  {name:<20} {sum(values) / len(values) / 1e6:8.1f} M")
    lean = sum(sum(per[k]) for k in STAGES[:4]) / battles
    print(f"  round as batch runs it (load + engine + lean json + text): {lean / 1e6:.1f} M")


def main() -> None:
    if sys.argv[1:2] == ["--child"]:  # the valgrind children (not for users)
        run_battles(sys.argv[2])
        return
    if sys.argv[1:2] == ["--stages-child"]:
        run_stages(int(sys.argv[2]))
        return
    parser = argparse.ArgumentParser(
        description="Instructions per 8v8 battle by callgrind: tcgt against the rulesets named "
                    "(issues 12 and 13), or a round battle's stages (issue 18).",
        epilog="examples:\n  python benchmarks/bench_instructions.py d20pool\n"
               "  python benchmarks/bench_instructions.py d20pool soulwired\n"
               "  python benchmarks/bench_instructions.py --stages 3",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("rulesets", nargs="*", metavar="RULESET",
                        help="built-in rulesets counted beside tcgt (default: soulwired)")
    parser.add_argument("--stages", type=int, nargs="?", const=5, metavar="N",
                        help="instead: load, engine, json and text of N round battles (default 5)")
    args = parser.parse_args()
    if args.stages is not None:
        if args.stages < 1:
            parser.error("--stages needs at least one battle")
        stages(args.stages)
        return
    names = args.rulesets or ["soulwired"]
    sys.path.insert(0, str(ROOT))
    from referee.ruleset import builtin_rulesets

    known = set(builtin_rulesets())
    unknown = [n for n in names if n not in known]
    if unknown:
        parser.error(f"unknown ruleset {', '.join(unknown)}; built-in: {', '.join(sorted(known))}")
    base = count("tcgt")
    # one decimal of M and three of a ratio: a ratio near the goal (2.00x)
    # must show which side of it it is on (issue 13)
    print(f"8v8 tcgt: median {statistics.median(base) / 1e6:.1f} M instructions per battle, "
          f"{sum(base) / 1e6:.0f} M over {len(base)} battles")
    for name in names:
        got = count(name)
        print(f"8v8 {name}: median {statistics.median(got) / 1e6:.1f} M instructions per battle "
              f"({statistics.median(got) / statistics.median(base):.3f}x tcgt), {sum(got) / 1e6:.0f} M over "
              f"{len(got)} battles ({sum(got) / sum(base):.3f}x; goal: within 2x)")


if __name__ == "__main__":
    main()
