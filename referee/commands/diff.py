"""``referee diff A.json B.json``: where two resolved battles part ways, and why."""

from __future__ import annotations

import argparse
from typing import Any

from referee.app.divergence import divergence_text, input_differences, outcomes_side_by_side
from referee.app.replay import load_report
from referee.report.record import Report

EXAMPLE = """examples:
  referee resolve r3.battle.yaml --format json -o a.json
  referee resolve r3-alt.battle.yaml --format json -o b.json
  referee diff a.json b.json

Exit 0 when the two battles are identical event for event, 1 when they differ.
With the same seed both battles draw from the same streams, so the first
difference is a decision (a clause, a condition) rather than luck.
"""


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "diff",
        help="compare two JSON reports: the first decision that differs, and both outcomes",
        description="Find the first event where two JSON reports differ, say why, and show both outcomes.",
        epilog=EXAMPLE,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("a", metavar="A.json")
    parser.add_argument("b", metavar="B.json")
    parser.set_defaults(run=run)


def comparison_text(a: Report, b: Report, labels: tuple[str, str]) -> str:
    """Inputs that differ, the first divergence, and the outcomes side by side."""
    changes = input_differences(a, b, labels)
    lines = ["What differs in the inputs:"] + [f"  {c}" for c in changes] if changes else [
        "The inputs are the same."]
    return ("\n".join(lines) + "\n\n" + divergence_text(a, b, labels) + "\nOutcomes:\n"
            + outcomes_side_by_side(a, b, labels))


def run(args: argparse.Namespace) -> int:
    a, _ = load_report(args.a)
    b, _ = load_report(args.b)
    print(comparison_text(a, b, (args.a, args.b)), end="")
    return 0 if [e.to_json() for e in a.events] == [e.to_json() for e in b.events] else 1
