"""``referee demo``: resolve the bundled demo battle and print its report."""

from __future__ import annotations

import argparse
from importlib import resources
from typing import Any

from referee.commands.resolve import add_output_options, check_output, emit
from referee.report import render
from referee.app.pipeline import resolve_file

EXAMPLE = """examples:
  referee demo                                 the demo's text report
  referee demo --lang ja --explain             in Japanese, with the reasons for each choice
  referee demo --format html -o demo.html      a page that replays the battle turn by turn

The demo is a 3v3 battle shipped inside the package (referee/demo/): sheets,
plans and a fixed seed, so every run prints the same report.
"""


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "demo",
        help="resolve the bundled demo battle and print its report",
        description="Resolve the demo battle bundled with the referee (a 3v3 with plans) and print its report.",
        epilog=EXAMPLE,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_output_options(parser)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    check_output(args.output)
    battle = resources.files("referee").joinpath("demo", "demo.battle.yaml")
    with resources.as_file(battle) as path:
        report = resolve_file(path)
    emit(render(report, args.format, args.lang, explain=args.explain), args.output)
    return 0
