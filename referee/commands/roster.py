"""``referee roster add|token|check ROUND``: the organiser sets up a round's players."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from referee.diagnostics import Diagnostic, ReferError, format_diagnostics
from referee.intake.roster import (ROSTER_FILE, hash_token, load_roster, new_token, player_block,
                                   read_roster_document, with_player, with_token)

EXAMPLE = """examples:
  referee roster add rounds/3 kagura --name "Kagura's player" --address kagura@example.org \\
      --sheet sheets/kagura.yaml --lang ja          add a player; prints their token once
  referee roster add rounds/3 ash --name Ash --address ash@example.org --sheet sheets/ash.yaml --plan sheets/ash.plan
  referee roster token rounds/3 kagura              issue a new token (the old one stops working)
  referee roster check rounds/3                     every problem of ROUND/roster.yaml

The token is printed once and stored only as a salted hash: send it to the
player (they write 'token: ...' in every mail). Lost tokens are replaced,
never recovered.
"""


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "roster", help="add players to a round's roster and issue their tokens",
        description=f"Edit and check ROUND/{ROSTER_FILE}: who may send which files, and their tokens.",
        epilog=EXAMPLE, formatter_class=argparse.RawDescriptionHelpFormatter)
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    add = actions.add_parser("add", help="add a player and print their token")
    add.add_argument("round", metavar="ROUND_DIR")
    add.add_argument("id", metavar="ID", help="the player's id: lower-case letters, digits, '-', '_'")
    add.add_argument("--name", required=True, help="the player's name, as receipts greet them")
    add.add_argument("--address", action="append", required=True, metavar="ADDR",
                     help="a registered mail address (repeat for several)")
    add.add_argument("--lang", choices=("en", "ja"), default="en", help="the language of their receipts")
    add.add_argument("--sheet", action="append", required=True, metavar="PATH",
                     help="a sheet the player owns, relative to the round (repeat for several)")
    add.add_argument("--plan", action="append", default=[], metavar="PATH",
                     help="a plan file the player owns, relative to the round")
    token = actions.add_parser("token", help="issue a new token for a player and print it")
    token.add_argument("round", metavar="ROUND_DIR")
    token.add_argument("id", metavar="ID")
    check = actions.add_parser("check", help="check the roster")
    check.add_argument("round", metavar="ROUND_DIR")
    parser.set_defaults(run=run)


def _write_checked(folder: Path, text: str) -> None:
    """Write the roster only when the result loads clean (else nothing changes)."""
    from referee.app.pipeline import write_atomic

    path = folder / ROSTER_FILE
    old = path.read_bytes() if path.exists() else None
    write_atomic(path, text)
    roster, diags = load_roster(folder)
    if roster is None:
        if old is None:
            path.unlink()
        else:
            write_atomic(path, old.decode("utf-8"))
        raise ReferError(diags)
    path.chmod(0o600)


def run(args: argparse.Namespace) -> int:
    folder = Path(args.round)
    if not folder.is_dir():
        raise ReferError([Diagnostic(str(folder), 0, 0, "not-a-folder", f"{folder} is not a folder")])
    if args.action == "check":
        roster, diags = load_roster(folder)
        if diags:
            print(format_diagnostics(diags), file=sys.stderr)
        if roster is None:
            return 1
        print(f"ok: {len(roster.players)} player(s), {len(roster.files)} file(s), missing plans: {roster.nmr}")
        return 0
    doc, diags = read_roster_document(folder)
    if doc is None and not any(d.code == "no-roster" for d in diags):
        raise ReferError(diags)
    token = new_token()
    if args.action == "add":
        block = player_block(args.id, args.name, args.address, args.lang, args.sheet, args.plan, hash_token(token))
        text, why = with_player(doc, folder.resolve().name, block)
        if text is None:
            raise ReferError([Diagnostic(str(folder / ROSTER_FILE), 0, 0, "cannot-edit", str(why))])
    else:
        if doc is None:
            raise ReferError(diags)
        edited = with_token(doc, args.id, hash_token(token))
        if edited is None:
            raise ReferError([Diagnostic(str(folder / ROSTER_FILE), 0, 0, "unknown-player",
                                         f"no player {args.id!r} in the roster")])
        text = edited
    _write_checked(folder, text)
    print(f"token for {args.id}: {token}")
    print("send it to the player now: it is stored only as a hash and cannot be shown again")
    return 0
