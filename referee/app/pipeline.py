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
from pathlib import Path

from referee.battlefile import load_battle
from referee.diagnostics import ReferError, has_errors
from referee.app.inputs import battle_inputs, resolve_inputs
from referee.report.record import Report

__all__ = ["choose_seed", "draw_seed", "parse_seed", "resolve_file", "write_atomic"]


def draw_seed() -> int:
    """A fresh seed from the operating system (0 .. 2**32 - 1)."""
    return int.from_bytes(os.urandom(4), "big")


def parse_seed(text: str) -> int | str:
    """``--seed`` value: a whole number stays a number, anything else is text.

    >>> parse_seed("20071213"), parse_seed("round-3")
    (20071213, 'round-3')
    """
    text = text.strip()
    if re.fullmatch(r"\d+", text):
        return int(text)
    if not text:
        raise ValueError("empty seed")
    return text


def resolve_file(path: str | Path, seed: int | str | None = None) -> Report:
    """Load, validate and resolve one battle file.

    :param seed: overrides the file's seed; with neither, a seed is drawn.
    :raises ReferError: with every diagnostic when the battle is invalid.
    """
    battle, diags = load_battle(path)
    if battle is None or has_errors(diags):
        raise ReferError(diags)
    used, source = choose_seed(seed, battle.seed)
    return resolve_inputs(battle_inputs(battle), battle.ruleset, used, source)


def choose_seed(option: int | str | None, filed: int | str | None) -> tuple[int | str, str]:
    """The seed and its source: ``--seed`` (``option``), else the battle
    file's (``file``), else one drawn from the operating system (``drawn``)."""
    if option is not None:
        return option, "option"
    if filed is not None:
        return filed, "file"
    return draw_seed(), "drawn"


def write_atomic(path: str | Path, text: str) -> None:
    """Write ``text`` (UTF-8) to ``path`` via a temporary file and a rename,
    so readers see the old file or the whole new one, never a part."""
    target = Path(path)
    folder = target.parent if str(target.parent) else Path(".")
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
