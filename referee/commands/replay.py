"""``referee replay REPORT.json``: confirm a report by resolving it again."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from referee.app.replay import replay_report

EXAMPLE = """examples:
  referee resolve round3.battle.yaml --format json -o round3.json
  referee replay round3.json              prints "identical: ..." and exits 0,
                                          or the first differing event and exits 1
  referee replay round3.json --ruleset house.ruleset.yaml
"""


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "replay",
        help="re-resolve a JSON report from its inputs and seed and confirm it",
        description="Re-resolve a JSON report from the inputs and seed embedded in it and compare event by event.",
        epilog=EXAMPLE,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("report", metavar="REPORT.json", help="a report written with --format json")
    parser.add_argument("--ruleset", metavar="PATH", help="the ruleset file, when the battle used a custom one")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    outcome = replay_report(args.report, args.ruleset)
    print(outcome.message, file=sys.stdout if outcome.identical else sys.stderr)
    return 0 if outcome.identical else 1
