"""``referee remind ROUND``: mail every player who is missing or invalid."""

from __future__ import annotations

import argparse
import smtplib
import sys
from typing import Any

from referee.commands.intake import add_smtp_arguments, smtp_settings
from referee.diagnostics import Diagnostic, ReferError
from referee.intake.core import open_round
from referee.intake.ledger import reminders, round_status
from referee.intake.mail import compose_text
from referee.intake.render import render_reminder
from referee.intake.transport import send_mail

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
    status = round_status(rnd)
    smtp = smtp_settings(args, rnd.roster.mail_from)
    if smtp is None and not args.dry_run:
        raise ReferError([Diagnostic("--smtp", 0, 0, "missing-smtp", "give --smtp HOST[:PORT], or --dry-run")])
    deadline = rnd.roster.deadline.isoformat() if rnd.roster.deadline else None
    messages = []
    for p in reminders(status):
        missing = [f.file for f in p.files if f.state == "missing"]
        invalid = [f.file for f in p.files if f.state == "invalid"]
        subject, body = render_reminder(status.label, p.name, p.lang, missing, invalid, deadline)
        if args.dry_run or smtp is None:
            print(f"To: {p.addresses[0]}\nSubject: {subject}\n\n{body}")
        else:
            messages.append(compose_text(p.addresses[0], smtp.sender, subject, body))
    if smtp is not None and not args.dry_run:
        try:
            send_mail(smtp, messages)
        except (OSError, smtplib.SMTPException) as err:
            raise ReferError([Diagnostic(f"{smtp.host}:{smtp.port}", 0, 0, "mail-server",
                                         f"reminders not sent: {err}")]) from None
    print(f"{len(reminders(status))} reminder(s) {'printed' if args.dry_run or smtp is None else 'sent'}",
          file=sys.stderr if args.dry_run else sys.stdout)
    return 0
