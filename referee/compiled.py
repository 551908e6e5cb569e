"""The compiled core: which modules mypyc compiles, and the guard that never
runs a compiled module older than its source.

The build (``setup.py``) compiles the modules of :data:`COMPILED` with mypyc
and writes :data:`MANIFEST` beside this file: every module it compiled, the
SHA-256 of the source it compiled, and the files it made.  ``import referee``
calls :func:`guard` before any of those modules loads.  The compiled modules
run only when every one of them still matches its source; otherwise -- a
source edited since the build, a source or a built file missing, no manifest,
or ``REFEREE_PURE=1`` -- every module of the table is imported from its source
(never a mix: compiled code calls its compiled neighbours directly), and an
out-of-date build says so once on stderr, with the command that rebuilds it.

This module is read by ``setup.py`` before the package exists, so it imports
the standard library only.
"""

from __future__ import annotations

import hashlib
import os
import sys
from collections.abc import Sequence
from importlib.machinery import SOURCE_SUFFIXES, FileFinder, ModuleSpec, SourceFileLoader
from types import ModuleType

#: The modules mypyc compiles when the package is installed (a package stands
#: for every module under it).  The engine, its mechanics and the written
#: report join when they compile (docs/architecture.md, "The compiled core").
COMPILED: tuple[str, ...] = (
    "referee.board",
    "referee.elements",
)

#: The build's record of what it compiled, beside this file.
MANIFEST = "compiled-modules.txt"

#: The shared library the compiled modules live in (mypyc's group name).
LIBRARY = "referee.compiled"

#: Set to 1 to run the interpreted source although compiled modules are installed.
PURE_ENV = "REFEREE_PURE"


def in_table(module: str) -> bool:
    """Whether ``module`` is one of :data:`COMPILED` or inside one of its packages."""
    return any(module == name or module.startswith(name + ".") for name in COMPILED)


def table_sources(root: str, table: Sequence[str] = COMPILED) -> dict[str, str]:
    """Each module of the table with its source file, relative to ``root``
    (the folder holding ``referee/``), in a stable order."""
    sources: dict[str, str] = {}
    for name in table:
        base = os.path.join(*name.split("."))
        if os.path.isdir(os.path.join(root, base)):
            for folder, dirs, files in os.walk(os.path.join(root, base)):
                dirs[:] = sorted(d for d in dirs if d != "__pycache__")
                for file in sorted(f for f in files if f.endswith(".py")):
                    path = os.path.relpath(os.path.join(folder, file), root)
                    module = path[: -len(".py")].replace(os.sep, ".").removesuffix(".__init__")
                    sources[module] = path
        else:
            sources[name] = base + ".py"
    return sources


def source_digest(path: str) -> str:
    """The SHA-256 of a source file's bytes, as the build records it."""
    with open(path, "rb") as file:
        return hashlib.sha256(file.read()).hexdigest()


class Entry:
    """One line of the manifest: a file the build made and, for a compiled
    module, the module, its source and the SHA-256 of the source compiled
    (``-`` for the library the modules share)."""

    def __init__(self, built: str, module: str = "-", source: str = "-", digest: str = "-") -> None:
        self.built = built
        self.module = module
        self.source = source
        self.digest = digest

    def line(self) -> str:
        return " ".join((self.built, self.module, self.source, self.digest))


def write_manifest(root: str, entries: Sequence[Entry]) -> None:
    """Record a build under ``root`` (the folder holding ``referee/``), whole or not at all."""
    path = os.path.join(root, "referee", MANIFEST)
    with open(path + ".tmp", "w", encoding="utf-8") as file:
        file.write("# Written by setup.py's build: file built, module, source, sha256 of the source compiled.\n")
        file.writelines(entry.line() + "\n" for entry in entries)
    os.replace(path + ".tmp", path)


def read_manifest(root: str) -> list[Entry]:
    """The entries of the build recorded under ``root``; none without a
    manifest; ``ValueError`` for a damaged one."""
    try:
        with open(os.path.join(root, "referee", MANIFEST), encoding="utf-8") as file:
            lines = [line.split() for line in file if line.strip() and not line.startswith("#")]
    except FileNotFoundError:
        return []
    if any(len(fields) != 4 for fields in lines):
        raise ValueError(f"referee/{MANIFEST} is damaged")
    return [Entry(*fields) for fields in lines]


def remove_build(root: str) -> None:
    """Delete the files a recorded build made under ``root``, and its manifest,
    so that a new build (compiled or not) never leaves stale ones behind."""
    try:
        entries = read_manifest(root)
    except ValueError:
        entries = []
    for entry in entries:
        path = os.path.join(root, entry.built)
        if os.path.exists(path):
            os.remove(path)
    manifest = os.path.join(root, "referee", MANIFEST)
    if os.path.exists(manifest):
        os.remove(manifest)


def out_of_date(root: str, entries: Sequence[Entry]) -> list[str]:
    """What stops the recorded build from running: each source edited since
    the build or missing, each built file missing; empty when it may run."""
    problems = []
    for entry in entries:
        if not os.path.exists(os.path.join(root, entry.built)):
            problems.append(f"{entry.built} is missing")
        elif entry.module != "-":
            source = os.path.join(root, entry.source)
            if not os.path.exists(source):
                problems.append(f"{entry.source} is missing")
            elif source_digest(source) != entry.digest:
                problems.append(f"{entry.source} changed since the build")
    return problems


class SourceOnly:
    """A meta path finder that finds the modules of the table (and of the
    recorded build) as source files only, so no compiled module of theirs loads."""

    def __init__(self, modules: frozenset[str]) -> None:
        self.modules = modules
        self.finders: dict[str, FileFinder] = {}
        # every import asks this finder first: most answer "no" from this prefix test alone
        self.prefixes = COMPILED + tuple(modules)

    def find_spec(self, fullname: str, path: Sequence[str] | None = None,
                  target: ModuleType | None = None) -> ModuleSpec | None:
        if not fullname.startswith(self.prefixes) or not (in_table(fullname) or fullname in self.modules):
            return None
        for entry in path or ():
            finder = self.finders.get(entry)
            if finder is None:
                finder = self.finders[entry] = FileFinder(entry, (SourceFileLoader, SOURCE_SUFFIXES))
            spec = finder.find_spec(fullname)
            if spec is not None and spec.loader is not None:
                return spec
        raise ModuleNotFoundError(f"No module named {fullname!r} (its source is missing)", name=fullname)


def guard() -> str:
    """Choose, before any module of the table loads, between the compiled
    modules and the source; return which runs, for ``referee --version``."""
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    pure = os.environ.get(PURE_ENV, "") not in ("", "0")
    try:
        entries = read_manifest(root)
        problems = [] if pure else out_of_date(root, entries)
    except ValueError as damaged:
        entries, problems = [], [str(damaged)]
    if pure:
        reason = f"{PURE_ENV}={os.environ[PURE_ENV]}"
    elif problems:
        more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
        print(f"referee: the compiled modules are out of date: {problems[0]}{more}; running the "
              f"interpreted source instead (slower). Rebuild them (`pip install -e .` in a checkout, or "
              f"reinstall the package); {PURE_ENV}=1 runs the source without this warning.", file=sys.stderr)
        reason = "out of date"
    elif not entries:
        reason = "not compiled"
    else:
        return "compiled by mypyc"
    sys.meta_path.insert(0, SourceOnly(frozenset(entry.module for entry in entries if entry.module != "-")))
    return f"interpreted ({reason})"
