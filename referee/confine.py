"""The one gate every path read or written by the referee goes through.

Files come from strangers (``docs/security.md``): a sheet may name a plan
``../../etc/passwd``, a battle file may itself be a symlink out of the round,
a plan "file" may be a FIFO that blocks forever or ``/dev/zero``, a report
folder may be a symlink into someone's home.  So:

- :func:`confine` resolves a path -- every symlink, ``..`` included --
  *before* it checks that the result stays inside the folder it must stay in;
  a NUL byte, an over-long path or a symlink loop is a problem with a name,
  never a traceback;
- :func:`read_untrusted` reads through :func:`confine`, opens without
  blocking, refuses anything that is not a regular file (FIFO, device,
  folder) and anything over a size limit (:mod:`referee.limits`), reading at
  most one byte past the limit;
- :func:`output_file_problem` / :func:`output_folder_problem` say, before
  any battle runs, why an output path cannot be written (a folder where a file
  is wanted, a file in the way of a folder, no write permission).

Problems are :class:`PathProblem` values (a stable code and words); callers
place them at the field that named the path.
"""

from __future__ import annotations

import errno
import os
import stat
from dataclasses import dataclass
from pathlib import Path

from referee.diagnostics import Diagnostic
from referee.limits import MAX_INPUT_BYTES, MAX_PATH_CHARS
from referee.textcheck import is_unsafe_character, printable
from referee.textfile import decode_text

__all__ = [
    "PathProblem",
    "UnsafePathError",
    "confine",
    "read_untrusted",
    "read_untrusted_text",
    "read_resolved",
    "resolve_below",
    "output_file_problem",
    "output_folder_problem",
    "problem_diagnostic",
    "working_root",
    "without_place",
]


@dataclass(frozen=True)
class PathProblem:
    """Why a path was not read or written.

    :param code: ``bad-path``, ``symlink-loop``, ``path-outside``,
        ``file-not-found``, ``not-a-file``, ``unreadable``, ``file-too-large``,
        ``output-is-folder``, ``output-below-file``, ``output-unwritable``.
    :param message: words for the organiser, naming the path.
    """

    code: str
    message: str


class UnsafePathError(Exception):
    """Raised by :func:`confine` and :func:`read_untrusted`; carries the problem."""

    def __init__(self, problem: PathProblem) -> None:
        super().__init__(problem.message)
        self.problem = problem


def working_root(path: Path | str) -> Path | None:
    """The folder a sheet named on the command line may take its plan from:
    the working folder when the sheet is inside it, else ``None`` (the
    sheet's own folder).  Why: a player keeps ``sheets/a.yaml`` beside
    ``plans/a.plan``; a battle file still keeps every path inside its own
    folder tree."""
    here = Path.cwd().resolve()
    try:
        return here if Path(path).resolve().is_relative_to(here) else None
    except (OSError, ValueError):
        return None


def problem_diagnostic(problem: PathProblem, file: str, line: int = 0, column: int = 0) -> Diagnostic:
    """The problem as a diagnostic about ``file`` (line 0: the whole file)."""
    return Diagnostic(file, line, column, problem.code, problem.message)


def _fail(code: str, message: str) -> UnsafePathError:
    return UnsafePathError(PathProblem(code, message))


def _check_spelling(path: Path | str, shown: str) -> None:
    text = str(path)
    if "\x00" in text:
        raise _fail("bad-path", f"{shown!r} contains a NUL character; it is not a path")
    if len(text) > MAX_PATH_CHARS:
        raise _fail("bad-path", f"a path of {len(text)} characters is longer than the {MAX_PATH_CHARS} allowed")
    if not text.isprintable() and any(is_unsafe_character(ch) for ch in text):
        # control characters, or bytes that are not UTF-8 (lone surrogates):
        # such a name would reach reports and terminals
        raise _fail("bad-path", f"{printable(shown)!r} holds a control character or bytes that are not UTF-8")


