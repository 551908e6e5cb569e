"""A mail message in, a :class:`~referee.intake.core.Submission` out; a
receipt in, a mail message out.

Mail is hostile input (``docs/security.md``).  :func:`read_message` bounds
everything before the parser sees it -- the message's size, each header's
length and their count (:mod:`referee.limits`) -- then walks the MIME tree
within a depth and a part count, and takes:

- the sender: the one ``From`` address (the roster decides who that is;
  replies never go to it, only to the roster's spelling of it);
- the token (a ``token: ...`` line of the plain-text body, or of an HTML
  body's text) and a ``use: ...`` line;
- files: ``.yaml``/``.plan`` attachments, and text pasted between
  ```` ```yaml ```` / ```` ```plan ```` fences in the plain-text body; a
  name only says which of the player's files it is, never where it goes;
- what is refused, as notices: archives, an HTML-only body, unknown charsets.

Mail from daemons and robots -- ``Auto-Submitted``, our own ``X-Loop``,
``Precedence: bulk``, a null return path, ``mailer-daemon`` -- is ignored
(no effect, no reply), so two robots never answer each other.  A message
that cannot be read at all is *rejected*: moved aside with its reason.
"""

from __future__ import annotations

import email
import email.policy
import hashlib
import re
from dataclasses import dataclass
from datetime import datetime
from email.message import EmailMessage, Message
from email.utils import formatdate, getaddresses, make_msgid

from referee.intake.core import IncomingFile, Submission
from referee.intake.receipt import Notice, Receipt
from referee.intake.render import render_receipt
from referee.limits import (MAX_ADDRESS_CHARS, MAX_HEADER_CHARS, MAX_HEADERS, MAX_MESSAGE_BYTES, MAX_MIME_DEPTH,
                            MAX_MIME_PARTS)
from referee.textcheck import printable

__all__ = ["MailReading", "read_message", "message_key", "compose", "LOOP_TAG"]

#: Our replies carry ``X-Loop: tcgt-referee``; a mail carrying it is ours coming back.
LOOP_TAG = "tcgt-referee"

_ARCHIVE_NAMES = (".zip", ".tar", ".gz", ".tgz", ".bz2", ".xz", ".7z", ".rar", ".lzh", ".lha", ".cab", ".jar")
_ARCHIVE_TYPES = ("application/zip", "application/x-zip-compressed", "application/x-tar", "application/gzip",
                  "application/x-gzip", "application/x-7z-compressed", "application/x-rar-compressed",
                  "application/vnd.rar", "application/x-bzip2", "application/x-xz", "application/java-archive")
_SIGNATURES = ("application/pgp-signature", "application/pkcs7-signature", "application/x-pkcs7-signature")
_TOKEN = re.compile(r"^[ \t]*token[ \t]*[:：][ \t]*(\S{1,200})[ \t]*$", re.IGNORECASE | re.MULTILINE)
_USE = re.compile(r"^[ \t]*use[ \t]*[:：][ \t]*(\S{1,80})[ \t]*$", re.IGNORECASE | re.MULTILINE)
_FENCE = re.compile(r"^(`{3,}|~{3,})[ \t]*(yaml|yml|plan)\b[ \t]*([^\n`]*)\n(.*?)^\1[ \t]*$",
                    re.IGNORECASE | re.MULTILINE | re.DOTALL)
_TAG = re.compile(r"<[^>]{0,2000}>")
_DAEMONS = ("mailer-daemon", "postmaster", "noreply", "no-reply", "do-not-reply", "donotreply")


@dataclass(frozen=True)
class MailReading:
    """What one message is.

    Exactly one of ``submission`` (file it), ``ignored`` (a robot's mail: the
    reason; no effect) and ``rejected`` (unreadable: the reason; move it
    aside) is set.
    """

    key: str
    submission: Submission | None = None
    ignored: str | None = None
    rejected: str | None = None


def message_key(raw: bytes) -> str:
    """``sha256(Message-ID, body)``: the same message delivered twice (a
    retry, a second fetch, trace headers added on the way) has the same key;
    another message reusing a Message-ID does not."""
    head, _, body = _split(raw)
    found = re.search(rb"(?im)^message-id:[ \t]*(.{0,500}?)[ \t]*\r?$", head)
    ident = found.group(1).strip() if found else b""
    return hashlib.sha256(ident + b"\n" + hashlib.sha256(body).digest()).hexdigest()


