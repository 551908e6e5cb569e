"""``referee site TOURNAMENT -o public/``: the tournament's static site."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from referee.app.site import build_site
from referee.app.tournament import load_tournament
from referee.diagnostics import format_diagnostics
from referee.report import LANGS

EXAMPLE = """examples:
  referee site cup/ -o public/            index, rounds, battles, players, feed.atom, forum/
  referee site cup/ -o public/ --lang ja  the pages in Japanese
  python -m http.server -d public/        look at it (or open public/index.html)

Pages are written from tournament.yaml, each round's pairings.json, the
reports' standings.json and JSON reports, and the seed files; every link is
relative, so the folder can be copied to any host. The tournament's
'visibility' decides when plans, sheets, replays and JSON reports appear:
after-round (once the round's results are in) or after-tournament.
forum/round-N.bbcode is each round's post for a BBCode forum.
"""


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "site",
        help="write the tournament's static site: rounds, battles, players, an Atom feed, forum posts",
        description="Write a static site for a tournament from what the referee already made.",
        epilog=EXAMPLE,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("tournament", metavar="TOURNAMENT", help="tournament.yaml or the folder holding it")
    parser.add_argument("-o", "--output", metavar="OUTDIR", required=True, help="where to write the site")
    parser.add_argument("--lang", choices=LANGS, help="language of the pages (default: the tournament's)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    t = load_tournament(args.tournament)
    tty = sys.stderr.isatty()
    count = 0

    def tick(rel: str) -> None:
        nonlocal count
        count += 1
        if tty:
            sys.stderr.write(f"\r{count} files written")
            sys.stderr.flush()

    files, diags = build_site(t, args.output, args.lang, tick)
    if tty:
        sys.stderr.write("\n")
    if diags:
        print(format_diagnostics(diags), file=sys.stderr)
    print(f"{len(files)} files written to {args.output}; open {args.output}/index.html")
    return 0
