"""Benchmark: CPU to load and validate one random 8v8 battle (issue 18, item 2).

What ``referee batch`` pays per battle before the engine runs: the battle file
and its 16 distinct sheet files read, parsed, validated
(:func:`referee.battlefile.load_battle`) and normalised
(:func:`referee.app.inputs.battle_inputs`).  The battles are the random legal
8v8 battles of ``bench_batch.py --kind random8`` (no plans); ``--plans`` gives
every sheet one of a few plan texts, as a round whose players copy plans does.

Every repeat loads a *fresh* round (other seed, other names), so no repeat
meets a sheet a previous one loaded: per-process caches help only where a real
worker's would (the ruleset, the schemas, the grammar, identical skill lists
or plan texts across different sheets).  Measured with
``time.process_time`` (CPU of this process, so other jobs on the machine
matter less than for wall time); the figure printed is the best repeat's mean
per battle, and the median of the repeats.

``--instructions`` counts callgrind instructions per battle instead (the
figure to compare when the machine is loaded: it does not move with the load).

    python benchmarks/bench_load.py [--battles 100] [--repeats 5] [--plans] [--profile] [--instructions]
"""

from __future__ import annotations

import argparse
import cProfile
import glob
import os
import pstats
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.bench_batch import random_sheet  # noqa: E402

#: Plan texts a ``--plans`` round's sheets draw from (only skills every sheet may lack, so
#: the plans name no skill: a plan naming a skill the sheet lacks is an error).
PLANS = (
    "keep away from enemies when hp <= 4\n",
    "target lowest hp\n",
    "hold position when hp <= 3\ntarget most hp lost\n",
)


def write_round(folder: Path, battles: int, seed: int, tag: str, plans: bool) -> list[Path]:
    """``battles`` random 8v8 battle files, each naming its own 16 sheets."""
    sheets = folder / "sheets"
    sheets.mkdir(parents=True)
    draw = random.Random(seed)
    files = []
    for i in range(battles):
        teams = {}
        for team in ("white", "black"):
            paths = []
            for j in range(8):
                key = f"{tag}{i:04d}-{team[0]}{j + 1}"
                text = random_sheet(draw, f"{team[0].upper()}{j + 1}-{tag}{i}")
                if plans:
                    text += "plan: |\n" + "".join(f"  {line}\n" for line in draw.choice(PLANS).splitlines())
                (sheets / f"{key}.yaml").write_text(text, encoding="utf-8")
                paths.append(f"sheets/{key}.yaml")
            teams[team] = ", ".join(paths)
        path = folder / f"{tag}{i:04d}.battle.yaml"
        path.write_text(f"title: Load benchmark {tag}{i}\nruleset: tcgt\nseed: {i}\n"
                        f"teams:\n  white: [{teams['white']}]\n  black: [{teams['black']}]\n", encoding="utf-8")
        files.append(path)
    return files


def load_all(files: list[Path]) -> float:
    """CPU seconds to load every battle (each must load without an error)."""
    from referee.app.inputs import battle_inputs
    from referee.battlefile import load_battle

    clock = time.process_time
    start = clock()
    for path in files:
        battle, diags = load_battle(path)
        assert battle is not None, (path, diags)
        battle_inputs(battle)
    return clock() - start


def callgrind_child(folder: Path, battles: int, plans: bool) -> None:
    """The child of ``--instructions``: warm up, then one battle's load
    between each pair of ``os.getppid()`` calls (callgrind's dump points)."""
    from referee.app.inputs import battle_inputs
    from referee.battlefile import load_battle

    load_all(write_round(folder / "warm", 2, seed=1, tag="w", plans=plans))
    files = write_round(folder / "c", battles, seed=2007, tag="c", plans=plans)
    for path in files:
        os.getppid()
        battle, _ = load_battle(path)
        assert battle is not None
        battle_inputs(battle)
    os.getppid()


def instructions(battles: int, plans: bool) -> list[int]:
    """Instructions per battle load, by callgrind (repeatable on a loaded machine)."""
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "cg.out")
        subprocess.run(["valgrind", "--tool=callgrind", "--dump-before=os_getppid", f"--callgrind-out-file={out}",
                        sys.executable, __file__, "--child", tmp, str(battles)] + (["--plans"] if plans else []),
                       check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        dumps = sorted(glob.glob(out + ".*"), key=lambda p: int(p.rsplit(".", 1)[1]))
        totals = []
        for path in dumps[1:]:  # the first dump: start-up, writing the round, the warm-up
            with open(path) as fh:
                totals.append(next(int(line.split()[1]) for line in fh if line.startswith("summary:")))
        return totals


def main() -> int:
    if sys.argv[1:2] == ["--child"]:
        callgrind_child(Path(sys.argv[2]), int(sys.argv[3]), "--plans" in sys.argv)
        return 0
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--battles", type=int, default=100)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--plans", action="store_true", help="every sheet carries one of a few plan texts")
    parser.add_argument("--profile", action="store_true", help="cProfile one more fresh round; print the top functions")
    parser.add_argument("--instructions", action="store_true",
                        help="instead: callgrind instructions per battle load (needs valgrind; slow)")
    args = parser.parse_args()
    if args.instructions:
        got = instructions(args.battles, args.plans)
        print(f"load + validate + inputs, random 8v8{' with plans' if args.plans else ''}, callgrind, {len(got)} battles: "
              f"median {statistics.median(got) / 1e6:.2f} M instructions per battle, mean {statistics.mean(got) / 1e6:.2f} M")
        return 0
    tmp = Path(tempfile.mkdtemp(prefix="bench-load-"))
    try:
        warm = write_round(tmp / "warm", 2, seed=1, tag="w", plans=args.plans)
        load_all(warm)  # imports, the ruleset, schemas and grammar out of the figures
        per_battle = []
        for r in range(args.repeats):
            files = write_round(tmp / f"r{r}", args.battles, seed=2007 + r, tag=f"r{r}x", plans=args.plans)
            per_battle.append(load_all(files) / len(files))
        print(f"load + validate + inputs, random 8v8 (16 sheet files{', with plans' if args.plans else ''}), "
              f"{args.battles} battles x {args.repeats} fresh rounds, CPU (process_time):")
        print(f"  best {1000 * min(per_battle):.2f} ms per battle, median {1000 * statistics.median(per_battle):.2f} ms "
              f"(all: {', '.join(f'{1000 * v:.2f}' for v in per_battle)})")
        if args.profile:
            files = write_round(tmp / "prof", args.battles, seed=99, tag="p", plans=args.plans)
            profiler = cProfile.Profile()
            profiler.enable()
            load_all(files)
            profiler.disable()
            pstats.Stats(profiler).sort_stats("cumulative").print_stats(45)
            pstats.Stats(profiler).sort_stats("tottime").print_stats(30)
        return 0
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
