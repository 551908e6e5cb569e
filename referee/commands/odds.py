"""``referee odds BATTLE -n N``: a battle over N derived seeds, in numbers."""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Any, TextIO

from referee.app.executors import parse_executor, run_chunks
from referee.app.inputs import battle_inputs
from referee.app.odds import OddsSummary, chunk_seeds, derive_seeds, summarise
from referee.app.pipeline import choose_seed
from referee.battlefile import load_battle
from referee.commands.batch import _jobs
from referee.commands.resolve import _seed, emit
from referee.diagnostics import ReferError, has_errors

EXAMPLE = """examples:
  referee odds round3.battle.yaml -n 2000 --jobs 2
  referee odds round3.battle.yaml -n 500 --seed 7 --format json -o odds.json
  referee odds round3.battle.yaml -n 20000 --executor dask://10.0.0.5:8786

Seed k of the run is "BASE-k" (BASE: --seed, else the battle's seed), so
every line can be replayed: referee resolve round3.battle.yaml --seed 7-17.
The same BASE and N give the same numbers on any executor and any --jobs.
"""

#: Seeds per task: small enough for a smooth progress bar, big enough that
#: sending the inputs to a worker costs little next to resolving them.
CHUNK = 25

_LABELS = {"white": "White wins", "draw": "draw", "black": "Black wins"}


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "odds",
        help="resolve a battle over many seeds: win/draw/loss rates, turns, survivors",
        description="Resolve one battle over N seeds derived from its seed and summarise the outcomes.",
        epilog=EXAMPLE,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("battle", metavar="BATTLE", help="the battle file (*.battle.yaml)")
    parser.add_argument("-n", "--seeds", type=_jobs, default=1000, metavar="N",
                        help="how many seeds (default: 1000)")
    parser.add_argument("--seed", type=_seed, help="base seed instead of the file's (a number or a word)")
    parser.add_argument("--jobs", "-j", type=_jobs, default=min(4, os.cpu_count() or 1),
                        help="local worker processes (default: up to 4)")
    parser.add_argument("--executor", default="process", metavar="EXECUTOR",
                        help="'process' (default) or dask://HOST:PORT (an existing Dask scheduler)")
    parser.add_argument("--format", choices=("text", "json"), default="text", help="output (default: text)")
    parser.add_argument("-o", "--output", metavar="OUT", help="write to OUT (atomically) instead of stdout")
    parser.set_defaults(run=run)


class _Bar:
    """A one-line progress bar, only when ``stream`` is a terminal."""

    def __init__(self, total: int, stream: TextIO) -> None:
        self.total, self.stream, self.done = total, stream, 0
        self.tty = stream.isatty()

    def __call__(self, seeds: int) -> None:
        self.done += seeds
        if not self.tty:
            return
        filled = 30 * self.done // max(self.total, 1)
        self.stream.write(f"\r[{'#' * filled}{'.' * (30 - filled)}] {self.done}/{self.total} seeds")
        if self.done >= self.total:
            self.stream.write("\n")
        self.stream.flush()


def _percent(x: float) -> str:
    return f"{100 * x:5.1f}%"


def odds_text(summary: OddsSummary, title: str, battle: str, teams: dict[str, list[str]]) -> str:
    """The summary in words (fixed layout: tests compare it)."""
    n = summary.seeds
    lines = [f"Odds: {title}" if title else "Odds", f"{n} seeds: {summary.base}-1 .. {summary.base}-{n}", ""]
    lines.append("outcome      share   95% interval      seeds")
    for key, rate in summary.rates.items():
        side = f" ({', '.join(teams[key])})" if key in teams else ""
        lines.append(f"{_LABELS[key]:<11} {_percent(rate.share)}  [{_percent(rate.low)}, {_percent(rate.high)}]"
                     f"  {rate.count:>6}{side}")
    lines += ["", f"turns: min {min(summary.turns, default=0)}, quartiles {summary.turn_quantile(0.25)} / "
              f"{summary.turn_quantile(0.5)} / {summary.turn_quantile(0.75)}, max {max(summary.turns, default=0)}, "
              f"mean {summary.mean_turns:.1f}"]
    peak = max(summary.turns.values(), default=1)
    for turns, count in summary.turns.items():
        lines.append(f"  {turns:>3} {'#' * max(1, round(40 * count / peak)):<40} {count}")
    lines.append("")
    for team in ("white", "black"):
        dist = ", ".join(f"{k}: {v} ({100 * v / n:.1f}%)" for k, v in summary.survivors[team].items())
        lines.append(f"{team.capitalize()} still standing: {dist}")
    lines += ["", "one seed per outcome (replay it with referee resolve):"]
    for key, seed in summary.samples.items():
        lines.append(f"  {_LABELS[key]:<11} referee resolve {battle} --seed {seed}")
    return "\n".join(lines) + "\n"


def run(args: argparse.Namespace) -> int:
    executor = parse_executor(args.executor)
    battle, diags = load_battle(args.battle)
    if battle is None or has_errors(diags):
        raise ReferError(diags)
    base, source = choose_seed(args.seed, battle.seed)
    if source == "drawn":
        print(f"referee: no seed given; drew base seed {base}", file=sys.stderr)
    seeds = derive_seeds(base, args.seeds)
    bar = _Bar(len(seeds), sys.stderr)
    outcomes = run_chunks(battle_inputs(battle), battle.ruleset, chunk_seeds(seeds, CHUNK),
                          jobs=args.jobs, executor=executor, on_done=bar)
    summary = summarise(outcomes, base)
    if args.format == "json":
        text = json.dumps({"battle": args.battle, "title": battle.title, **summary.to_json()},
                          ensure_ascii=False, indent=2) + "\n"
    else:
        teams = {t: [e.name for e in battle.entries if e.team == t] for t in ("white", "black")}
        text = odds_text(summary, battle.title, args.battle, teams)
    emit(text, args.output)
    return 0
