"""``referee batch DIR``: resolve every battle of a round in parallel."""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any, TextIO

from referee.report import FORMATS, LANGS
from referee.app.batch import BatchInterrupted, BattleOutcome, run_batch
from referee.app.executors import parse_executor
from referee.limits import BATTLE_TIME_LIMIT_SECONDS

EXAMPLE = """examples:
  referee batch rounds/3                       reports into rounds/3/reports/
  referee batch rounds/3 --jobs 4 -o out/      four worker processes
  referee batch rounds/3 --formats json,md,html --lang ja
  referee batch rounds/3 --formats json,bbcode,discord --full
  referee batch rounds/3 --decisions            json reports keep every decision (for --explain, diff)
  referee batch rounds/3 --executor dask://10.0.0.5:8786   on a Dask cluster

Every *.battle.yaml under DIR is resolved; each report is written atomically,
then out/standings.md and out/standings.json summarise the round. A battle
that fails, or takes longer than --time-limit, is listed with its error and
the others still finish; the exit code is 1 when any battle failed. The
output folder is checked before any battle runs; one that holds another
round's reports is refused unless --replace is given. Ctrl-C stops the round
at once and writes partial standings (exit 130).

A round's json reports are lean by default: they hold every roll, hit, move
and result ("decisions": false), but not the decision events that say why
each skill was passed over or each target chosen; `referee replay` confirms
them all the same. --decisions keeps those events (bigger files, a slower
round), as `referee resolve --format json` always does.

On a Dask cluster (pip install -e '.[dask]'; `dask scheduler`, then `dask
worker tcp://HOST:8786` on each machine with this package installed) every
battle is loaded and checked on this machine, resolved and rendered on a
worker, and its reports written here: the same reports, byte for byte, as
--jobs gives. The workers need not see the round's files. --time-limit does
not apply there (the turn cap bounds every battle).
"""


#: Worker processes a round uses unless told otherwise.
DEFAULT_JOBS = min(4, os.cpu_count() or 1)


def _formats(text: str) -> tuple[str, ...]:
    items = tuple(dict.fromkeys(f.strip() for f in text.split(",") if f.strip()))
    bad = [f for f in items if f not in FORMATS]
    if bad or not items:
        raise argparse.ArgumentTypeError(f"unknown format(s) {', '.join(bad) or '(none)'}; choose from {', '.join(FORMATS)}")
    return items


def _jobs(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"--jobs wants a whole number, not {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError("--jobs must be at least 1")
    return value


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"--time-limit wants a number of seconds, not {text!r}") from None
    if not value >= 0 or value == float("inf"):
        raise argparse.ArgumentTypeError("--time-limit must be 0 (no limit) or a positive number of seconds")
    return value


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "batch",
        help="resolve every battle under a folder in parallel and write standings",
        description="Resolve every battle file (*.battle.yaml) under DIR in parallel processes.",
        epilog=EXAMPLE,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("folder", metavar="DIR", help="the round's folder")
    parser.add_argument("--jobs", "-j", type=_jobs, default=DEFAULT_JOBS,
                        help="worker processes (default: up to 4)")
    parser.add_argument("-o", "--output", metavar="OUTDIR", help="where to write the reports (default: DIR/reports)")
    parser.add_argument("--formats", type=_formats, default=("json", "text"),
                        help="comma-separated report formats per battle (default: json,text)")
    parser.add_argument("--lang", choices=LANGS, default="en", help="language of the written reports")
    parser.add_argument("--full", action="store_true",
                        help="written reports with every sentence of every turn (default: compact, repeated turns folded)")
    parser.add_argument("--decisions", action="store_true",
                        help="json reports keep the decision events (why each skill was passed over, each target "
                             "chosen); by default a round's json is lean")
    parser.add_argument("--time-limit", type=_seconds, default=BATTLE_TIME_LIMIT_SECONDS, metavar="SECONDS",
                        help=f"most time one battle may take; it is then listed as timed out "
                             f"(default {BATTLE_TIME_LIMIT_SECONDS:g}; 0: no limit)")
    parser.add_argument("--executor", default="process", metavar="EXECUTOR",
                        help="'process' (default: --jobs local workers) or dask://HOST:PORT (an existing Dask scheduler)")
    parser.add_argument("--replace", action="store_true",
                        help="remove another round's reports from the output folder instead of refusing")
    parser.set_defaults(run=run)


def batch_round(folder: str, output: str | None = None, *, jobs: int = DEFAULT_JOBS,
                formats: tuple[str, ...] = ("json", "text"), lang: str = "en", full: bool = False,
                decisions: bool = False, time_limit: float = BATTLE_TIME_LIMIT_SECONDS, executor: str = "process",
                replace: bool = False, progress: TextIO | None = None) -> tuple[str, list[BattleOutcome]]:
    """What ``referee batch`` does, as a function the round's web page calls
    too: every battle of ``folder`` resolved, its reports in ``output``
    (default ``folder/reports``).

    :returns: the output folder and one outcome per battle.
    :raises ReferError: the output folder cannot be used, or no battle.
    :raises BatchInterrupted: Ctrl-C, after writing partial standings."""
    outdir = output or os.path.join(folder, "reports")
    outcomes = run_batch(folder, outdir, jobs=jobs, formats=formats, lang=lang, full=full, decisions=decisions,
                         progress=progress, time_limit_seconds=time_limit or None, replace=replace,
                         default_outdir=output is None, executor=parse_executor(executor))
    return outdir, outcomes


def run(args: argparse.Namespace) -> int:
    if not os.path.isdir(args.folder):
        print(f"referee batch: {args.folder}: not a folder", file=sys.stderr)
        return 2
    try:
        outdir, outcomes = batch_round(args.folder, args.output, jobs=args.jobs, formats=args.formats,
                                       lang=args.lang, full=args.full, decisions=args.decisions,
                                       time_limit=args.time_limit, executor=args.executor, replace=args.replace)
    except BatchInterrupted as stop:
        outdir = args.output or os.path.join(args.folder, "reports")
        print(f"\ninterrupted: {stop.finished} of {len(stop.outcomes)} battles finished; "
              f"partial standings in {os.path.join(outdir, 'standings.md')}", file=sys.stderr)
        return 130
    failed = [o for o in outcomes if o.failed]
    for o in failed:
        print(f"{o.battle}: {o.status}\n{o.error}", file=sys.stderr)
    for o in outcomes:
        if o.warnings:
            print(f"{o.battle}: warnings\n{o.warnings}", file=sys.stderr)
    for o in outcomes:
        if o.status == "forfeit":
            print(f"{o.battle}: forfeit ({', '.join(e['player'] for e in o.nmr)})", file=sys.stderr)
    print(f"{sum(o.ok for o in outcomes)} of {len(outcomes)} battles resolved; "
          f"standings in {os.path.join(outdir, 'standings.md')}")
    return 1 if failed else 0
