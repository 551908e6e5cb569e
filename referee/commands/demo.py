"""``referee demo``: resolve the bundled demo battle and print its report."""

from __future__ import annotations

import argparse
import sys
from importlib import resources
from typing import Any

from referee.commands.resolve import add_output_options, check_output, emit
from referee.report import render
from referee.app.pipeline import resolve_file

EXAMPLE = """examples:
  referee demo                                 the demo's text report
  referee demo --lang ja --explain             in Japanese, with the reasons for each choice
  referee demo --format html -o demo.html      a page that replays the battle step by step
  referee demo --format bbcode                 a forum post (BBCode, a spoiler per turn)
  referee demo --full                          every turn in full
  referee demo --ruleset NAME                  the bundled demo of another built-in ruleset

The demo is a 3v3 battle shipped inside the package (referee/demo/): sheets,
plans and a fixed seed, so every run prints the same report.  Each built-in
ruleset with a bundled demo (referee/demo/<ruleset>.battle.yaml) can be shown
with --ruleset; without it, the tcgt demo.
"""

#: The demo of the default ruleset; every other one is ``<ruleset>.battle.yaml``.
DEFAULT_DEMO = "demo.battle.yaml"


def bundled_demos() -> dict[str, str]:
    """Ruleset name -> its demo's file name inside ``referee/demo/``, sorted by name."""
    folder = resources.files("referee").joinpath("demo")
    demos = {"tcgt": DEFAULT_DEMO}
    for entry in folder.iterdir():
        name = entry.name
        if name.endswith(".battle.yaml") and name != DEFAULT_DEMO:
            demos[name.removesuffix(".battle.yaml")] = name
    return dict(sorted(demos.items()))



def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "demo",
        help="resolve the bundled demo battle and print its report",
        description="Resolve the demo battle bundled with the referee (a 3v3 with plans) and print its report.",
        epilog=EXAMPLE,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--ruleset", default="tcgt", metavar="NAME",
                        help=f"whose bundled demo to resolve: {', '.join(bundled_demos())} (default tcgt)")
    add_output_options(parser)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    check_output(args.output)
    demos = bundled_demos()
    if args.ruleset not in demos:
        print(f"referee demo: no bundled demo for ruleset {args.ruleset!r}; "
              f"the demos are: {', '.join(demos)}", file=sys.stderr)
        return 2
    battle = resources.files("referee").joinpath("demo", demos[args.ruleset])
    with resources.as_file(battle) as path:
        report = resolve_file(path)
    emit(render(report, args.format, args.lang, explain=args.explain, full=args.full), args.output)
    return 0
