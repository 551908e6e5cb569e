"""What a submission yields, as data: the receipt a player gets back.

The intake core (:func:`referee.intake.core.submit`) returns a
:class:`Receipt`; mail (``referee intake``) and the web page render it with
:mod:`referee.intake.render` in the player's language.  The core never writes
prose: every field here is a fact (a digest, a time, a diagnostic, a code).
A receipt is kept in the ledger as JSON (:meth:`Receipt.to_json`), so a
receipt lost to a crash is sent again exactly as it was decided.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from referee.diagnostics import Diagnostic

__all__ = ["Clause", "FileReceipt", "Notice", "Receipt", "OUTCOMES", "FILE_STATES"]

#: ``filed``: files taken (valid or not); ``late``: after the lock, kept but
#: not used; ``refused``: not the player (no effect); ``nothing``: the player,
#: but no file could be taken (the notices say why).
OUTCOMES = ("filed", "late", "refused", "nothing")

#: What the round does with one received file:
#: ``current`` -- this version is the one the round uses;
#: ``kept-previous`` -- it has errors, an earlier valid version stays current;
#: ``none-valid`` -- it has errors and no valid version exists yet;
#: ``current-invalid`` -- it has errors and the player asked for it anyway;
#: ``late`` -- received after the lock, not used.
FILE_STATES = ("current", "kept-previous", "none-valid", "current-invalid", "late")


@dataclass(frozen=True)
class Clause:
    """One plan clause as the referee understood it: its line and canonical text."""

    line: int
    text: str


@dataclass(frozen=True)
class Notice:
    """Something about the submission as a whole (not one file's diagnostics).

    :param code: ``html-only``, ``archive-refused``, ``unknown-file``,
        ``not-a-file-kind``, ``file-too-large``, ``encoding-refused``,
        ``too-many-files``, ``duplicate-file``, ``no-files``, ``unknown-version``,
        ``bad-part``.
    :param detail: what it is about: a file name as sent (made printable,
        at most 80 characters), ``body``, or a number; never text of the
        message's body.
    :param value: a fact about it: a size in bytes, a declared charset.
    """

    code: str
    detail: str = ""
    value: str = ""


@dataclass(frozen=True)
class FileReceipt:
    """One file of a submission.

    :param file: the roster's path of the file (``sheets/kagura.yaml``).
    :param sha256: the digest of the version received (of its UTF-8 text),
        the one a report's ``inputs_digest`` records as ``source:FILE``.
    :param current_sha256: the version the round will use (``None``: none).
    :param battles: the battles it was checked against (round-relative).
    :param clauses: the plan as understood (a plan file, or a sheet's plan).
    """

    file: str
    sha256: str
    size: int
    state: str
    current_sha256: str | None
    diagnostics: tuple[Diagnostic, ...] = ()
    battles: tuple[str, ...] = ()
    clauses: tuple[Clause, ...] = ()

    @property
    def errors(self) -> int:
        return sum(d.is_error for d in self.diagnostics)

    @property
    def warnings(self) -> int:
        return len(self.diagnostics) - self.errors


@dataclass(frozen=True)
class Receipt:
    """The answer to one submission.

    :param to: the roster's address to send it to (``None``: no reply at all);
        never an address taken from the message.
    :param received: ISO 8601 time the submission was received.
    :param deadline: the roster's deadline (ISO 8601), if any.
    :param promoted: earlier versions that became current with this
        submission (a sheet waiting for the plan file it names).
    """

    key: str
    outcome: str
    round: str
    lang: str
    received: str
    player: str | None = None
    player_name: str = ""
    to: str | None = None
    deadline: str | None = None
    locked: bool = False
    files: tuple[FileReceipt, ...] = ()
    promoted: tuple[FileReceipt, ...] = ()
    notices: tuple[Notice, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @staticmethod
    def from_json(data: dict[str, Any]) -> Receipt:
        def file(f: dict[str, Any]) -> FileReceipt:
            return FileReceipt(**{**f, "diagnostics": tuple(Diagnostic(**d) for d in f["diagnostics"]),
                                  "battles": tuple(f["battles"]),
                                  "clauses": tuple(Clause(**c) for c in f["clauses"])})

        return Receipt(**{**data, "files": tuple(file(f) for f in data["files"]),
                          "promoted": tuple(file(f) for f in data["promoted"]),
                          "notices": tuple(Notice(**n) for n in data["notices"])})
