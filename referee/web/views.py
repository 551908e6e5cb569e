"""What the pages show, as plain data read from receipts and the ledger.

The templates only lay these out.  Every diagnostic is shown as the
terminal shows it -- ``file:line:col: error[code]: message``, the hint --
but placed under the line it is about, its caret indented by
:func:`referee.diagnostics.caret_cells` (the terminal's own count, wide
characters two cells), in a font whose wide characters are two cells too.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Iterable

from referee.diagnostics import Diagnostic, caret_cells, format_diagnostic, position_key, shown_source_line
from referee.intake.ledger import PlayerStatus, file_words
from referee.intake.receipt import Clause, FileReceipt, Receipt
from referee.intake.roster import Player, file_kind
from referee.intake.store import Inbox, LedgerState, Version
from referee.report.messages import message, word
from referee.textcheck import printable

__all__ = ["Note", "Row", "Listing", "listing", "FileResult", "file_results", "FileView", "player_files",
           "VersionView", "versions"]


@dataclass(frozen=True)
class Note:
    """One diagnostic under its line.

    :param pad: the spaces before the caret (``None``: no caret).
    :param source: the line it quotes, when it is not the row it sits under.
    """

    where: str
    severity: str
    code: str
    message: str
    hint: str | None
    pad: str | None
    source: str | None = None


@dataclass(frozen=True)
class Segment:
    """A run of a line's text; ``marked`` for the character a diagnostic points at."""

    text: str
    marked: bool = False


@dataclass(frozen=True)
class Row:
    number: int
    segments: tuple[Segment, ...]
    notes: tuple[Note, ...] = ()


@dataclass(frozen=True)
class Listing:
    """A file's lines with the diagnostics under them; ``loose`` are those
    about the whole file (no line)."""

    rows: tuple[Row, ...]
    loose: tuple[Note, ...] = ()

    @property
    def has_notes(self) -> bool:
        return bool(self.loose) or any(r.notes for r in self.rows)


def _where(d: Diagnostic) -> str:
    where = printable(d.file)
    if d.line:
        where += f":{d.line}" + (f":{d.column}" if d.column else "")
    return where


def _note(d: Diagnostic, row_text: str | None) -> Note:
    cells = caret_cells(d)
    source = shown_source_line(d) if d.source_line is not None and d.line else None
    return Note(_where(d), d.severity, d.code, printable(d.message), printable(d.hint) if d.hint else None,
                " " * cells if cells is not None else None, source if source != row_text else None)


def _segments(text: str, columns: Iterable[int]) -> tuple[Segment, ...]:
    marks = sorted({c - 1 for c in columns if 0 < c <= len(text)})
    out, at = [], 0
    for i in marks:
        if i > at:
            out.append(Segment(text[at:i]))
        out.append(Segment(text[i], True))
        at = i + 1
    if at < len(text) or not out:
        out.append(Segment(text[at:]))
    return tuple(out)


def listing(text: str, diagnostics: Iterable[Diagnostic]) -> Listing:
    """``text``'s lines, each followed by the diagnostics about it, their
    characters marked; the terminal's order (:func:`position_key`)."""
    lines = [printable(line) for line in text.split("\n")]
    if lines and lines[-1] == "":
        lines.pop()
    by_line: dict[int, list[Diagnostic]] = {}
    loose = []
    for d in sorted(diagnostics, key=position_key):
        if 0 < d.line <= len(lines):
            by_line.setdefault(d.line, []).append(d)
        else:
            loose.append(_note(d, None))
    rows = []
    for number, line in enumerate(lines, 1):
        here = by_line.get(number, [])
        notes = tuple(_note(d, line) for d in here)
        columns = [d.column for d, n in zip(here, notes) if n.source is None]
        rows.append(Row(number, _segments(line, columns), notes))
    return Listing(tuple(rows), tuple(loose))


@dataclass(frozen=True)
class FileResult:
    """One file of a receipt (or of a check) as the page shows it."""

    file: str
    sha256: str
    size: int
    errors: int
    warnings: int
    checked: str
    state: str
    listing: Listing
    clauses: tuple[Clause, ...]


