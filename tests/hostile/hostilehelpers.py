"""Shared pieces of the hostile-input corpus (issue 17).

A *round* here is a temporary folder with two valid sheets and a battle file;
each case spoils one thing.  :func:`run_limited` runs the real command line
in a child process under an address-space limit and a timeout, so a
regression in a memory- or time-hungry case fails the test instead of taking
the machine down.
"""

from __future__ import annotations

import os
import resource
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

SHEET = """name: {name}
abilities: {{body: 3, reflex: 3, intellect: 3}}
patterns: [火火水, 剣地風]
skills: [firecracker, slash, rest]
"""

BATTLE = """title: Round 3, table 2
seed: 7
teams:
  white: [sheets/kagura.yaml]
  black: [sheets/ash.yaml]
"""

#: Address space a child may use: far above what any case needs (~150 MB
#: resident with Python, lark and networkx loaded), far below what a
#: regression would take.
CHILD_MEMORY_BYTES = 1024 * 1024 * 1024
#: Wall-clock bound of a child; the cases themselves take well under 2 s.
CHILD_TIMEOUT_SECONDS = 30.0


def write(folder: Path, rel: str, text: str | bytes) -> Path:
    path = folder / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    return path


def make_round(folder: Path, battle: str = BATTLE, names: tuple[str, ...] = ("Kagura", "Ash")) -> Path:
    """A valid round: sheets for ``names`` and ``a.battle.yaml``; its path."""
    for name in names:
        write(folder, f"sheets/{name.lower()}.yaml", SHEET.format(name=name))
    return write(folder, "a.battle.yaml", battle)


@dataclass(frozen=True)
class ChildRun:
    code: int
    out: str
    err: str
    seconds: float
    max_rss_mb: float


def _limit_memory() -> None:  # pragma: no cover - runs in the child
    resource.setrlimit(resource.RLIMIT_AS, (CHILD_MEMORY_BYTES, CHILD_MEMORY_BYTES))


def run_limited(args: list[str], cwd: Path, timeout: float = CHILD_TIMEOUT_SECONDS) -> ChildRun:
    """``referee ARGS`` in a child process with a memory limit and a timeout."""
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
    code = ("import resource, sys\nfrom referee.cli import main\ntry:\n    status = main(sys.argv[1:])\n"
            "finally:\n    sys.stderr.write('\\n@maxrss %d\\n' % resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)\n"
            "sys.exit(status)")
    start = time.monotonic()
    proc = subprocess.Popen([sys.executable, "-c", code, *args], cwd=cwd, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, preexec_fn=_limit_memory)
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.communicate()
        raise AssertionError(f"referee {' '.join(args)[:80]} did not finish in {timeout} s") from None
    seconds = time.monotonic() - start
    text = err.decode("utf-8", "replace")
    text, _, rss = text.rpartition("\n@maxrss ")
    return ChildRun(proc.returncode, out.decode("utf-8", "replace"), text, seconds,
                    int(rss.strip() or 0) / 1024)
