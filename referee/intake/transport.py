"""Where mail comes from and how receipts leave: stdin, a Maildir, an IMAP
mailbox; SMTP.

Each source yields :class:`Delivery` values -- the raw message, when it
arrived, and ``done()`` to call once the message is filed.  The order of
:func:`process` is what makes a crash safe at any point:

1. the submission is filed (one fsynced ledger line: the moment it counts);
2. every receipt not yet sent is handed to SMTP, then marked sent;
3. only then does the message leave the source's "new" state (Maildir
   ``new/`` -> ``cur/``, IMAP ``\\Seen``).

Killed before 1, the message is still new and is filed by the next run;
after 1, the next run meets it again and finds its key in the ledger (filed
once); between 2's send and its mark, the receipt may be sent twice, never
lost.
"""

from __future__ import annotations

import contextlib
import hashlib
import imaplib
import os
import smtplib
import socket
import ssl
import sys
import time
from dataclasses import dataclass
from datetime import datetime, timezone
from email.message import EmailMessage
from email.utils import parsedate_to_datetime
from pathlib import Path
from typing import Callable, Iterator, TextIO

from referee.intake.core import Round, mark_replied, pending_receipts, submit
from referee.intake.mail import MailReading, compose, read_message
from referee.intake.receipt import Receipt
from referee.limits import MAX_IMAP_BATCH, MAX_MESSAGE_BYTES
from referee.textcheck import printable

__all__ = ["Delivery", "SmtpSettings", "ImapSettings", "process", "flush_receipts", "send_reminders",
           "stdin_deliveries",
           "maildir_deliveries", "imap_deliveries", "Tally"]


@dataclass(frozen=True)
class Delivery:
    """One message from a source.

    :param done: called with ``"filed"``, ``"ignored"`` or ``"rejected"``
        once the message is dealt with (it then leaves the source's new state).
    """

    raw: bytes
    received: datetime
    name: str
    done: Callable[[str], None]
    #: the message's whole size; over the limit only its headers are in ``raw``
    size: int = -1


@dataclass(frozen=True)
class SmtpSettings:
    host: str
    port: int = 25
    security: str = "none"  # none | starttls | ssl
    user: str | None = None
    password: str | None = None
    cafile: str | None = None
    sender: str = "referee@localhost"


@dataclass(frozen=True)
class ImapSettings:
    host: str
    port: int = 993
    user: str = ""
    password: str = ""
    mailbox: str = "INBOX"
    cafile: str | None = None


@dataclass
class Tally:
    """What a run did, for its last line."""

    filed: int = 0
    late: int = 0
    refused: int = 0
    ignored: int = 0
    rejected: int = 0
    receipts: int = 0


def _context(cafile: str | None) -> ssl.SSLContext:
    return ssl.create_default_context(cafile=cafile)


def send_mail(settings: SmtpSettings, messages: list[EmailMessage]) -> None:
    """Hand ``messages`` to the SMTP server in one session."""
    if not messages:
        return
    server: smtplib.SMTP
    if settings.security == "ssl":
        server = smtplib.SMTP_SSL(settings.host, settings.port, timeout=30, context=_context(settings.cafile))
    else:
        server = smtplib.SMTP(settings.host, settings.port, timeout=30)
    with server:
        if settings.security == "starttls":
            server.starttls(context=_context(settings.cafile))
        if settings.user:
            server.login(settings.user, settings.password or "")
        for msg in messages:
            server.send_message(msg)


def send_reminders(rnd: Round, smtp: SmtpSettings) -> int:
    """Mail every missing or invalid player a reminder (``referee remind``); how many.

    :raises OSError, smtplib.SMTPException: the server cannot be reached."""
    from referee.intake.ledger import reminder_texts, round_status
    from referee.intake.mail import compose_text

    sender = rnd.roster.mail_from or smtp.sender
    texts = reminder_texts(round_status(rnd))
    send_mail(smtp, [compose_text(to, sender, subject, body) for to, subject, body in texts])
    return len(texts)


def flush_receipts(rnd: Round, smtp: SmtpSettings | None, out: TextIO) -> int:
    """Send every receipt decided but not yet sent; how many were sent.

    Without SMTP settings receipts stay pending (``referee intake --smtp``
    sends them on a later run).  A server that refuses leaves them pending too."""
    pending = pending_receipts(rnd)
    if smtp is None or not pending:
        return 0
    sender = rnd.roster.mail_from or smtp.sender
    sent = 0
    for receipt in pending:
        try:
            send_mail(smtp, [compose(receipt, sender)])
        except (smtplib.SMTPRecipientsRefused, smtplib.SMTPDataError, smtplib.SMTPSenderRefused) as err:
            print(f"receipt to {receipt.player} refused by the server ({type(err).__name__}); "
                  "kept for the next run", file=sys.stderr)
            continue  # this one message: the others may still go
        except (OSError, smtplib.SMTPException) as err:
            print(f"receipts not sent ({type(err).__name__}: {err}); kept for the next run", file=sys.stderr)
            return sent
        mark_replied(rnd, receipt.key)
        sent += 1
    return sent


def _describe(receipt: Receipt) -> str:
    files = ", ".join(f"{f.file} ({f.state})" for f in receipt.files) or "no file"
    return f"{receipt.outcome} {receipt.player or '(unknown sender)'}: {files}"


