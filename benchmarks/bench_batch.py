"""Benchmark: a round of generated battles resolved by ``referee batch``.

Generates N battles (default 1,000) into a temporary folder -- 3v3 teams drawn
from a pool of valid sheets with plans, each battle with its own seed -- then
runs ``referee batch DIR --jobs J`` (default 2) as a user would and prints the
wall-clock time, battles per second, and how many resolved.  The issue's goal
is under 15 s for 1,000 battles with --jobs 2.

    python benchmarks/bench_batch.py [--battles 1000] [--jobs 2] [--keep]
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

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


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--battles", type=int, default=1000)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--formats", default="json,text")
    parser.add_argument("--keep", action="store_true", help="keep the generated round and reports")
    args = parser.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="bench-batch-"))
    try:
        round_dir, out = tmp / "round", tmp / "out"
        write_round(round_dir, args.battles, seed=2007)
        start = time.perf_counter()
        proc = subprocess.run([sys.executable, "-m", "referee.cli", "batch", str(round_dir), "--jobs", str(args.jobs),
                               "-o", str(out), "--formats", args.formats], capture_output=True, text=True)
        elapsed = time.perf_counter() - start
        summary = json.loads((out / "standings.json").read_text("utf-8"))["summary"] if (out / "standings.json").exists() else {}
        print(f"battles: {args.battles}  jobs: {args.jobs}  formats: {args.formats}")
        print(f"wall time: {elapsed:.2f} s  ({args.battles / elapsed:.1f} battles/s, "
              f"{1000 * elapsed / max(args.battles, 1):.2f} ms per battle)")
        print(f"resolved: {summary.get('resolved', '?')}  failed: {summary.get('failed', '?')}  "
              f"white/black/draw: {summary.get('white_wins', '?')}/{summary.get('black_wins', '?')}/{summary.get('draws', '?')}")
        print(f"goal: < 15 s for 1,000 battles with --jobs 2 -> {'met' if elapsed < 15 * args.battles / 1000 else 'NOT met'}")
        if proc.returncode not in (0, 1):
            print(proc.stderr[-2000:], file=sys.stderr)
            return proc.returncode
        return 0
    finally:
        if args.keep:
            print(f"kept: {tmp}")
        else:
            shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