def _split(raw: bytes) -> tuple[bytes, bytes, bytes]:
    for sep in (b"\r\n\r\n", b"\n\n"):
        index = raw.find(sep)
        if index >= 0:
            return raw[:index], sep, raw[index + len(sep):]
    return raw, b"", b""


def _header_problem(head: bytes) -> str | None:
    """The first bound the header block breaks (count, unfolded length)."""
    lines = head.replace(b"\r\n", b"\n").split(b"\n")
    count, longest, current = 0, 0, 0
    for line in lines:
        if line[:1] in (b" ", b"\t"):
            current += len(line)
        else:
            count += 1
            current = len(line)
        longest = max(longest, current)
    if count > MAX_HEADERS:
        return f"{count} headers (at most {MAX_HEADERS})"
    if longest > MAX_HEADER_CHARS:
        return f"a header of {longest:,} characters (at most {MAX_HEADER_CHARS:,})"
    return None


def _robot(msg: Message) -> str | None:
    """Why this mail is a robot's (no effect, no reply), or ``None``."""
    auto = str(msg.get("Auto-Submitted", "no")).strip().lower()
    if auto and not auto.startswith("no"):
        return f"Auto-Submitted: {printable(auto)[:40]}"
    if any(LOOP_TAG in str(v).lower() for v in msg.get_all("X-Loop", [])):
        return "X-Loop: our own reply"
    if str(msg.get("Precedence", "")).strip().lower() in ("bulk", "junk", "list", "auto_reply"):
        return f"Precedence: {printable(str(msg.get('Precedence')))[:20]}"
    if any(msg.get(h) is not None for h in ("X-Autoreply", "X-Autorespond", "X-Auto-Response-Suppress-All")):
        return "an auto-reply header"
    if str(msg.get("Return-Path", "")).strip() == "<>":
        return "a null return path (a bounce)"
    if msg.get_content_type() == "multipart/report":
        return "a delivery report"
    for _, address in getaddresses([str(v) for v in msg.get_all("From", [])]):
        if address.split("@")[0].lower() in _DAEMONS:
            return f"from {printable(address)[:60]}"
    return None


def _sender(msg: Message) -> str | None:
    addresses = [a for _, a in getaddresses([str(v) for v in msg.get_all("From", [])]) if a]
    if len(addresses) != 1 or len(addresses[0]) > MAX_ADDRESS_CHARS or "@" not in addresses[0]:
        return None
    return addresses[0]


class _TooComplex(Exception):
    pass


def _leaves(msg: Message, depth: int = 0, count: list[int] | None = None) -> list[Message]:
    count = count if count is not None else [0]
    count[0] += 1
    if count[0] > MAX_MIME_PARTS:
        raise _TooComplex(f"more than {MAX_MIME_PARTS} parts")
    if depth > MAX_MIME_DEPTH:
        raise _TooComplex(f"parts nested deeper than {MAX_MIME_DEPTH}")
    if not msg.is_multipart():
        return [msg]
    payload = msg.get_payload()
    out: list[Message] = []
    for part in payload if isinstance(payload, list) else []:
        if isinstance(part, Message):
            out += _leaves(part, depth + 1, count)
    return out


def _part_text(part: Message) -> tuple[str | None, Notice | None]:
    """A text part decoded with its charset, or why it cannot be."""
    data = part.get_payload(decode=True)
    if not isinstance(data, bytes):
        return None, Notice("bad-part", "body")
    from referee.intake.core import decode_file

    return decode_file(data, part.get_content_charset(), "body")


