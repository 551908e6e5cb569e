"""Benchmark: a round of generated battles resolved by ``referee batch``.

Two kinds of round (``--kind``):

- ``random8`` (default, issue 18): N random *legal* 8v8 battles, every battle
  with its own 16 sheet files (abilities, patterns and skills drawn within
  R-CHAR-1..3, no plans), so no worker can reuse a loaded sheet -- what an
  organiser's round of distinct players costs;
- ``pool3``: 3v3 teams drawn from a pool of 8 sheets with plans (the older
  benchmark: every worker loads the 8 sheets once, which hides loading).

It runs ``referee batch DIR --jobs J`` (default 2) as a user would and prints
the wall-clock time, then resolves a sample of the same battles in this
process, stage by stage (load + validate, engine, JSON, text, writing), and
the *floor*: serialising the same events as ready-made dicts with the fastest
JSON encoder available (orjson if installed, else the standard library).  The
goal (issue 18) is under 15 s for 1,000 random 8v8 battles with --jobs 2.

    python benchmarks/bench_batch.py [--kind random8|pool3] [--battles 1000] [--jobs 2] [--sample 100] [--keep]
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

SHEETS = {
    "kagura": ("Kagura", (3, 3, 3), ["火火水", "剣地風"], ["rest", "eruption", "firecracker", "slash", "avenger"],
               "use rest first when ally hp lost >= 5\nuse eruption only when enemies in range >= 2\n"),
    "tomoe": ("Tomoe", (4, 3, 2), ["剣火剣", "剣剣風"], ["kusanagi", "slash", "sala-twin-trees", "night-shrieker"],
              "maintain sala-twin-trees when engaged\n"),
    "ren": ("Ren", (2, 4, 3), ["水地水風", "風風水地"], ["restore", "pressurize", "shield-mist", "whirlwind", "rest"],
            "keep away from enemies when hp <= 4\n"),
    "ash": ("Ash", (3, 3, 3), ["火風火", "火水地"], ["heat-wave", "flame-bind", "fiery-cloak", "firecracker", "avenger"],
            "with firecracker target lowest hp\nextend heat-wave max\n"),
    "bryn": ("Bryn", (4, 3, 2), ["地剣地", "水剣地"], ["ia-temu-curse", "drain-life", "poison-fang", "avenger"],
             "target most hp lost\n"),
    "cole": ("Cole", (2, 3, 4), ["風地水", "水水風", "風風剣"],
             ["skill-ensnare", "aqua-form", "whirlwind", "restore", "night-shrieker", "pressurize"],
             "hold position when hp <= 4\n"),
    "dana": ("Dana", (5, 2, 2), ["剣剣", "剣地"], ["slash", "ia-temu-curse", "avenger"], None),
    "goro": ("Goro", (6, 2, 1), ["剣地"], ["slash", "avenger", "drain-life"], None),
}


def write_round(folder: Path, battles: int, seed: int) -> None:
    """``battles`` battle files sharing one sheets/ folder; teams drawn with a seeded RNG."""
    sheets = folder / "sheets"
    sheets.mkdir(parents=True)
    for key, (name, (body, reflex, intellect), patterns, skills, plan) in SHEETS.items():
        text = (f"name: {name}\nabilities: {{body: {body}, reflex: {reflex}, intellect: {intellect}}}\n"
                f"patterns: [{', '.join(patterns)}]\nskills: [{', '.join(skills)}]\n")
        if plan:
            text += "plan: |\n" + "".join(f"  {line}\n" for line in plan.splitlines())
        (sheets / f"{key}.yaml").write_text(text, encoding="utf-8")
    draw = random.Random(seed)
    keys = sorted(SHEETS)
    for i in range(battles):
        six = draw.sample(keys, 6)
        white = ", ".join(f"sheets/{k}.yaml" for k in six[:3])
        black = ", ".join(f"sheets/{k}.yaml" for k in six[3:])
        (folder / f"b{i:04d}.battle.yaml").write_text(
            f"title: Benchmark battle {i}\nruleset: tcgt\nseed: {i}\n"
            f"teams:\n  white: [{white}]\n  black: [{black}]\n", encoding="utf-8")


#: Skill ids a random sheet draws from (tcgt's catalogue, learnable by anyone).
RANDOM_SKILLS = ("firecracker", "rest", "pressurize", "avenger", "slash", "eruption", "flame-bind",
                 "heat-wave", "fiery-cloak", "kusanagi", "aqua-form", "shield-mist", "restore",
                 "poison-fang", "whirlwind", "skill-ensnare", "night-shrieker", "drain-life",
                 "ia-temu-curse", "sala-twin-trees")
ELEMENTS = "火水風地剣"


def random_sheet(draw: random.Random, name: str) -> str:
    """A legal tcgt sheet: 9 ability points, each >= 1 (R-CHAR-1); 1..intellect
    patterns of exactly reflex panels; 1..intellect+2 skills (R-CHAR-3); no plan."""
    body = draw.randint(1, 7)
    reflex = draw.randint(1, 8 - body)
    intellect = 9 - body - reflex
    patterns = ["".join(draw.choice(ELEMENTS) for _ in range(reflex)) for _ in range(draw.randint(1, intellect))]
    skills = [draw.choice(RANDOM_SKILLS) for _ in range(draw.randint(1, intellect + 2))]
    return (f"name: {name}\nabilities: {{body: {body}, reflex: {reflex}, intellect: {intellect}}}\n"
            f"patterns: [{', '.join(patterns)}]\nskills: [{', '.join(skills)}]\n")


def write_random_round(folder: Path, battles: int, seed: int, size: int = 8) -> None:
    """``battles`` battles of ``size`` v ``size``, each with its own sheet files."""
    sheets = folder / "sheets"
    sheets.mkdir(parents=True)
    draw = random.Random(seed)
    for i in range(battles):
        teams = {}
        for team in ("white", "black"):
            paths = []
            for j in range(size):
                key = f"b{i:04d}-{team[0]}{j + 1}"
                (sheets / f"{key}.yaml").write_text(random_sheet(draw, f"{team[0].upper()}{j + 1}-{i}"), encoding="utf-8")
                paths.append(f"sheets/{key}.yaml")
            teams[team] = ", ".join(paths)
        (folder / f"b{i:04d}.battle.yaml").write_text(
            f"title: Benchmark battle {i}\nruleset: tcgt\nseed: {i}\n"
            f"teams:\n  white: [{teams['white']}]\n  black: [{teams['black']}]\n", encoding="utf-8")


def _floor_encoder() -> tuple[str, Any]:
    """The fastest JSON encoder here: orjson if installed, else the standard library."""
    try:
        import orjson  # type: ignore[import-not-found]

        return "orjson", orjson.dumps
    except ImportError:
        return "json (stdlib; install orjson for a lower floor)", lambda obj: json.dumps(obj, ensure_ascii=False).encode()


def stage_costs(round_dir: Path, sample: int, formats: tuple[str, ...] = ("json", "text"),
                decisions: bool = False) -> None:
    """Per-battle CPU by stage over the first ``sample`` battles, in this process,
    and the ratio of the whole to the floor (the same events serialised as
    ready-made dicts by the fastest encoder).  Written as the round writes
    them: the json lean unless it keeps the decision events (``decisions``,
    ``batch --decisions``)."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from referee.app.inputs import battle_inputs, resolve_inputs
    from referee.app.pipeline import write_atomic
    from referee.battlefile import load_battle
    from dataclasses import replace

    from referee.report import render

    files = sorted(round_dir.glob("*.battle.yaml"))[:sample]
    name, encode = _floor_encoder()
    out = Path(tempfile.mkdtemp(prefix="bench-stages-"))
    stages: dict[str, list[float]] = {k: [] for k in ("load", "engine", "json", "text", "write", "floor")}
    events = []
    clock = time.process_time
    try:
        for path in files:
            t0 = clock()
            battle, _diags = load_battle(path)
            assert battle is not None, path
            inputs = battle_inputs(battle)
            t1 = clock()
            report = replace(resolve_inputs(inputs, battle.ruleset, battle.seed if battle.seed is not None else 0,
                                            "file"), decisions=decisions)
            t2 = clock()
            as_json = render(report, "json")
            t3 = clock()
            as_text = render(report, "text")
            t4 = clock()
            write_atomic(out / f"{path.stem}.json", as_json)
            write_atomic(out / f"{path.stem}.txt", as_text)
            t5 = clock()
            dicts = [e.to_json() for e in report.events]
            t6 = clock()
            encode({"events": dicts})
            t7 = clock()
            for key, value in zip(("load", "engine", "json", "text", "write"), (t1 - t0, t2 - t1, t3 - t2, t4 - t3, t5 - t4)):
                stages[key].append(value)
            stages["floor"].append(t7 - t6)
            events.append(len(report.events))
    finally:
        shutil.rmtree(out, ignore_errors=True)
    total = sum(sum(v) for k, v in stages.items() if k != "floor") / len(files)
    kind = "json with decision events" if decisions else "lean json: no decision events"
    print(f"\nper battle, one process, CPU (mean of {len(files)} battles; {statistics.mean(events):.0f} events each, "
          f"{kind}):")
    for key in ("load", "engine", "json", "text", "write"):
        mean = statistics.mean(stages[key])
        print(f"  {key:<7} {1000 * mean:7.2f} ms  {100 * mean / total:5.1f} %")
    floor = statistics.mean(stages["floor"])
    print(f"  total   {1000 * total:7.2f} ms")
    print(f"floor ({name}, the same events as ready-made dicts): {1000 * floor:.2f} ms per battle")
    print(f"ratio: JSON report / floor {statistics.mean(stages['json']) / floor:.1f}x; whole battle / floor {total / floor:.1f}x")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--kind", choices=("random8", "pool3"), default="random8")
    parser.add_argument("--battles", type=int, default=1000)
    parser.add_argument("--sample", type=int, default=100, help="battles timed stage by stage in-process (0: none)")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--formats", default="json,text")
    parser.add_argument("--keep", action="store_true", help="keep the generated round and reports")
    parser.add_argument("--decisions", action="store_true",
                        help="json reports keep the decision events (batch --decisions); default: a lean round")
    args = parser.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="bench-batch-"))
    try:
        round_dir, out = tmp / "round", tmp / "out"
        if args.kind == "random8":
            write_random_round(round_dir, args.battles, seed=2007)
        else:
            write_round(round_dir, args.battles, seed=2007)
        start = time.perf_counter()
        proc = subprocess.run([sys.executable, "-m", "referee.cli", "batch", str(round_dir), "--jobs", str(args.jobs),
                               "-o", str(out), "--formats", args.formats] + (["--decisions"] if args.decisions else []),
                              capture_output=True, text=True)
        elapsed = time.perf_counter() - start
        summary = json.loads((out / "standings.json").read_text("utf-8"))["summary"] if (out / "standings.json").exists() else {}
        print(f"round: {args.kind}  battles: {args.battles}  jobs: {args.jobs}  formats: {args.formats}"
              f"{'  --decisions' if args.decisions else ''}")
        print(f"wall time: {elapsed:.2f} s  ({args.battles / elapsed:.1f} battles/s, "
              f"{1000 * elapsed / max(args.battles, 1):.2f} ms per battle)")
        print(f"resolved: {summary.get('resolved', '?')}  failed: {summary.get('failed', '?')}  "
              f"white/black/draw: {summary.get('white_wins', '?')}/{summary.get('black_wins', '?')}/{summary.get('draws', '?')}")
        print(f"goal: < 15 s for 1,000 battles with --jobs 2 -> {'met' if elapsed < 15 * args.battles / 1000 else 'NOT met'}")
        if proc.returncode not in (0, 1):
            print(proc.stderr[-2000:], file=sys.stderr)
            return proc.returncode
        if args.sample:
            stage_costs(round_dir, args.sample, tuple(args.formats.split(",")), args.decisions)
        return 0
    finally:
        if args.keep:
            print(f"kept: {tmp}")
        else:
            shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
