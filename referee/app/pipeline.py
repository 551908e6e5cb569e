"""From a battle file to a report, and writing reports safely.

The commands share these steps: load and validate the battle
(:func:`referee.battlefile.load_battle`), choose the seed (``--seed``, else the
file's, else one drawn from ``os.urandom`` -- the only nondeterminism the
referee allows, and it is recorded in the report), resolve through the
normalised inputs, render.  :func:`write_atomic` never leaves a half-written
report: it writes a temporary file in the same folder and renames it.
"""

from __future__ import annotations

import os
import re
import tempfile
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Mapping

from referee.battlefile import Battle, load_battle
from referee.confine import confine
from referee.diagnostics import Diagnostic, ReferError, has_errors
from referee.limits import MAX_SEED_CHARS
from referee.textcheck import name_problem
from referee.app.inputs import battle_inputs, resolve_inputs
from referee.report.record import Report
from referee.ruleset import Ruleset

__all__ = ["PreparedBattle", "choose_seed", "draw_seed", "parse_seed", "prepare_file", "prepare_loaded",
           "resolve_file", "resolve_file_checked", "resolve_loaded", "write_atomic"]


def draw_seed() -> int:
    """A fresh seed from the operating system (0 .. 2**32 - 1)."""
    return int.from_bytes(os.urandom(4), "big")


def parse_seed(text: str) -> int | str:
    """``--seed`` value: a whole number stays a number, anything else is text.

    >>> parse_seed("20071213"), parse_seed("round-3")
    (20071213, 'round-3')
    """
    text = text.strip()
    if len(text) > MAX_SEED_CHARS:
        raise ValueError(f"a seed has at most {MAX_SEED_CHARS} characters")
    problem = name_problem(text, "a seed", MAX_SEED_CHARS) if text else None
    if problem is not None:
        raise ValueError(problem)
    if re.fullmatch(r"\d+", text):
        return int(text)
    if not text:
        raise ValueError("empty seed")
    return text


def resolve_file(path: str | Path, seed: int | str | None = None) -> Report:
    """:func:`resolve_file_checked` without the warnings (for callers that
    resolve a battle known to be clean, such as the bundled demo)."""
    return resolve_file_checked(path, seed)[0]


def resolve_file_checked(path: str | Path, seed: int | str | None = None) -> tuple[Report, list[Diagnostic]]:
    """Load, validate and resolve one battle file.

    :param seed: overrides the file's seed; with neither, a seed is drawn.
    :returns: the report and the battle's warnings (a clause that can never
        apply...), which the commands print: nothing a player wrote is
        silently ignored.
    :raises ReferError: with every diagnostic when the battle is invalid.
    """
    return resolve_loaded(load_battle(path), seed)


def resolve_loaded(loaded: tuple[Battle | None, list[Diagnostic]],
                   seed: int | str | None = None) -> tuple[Report, list[Diagnostic]]:
    """:func:`resolve_file_checked` from a battle already loaded with its
    diagnostics (a battle file's, or a practice battle's built in memory).

    :raises ReferError: with every diagnostic when the battle is invalid.
    """
    prepared, diags = prepare_loaded(loaded, seed)
    return prepared.resolve(), diags


@dataclass(frozen=True)
class PreparedBattle:
    """A battle loaded and checked, its seed chosen: everything the engine
    needs, as plain picklable values.  Why apart from resolving: a round on a
    Dask cluster loads its files where they are (the organiser's machine) and
    resolves on workers that may not see them (``referee batch --executor``).

    :param commitment: the round's ``{"commitment", "scheme"}`` when the seed
        is a committed one (:mod:`referee.app.seeds`), else ``None``.
    """

    inputs: Mapping[str, Any]
    ruleset: Ruleset
    seed: int | str
    seed_source: str
    commitment: Mapping[str, str] | None = None

    def resolve(self) -> Report:
        report = resolve_inputs(self.inputs, self.ruleset, self.seed, self.seed_source)
        return report if self.commitment is None else replace(report, commitment=self.commitment)


def prepare_file(path: str | Path, seed: int | str | None = None) -> tuple[PreparedBattle, list[Diagnostic]]:
    """Load and validate a battle file and choose its seed (see
    :func:`resolve_file_checked`, which resolves what this returns).

    :raises ReferError: with every diagnostic when the battle is invalid.
    """
    return prepare_loaded(load_battle(path), seed)


def prepare_loaded(loaded: tuple[Battle | None, list[Diagnostic]],
                   seed: int | str | None = None) -> tuple[PreparedBattle, list[Diagnostic]]:
    """:func:`prepare_file` from a battle already loaded with its diagnostics.

    :raises ReferError: with every diagnostic when the battle is invalid.
    """
    battle, diags = loaded
    if battle is None or has_errors(diags):
        raise ReferError(diags)
    used, source = choose_seed(seed, battle.seed)
    return PreparedBattle(battle_inputs(battle), battle.ruleset, used, source), diags


def choose_seed(option: int | str | None, filed: int | str | None) -> tuple[int | str, str]:
    """The seed and its source: ``--seed`` (``option``), else the battle
    file's (``file``), else one drawn from the operating system (``drawn``)."""
    if option is not None:
        return option, "option"
    if filed is not None:
        return filed, "file"
    return draw_seed(), "drawn"


def write_atomic(path: str | Path, text: str, root: str | Path | None = None) -> None:
    """Write ``text`` (UTF-8) to ``path`` via a temporary file and a rename,
    so readers see the old file or the whole new one, never a part.

    :param root: a folder the file must stay in once symlinks are resolved
        (a batch's output folder: a symlinked sub-folder inside it must not
        lead the write elsewhere), checked before any folder is created.
    :raises UnsafePathError: when the file would leave ``root``.
    """
    target = Path(path)
    folder = target.parent if str(target.parent) else Path(".")
    if root is not None:
        confine(folder, root)
    folder.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as handle:
            handle.write(text)
        os.chmod(tmp, 0o644)
        os.replace(tmp, target)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise
