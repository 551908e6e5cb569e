"""``referee seeds commit|reveal|verify ROUND_DIR``: seeds nobody can choose."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from referee.app.seedcheck import verify_round
from referee.app.seeds import COMMITMENT_FILE, REVEAL_FILE, commit_round, reveal_round, secret_store
from referee.diagnostics import format_diagnostics

EXAMPLE = f"""examples:
  referee seeds commit rounds/3       before the deadline: post the printed hash
  referee batch rounds/3 -o out/      each battle's seed is HMAC(secret, its file name)
  referee seeds reveal rounds/3       after the round: publish the secret
  referee seeds verify rounds/3 --reports out/     anyone: check every published seed

commit keeps the secret in {secret_store()} (REFEREE_SECRETS_DIR moves it),
never in the round folder, and writes ROUND_DIR/{COMMITMENT_FILE};
reveal writes ROUND_DIR/{REVEAL_FILE}.
"""


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "seeds",
        help="commit to a round's seeds before the deadline, reveal and verify them after",
        description="Fair seeds: a secret committed before the deadline fixes every battle's seed.",
        epilog=EXAMPLE,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    commit = actions.add_parser("commit", help="draw and keep a secret; print the commitment to post")
    commit.add_argument("round", metavar="ROUND_DIR")
    reveal = actions.add_parser("reveal", help="publish the secret next to the commitment")
    reveal.add_argument("round", metavar="ROUND_DIR")
    verify = actions.add_parser("verify", help="check the revealed secret and every published seed")
    verify.add_argument("round", metavar="ROUND_DIR")
    verify.add_argument("--reports", metavar="DIR", help="where the reports are (default: ROUND_DIR/reports)")
    verify.add_argument("--replay", action="store_true",
                        help="also resolve every JSON report again and compare (catches an edited result)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    if args.action == "commit":
        sealed = commit_round(args.round)
        print(f"commitment (post this before the deadline): sha256 {sealed.commitment}")
        print(f"the secret is kept in {secret_store()}; reveal it after the round with: "
              f"referee seeds reveal {args.round}")
        return 0
    if args.action == "reveal":
        secret = reveal_round(args.round)
        print(f"secret: {secret}")
        print(f"written to {args.round}/{REVEAL_FILE}; anyone can now run: referee seeds verify {args.round}")
        return 0
    check = verify_round(args.round, args.reports, replay=args.replay)
    if check.diagnostics:
        print(format_diagnostics(check.diagnostics), file=sys.stderr)
    if not check.ok:
        print(f"NOT verified: {sum(d.is_error for d in check.diagnostics)} problem(s)", file=sys.stderr)
        return 1
    print(f"verified: the secret matches commitment {check.commitment} and "
          f"{check.checked} published result(s) used their committed seeds")
    return 0
