"""``referee remind ROUND``: mail every player who is missing or invalid."""

from __future__ import annotations

import argparse
import smtplib
import sys
from typing import Any

from referee.commands.intake import add_smtp_arguments, smtp_settings
from referee.diagnostics import Diagnostic, ReferError
from referee.intake.core import open_round
from referee.intake.ledger import reminder_texts, round_status
from referee.intake.transport import send_reminders

EXAMPLE = """examples:
  referee remind rounds/3 --smtp localhost:25          mail every missing or invalid player
  referee remind rounds/3 --dry-run                    print the reminders instead

A reminder goes to each such player's first registered address, in their
language, with the files the round lacks and the time left.
"""


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "remind", help="mail every player who is missing or whose file is invalid",
        description="Send a reminder to every player who is missing or invalid.",
        epilog=EXAMPLE, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("round", metavar="ROUND_DIR")
    parser.add_argument("--dry-run", action="store_true", help="print the reminders; send nothing")
    add_smtp_arguments(parser)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    rnd = open_round(args.round)
    if args.dry_run:
        texts = reminder_texts(round_status(rnd))
        for to, subject, body in texts:
            print(f"To: {to}\nSubject: {subject}\n\n{body}")
        print(f"{len(texts)} reminder(s) printed, none sent", file=sys.stderr)
        return 0
    smtp = smtp_settings(args, rnd.roster.mail_from)
    if smtp is None:
        raise ReferError([Diagnostic("--smtp", 0, 0, "missing-smtp", "give --smtp HOST[:PORT], or --dry-run")])
    try:
        count = send_reminders(rnd, smtp)
    except (OSError, smtplib.SMTPException) as err:
        raise ReferError([Diagnostic(f"{smtp.host}:{smtp.port}", 0, 0, "mail-server",
                                     f"reminders not sent: {err}")]) from None
    print(f"{count} reminder(s) sent")
    return 0
