"""``referee template SHEET``: a plan skeleton for a sheet, to fill in."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from referee.app.template import render_template, template_lines
from referee.commands.resolve import check_output, emit
from referee.confine import working_root
from referee.diagnostics import Diagnostic, ReferError
from referee.ruleset import load_ruleset
from referee.sheet import load_sheet

EXAMPLE = """examples:
  referee template sheets/kagura.yaml                    the skeleton on the terminal
  referee template sheets/kagura.yaml -o sheets/kagura.plan
  referee template sheets/mo.yaml --ruleset orm --lang ja

Every line is a comment, so the file is a valid plan as written: each skill
with its cost, range, classes and what the referee does with it by default,
and the clauses commonly written for this sheet, ready to uncomment (each
one checked against the sheet and the ruleset before it is offered).  Point
the sheet at the file with `plan: kagura.plan`.
"""


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "template",
        help="write a plan skeleton for a character sheet: its skills' defaults and clauses to uncomment",
        description="Write a plan skeleton for SHEET: every skill with its cost, range, classes and default "
                    "behaviour, and the common clauses of the ruleset ready to uncomment.",
        epilog=EXAMPLE,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("sheet", metavar="SHEET", help="the character sheet (*.yaml)")
    parser.add_argument("--ruleset", default="tcgt", metavar="NAME|PATH",
                        help="the ruleset the sheet plays under (default: tcgt)")
    parser.add_argument("--lang", choices=("en", "ja"), default="en", help="language of the comments (default: en)")
    parser.add_argument("-o", "--output", metavar="OUT", help="write the skeleton to OUT (atomically) instead of stdout")
    parser.add_argument("--force", action="store_true", help="replace OUT if it exists")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    check_output(args.output)
    if args.output and Path(args.output).exists() and not args.force:
        raise ReferError([Diagnostic(args.output, 0, 0, "output-exists",
                                     f"{args.output} exists; it was left as it is",
                                     hint="choose another file, or add --force to replace it")])
    ruleset = load_ruleset(args.ruleset)
    sheet, diags = load_sheet(args.sheet, ruleset, root=working_root(args.sheet))
    if sheet is None:
        raise ReferError(diags)
    emit(render_template(template_lines(sheet, ruleset, args.lang)), args.output)
    return 0
