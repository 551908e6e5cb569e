"""``referee tournament check|pair|standings``: a tournament across its rounds."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from referee.app.ledger import read_ledger
from referee.app.tournament import load_tournament
from referee.app.tourney import plan_round, recheck_export, standings_of, write_round, write_standings
from referee.diagnostics import Diagnostic, ReferError, format_diagnostics, has_errors
from referee.report import LANGS

EXAMPLE = """examples:
  referee tournament check -t cup/               check cup/tournament.yaml (every mistake at once)
  referee tournament pair 1 -t cup/              write round 1's battle files into its folder
  referee seeds commit cup/rounds/1              post the commitment before the deadline
  referee batch cup/rounds/1                     after the deadline: resolve the round
  referee seeds reveal cup/rounds/1              publish the secret (it draws the final lot)
  referee tournament standings -t cup/           cup/standings/standings.{md,bbcode,json}
  referee tournament pair 2 -t cup/              round 2 from the standings after round 1
  referee tournament standings --from standings.json   anyone: re-check a published export

pair N reads every earlier round's results (pairings.json, the reports'
standings.json and JSON reports) and writes ROUND/t1.battle.yaml ...,
ROUND/sheets/PLAYER/ (each player's sheets, copied unless the round already
holds them) and ROUND/pairings.json. The same files give the same pairing.
A round is paired once; --replace pairs it again until its seeds are committed
or its results are in.

standings writes per-player and per-army tables with every tie-break's value
(Markdown, BBCode, --lang ja) and standings.json: the rules, the roster, every
round's pairings and results with each report's sha256, and the tables, from
which --from recomputes the tables and says whether they agree.
See docs/tournament.md.
"""


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "tournament",
        help="a tournament across rounds: check tournament.yaml, pair a round, write the standings",
        description="Pair a tournament's rounds and keep its standings per player and per army.",
        epilog=EXAMPLE,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    where = argparse.ArgumentParser(add_help=False)
    where.add_argument("-t", "--tournament", default=".", metavar="PATH",
                       help="tournament.yaml or the folder holding it (default: the current folder)")
    actions.add_parser("check", parents=[where], help="check tournament.yaml and print every problem",
                       epilog=EXAMPLE, formatter_class=argparse.RawDescriptionHelpFormatter)
    pair = actions.add_parser("pair", parents=[where], help="write round N's battle files from the standings so far",
                              epilog=EXAMPLE, formatter_class=argparse.RawDescriptionHelpFormatter)
    pair.add_argument("round", type=int, metavar="N", help="the round to pair (1 is the first)")
    pair.add_argument("--replace", action="store_true",
                      help="pair a round again (its old battle files are removed); refused once its seeds are "
                           "committed or its results are in")
    standings = actions.add_parser("standings", parents=[where], help="per-player and per-army standings",
                                   epilog=EXAMPLE, formatter_class=argparse.RawDescriptionHelpFormatter)
    standings.add_argument("--round", type=int, metavar="N", help="the standings after round N (default: the last "
                                                                  "round with results)")
    standings.add_argument("-o", "--output", metavar="DIR", help="where to write (default: TOURNAMENT/standings)")
    standings.add_argument("--lang", choices=LANGS, help="language of the tables (default: the tournament's)")
    standings.add_argument("--from", dest="export", metavar="EXPORT",
                           help="re-check a standings.json export: recompute its tables from its rounds")
    parser.set_defaults(run=run)


def _warn(diags: list[Diagnostic]) -> None:
    if diags:
        print(format_diagnostics(diags), file=sys.stderr)
    if has_errors(diags):
        raise ReferError(diags)


def run(args: argparse.Namespace) -> int:
    if args.action == "standings" and args.export:
        return _recheck(args.export)
    t = load_tournament(args.tournament)
    if args.action == "check":
        print(f"{t.name}: {t.format}, {len(t.players)} players in {len(t.armies)} armies, {len(t.rounds)} rounds: ok")
        return 0
    if args.action == "pair":
        paired = plan_round(t, args.round)
        folder = write_round(t, paired, replace_existing=args.replace)
        for k, b in enumerate(paired.battles, 1):
            print(f"table {k}: {' + '.join(b.white.players)} (White) v {' + '.join(b.black.players)} (Black)"
                  f"  {b.battle}")
        for side in paired.byes:
            print(f"bye: {' + '.join(side.players)}")
        if paired.left_out:
            print(f"not playing: {', '.join(paired.left_out)}")
        print(f"round {args.round}: {len(paired.battles)} battles written to {folder}; next: "
              f"referee seeds commit {folder}")
        return 0
    ledger, diags = read_ledger(t)
    _warn(diags)
    resolved = [r.number for r in ledger if r.resolved]
    upto = args.round if args.round is not None else (resolved[-1] if resolved else 0)
    if not 0 <= upto <= len(t.rounds):
        print(f"referee tournament: --round {upto}: the tournament has rounds 1 to {len(t.rounds)}", file=sys.stderr)
        return 2
    standing = standings_of(t, ledger, upto)
    outdir = Path(args.output) if args.output else t.root / "standings"
    for path in write_standings(t, ledger, standing, outdir, args.lang or t.lang):
        print(f"written: {path}")
    for e in standing.players[:3]:
        print(f"  {e.rank}{'=' if e.tied else ''}. {t.player(e.id).name}: {e.points} points ({e.record()})")
    return 0


def _recheck(path: str) -> int:
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
        differences = recheck_export(data)
    except (OSError, UnicodeDecodeError, ValueError, KeyError, TypeError) as err:
        raise ReferError([Diagnostic(path, 0, 0, "not-an-export",
                                     f"not a standings export written by referee tournament standings: {err}")]) from None
    if differences:
        print("\n".join(differences), file=sys.stderr)
        print(f"NOT consistent: {len(differences)} difference(s)", file=sys.stderr)
        return 1
    print(f"consistent: the tables follow from the export's {len(data['rounds'])} round(s) and its rules")
    return 0
