"""User-facing errors as data (style lesson 10/11).

Every validator in the referee returns a list of :class:`Diagnostic` and never
stops at the first problem: a player who mails a plan with three mistakes must
see all three at once. Only :func:`format_diagnostic` turns them into prose, in
the one form ``file:line:col: error[code]: message`` followed by the source line
and a caret.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, replace
from typing import Iterable, Literal, Sequence

Severity = Literal["error", "warning"]


@dataclass(frozen=True)
class Diagnostic:
    """One problem found in one input file.

    :param code: stable kebab-case identifier (``unknown-skill``); tools key on it.
    :param message: one sentence in words a player understands.
    :param file: the path as the user gave it (or ``<string>``).
    :param line: 1-based line, 0 when the problem is about the whole file.
    :param column: 1-based column, 0 when unknown.
    :param hint: optional follow-up ("did you mean 'firecracker' (炸撃)?").
    :param severity: ``error`` fails ``referee check``; ``warning`` does not.
    :param source_line: the text of the offending line, for the caret display.
    """

    file: str
    line: int
    column: int
    code: str
    message: str
    hint: str | None = None
    severity: Severity = "error"
    source_line: str | None = None

    @property
    def is_error(self) -> bool:
        return self.severity == "error"

    def to_json(self) -> dict[str, object]:
        """A plain dict for ``--format json`` (field names are part of the interface)."""
        data = asdict(self)
        data.pop("source_line")
        return data


class ReferError(Exception):
    """Base of every error the CLI reports as diagnostics rather than a traceback."""

    def __init__(self, diagnostics: Sequence[Diagnostic]) -> None:
        self.diagnostics: tuple[Diagnostic, ...] = tuple(diagnostics)
        super().__init__("\n".join(format_diagnostic(d) for d in self.diagnostics))


def has_errors(diagnostics: Iterable[Diagnostic]) -> bool:
    """True when any diagnostic is an error (warnings do not fail a check)."""
    return any(d.is_error for d in diagnostics)


def format_diagnostic(diag: Diagnostic) -> str:
    """Render one diagnostic as ``file:line:col: error[code]: message`` plus caret.

    >>> print(format_diagnostic(Diagnostic("a.plan", 2, 5, "unknown-skill",
    ...       "unknown skill 'fireball'", hint="did you mean 'firecracker' (炸撃)?",
    ...       source_line="use fireball first")))
    a.plan:2:5: error[unknown-skill]: unknown skill 'fireball'
        use fireball first
            ^
      hint: did you mean 'firecracker' (炸撃)?
    """
    where = _visible(diag.file)
    if diag.line:
        where += f":{diag.line}"
        if diag.column:
            where += f":{diag.column}"
    out = [f"{where}: {diag.severity}[{diag.code}]: {_visible(diag.message)}"]
    if diag.source_line is not None and diag.line:
        out.append("    " + shown_source_line(diag))
        cells = caret_cells(diag)
        if cells is not None:
            out.append("    " + " " * cells + "^")
    if diag.hint:
        out.append(f"  hint: {_visible(diag.hint)}")
    return "\n".join(out)


def shown_source_line(diag: Diagnostic) -> str:
    """The offending line as it is shown above the caret (made safe to print)."""
    return _visible((diag.source_line or "").rstrip("\n"))


def caret_cells(diag: Diagnostic) -> int | None:
    """How many cells of :func:`shown_source_line` stand before the caret
    (East Asian wide characters take two), or ``None`` when there is no caret.
    The terminal, the receipts and the web page all place it by this."""
    if diag.source_line is None or not diag.line or not diag.column:
        return None
    return display_width(shown_source_line(diag)[: diag.column - 1])


def _visible(text: str) -> str:
    """``text`` safe for a terminal (issue 17, point 14): see
    :func:`referee.textcheck.printable`."""
    from referee.textcheck import printable

    return printable(text)


def position_key(diag: Diagnostic) -> tuple[str, int, int, str, str]:
    """The order diagnostics are shown in: file, line, column, then code and
    message (fields that are never None, so any two compare)."""
    return diag.file, diag.line, diag.column, diag.code, diag.message


def distinct(diagnostics: Iterable[Diagnostic]) -> list[Diagnostic]:
    """Each diagnostic once, first seen first: one file reached twice (a
    sheet's plan also named on the command line) reports its problems once."""
    return list(dict.fromkeys(diagnostics))


def with_source_lines(diagnostics: Iterable[Diagnostic], text: str) -> list[Diagnostic]:
    """``diagnostics`` of the file whose text is ``text``, each without a
    source line given the one it points at (for the caret)."""
    lines = text.lstrip("\ufeff").replace("\r\n", "\n").split("\n")
    return [replace(d, source_line=lines[d.line - 1]) if d.source_line is None and 0 < d.line <= len(lines) else d
            for d in diagnostics]


def format_diagnostics(diagnostics: Iterable[Diagnostic]) -> str:
    """All diagnostics, sorted by file and position, one block each."""
    return "\n".join(format_diagnostic(d) for d in sorted(diagnostics, key=position_key))


def diagnostics_to_json(diagnostics: Iterable[Diagnostic]) -> str:
    """The ``--format json`` rendering: a JSON list in file/position order."""
    text = json.dumps([d.to_json() for d in sorted(diagnostics, key=position_key)], ensure_ascii=False, indent=2)
    # A file name with undecodable bytes carries lone surrogates: written as
    # JSON escapes, so the output is still UTF-8 (and still JSON).
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


def display_width(text: str) -> int:
    """Terminal cells taken by ``text``: full-width (CJK) characters count two.

    Used by the caret printer and by board diagrams so Japanese names keep
    columns aligned.
    """
    import unicodedata

    return sum(2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1 for ch in text)
