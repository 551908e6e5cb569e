"""``referee whatif BATTLE --plan NAME=alt.plan``: the same battle and seed, another plan."""

from __future__ import annotations

import argparse
from typing import Any

from referee.app.whatif import parse_assignment, run_whatif
from referee.commands.diff import comparison_text
from referee.commands.resolve import _seed

EXAMPLE = """examples:
  referee whatif r3.battle.yaml --plan Kagura=kagura-careful.plan
  referee whatif r3.battle.yaml --sheet Ash=ash-v2.yaml --plan Bryn=bryn.plan --seed 7

Both battles are resolved from the same seed (--seed, else the battle's), so
they differ only where the change makes a decision come out differently;
the first such decision is named with its clause and condition.
"""


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "whatif",
        help="resolve a battle again with another plan or sheet and say where it changes",
        description="Resolve a battle as filed and with other plans/sheets, from one seed, and compare.",
        epilog=EXAMPLE,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("battle", metavar="BATTLE", help="the battle file (*.battle.yaml)")
    parser.add_argument("--plan", action="append", default=[], metavar="NAME=PATH",
                        help="use this plan file for NAME (repeatable)")
    parser.add_argument("--sheet", action="append", default=[], metavar="NAME=PATH",
                        help="use this sheet for NAME (same name; repeatable)")
    parser.add_argument("--seed", type=_seed, help="seed for both battles instead of the file's")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    plans = dict(parse_assignment(t, "--plan") for t in args.plan)
    sheets = dict(parse_assignment(t, "--sheet") for t in args.sheet)
    outcome = run_whatif(args.battle, plans, sheets, args.seed)
    print(f"seed {outcome.original.seed} for both battles\n")
    print(comparison_text(outcome.original, outcome.changed, ("as filed", "what if")), end="")
    return 0
