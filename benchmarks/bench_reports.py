"""Benchmark: CPU per battle of each report renderer on random 8v8 battles.

Issue 18, item 4: the text and JSON reports cost more than the engine's
events deserve.  This resolves ``--battles`` random legal 8v8 battles (the
sheets of ``bench_batch.py``'s ``random8`` round: no plans, the same seeds),
then renders each battle's report in every format asked for and prints the
CPU per battle (``time.process_time``; for each battle the best of
``--repeat`` renderings, then the mean over the battles: best-of-N keeps the
figure honest on a shared machine, where wall-clock time is noise).

``--instructions`` counts instructions instead (callgrind, needs ``valgrind``;
repeatable to the instruction, so the figure to quote when other jobs share
the machine): one rendering of each battle per format after a warm-up,
printed as millions of instructions per battle.

``--lean`` writes the reports as ``bench_batch.py``'s round does: the json
without its decision events (``"decisions": false``); by default the json
keeps them.  A baseline whose engine still resolves lean (``decisions=False``)
is asked to, so both sides write the same lean json.

``--baseline SRC`` runs the same measurement with the renderers of another
checkout (``SRC`` is its root, e.g. ``/work/main``) in a child process (the
CPU figures: the two alternating ``--rounds`` times, best kept) and prints
before -> after and the ratio.  Each side resolves its own battles with its
own engine (same inputs, same seeds), so the two measure the same battles as
long as the engines agree.

    python benchmarks/bench_reports.py [--battles 30] [--repeat 3] [--formats text,md,html,json]
                                       [--explain] [--full] [--lang en] [--lean] [--instructions]
                                       [--baseline /work/main] [--rounds 2]
"""

from __future__ import annotations

import argparse
import functools
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve()
ROOT = HERE.parents[1]


@functools.lru_cache(maxsize=None)
def _reports(battles: int, seed: int, lean: bool = False) -> list[Any]:
    """``battles`` resolved random 8v8 reports (``bench_batch.py``'s round);
    ``lean``: kept without their decision events, as a round's json."""
    sys.path.insert(0, str(HERE.parent))
    from bench_batch import write_random_round  # type: ignore[import-not-found]

    import inspect
    from dataclasses import replace

    from referee.app.inputs import battle_inputs, resolve_inputs
    from referee.battlefile import load_battle

    # an older engine resolved a lean report itself
    older = {"decisions": False} if lean and "decisions" in inspect.signature(resolve_inputs).parameters else {}

    out = []
    with tempfile.TemporaryDirectory(prefix="bench-reports-") as tmp:
        folder = Path(tmp) / "round"
        write_random_round(folder, battles, seed=seed)
        for path in sorted(folder.glob("*.battle.yaml")):
            battle, _diags = load_battle(path)
            assert battle is not None, path
            report = resolve_inputs(battle_inputs(battle), battle.ruleset,
                                    battle.seed if battle.seed is not None else 0, "file", **older)
            out.append(replace(report, decisions=False) if lean else report)
    return out


def measure(battles: int, repeat: int, formats: list[str], lang: str, explain: bool, full: bool,
            seed: int = 2007, lean: bool = False) -> dict[str, Any]:
    """``{"ms": {format: mean CPU ms per battle}, "events": mean events}``."""
    from referee.report import render

    reports = _reports(battles, seed, lean)
    for fmt in formats:  # imports, generated writers and caches out of the figures
        render(reports[0], fmt, lang, explain=explain, full=full)
    clock = time.process_time
    figures: dict[str, float] = {}
    for fmt in formats:
        best_each = []
        for report in reports:
            best = float("inf")
            for _ in range(repeat):
                t0 = clock()
                render(report, fmt, lang, explain=explain, full=full)
                best = min(best, clock() - t0)
            best_each.append(best)
        figures[fmt] = 1000 * statistics.mean(best_each)
    return {"ms": figures, "events": statistics.mean(len(r.events) for r in reports), "battles": len(reports)}


def count_child(pickled: str, formats: list[str], lang: str, explain: bool, full: bool) -> None:
    """Under callgrind: load the resolved reports, warm up, then render every
    battle in each format between two ``os.getppid()`` calls (the dump points)."""
    import os
    import pickle

    from referee.report import render

    with open(pickled, "rb") as fh:
        reports = pickle.load(fh)  # noqa: S301 - written by this script a moment ago
    for fmt in formats:
        render(reports[0], fmt, lang, explain=explain, full=full)
    os.getppid()
    for fmt in formats:
        for report in reports:
            render(report, fmt, lang, explain=explain, full=full)
        os.getppid()


