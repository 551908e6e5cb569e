"""``referee resolve BATTLE``: resolve one battle and write its report."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from referee.confine import output_file_problem
from referee.diagnostics import Diagnostic, ReferError
from referee.report import FORMATS, LANGS, render
from referee.app.pipeline import parse_seed, resolve_file_checked, resolve_loaded, write_atomic
from referee.app.practice import PRACTICE_PREFIX, load_practice_battle
from referee.diagnostics import format_diagnostics

EXAMPLE = """examples:
  referee resolve round3.battle.yaml                    text report on the terminal
  referee resolve round3.battle.yaml --seed 7 --format md -o round3.md
  referee resolve round3.battle.yaml --lang ja --explain
  referee resolve round3.battle.yaml --format json -o round3.json   (replayable)
  referee resolve round3.battle.yaml --format bbcode -o post.txt    (a forum post: a spoiler per turn)
  referee resolve round3.battle.yaml --format discord               (messages of <= 2,000 characters,
                                                                      separated by a line "✂ ────────")
  referee resolve round3.battle.yaml --full             every turn in full, nothing folded
  referee resolve practice:tcgt:melee-rush sheets/kagura.yaml sheets/tomoe.yaml --seed practice-17 --explain
                                                        a practice battle (referee practice prints these)

With no seed in the battle file and no --seed, a seed is drawn at random and
printed in the report (and on stderr), so the battle can be re-run exactly.
"""


def add_output_options(parser: argparse.ArgumentParser) -> None:
    """--format, --lang, --explain and -o, shared with ``referee demo``."""
    parser.add_argument("--format", choices=FORMATS, default="text", help="report format (default: text)")
    parser.add_argument("--lang", choices=LANGS, default="en", help="report language (default: en)")
    parser.add_argument("--explain", action="store_true",
                        help="add, per action, the skills and clauses considered and why each was passed over "
                             "(implies --full)")
    parser.add_argument("--full", action="store_true",
                        help="write every sentence of every turn (by default repeated turns are folded, each "
                             "action is one line, and chance rolls are left out; json is always complete)")
    parser.add_argument("-o", "--output", metavar="OUT", help="write the report to OUT (atomically) instead of stdout")


def check_output(output: str | None) -> None:
    """Refuse an ``-o`` that cannot be written -- a folder, a path below a
    file, an unwritable folder -- before any battle is resolved.

    :raises ReferError: naming the output and why."""
    problem = output_file_problem(output) if output else None
    if problem is not None and output is not None:
        raise ReferError([Diagnostic(output, 0, 0, problem.code, problem.message)])


def emit(text: str, output: str | None) -> None:
    """Print the report, or write it atomically to ``output``."""
    if output:
        try:
            write_atomic(output, text)
        except OSError as err:
            raise ReferError([Diagnostic(output, 0, 0, "output-unwritable",
                                         f"cannot write {output}: {err.strerror or err}")]) from None
    else:
        sys.stdout.write(text)
        sys.stdout.flush()


def _seed(text: str) -> int | str:
    try:
        return parse_seed(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from exc


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "resolve",
        help="resolve one battle and write its report",
        description="Resolve one battle file (*.battle.yaml) and write its report.",
        epilog=EXAMPLE,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("battle", metavar="BATTLE",
                        help="the battle file (*.battle.yaml), or practice:GAUNTLET:ARMY (then your SHEETs)")
    parser.add_argument("sheets", nargs="*", metavar="SHEET",
                        help="with practice:GAUNTLET:ARMY only: your character sheets, White")
    parser.add_argument("--seed", type=_seed, help="seed to use instead of the file's (a number or a word)")
    add_output_options(parser)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    check_output(args.output)
    if args.battle.startswith(PRACTICE_PREFIX):
        report, warnings = resolve_loaded(load_practice_battle(args.battle, args.sheets), args.seed)
    elif args.sheets:
        raise ReferError([Diagnostic(args.sheets[0], 0, 0, "unexpected-sheet",
                                     "character sheets follow a practice:GAUNTLET:ARMY battle only; "
                                     "a battle file names its own",
                                     hint=f"referee resolve {args.battle} (or referee check {args.sheets[0]})")])
    else:
        report, warnings = resolve_file_checked(args.battle, args.seed)
    if warnings:
        print(format_diagnostics(warnings), file=sys.stderr)
    if report.seed_source == "drawn":
        print(f"referee: no seed given; drew seed {report.seed}", file=sys.stderr)
    emit(render(report, args.format, args.lang, explain=args.explain, full=args.full), args.output)
    return 0