def confine(path: Path | str, root: Path | str | None, shown: str | None = None) -> Path:
    """``path`` with every symlink resolved, checked to stay inside ``root``.

    Why resolve first: checking the written path and then opening it would let
    a symlink (a battle file, a sheet, a ``reports`` folder) lead anywhere.

    :param root: the folder the path may not leave (itself resolved); ``None``
        resolves without confining.
    :param shown: the path as the user wrote it, for messages.
    :raises UnsafePathError: ``bad-path``, ``symlink-loop`` or ``path-outside``.
    """
    shown = str(path) if shown is None else shown
    _check_spelling(path, shown)
    try:
        resolved = Path(path).resolve()
    except RuntimeError:  # Python 3.11 reports a symlink loop this way
        raise _fail("symlink-loop", f"{shown!r} is a symlink loop") from None
    except OSError as err:
        if err.errno == errno.ELOOP:
            raise _fail("symlink-loop", f"{shown!r} is a symlink loop") from None
        raise _fail("bad-path", f"{shown!r} cannot be followed: {err.strerror or err}") from None
    if root is not None:
        try:
            base = Path(root).resolve()
        except (RuntimeError, OSError):
            raise _fail("symlink-loop", f"the folder {str(root)!r} cannot be resolved") from None
        if not resolved.is_relative_to(base):
            raise _fail("path-outside", f"{shown!r} leads outside the folder {str(root)!r}; it was not read")
    return resolved


def read_untrusted(path: Path | str, root: Path | str | None = None, *, shown: str | None = None,
                   limit: int = MAX_INPUT_BYTES) -> bytes:
    """The bytes of a regular file inside ``root``, at most ``limit`` of them.

    Opened with ``O_NONBLOCK`` so a FIFO cannot block, then checked with
    ``fstat`` on the open descriptor (no race between the check and the read):
    FIFOs, devices (``/dev/zero``) and folders are refused.

    :raises UnsafePathError: see :class:`PathProblem` for the codes.
    """
    shown = str(path) if shown is None else shown
    return read_resolved(confine(path, root, shown), shown, limit=limit)