def read_message(raw: bytes, received: datetime) -> MailReading:
    """One RFC 822 message read as a submission, a robot's mail to ignore,
    or a malformed message to move aside; never raises on any input."""
    key = message_key(raw) if len(raw) <= MAX_MESSAGE_BYTES else hashlib.sha256(raw[:MAX_MESSAGE_BYTES]).hexdigest()
    if len(raw) > MAX_MESSAGE_BYTES:
        return MailReading(key, rejected=f"message-too-large: {len(raw):,} bytes (at most {MAX_MESSAGE_BYTES:,})")
    head, sep, _ = _split(raw)
    if not sep and b":" not in head[:200]:
        return MailReading(key, rejected="not-a-message: no header block")
    problem = _header_problem(head)
    if problem is not None:
        return MailReading(key, rejected=f"too-complex: {problem}")
    try:
        msg = email.message_from_bytes(raw, policy=email.policy.compat32)
        robot = _robot(msg)
        if robot is not None:
            return MailReading(key, ignored=robot)
        return _reading(key, msg, received)
    except _TooComplex as err:
        return MailReading(key, rejected=f"too-complex: {err}")
    except (ValueError, TypeError, LookupError, AttributeError, IndexError, UnicodeError, RecursionError) as err:
        return MailReading(key, rejected=f"unreadable: {type(err).__name__}")


def _reading(key: str, msg: Message, received: datetime) -> MailReading:
    files: list[IncomingFile] = []
    notices: list[Notice] = []
    bodies: list[str] = []
    html: list[str] = []
    for part in _leaves(msg):
        ctype = part.get_content_type()
        name = part.get_filename()
        shown = printable(str(name))[:80] if name else ""
        lower = (name or "").lower()
        if lower.endswith(_ARCHIVE_NAMES) or ctype in _ARCHIVE_TYPES:
            notices.append(Notice("archive-refused", shown or ctype))
        elif name and lower.endswith((".yaml", ".yml", ".plan")):
            data = part.get_payload(decode=True)
            if isinstance(data, bytes):
                files.append(IncomingFile(name, data, part.get_content_charset()))
            else:
                notices.append(Notice("bad-part", shown))
        elif name and ctype not in _SIGNATURES:
            notices.append(Notice("not-a-file-kind", shown))
        elif ctype == "text/plain" and str(part.get("Content-Disposition", "")).lower().find("attachment") < 0:
            text, problem = _part_text(part)
            if text is not None:
                bodies.append(text)
            elif problem is not None:
                notices.append(problem)
        elif ctype == "text/html":
            text, _ = _part_text(part)
            if text is not None:
                html.append(text)
    body = "\n".join(bodies)
    outside = _FENCE.sub("", body)
    for fence in _FENCE.finditer(body):
        kind = fence.group(2).lower()
        label = fence.group(3).strip()
        extension = ".plan" if kind == "plan" else ".yaml"
        name = label if label.lower().endswith((".yaml", ".yml", ".plan")) else f"{label or 'pasted'}{extension}"
        files.append(IncomingFile(name, fence.group(4).encode("utf-8", "surrogatepass")))
    token_text = outside
    if not bodies and html:
        token_text = _TAG.sub("\n", "\n".join(html)).replace("&nbsp;", " ")
        if not files:
            notices.append(Notice("html-only"))
    token = _TOKEN.search(token_text)
    use = _USE.search(outside)
    return MailReading(key, Submission(
        key=key, received=received, channel="mail", token=token.group(1) if token else None, sender=_sender(msg),
        files=tuple(files), use=use.group(1).lower() if use else None, notices=tuple(notices)))


def compose(receipt: Receipt, sender: str, in_reply_to: str | None = None) -> EmailMessage:
    """The receipt as a plain-text UTF-8 mail to the roster's address.

    ``Auto-Submitted: auto-replied`` and ``X-Loop`` make every well-behaved
    robot (a vacation responder, this referee) leave it unanswered."""
    if receipt.to is None:
        raise ValueError("this receipt is not to be sent")
    subject, body = render_receipt(receipt)
    return compose_text(receipt.to, sender, subject, body, in_reply_to)


def compose_text(to: str, sender: str, subject: str, body: str, in_reply_to: str | None = None) -> EmailMessage:
    msg = EmailMessage(policy=email.policy.SMTP)
    msg["From"] = sender
    msg["To"] = to
    msg["Subject"] = subject
    msg["Date"] = formatdate(localtime=False)
    msg["Message-ID"] = make_msgid(domain=sender.rpartition("@")[2] or None)
    msg["Auto-Submitted"] = "auto-replied"
    msg["X-Loop"] = LOOP_TAG
    if in_reply_to and len(in_reply_to) < 500 and "\n" not in in_reply_to and "\r" not in in_reply_to:
        msg["In-Reply-To"] = in_reply_to
    msg.set_content(body, charset="utf-8")
    return msg
