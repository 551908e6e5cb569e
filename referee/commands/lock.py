"""``referee lock ROUND``: the deadline -- freeze the inbox and commit to the seeds."""

from __future__ import annotations

import argparse
from typing import Any

from referee.app.seeds import secret_store
from referee.intake.core import lock_round, open_round

EXAMPLE = """examples:
  referee lock rounds/3            at the deadline: post the printed hash
  referee status rounds/3          who was in, missing or invalid at the lock
  referee batch rounds/3 -o out/   resolves the round, applying the missing-plan rule

The lock is 'referee seeds commit' taken under the inbox's lock: the
commitment is the deadline. Mail after it is filed as late and answered
"late, not used". A round is locked once.
"""


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "lock", help="freeze a round's inbox and commit to its seeds (the deadline)",
        description="Freeze the round's inbox and make the seed commitment: after this, files are late.",
        epilog=EXAMPLE, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("round", metavar="ROUND_DIR")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    sealed = lock_round(open_round(args.round))
    print("locked: files received from now on are late and not used")
    print(f"commitment (post this now): sha256 {sealed.commitment}")
    print(f"the secret is kept in {secret_store()}; after the round: referee seeds reveal {args.round}")
    return 0
