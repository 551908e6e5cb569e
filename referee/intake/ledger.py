"""The round's ledger as the organiser reads it: who is in, who is missing,
whose current file does not pass the check.

:func:`round_status` is data (from the ledger alone); :func:`status_text`
and :func:`status_post` put it in words for the terminal and for posting
(Markdown or BBCode).  Before the lock a posted status lists only player
ids and their state -- not names, not digests -- since it goes where every
player reads it.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timezone

from referee.intake.core import Round, is_locked
from referee.intake.roster import Player
from referee.intake.store import LedgerState
from referee.report.messages import message

__all__ = ["FileStatus", "PlayerStatus", "RoundStatus", "round_status", "render_status", "STATUS_FORMATS", "reminders", "reminder_texts", "file_words",
           "summary_words", "lock_words"]


@dataclass(frozen=True)
class FileStatus:
    """One roster file: ``current`` (a valid version), ``newer-invalid``
    (valid current, a later one with errors), ``invalid`` (no valid version
    current), ``missing`` (nothing received)."""

    file: str
    state: str
    sha256: str | None


@dataclass(frozen=True)
class PlayerStatus:
    """A player: ``in`` (every file has a valid current version),
    ``invalid`` (some file has none, though received), ``missing``."""

    id: str
    name: str
    lang: str
    state: str
    files: tuple[FileStatus, ...]
    addresses: tuple[str, ...] = ()


@dataclass(frozen=True)
class RoundStatus:
    label: str
    locked: bool
    locked_at: str | None
    deadline: str | None
    players: tuple[PlayerStatus, ...]

    def count(self, state: str) -> int:
        return sum(p.state == state for p in self.players)


def _file_status(state: LedgerState, rel: str) -> FileStatus:
    current = state.current.get(rel)
    latest = state.latest(rel)
    if current is None:
        return FileStatus(rel, "invalid" if latest is not None else "missing", latest.sha256 if latest else None)
    version = state.version(rel, current)
    if version is not None and not version.valid:
        return FileStatus(rel, "invalid", current)
    if latest is not None and latest.sha256 != current and not latest.valid:
        return FileStatus(rel, "newer-invalid", current)
    return FileStatus(rel, "current", current)


def player_status(state: LedgerState, player: Player) -> PlayerStatus:
    files = tuple(_file_status(state, rel) for rel in player.files)
    states = {f.state for f in files}
    overall = "invalid" if "invalid" in states else "missing" if "missing" in states else "in"
    return PlayerStatus(player.id, player.name, player.lang, overall, files, player.addresses)


def round_status(rnd: Round) -> RoundStatus:
    """Every player's state, from the ledger."""
    with rnd.inbox.locked() as state:
        players = tuple(player_status(state, p) for p in rnd.roster.players)
        locked_at = state.locked_at
    deadline = rnd.roster.deadline.isoformat() if rnd.roster.deadline else None
    locked = is_locked(rnd.folder)
    if locked and locked_at is None:  # committed with `seeds commit` rather than `lock`: its file's time
        from referee.app.seeds import COMMITMENT_FILE

        locked_at = datetime.fromtimestamp((rnd.folder / COMMITMENT_FILE).stat().st_mtime, timezone.utc).isoformat()
    return RoundStatus(rnd.roster.label, locked, locked_at, deadline, players)


def file_words(lang: str, f: FileStatus) -> str:
    """A file's state in words (``sheets/kagura.yaml 7e2f7cd86a30 (has errors)``)."""
    key = {"current": "current", "missing": "missing", "invalid": "invalid", "newer-invalid": "newer_invalid"}[f.state]
    return message(lang, f"status.file.{key}", file=f.file, sha=(f.sha256 or "")[:12])


def summary_words(status: RoundStatus, lang: str) -> str:
    """``8 player(s): 5 in, 2 missing, 1 invalid.``"""
    return message(lang, "status.summary", players=len(status.players), in_count=status.count("in"),
                   missing=status.count("missing"), invalid=status.count("invalid"))


def lock_words(status: RoundStatus, lang: str) -> str:
    """Open, or locked at what time."""
    from referee.intake.render import when

    if status.locked:
        return message(lang, "status.locked", time=when(status.locked_at, status.deadline) if status.locked_at else "?")
    return message(lang, "status.open")


#: Formats of ``referee status``: the organiser's terminal, and two for posting.
STATUS_FORMATS = ("text", "md", "bbcode")


def render_status(status: RoundStatus, fmt: str = "text", lang: str = "en") -> str:
    """The ledger in words (through the reports' markup).  ``text`` is the
    organiser's own view (every file with its digest); ``md`` and
    ``bbcode`` are for posting, and before the lock list only ids and states."""
    from referee.report.forum import BBCodeMarkup
    from referee.report.markup import MarkdownMarkup, TextMarkup

    markup = {"text": TextMarkup, "md": MarkdownMarkup, "bbcode": BBCodeMarkup}[fmt]()
    header = message(lang, "status.header").split("|")
    rows = [[p.id, message(lang, f"status.state.{p.state}"),
             "; ".join(file_words(lang, f) for f in p.files)] for p in status.players]
    if fmt != "text" and not status.locked:
        header, rows = header[:2], [r[:2] for r in rows]
    lines = [*markup.title(message(lang, "status.title", round=status.label)), "",
             *markup.para(summary_words(status, lang)), "", *markup.para(lock_words(status, lang)), "",
             *markup.table(header, rows)]
    return "\n".join(lines) + "\n"


def reminders(status: RoundStatus) -> list[PlayerStatus]:
    """The players a reminder goes to: missing or invalid."""
    return [p for p in status.players if p.state in ("missing", "invalid")]


def reminder_texts(status: RoundStatus, now: datetime | None = None) -> list[tuple[str, str, str]]:
    """``(address, subject, body)`` of each reminder, in the player's
    language, to their first registered address."""
    from referee.intake.render import render_reminder

    out = []
    for p in reminders(status):
        missing = [f.file for f in p.files if f.state == "missing"]
        invalid = [f.file for f in p.files if f.state == "invalid"]
        subject, body = render_reminder(status.label, p.name, p.lang, missing, invalid, status.deadline, now)
        out.append((p.addresses[0], subject, body))
    return out
