"""Receipts and reminders in words, in English or Japanese.

Only reads a :class:`~referee.intake.receipt.Receipt` (and the ledger's
status rows); every sentence comes from the message tables
(:mod:`referee.report.messages`), every diagnostic is printed exactly as the
terminal prints it (:func:`referee.diagnostics.format_diagnostic`: file,
line, column, the line and a caret, the hint).  Nothing of the mail that
was received is echoed but what the checker quotes from the player's own
file, and never a token.
"""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

from referee.diagnostics import format_diagnostic
from referee.intake.receipt import FileReceipt, Receipt
from referee.limits import MAX_ATTACHMENT_BYTES
from referee.report.messages import message, word

__all__ = ["render_receipt", "render_reminder", "when", "duration", "deadline_words"]


def when(iso: str, zone_from: str | None = None) -> str:
    """``iso`` as ``2026-12-05 18:00 +09:00``, in the zone of ``zone_from``
    (the deadline's, so players read times as the organiser wrote them)."""
    moment = datetime.fromisoformat(iso)
    if zone_from:
        moment = moment.astimezone(datetime.fromisoformat(zone_from).tzinfo)
    offset = moment.strftime("%z")
    zone = "UTC" if offset in ("+0000", "") else f"{offset[:3]}:{offset[3:]}"
    return f"{moment:%Y-%m-%d %H:%M} {zone}"


def duration(lang: str, span: timedelta) -> str:
    minutes = max(int(span.total_seconds() // 60), 0)
    days, rest = divmod(minutes, 24 * 60)
    hours, minutes = divmod(rest, 60)
    if days:
        return message(lang, "intake.duration.days", days=days, hours=hours)
    if hours:
        return message(lang, "intake.duration.hours", hours=hours, minutes=minutes)
    return message(lang, "intake.duration.minutes", minutes=minutes)


def deadline_words(lang: str, deadline: str | None, at: str, locked: bool) -> str:
    """The deadline and the time left at ``at`` (ISO 8601), or that the round
    is locked: a receipt's line, a reminder's, the web page's."""
    if locked:
        return message(lang, "intake.locked")
    if deadline is None:
        return message(lang, "intake.no_deadline")
    left = datetime.fromisoformat(deadline) - datetime.fromisoformat(at)
    shown = when(deadline, deadline)
    if left.total_seconds() >= 0:
        return message(lang, "intake.deadline", time=shown, left=duration(lang, left))
    return message(lang, "intake.deadline_passed", time=shown, ago=duration(lang, -left))


def _file_block(f: FileReceipt, lang: str) -> list[str]:
    out = [message(lang, "intake.file", file=f.file),
           message(lang, "intake.sha256", sha256=f.sha256, size=f.size, file=f.file)]
    if f.battles:
        out.append(message(lang, "intake.checked", errors=f.errors, warnings=f.warnings,
                           battles=word(lang, "list.sep").join(f.battles)))
    else:
        out.append(message(lang, "intake.checked_alone", errors=f.errors, warnings=f.warnings))
    if f.state == "late":
        current = (message(lang, "intake.late.current", current=f.current_sha256) if f.current_sha256
                   else message(lang, "intake.late.none"))
        out.append(message(lang, "intake.state.late", current_words=current))
    else:
        out.append(message(lang, f"intake.state.{f.state}", current=f.current_sha256 or ""))
    if f.diagnostics:
        out += ["", *(format_diagnostic(d) for d in f.diagnostics)]
    if f.clauses:
        out += ["", message(lang, "intake.plan"),
                *(message(lang, "intake.clause", line=c.line, text=c.text) for c in f.clauses)]
    return out + [""]


def _notices(r: Receipt, lang: str) -> list[str]:
    if not r.notices:
        return []
    return [message(lang, "intake.notices"),
            *(f"- {message(lang, f'intake.notice.{n.code}', detail=n.detail, value=n.value, limit=MAX_ATTACHMENT_BYTES)}"
              for n in r.notices), ""]


def _subject(r: Receipt, lang: str) -> str:
    files = word(lang, "list.sep").join(
        message(lang, "intake.subject.errors", file=f.file, errors=f.errors) if f.errors
        else message(lang, "intake.subject.ok", file=f.file) for f in r.files)
    return message(lang, f"intake.subject.{r.outcome}", round=r.round, files=files)


def render_receipt(r: Receipt, lang: str | None = None) -> tuple[str, str]:
    """The receipt's subject and plain-text body, in ``lang`` (default: the player's)."""
    lang = lang or r.lang
    lines = [message(lang, "intake.greeting", name=r.player_name or r.player or ""), ""]
    if r.outcome == "refused":
        lines += [message(lang, "intake.refused", round=r.round, time=when(r.received, r.deadline)), ""]
        lines += _notices(r, lang)
    else:
        lines += [message(lang, "intake.received", time=when(r.received, r.deadline), round=r.round),
                  deadline_words(lang, r.deadline, r.received, r.locked), ""]
        for f in r.files:
            lines += _file_block(f, lang)
        for f in r.promoted:
            lines += [message(lang, "intake.promoted", file=f.file, sha256=f.sha256), ""]
        lines += _notices(r, lang)
        lines += [message(lang, "intake.how"), ""]
    lines.append(message(lang, "intake.signature", round=r.round))
    return _subject(r, lang), "\n".join(lines) + "\n"


def render_reminder(round_label: str, name: str, lang: str, missing: list[str], invalid: list[str],
                    deadline: str | None, now: datetime | None = None) -> tuple[str, str]:
    """A reminder for a player who is missing or invalid: which files, and the time left."""
    now = now or datetime.now(timezone.utc)
    items = ([message(lang, "intake.reminder.missing", file=f) for f in missing]
             + [message(lang, "intake.reminder.invalid", file=f) for f in invalid])
    lines = [message(lang, "intake.greeting", name=name), "", message(lang, "intake.reminder.body"),
             *(f"- {i}" for i in items), "", deadline_words(lang, deadline, now.isoformat(), False), "",
             message(lang, "intake.how"), "",
             message(lang, "intake.signature", round=round_label)]
    subject = message(lang, "intake.subject.reminder", round=round_label,
                      files=word(lang, "list.sep").join(missing + invalid))
    return subject, "\n".join(lines) + "\n"