def count(src: Path, args: argparse.Namespace) -> dict[str, Any]:
    """``{"minstr": {format: millions of instructions per battle}}`` for
    ``src``'s renderers.  The battles are resolved here, outside valgrind, and
    handed over pickled (``src``'s event classes must have the same fields)."""
    import glob
    import pickle

    formats = args.formats.split(",")
    with tempfile.TemporaryDirectory() as tmp:
        pickled = str(Path(tmp) / "reports.pickle")
        with open(pickled, "wb") as fh:
            pickle.dump(_reports(args.battles, 2007, args.lean), fh)
        code = ("import sys; sys.path.insert(0, {src!r}); sys.path.insert(1, {bench!r});"
                "import bench_reports as b; b.count_child({pickled!r}, {formats!r}, {lang!r}, {explain}, {full})").format(
            src=str(src), bench=str(HERE.parent), pickled=pickled, formats=formats, lang=args.lang,
            explain=args.explain, full=args.full)
        out = str(Path(tmp) / "cg.out")
        subprocess.run(["valgrind", "--tool=callgrind", "--dump-before=os_getppid", f"--callgrind-out-file={out}",
                        sys.executable, "-c", code], check=True, cwd=src, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL)
        dumps = sorted(glob.glob(out + ".*"), key=lambda p: int(p.rsplit(".", 1)[1]))
        totals = []
        for path in dumps[1:]:  # the first dump: start-up, resolving and the warm-up
            with open(path) as fh:
                totals.append(next(int(line.split()[1]) for line in fh if line.startswith("summary:")))
    return {"minstr": {fmt: n / 1e6 / args.battles for fmt, n in zip(formats, totals)}}


def _child(src: Path, args: argparse.Namespace) -> dict[str, Any]:
    """The same measurement run by ``src``'s code in a fresh process."""
    code = ("import json, sys; sys.path.insert(0, {src!r}); sys.path.insert(1, {bench!r});"
            "import bench_reports as b;"
            "print(json.dumps(b.measure({battles}, {repeat}, {formats!r}, {lang!r}, {explain}, {full}, lean={lean})))").format(
        src=str(src), bench=str(HERE.parent), battles=args.battles, repeat=args.repeat,
        formats=args.formats.split(","), lang=args.lang, explain=args.explain, full=args.full, lean=args.lean)
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=src, check=True)
    result: dict[str, Any] = json.loads(proc.stdout.strip().splitlines()[-1])
    return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--battles", type=int, default=30)
    parser.add_argument("--repeat", type=int, default=3, help="renderings per battle; the best counts")
    parser.add_argument("--formats", default="text,md,html,json")
    parser.add_argument("--lang", default="en", choices=("en", "ja"))
    parser.add_argument("--explain", action="store_true")
    parser.add_argument("--full", action="store_true")
    parser.add_argument("--lean", action="store_true",
                        help="json reports without decision events, as bench_batch.py's round writes them")
    parser.add_argument("--baseline", type=Path, help="root of another checkout to compare with (before)")
    parser.add_argument("--rounds", type=int, default=2, help="with --baseline: alternations; the best counts")
    parser.add_argument("--instructions", action="store_true", help="callgrind instruction counts (valgrind)")
    args = parser.parse_args()
    formats = args.formats.split(",")
    if args.lean and args.explain:
        parser.error("--explain writes the decision events, which --lean leaves out")
    mode = (f"lang {args.lang}" + (" --explain" if args.explain else "") + (" --full" if args.full else "")
            + (" --lean" if args.lean else ""))
    sys.path.insert(0, str(ROOT))
    if args.instructions:
        after_i = count(ROOT, args)["minstr"]
        before_i = count(args.baseline.resolve(), args)["minstr"] if args.baseline else None
        print(f"{args.battles} random 8v8 battles, {mode}; callgrind instructions per battle (one rendering "
              f"each after a warm-up)" + (f"; before = {args.baseline}, after = {ROOT}:" if before_i else ":"))
        for fmt in formats:
            if before_i:
                print(f"  {fmt:<6} {before_i[fmt]:8.1f} M -> {after_i[fmt]:8.1f} M  "
                      f"({before_i[fmt] / after_i[fmt]:.2f}x fewer)")
            else:
                print(f"  {fmt:<6} {after_i[fmt]:8.1f} M")
        return 0
    if args.baseline is None:
        got = measure(args.battles, args.repeat, formats, args.lang, args.explain, args.full, lean=args.lean)
        print(f"{got['battles']} random 8v8 battles, {got['events']:.0f} events each, {mode}; "
              f"CPU per battle (process_time, best of {args.repeat} per battle, mean over battles):")
        for fmt in formats:
            print(f"  {fmt:<6} {got['ms'][fmt]:7.2f} ms")
        return 0
    before: dict[str, float] = {f: float("inf") for f in formats}
    after: dict[str, float] = {f: float("inf") for f in formats}
    events = 0.0
    for _ in range(args.rounds):
        for side, src in ((before, args.baseline.resolve()), (after, ROOT)):
            got = _child(src, args)
            events = got["events"]
            for fmt in formats:
                side[fmt] = min(side[fmt], got["ms"][fmt])
    print(f"{args.battles} random 8v8 battles, {events:.0f} events each, {mode}; CPU per battle "
          f"(process_time, best of {args.repeat} per battle, mean over battles, best of {args.rounds} "
          f"alternating rounds); before = {args.baseline}, after = {ROOT}:")
    for fmt in formats:
        print(f"  {fmt:<6} {before[fmt]:7.2f} -> {after[fmt]:7.2f} ms  ({before[fmt] / after[fmt]:.2f}x faster)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