@dataclass(frozen=True)
class Elsewhere:
    """Diagnostics about one of the player's files that this receipt did not
    carry (a sheet's check that found an error in its plan file)."""

    file: str
    text: str


def _checked_words(f: FileReceipt, lang: str) -> str:
    if f.battles:
        return message(lang, "intake.checked", errors=f.errors, warnings=f.warnings,
                       battles=word(lang, "list.sep").join(f.battles))
    return message(lang, "intake.checked_alone", errors=f.errors, warnings=f.warnings)


def state_words(f: FileReceipt, lang: str) -> str:
    """What the round does with the file, as the receipt by mail says it
    (the one sentence that tells a mail's ``use: this`` has its page words)."""
    if f.state == "late":
        current = (message(lang, "intake.late.current", current=f.current_sha256) if f.current_sha256
                   else message(lang, "intake.late.none"))
        return message(lang, "intake.state.late", current_words=current)
    key = "web.state.kept-previous" if f.state == "kept-previous" else f"intake.state.{f.state}"
    return message(lang, key, current=f.current_sha256 or "")


def file_results(receipt: Receipt, texts: dict[str, str], lang: str) -> tuple[list[FileResult], list[Elsewhere]]:
    """Each file of ``receipt`` with its text (``texts``: file -> text as
    received) and every diagnostic about it under its line -- whichever
    file's check found it; those about the player's files this receipt does
    not carry apart, in the terminal's form."""
    by_file: dict[str, dict[tuple[Any, ...], Diagnostic]] = {}
    for f in receipt.files:
        for d in f.diagnostics:
            by_file.setdefault(d.file, {}).setdefault((d.file, d.line, d.column, d.code, d.message), d)
    results = [FileResult(f.file, f.sha256, f.size, f.errors, f.warnings, _checked_words(f, lang),
                          state_words(f, lang), listing(texts.get(f.file, ""), by_file.pop(f.file, {}).values()),
                          f.clauses) for f in receipt.files]
    elsewhere = [Elsewhere(file, "\n".join(format_diagnostic(d) for d in sorted(ds.values(), key=position_key)))
                 for file, ds in sorted(by_file.items())]
    return results, elsewhere


@dataclass(frozen=True)
class FileView:
    """One of the player's files on their page.

    :param text: what its box starts with: the last version received (a
        version with errors too, to be fixed), else empty.
    :param shown: the sha256 of that text, so the page can tell which boxes
        the player changed.
    :param current: the text of the version the round uses (read-only after the lock).
    """

    file: str
    kind: str
    words: str
    text: str
    shown: str
    current: str | None


def player_files(state: LedgerState, inbox: Inbox, player: Player, status: PlayerStatus,
                 lang: str) -> list[FileView]:
    out = []
    for rel, fs in zip(player.files, status.files):
        latest = state.latest(rel)
        current = state.current.get(rel)
        shown = latest.sha256 if latest is not None else (current or "")
        text = inbox.get(shown).decode("utf-8") if shown else ""
        out.append(FileView(rel, file_kind(rel) or "sheet", file_words(lang, fs), text, shown,
                            inbox.get(current).decode("utf-8") if current else None))
    return out


@dataclass(frozen=True)
class VersionView:
    """One received version, for the organiser: when, its digest, what came
    of it, and its diagnostics under its lines."""

    version: Version
    current: bool
    result: FileResult | None
    elsewhere: tuple[Elsewhere, ...] = field(default_factory=tuple)


def versions(state: LedgerState, inbox: Inbox, rel: str, lang: str) -> list[VersionView]:
    """Every version of ``rel`` received, newest first, each with the
    diagnostics its receipt gave."""
    out = []
    for v in reversed(state.versions.get(rel, [])):
        receipt = Receipt.from_json(state.receipts[v.key]) if state.receipts.get(v.key) else None
        result: FileResult | None = None
        elsewhere: tuple[Elsewhere, ...] = ()
        if receipt is not None:
            mine = replace(receipt, files=tuple(f for f in receipt.files if f.file == rel))
            results, others = file_results(mine, {rel: inbox.get(v.sha256).decode("utf-8")}, lang)
            result, elsewhere = (results[0] if results else None), tuple(others)
        out.append(VersionView(v, state.current.get(rel) == v.sha256, result, elsewhere))
    return out