def read_resolved(real: Path | str, shown: str, *, limit: int = MAX_INPUT_BYTES) -> bytes:
    """The bytes of ``real``, a path :func:`confine` (or :func:`resolve_below`)
    has already resolved and checked: :func:`read_untrusted` without the
    confinement, for a caller that confined the path itself.

    :raises UnsafePathError: ``file-not-found``, ``not-a-file``,
        ``unreadable``, ``file-too-large``, ``symlink-loop``.
    """
    flags = os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_NOFOLLOW", 0)
    try:
        fd = os.open(real, flags)
    except FileNotFoundError:
        raise _fail("file-not-found", f"{shown} does not exist") from None
    except PermissionError:
        raise _fail("unreadable", f"{shown} cannot be read (permission denied)") from None
    except OSError as err:
        if err.errno == errno.ELOOP:  # swapped for a symlink after it was resolved
            raise _fail("symlink-loop", f"{shown!r} changed into a symlink while being read") from None
        if err.errno == errno.ENOTDIR:
            raise _fail("file-not-found", f"{shown} does not exist (a part of it is a file)") from None
        raise _fail("unreadable", f"{shown} cannot be read: {err.strerror or err}") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            kind = ("a folder" if stat.S_ISDIR(info.st_mode) else
                    "a FIFO (named pipe)" if stat.S_ISFIFO(info.st_mode) else
                    "a device" if stat.S_ISCHR(info.st_mode) or stat.S_ISBLK(info.st_mode) else
                    "a socket" if stat.S_ISSOCK(info.st_mode) else "not a plain file")
            raise _fail("not-a-file", f"{shown} is {kind}, not a regular file; it was not read")
        if info.st_size > limit:
            raise _fail("file-too-large", f"{shown} has {info.st_size:,} bytes; the limit is {limit:,}")
        os.set_blocking(fd, True)
        chunks: list[bytes] = []
        size = 0
        while size <= limit:
            chunk = os.read(fd, min(1 << 20, limit + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        if size > limit:  # it grew while being read
            raise _fail("file-too-large", f"{shown} has more than {limit:,} bytes (the limit)")
        return b"".join(chunks)
    except OSError as err:
        raise _fail("unreadable", f"{shown} cannot be read: {err.strerror or err}") from None
    finally:
        os.close(fd)


def resolve_below(base: str, rel: str, written: str) -> tuple[str, os.stat_result] | None:
    """``rel`` resolved inside ``base`` -- a folder already resolved by
    :func:`confine` -- and the ``lstat`` of its last part, when that needs no
    symlink resolution: every part of ``rel`` an existing name that is not a
    symlink, no ``.``/``..``/empty part, printable, not absolute, and
    ``written`` (the path as the caller would give it to :func:`confine`)
    spelt acceptably.  Then the
    path *is* its own resolution, inside ``base`` by construction, and
    :func:`confine` would answer the same.  ``None`` otherwise: the caller
    goes through :func:`confine`, which words every problem.

    Why (issue 18, item 2): :func:`confine` resolves the folder and every
    part of the path from the root, through pathlib, for each of a battle's
    16 sheets; here only the parts below the battle's folder are looked at.
    """
    if not base.startswith("/") or base.endswith("/") or not rel.isprintable() or rel.startswith(("/", "~")):
        return None
    if _spelling_problem(written) is not None:
        return None
    current = base
    info = None
    for part in rel.split("/"):
        if part in ("", ".", ".."):
            return None
        current = f"{current}/{part}"
        try:
            info = os.lstat(current)
        except (OSError, ValueError):
            return None
        if stat.S_ISLNK(info.st_mode):
            return None
    if info is None or len(current) > MAX_PATH_CHARS:
        return None
    return current, info


def read_untrusted_text(path: Path | str, root: Path | str | None = None, *, shown: str | None = None,
                        limit: int = MAX_INPUT_BYTES) -> tuple[str | None, list[Diagnostic]]:
    """:func:`read_untrusted` decoded as UTF-8 (a BOM dropped); every problem
    a diagnostic about ``shown`` -- an undecodable byte at its line and column."""
    shown = str(path) if shown is None else shown
    try:
        raw = read_untrusted(path, root, shown=shown, limit=limit)
    except UnsafePathError as err:
        return None, [problem_diagnostic(err.problem, shown)]
    return decode_text(raw, shown)


def _spelling_problem(path: Path | str) -> PathProblem | None:
    try:
        _check_spelling(path, str(path))
    except UnsafePathError as err:
        return err.problem
    return None


def _nearest_existing(path: Path) -> Path:
    current = path
    while not os.path.lexists(current) and current != current.parent:
        current = current.parent
    return current


def output_folder_problem(folder: Path | str) -> PathProblem | None:
    """Why ``folder`` cannot hold output files (``None``: it can).

    Checked before any battle runs, so an unwritable output never turns into
    a crash per battle."""
    shown = str(folder)
    spelling = _spelling_problem(folder)
    if spelling is not None:
        return spelling
    path = Path(folder)
    existing = _nearest_existing(path.absolute())
    if existing.exists() and not existing.is_dir():
        code = "output-is-file" if existing == path.absolute() else "output-below-file"
        return PathProblem(code, f"cannot write into {shown}: {existing} is a file, not a folder")
    if not existing.exists():  # a dangling symlink on the way
        return PathProblem("output-below-file", f"cannot write into {shown}: {existing} is a broken symlink")
    if not os.access(existing, os.W_OK | os.X_OK):
        return PathProblem("output-unwritable", f"cannot write into {shown}: {existing} is not writable")
    return None


def output_file_problem(file: Path | str) -> PathProblem | None:
    """Why ``file`` cannot be written as a report (``None``: it can): a folder
    of that name, a file in the way of its folder, no write permission."""
    shown = str(file)
    spelling = _spelling_problem(file)
    if spelling is not None:
        return spelling
    path = Path(file)
    if path.is_dir():
        return PathProblem("output-is-folder", f"cannot write {shown}: it is a folder; name a file")
    parent = path.parent if str(path.parent) else Path(".")
    problem = output_folder_problem(parent)
    if problem is not None and problem.code == "output-is-file":
        return PathProblem("output-below-file", problem.message)
    return problem


def without_place(text: str, folder: str | Path) -> str:
    """``text`` with ``folder``'s place on this machine taken out: paths in
    it become relative to the folder (the folder itself ``.``).  For words a
    player or a web page sees, which name no path of the organiser's disk."""
    for place in dict.fromkeys((str(folder), os.path.realpath(folder))):
        text = text.replace(place + os.sep, "").replace(place, ".")
    return text
