"""``referee intake ROUND``: file the players' mail and answer each with a receipt."""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any, Iterator

from referee.diagnostics import Diagnostic, ReferError
from referee.intake.core import open_round
from referee.intake.transport import (Delivery, ImapSettings, SmtpSettings, imap_deliveries, maildir_deliveries,
                                      process, stdin_deliveries)

EXAMPLE = """examples:
  referee intake rounds/3 --smtp localhost:25 < message.eml       one message (procmail, .forward, an MTA pipe)
  referee intake rounds/3 --maildir ~/Maildir/round3 --smtp localhost:25
  REFEREE_IMAP_PASSWORD=... referee intake rounds/3 --imap imap.example.org:993 --imap-user round3 \\
      --smtp smtp.example.org:587 --smtp-security starttls --smtp-user round3 --poll 60

Each message is filed once (by its Message-ID and digest), whatever the
crash or re-delivery; a receipt goes by SMTP to the player's registered
address, never to From:. Without --smtp, receipts wait in the ledger and go
out with the next run that has it. Passwords come from REFEREE_SMTP_PASSWORD
and REFEREE_IMAP_PASSWORD, never from the command line. Messages that cannot
be read are kept in ROUND/intake/rejected/ with their reason.
"""


def _host_port(default: int) -> Any:
    def parse(text: str) -> tuple[str, int]:
        host, _, port = text.rpartition(":")
        if not host:
            return text, default
        try:
            return host, int(port)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not HOST:PORT") from None
    return parse


def add_smtp_arguments(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("sending (SMTP)")
    group.add_argument("--smtp", type=_host_port(25), metavar="HOST[:PORT]", help="the server receipts are sent through")
    group.add_argument("--smtp-security", choices=("none", "starttls", "ssl"), default="none",
                       help="TLS for SMTP (default none: a local server)")
    group.add_argument("--smtp-user", metavar="USER", help="log in as USER (password: $REFEREE_SMTP_PASSWORD)")
    group.add_argument("--from", dest="sender", metavar="ADDR",
                       help="the receipts' From (default: the roster's mail.from)")
    group.add_argument("--cafile", metavar="PEM", help="trust this CA for TLS (a self-signed server)")


def smtp_settings(args: argparse.Namespace, roster_from: str | None) -> SmtpSettings | None:
    if args.smtp is None:
        return None
    sender = args.sender or roster_from
    if not sender:
        raise ReferError([Diagnostic("--from", 0, 0, "missing-sender",
                                     "receipts need a From address: give --from, or mail.from in the roster")])
    return SmtpSettings(args.smtp[0], args.smtp[1], args.smtp_security, args.smtp_user,
                        os.environ.get("REFEREE_SMTP_PASSWORD"), args.cafile, sender)


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "intake", help="file mailed sheets and plans, and answer each with a receipt",
        description="Read the round's mail (stdin, a Maildir or IMAP), file every sheet and plan, send receipts.",
        epilog=EXAMPLE, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("round", metavar="ROUND_DIR")
    source = parser.add_argument_group("where mail comes from (default: one message on stdin)")
    chosen = source.add_mutually_exclusive_group()
    chosen.add_argument("--maildir", metavar="DIR", help="every message in DIR/new")
    chosen.add_argument("--imap", type=_host_port(993), metavar="HOST[:PORT]", help="unseen messages, over TLS")
    source.add_argument("--imap-user", metavar="USER", help="IMAP login (password: $REFEREE_IMAP_PASSWORD)")
    source.add_argument("--mailbox", default="INBOX", help="IMAP mailbox (default INBOX)")
    source.add_argument("--poll", type=float, metavar="SECONDS",
                        help="keep polling the Maildir or IMAP mailbox every SECONDS (Ctrl-C stops)")
    add_smtp_arguments(parser)
    parser.set_defaults(run=run)


def _deliveries(args: argparse.Namespace) -> Iterator[Delivery]:
    if args.imap is not None:
        if not args.imap_user:
            raise ReferError([Diagnostic("--imap-user", 0, 0, "missing-user", "--imap needs --imap-user")])
        settings = ImapSettings(args.imap[0], args.imap[1], args.imap_user,
                                os.environ.get("REFEREE_IMAP_PASSWORD", ""), args.mailbox, args.cafile)
        return imap_deliveries(settings, args.poll)
    if args.maildir is not None:
        if not os.path.isdir(os.path.join(args.maildir, "new")):
            raise ReferError([Diagnostic(args.maildir, 0, 0, "not-a-maildir",
                                         f"{args.maildir} is not a Maildir (no new/ folder)")])
        return _polled(args.maildir, args.poll)
    return stdin_deliveries()


def _polled(folder: str, poll: float | None) -> Iterator[Delivery]:
    import time

    while True:
        yield from maildir_deliveries(folder)
        if poll is None:
            return
        time.sleep(poll)


def run(args: argparse.Namespace) -> int:
    import imaplib
    import ssl

    rnd = open_round(args.round)
    smtp = smtp_settings(args, rnd.roster.mail_from)
    try:
        tally = process(rnd, _deliveries(args), smtp, sys.stdout)
    except (imaplib.IMAP4.error, ssl.SSLError) as err:
        where = f"{args.imap[0]}:{args.imap[1]}"
        raise ReferError([Diagnostic(where, 0, 0, "mail-server", f"cannot read mail: {err}")]) from None
    except OSError as err:  # the mail server, or the round's own disk: stop; what was filed stays filed
        where = f"{args.imap[0]}:{args.imap[1]}" if args.imap else args.round
        raise ReferError([Diagnostic(where, 0, 0, "intake-stopped",
                                     f"intake stopped: {err.strerror or err}; messages not yet filed stay new "
                                     "and are filed by the next run")]) from None
    print(f"{tally.filed} filed, {tally.late} late, {tally.refused} refused, {tally.ignored} ignored, "
          f"{tally.rejected} rejected; {tally.receipts} receipt(s) sent")
    return 0
