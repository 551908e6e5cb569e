"""``referee rulesets [RULESET...]``: the built-in rulesets and what each changes.

Lists every ruleset shipped with the referee (or the ones named, built-in or
house files) with its description, map, limits, its ``mechanics:`` block when
it has one (R-VAR-1), and the settings in which it differs from ``tcgt``.
Everything is read from the ruleset data, so a new ruleset needs no code here.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

EXAMPLE = """examples:
  referee rulesets                        every built-in ruleset
  referee rulesets house.ruleset.yaml     a house ruleset, and how it differs from tcgt
"""


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "rulesets",
        help="list the built-in rulesets (or the ones named) and what each changes",
        description="Describe rulesets: map, character limits, initiative, end, narrowing, mechanics.",
        epilog=EXAMPLE,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("rulesets", nargs="*", metavar="RULESET", help="built-in names or ruleset files (default: every built-in)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from referee.describe import describe_ruleset
    from referee.diagnostics import Diagnostic, ReferError
    from referee.ruleset import DEFAULT_RULESET, builtin_rulesets, load_ruleset

    names = list(args.rulesets) or list(builtin_rulesets())
    base = load_ruleset(DEFAULT_RULESET)
    blocks: list[str] = []
    problems: list[Diagnostic] = []
    for name in names:
        try:
            blocks.append(describe_ruleset(load_ruleset(name), base))
        except ReferError as err:  # describe the others, then report every problem
            problems += err.diagnostics
    if not args.rulesets:
        sys.stdout.write(f"built-in rulesets: {', '.join(names)} (docs/rules.md describes the rules)\n\n")
    sys.stdout.write("\n".join(blocks))
    if problems:
        raise ReferError(problems)
    return 0
