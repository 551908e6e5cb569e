"""``referee status ROUND``: the ledger -- who is in, missing or invalid."""

from __future__ import annotations

import argparse
from typing import Any

from referee.app.pipeline import write_atomic
from referee.intake.core import open_round
from referee.intake.ledger import STATUS_FORMATS, render_status, round_status
from referee.report import LANGS

EXAMPLE = """examples:
  referee status rounds/3                       every player and file, with digests
  referee status rounds/3 --format md -o status.md     for posting: only ids before the lock
  referee status rounds/3 --format bbcode --lang ja

"""


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "status", help="who is in, who is missing, whose current file is invalid",
        description="Print a round's ledger; --format md/bbcode writes it for posting.",
        epilog=EXAMPLE, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("round", metavar="ROUND_DIR")
    parser.add_argument("--format", choices=STATUS_FORMATS, default="text", help="text (default), md or bbcode")
    parser.add_argument("--lang", choices=LANGS, default="en")
    parser.add_argument("-o", "--output", metavar="FILE", help="write to FILE (atomically) instead of stdout")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    status = round_status(open_round(args.round))
    text = render_status(status, args.format, args.lang)
    if args.output:
        write_atomic(args.output, text)
    else:
        print(text, end="")
    return 0
