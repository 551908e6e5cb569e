"""The output folder of a round: checked, claimed and cleaned before any
battle runs.

Issue 17 (points 1, 16, 19) and issue 14's output paths:

- the folder must be writable, not a file, not below a file -- said once,
  before any battle, rather than as one "crash" per battle;
- the default ``DIR/reports`` must stay inside the round once symlinks are
  resolved (a ``reports`` symlink out of the round would let a round folder
  mailed in by a stranger overwrite files elsewhere);
- a folder holding another round's reports is refused unless the organiser
  says ``--replace``: two rounds in one folder mixed silently, standings
  contradicting the files next to them.  The folder is claimed with a small
  marker file naming the round; a re-run of the same round (or ``--replace``)
  first removes the reports the previous standings list;
- temporary files left by a killed run (``kill -9`` between write and
  rename) are removed.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

from referee.confine import UnsafePathError, confine, output_folder_problem, read_untrusted_text
from referee.diagnostics import Diagnostic, ReferError

__all__ = ["MARKER", "STANDINGS", "TEMPORARY", "prepare_output_folder", "remove_temporaries"]

#: The file that says which round a folder's reports belong to.
MARKER = ".referee-round.json"
#: The standings files a round writes (they list its reports).
STANDINGS = ("standings.md", "standings.json")

#: Temporary files of :func:`referee.app.pipeline.write_atomic`: ``.NAME.XXXXXXXX.tmp``.
TEMPORARY = re.compile(r"^\..+\.[A-Za-z0-9_]{8}\.tmp$")


def _refuse(folder: Path, code: str, message: str, hint: str | None = None) -> ReferError:
    return ReferError([Diagnostic(str(folder), 0, 0, code, message, hint=hint)])


def remove_temporaries(folder: Path) -> int:
    """Remove the temporary files a killed run left under ``folder``; how many."""
    removed = 0
    for dirpath, dirnames, filenames in os.walk(folder):
        dirnames.sort()
        for name in sorted(filenames):
            if TEMPORARY.match(name):
                try:
                    os.unlink(os.path.join(dirpath, name))
                    removed += 1
                except OSError:
                    pass
    return removed


def _previous_reports(folder: Path) -> list[Path]:
    """The reports the folder's previous standings list, confined to it."""
    text, _ = read_untrusted_text(folder / "standings.json")
    if text is None:
        return []
    try:
        rows = json.loads(text).get("battles", [])
    except (ValueError, AttributeError):
        return []
    out = []
    for row in rows if isinstance(rows, list) else []:
        for rel in row.get("reports", []) if isinstance(row, dict) else []:
            if not isinstance(rel, str):
                continue
            try:
                out.append(confine(folder / rel, folder))
            except UnsafePathError:
                continue
    return out


def _claimed_round(folder: Path) -> str | None:
    """The round named by the folder's marker; ``""`` for reports written
    with no marker (an older referee); ``None`` for a folder with neither."""
    text, _ = read_untrusted_text(folder / MARKER)
    if text is not None:
        try:
            data = json.loads(text)
        except ValueError:
            return ""
        return str(data.get("round", "")) if isinstance(data, dict) else ""
    return "" if (folder / "standings.json").exists() else None


def _round_id(path: Path) -> str:
    """The round's folder as text that is always valid UTF-8 (a folder name
    with undecodable bytes becomes backslash escapes)."""
    return os.fsencode(str(path)).decode("utf-8", "backslashreplace")


def prepare_output_folder(outdir: str | Path, round_folder: str | Path, *, default: bool,
                          replace: bool = False) -> Path:
    """Check, create and claim the output folder of a round; its resolved path.

    :param default: ``outdir`` is the default ``DIR/reports`` (it must then
        stay inside the round once symlinks are resolved); an ``-o`` the
        organiser typed may be anywhere.
    :param replace: remove another round's reports instead of refusing.
    :raises ReferError: with the reason, before any battle runs.
    """
    folder = Path(outdir)
    round_path = Path(round_folder).resolve()
    round_id = _round_id(round_path)
    problem = output_folder_problem(folder)
    if problem is not None:
        raise _refuse(folder, problem.code, problem.message)
    if default:
        try:
            confine(folder, round_path, str(folder))
        except UnsafePathError as err:
            raise _refuse(folder, err.problem.code,
                          f"the reports folder {str(folder)!r} leads outside the round (a symlink?); nothing was written",
                          hint="remove the symlink, or name an output folder with -o") from None
    try:
        folder.mkdir(parents=True, exist_ok=True)
        real = folder.resolve()
    except OSError as err:
        raise _refuse(folder, "output-unwritable", f"cannot create {folder}: {err.strerror or err}") from None
    claimed = _claimed_round(real)
    if claimed is not None and claimed != round_id and not replace:
        whose = f"round {claimed!r}" if claimed else "an earlier round"
        raise _refuse(folder, "output-holds-other-round",
                      f"{folder} holds the reports of {whose}; reports of two rounds would mix",
                      hint="add --replace to remove them first, or name another folder with -o")
    remove_temporaries(real)
    if claimed is not None:
        for old in _previous_reports(real) + [real / name for name in STANDINGS]:
            try:
                if old.is_file() and not old.is_symlink():
                    old.unlink()
            except OSError:
                pass
    from referee.app.pipeline import write_atomic

    write_atomic(real / MARKER, json.dumps({"round": round_id}, ensure_ascii=False) + "\n")
    return real
