"""The round's inbox on disk: an append-only ledger over a content-addressed store.

``ROUND/intake/`` holds:

- ``objects/ab/ab12...``: every version of every file ever received, named
  by the sha256 of its bytes and written once (temporary file, fsync,
  rename): a version is never changed or removed;
- ``ledger.jsonl``: one JSON line per event -- a submission and what came of
  it (its files, the receipt), a receipt sent, the lock, a missing plan
  replaced at the batch.  A line is written whole with one ``write`` and
  fsynced before anything else happens, so it is the moment a submission
  counts; a line cut short by a crash has no newline and is dropped (and cut
  off) on the next read;
- ``lock``: held with ``flock`` while a submission is filed, so mail, the web
  page and ``referee lock`` never interleave;
- ``rejected/``: messages that could not be read, each beside its reason.

What the round uses -- each file's *current* version -- is never stored: it
is :meth:`LedgerState.current`, a fold over the ledger, and the round's own
files are brought in line with it by :func:`sync_round_files` (atomic
writes), so a crash between the ledger and the files is mended by the next
run.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import os
import tempfile
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Iterator

from referee.app.pipeline import write_atomic
from referee.confine import UnsafePathError, confine, read_untrusted

__all__ = ["INTAKE_DIR", "Inbox", "LedgerState", "Version", "sha256_hex"]

INTAKE_DIR = "intake"


def sha256_hex(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


@dataclass(frozen=True)
class Version:
    """One received version of one roster file.

    :param current: it became the file's current version when received.
    """

    file: str
    sha256: str
    valid: bool
    late: bool
    key: str
    at: str


@dataclass
class LedgerState:
    """Everything the ledger says so far, folded in order."""

    keys: set[str] = field(default_factory=set)
    replied: set[str] = field(default_factory=set)
    receipts: dict[str, dict[str, Any]] = field(default_factory=dict)
    versions: dict[str, list[Version]] = field(default_factory=dict)
    current: dict[str, str] = field(default_factory=dict)
    refusals: dict[str, str] = field(default_factory=dict)
    nmr: dict[str, dict[str, Any]] = field(default_factory=dict)
    locked_at: str | None = None

    def apply(self, record: dict[str, Any]) -> None:
        kind = record.get("type")
        if kind == "submission":
            key = str(record["key"])
            self.keys.add(key)
            self.receipts[key] = record.get("receipt") or {}
            for item in record.get("files", []):
                version = Version(item["file"], item["sha256"], bool(item["valid"]), bool(item.get("late")), key,
                                  str(record.get("at", "")))
                self.versions.setdefault(version.file, []).append(version)
                if item.get("current"):
                    self.current[version.file] = version.sha256
            for rel, sha in (record.get("made_current") or {}).items():
                self.current[rel] = sha
            for rel, sha in (record.get("revalidated") or {}).items():  # valid now, with the files it waited for
                self.versions[rel] = [replace(v, valid=True) if v.sha256 == sha else v for v in self.versions[rel]]
            if record.get("refused") and record.get("replied_to"):
                self.refusals[str(record.get("player"))] = str(record.get("at", ""))
        elif kind == "replied":
            self.replied.add(str(record["key"]))
        elif kind == "lock":
            self.locked_at = self.locked_at or str(record.get("at", ""))
        elif kind == "nmr":
            self.nmr[str(record["player"])] = record

    def latest(self, rel: str) -> Version | None:
        """The last version received before the lock (late ones are never used)."""
        on_time = [v for v in self.versions.get(rel, ()) if not v.late]
        return on_time[-1] if on_time else None

    def version(self, rel: str, sha: str) -> Version | None:
        return next((v for v in self.versions.get(rel, ()) if v.sha256 == sha), None)


class Inbox:
    """The ``intake`` folder of one round; see the module docstring."""

    def __init__(self, round_dir: str | Path) -> None:
        self.round = Path(round_dir)
        self.folder = self.round / INTAKE_DIR
        self.ledger = self.folder / "ledger.jsonl"
        self.state = LedgerState()
        self._offset = 0

    # -- setup and locking ---------------------------------------------------

    def create(self) -> None:
        """The folders, private to the organiser (the round folder may be shared)."""
        for sub in ("", "objects", "rejected", "work"):
            (self.folder / sub).mkdir(mode=0o700, parents=True, exist_ok=True)
        confine(self.folder, self.round)  # an ``intake`` symlink out of the round is refused

    @contextlib.contextmanager
    def locked(self) -> Iterator[LedgerState]:
        """Hold the round's intake lock and see every ledger line written so far."""
        self.create()
        fd = os.open(self.folder / "lock", os.O_RDWR | os.O_CREAT | getattr(os, "O_CLOEXEC", 0), 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            self.refresh()
            yield self.state
        finally:
            os.close(fd)

    def tidy(self, files: tuple[str, ...]) -> None:
        """Remove the temporary files a killed run left (a store object, a
        round file) -- under :meth:`locked`, when no writer of them is at work."""
        from referee.app.outfolder import TEMPORARY

        for tmp in (self.folder / "objects").glob("*/.obj.*.tmp"):
            with contextlib.suppress(OSError):
                tmp.unlink()
        for folder in {(self.round / rel).parent for rel in files}:
            names = {Path(rel).name for rel in files}
            for tmp in folder.glob(".*.tmp") if folder.is_dir() else ():
                if TEMPORARY.match(tmp.name) and any(tmp.name.startswith(f".{n}.") for n in names):
                    with contextlib.suppress(OSError):
                        tmp.unlink()

    # -- the ledger ------------------------------------------------------------

    def refresh(self) -> LedgerState:
        """Fold the ledger lines written since the last read (by any process).

        A last line without its newline is a write a crash cut short: it
        never counted, and it is cut off so the next line starts clean."""
        try:
            size = self.ledger.stat().st_size
        except FileNotFoundError:
            return self.state
        if size < self._offset:  # replaced by hand: read it again
            self.state, self._offset = LedgerState(), 0
        with open(self.ledger, "rb") as handle:
            handle.seek(self._offset)
            data = handle.read()
        end = data.rfind(b"\n") + 1
        for line in data[:end].splitlines():
            if line.strip():
                self.state.apply(json.loads(line))
        self._offset += end
        if end < len(data):
            with open(self.ledger, "r+b") as handle:
                handle.truncate(self._offset)
        return self.state

    def append(self, record: dict[str, Any]) -> None:
        """Write one ledger line whole and fsync it; then it counts."""
        line = (json.dumps(record, ensure_ascii=False, sort_keys=True) + "\n").encode("utf-8", "surrogatepass")
        fd = os.open(self.ledger, os.O_WRONLY | os.O_APPEND | os.O_CREAT | getattr(os, "O_CLOEXEC", 0), 0o600)
        try:
            os.write(fd, line)
            os.fsync(fd)
        finally:
            os.close(fd)
        self.refresh()

    # -- the store -------------------------------------------------------------

    def object_path(self, sha: str) -> Path:
        return self.folder / "objects" / sha[:2] / sha

    def put(self, data: bytes) -> str:
        """Keep ``data`` under its sha256 (once); its digest."""
        sha = sha256_hex(data)
        path = self.object_path(sha)
        if path.exists():
            return sha
        path.parent.mkdir(mode=0o700, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=".obj.", suffix=".tmp", dir=path.parent)
        try:
            with os.fdopen(fd, "wb") as handle:
                handle.write(data)
                handle.flush()
                os.fsync(handle.fileno())
            os.replace(tmp, path)
        except BaseException:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(tmp)
            raise
        return sha

    def get(self, sha: str) -> bytes:
        return self.object_path(sha).read_bytes()

    def put_rejected(self, name: str, raw: bytes, reason: str) -> Path:
        """Move a message that could not be read aside, with its reason beside it."""
        folder = self.folder / "rejected"
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        path = folder / f"{name}.eml"
        if not path.exists():
            tmp = folder / f".{name}.tmp"
            tmp.write_bytes(raw)
            os.replace(tmp, path)
        write_atomic(folder / f"{name}.reason.txt", reason.rstrip("\n") + "\n")
        return path


def sync_round_files(inbox: Inbox, files: tuple[str, ...]) -> list[str]:
    """Bring each roster file of the round in line with its current version.

    Atomic (``write_atomic``), confined to the round, and only where the
    bytes differ; a file with no current version is left as it is.
    :returns: the files written.
    """
    written = []
    for rel in files:
        sha = inbox.state.current.get(rel)
        if sha is None:
            continue
        target = inbox.round / rel
        try:
            if sha256_hex(read_untrusted(target, inbox.round, shown=rel)) == sha:
                continue
        except UnsafePathError as err:
            if err.problem.code not in ("file-not-found",):
                raise
        write_atomic(target, inbox.get(sha).decode("utf-8"), root=inbox.round)
        written.append(rel)
    return written
