"""A per-user cache of the built plan parser, stored as plain data.

Why: building the LALR tables of ``grammar/plan.lark`` takes about 0.6 s,
more than half of ``referee demo``'s run time and paid again by every
``referee check`` and by every ``referee batch`` worker.  Loading the built
tables takes about 0.06 s.

Why not lark's own ``cache=True``: it stores a *pickle* in the shared temporary
folder, and unpickling a file someone else could have written runs code.  The
referee never executes what it reads (developers' guide), so the tables are
written as a Python literal (``repr`` of lark's ``memo_serialize`` data) and
read back with :func:`ast.literal_eval`, which builds only dicts, lists,
strings and numbers.  The file lives in a folder only this user can write
(``$REFEREE_CACHE_DIR``, else ``$XDG_CACHE_HOME/tcgt-referee``, else
``~/.cache/tcgt-referee``); its name carries a digest of the grammar text, the
parser options and the lark and Python versions, so a changed grammar or an
upgraded lark never loads stale tables.  Any problem -- no writable home, a
damaged file, a folder others may write -- means the parser is simply built
as before; the cache can make the referee faster, never wrong.
``REFEREE_CACHE_DIR=`` (empty) turns it off.
"""

from __future__ import annotations

import ast
import hashlib
import os
import stat
import sys
import tempfile
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import lark
from lark import Lark
from lark.grammar import Rule
from lark.lexer import TerminalDef

__all__ = ["cache_dir", "cached_parser", "cache_file"]

ENV_VAR = "REFEREE_CACHE_DIR"


def cache_dir(environ: Mapping[str, str] | None = None) -> Path | None:
    """The cache folder, or ``None`` when caching is off or the folder is unsafe.

    The folder is created with mode 0700; an existing one is used only when
    this user owns it and nobody else may write to it."""
    env = os.environ if environ is None else environ
    if ENV_VAR in env:
        if not env[ENV_VAR]:
            return None
        folder = Path(env[ENV_VAR])
    else:
        base = env.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
        folder = Path(base) / "tcgt-referee"
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        info = folder.stat()
    except OSError:
        return None
    if not stat.S_ISDIR(info.st_mode) or info.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
        return None
    if hasattr(os, "getuid") and info.st_uid != os.getuid():
        return None
    return folder


def cache_file(folder: Path, grammar: str, options: Mapping[str, Any]) -> Path:
    """The file for this grammar text, these options and these lark/Python versions."""
    key = "\0".join([grammar, repr(sorted(options.items())), lark.__version__, sys.version.split()[0]])
    digest = hashlib.sha256(key.encode("utf-8")).hexdigest()[:24]
    return folder / f"plan-parser-{digest}.literal"


def _load(path: Path) -> Lark | None:
    try:
        data = ast.literal_eval(path.read_text(encoding="utf-8"))
        parser = Lark.load(data)  # a dict: lark deserialises it without pickle
    except Exception:  # absent, damaged or foreign: build rather than fail
        return None
    return parser if isinstance(parser, Lark) else None


def _save(parser: Lark, path: Path) -> None:
    """Write atomically (temporary file + rename): a worker starting at the
    same moment reads the old state or the whole new file."""
    data, memo = parser.memo_serialize([TerminalDef, Rule])
    text = repr({"data": data, "memo": memo})
    try:
        fd, tmp = tempfile.mkstemp(prefix=".plan-parser-", dir=path.parent)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as handle:
                handle.write(text)
            os.replace(tmp, path)
        except BaseException:
            os.unlink(tmp)
            raise
    except OSError:
        pass  # a read-only or full disk: the parser still works, just uncached


def cached_parser(grammar: str, options: Mapping[str, Any], build: Callable[[], Lark],
                  folder: Path | None) -> tuple[Lark, str]:
    """The parser from ``folder``'s cache file if present and sound, else
    ``build()`` (saved there for next time).  ``folder`` ``None``: no cache
    (pass :func:`cache_dir`).  Returns the parser and ``"cache"`` or ``"built"``."""
    if folder is None:
        return build(), "built"
    path = cache_file(folder, grammar, options)
    parser = _load(path)
    if parser is not None:
        return parser, "cache"
    parser = build()
    _save(parser, path)
    return parser, "built"