def process(rnd: Round, deliveries: Iterator[Delivery], smtp: SmtpSettings | None, out: TextIO) -> Tally:
    """File every delivery, answer it, and release it from its source."""
    tally = Tally()
    tally.receipts += flush_receipts(rnd, smtp, out)
    for delivery in deliveries:
        reading: MailReading | None
        try:
            reading = read_message(delivery.raw, delivery.received)
            reason = reading.rejected or ""
        except Exception as err:  # read_message never raises; should it, the message is set aside, not the run
            reading, reason = None, f"unreadable: {type(err).__name__}"
        if delivery.size > MAX_MESSAGE_BYTES:
            reason = f"message-too-large: {delivery.size:,} bytes (at most {MAX_MESSAGE_BYTES:,})"
            reading = None
        if reading is None or reading.rejected is not None:
            key = reading.key if reading is not None else hashlib.sha256(delivery.raw).hexdigest()
            where = rnd.inbox.put_rejected(key, delivery.raw, reason)
            print(f"rejected {printable(delivery.name)}: {reason} (kept as {where.relative_to(rnd.folder)})", file=out)
            tally.rejected += 1
            delivery.done("rejected")
            continue
        if reading.ignored is not None:
            print(f"ignored {printable(delivery.name)}: {reading.ignored}", file=out)
            tally.ignored += 1
            delivery.done("ignored")
            continue
        assert reading.submission is not None
        receipt = submit(rnd, reading.submission)
        print(_describe(receipt), file=out)
        tally.filed += receipt.outcome in ("filed", "nothing")
        tally.late += receipt.outcome == "late"
        tally.refused += receipt.outcome == "refused"
        tally.receipts += flush_receipts(rnd, smtp, out)
        delivery.done("filed")
    return tally


# -- sources --------------------------------------------------------------------


def _read_bounded(stream: object, limit: int = MAX_MESSAGE_BYTES) -> bytes:
    read = getattr(stream, "read")
    data: bytes = read(limit + 1)
    return data


def stdin_deliveries(stream: TextIO | None = None) -> Iterator[Delivery]:
    """One message on standard input (an MTA pipe, procmail, ``.forward``)."""
    source = (stream or sys.stdin).buffer if hasattr(stream or sys.stdin, "buffer") else stream
    raw = _read_bounded(source)
    yield Delivery(raw, datetime.now(timezone.utc), "stdin", lambda outcome: None, len(raw))


def maildir_deliveries(folder: str | Path) -> Iterator[Delivery]:
    """Every message in ``MAILDIR/new``, oldest first; done moves it to
    ``cur/`` marked seen (a rejected one leaves the Maildir: the round keeps it)."""
    root = Path(folder)
    new, cur = root / "new", root / "cur"
    cur.mkdir(exist_ok=True)
    names = sorted(os.listdir(new)) if new.is_dir() else []
    for name in names:
        path = new / name
        try:
            info = path.lstat()
            if not path.is_file() or path.is_symlink():
                continue
            with open(path, "rb") as handle:
                raw = handle.read(MAX_MESSAGE_BYTES + 1)
        except FileNotFoundError:  # another run took it
            continue
        received = datetime.fromtimestamp(info.st_mtime, timezone.utc)

        def done(outcome: str, path: Path = path, name: str = name) -> None:
            with contextlib.suppress(FileNotFoundError):
                if outcome == "rejected":
                    path.unlink()
                else:
                    os.replace(path, cur / f"{name.split(':')[0]}:2,S")

        yield Delivery(raw, received, name, done, info.st_size)


def imap_deliveries(settings: ImapSettings, poll: float | None = None,
                    stop: Callable[[], bool] = lambda: False) -> Iterator[Delivery]:
    """Unseen messages of an IMAP mailbox over TLS, at most
    :data:`~referee.limits.MAX_IMAP_BATCH` per fetch; done marks one seen.
    With ``poll``, the mailbox is polled every ``poll`` seconds until
    ``stop()`` (or Ctrl-C)."""
    while True:
        with imaplib.IMAP4_SSL(settings.host, settings.port, ssl_context=_context(settings.cafile),
                               timeout=60) as imap:
            imap.login(settings.user, settings.password)
            imap.select(_quoted(settings.mailbox))
            _, found = imap.uid("SEARCH", "UNSEEN")
            uids = [u.decode("ascii") for u in (found[0] or b"").split()[:MAX_IMAP_BATCH]]
            for uid in uids:
                yield from _imap_one(imap, uid)
        if poll is None or stop():
            return
        time.sleep(poll)


def _quoted(mailbox: str) -> str:
    return '"' + mailbox.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _imap_one(imap: imaplib.IMAP4, uid: str) -> Iterator[Delivery]:
    def done(outcome: str) -> None:
        imap.uid("STORE", uid, "+FLAGS.SILENT", "(\\Seen)")

    _, meta = imap.uid("FETCH", uid, "(RFC822.SIZE INTERNALDATE)")
    text = b" ".join(m if isinstance(m, bytes) else m[0] for m in meta if m)
    size = int(text.split(b"RFC822.SIZE ")[1].split()[0].rstrip(b")")) if b"RFC822.SIZE " in text else 0
    received = datetime.now(timezone.utc)
    stamp = imaplib.Internaldate2tuple(text)
    if stamp is not None:
        received = datetime.fromtimestamp(time.mktime(stamp), timezone.utc)
    # over the limit, only the headers are fetched (kept with the reason)
    part = "BODY.PEEK[HEADER]" if size > MAX_MESSAGE_BYTES else "BODY.PEEK[]"
    _, data = imap.uid("FETCH", uid, f"({part})")
    raw = next((m[1] for m in data if isinstance(m, tuple)), b"")
    yield Delivery(raw[:MAX_MESSAGE_BYTES + 1], received, f"imap:{uid}", done, size or len(raw))


def wait_for_port(host: str, port: int, seconds: float = 10.0) -> bool:
    """Whether something listens on ``host:port`` within ``seconds`` (for tests and scripts)."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        with contextlib.suppress(OSError), socket.create_connection((host, port), timeout=0.5):
            return True
        time.sleep(0.05)
    return False
