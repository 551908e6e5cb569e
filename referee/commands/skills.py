"""``referee skills [--ruleset R] [--lang ja]``: the skill catalogue in words.

Organisers and players learn what a skill does here, not from YAML or from
error messages (issue 14): both names, cost, level, classes, range, targets
and effect of every skill of the ruleset (R-SK-4), in English or Japanese,
as text or a Markdown table to post.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

EXAMPLE = """examples:
  referee skills                          the tcgt catalogue in English
  referee skills --lang ja                in Japanese
  referee skills --format md > skills.md  a Markdown table to post
  referee skills --ruleset house.ruleset.yaml
"""


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "skills",
        help="list the skills of a ruleset: names, cost, level, classes, range, effect",
        description="Print the skill catalogue of a ruleset.",
        epilog=EXAMPLE,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--ruleset", default="tcgt", metavar="NAME|PATH", help="built-in name or ruleset file (default: tcgt)")
    parser.add_argument("--lang", choices=("en", "ja"), default="en", help="language (default: en)")
    parser.add_argument("--format", choices=("text", "md"), default="text", help="output format (default: text)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from referee.describe import describe_catalog
    from referee.ruleset import load_ruleset

    ruleset = load_ruleset(args.ruleset)  # a ReferError is printed by the CLI
    sys.stdout.write(describe_catalog(ruleset.catalog, ruleset.name, args.lang, args.format))
    return 0
