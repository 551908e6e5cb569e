"""Where the tests find the contract (``shared/spec``), with a snapshot in the box.

The specification lives beside the repository (``../shared/spec``); a clone
has no such folder, and the tests must pass there all the same (issue 14).
So the parts the tests read are kept in ``tests/spec/`` -- ``skills.md``,
``interfaces.md`` and ``rule-ids.txt`` (every rule ID the spec defines) -- and
``tests/test_spec_snapshot.py`` fails when the snapshot no longer matches
the real spec, wherever that is present.  ``REFEREE_SPEC_DIR`` points at the
spec explicitly.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SNAPSHOT = REPO / "tests" / "spec"
RULE_ID = re.compile(r"\*\*(R-[A-Za-z0-9-]+)\*\*")


def real_spec_dir() -> Path | None:
    """The real spec folder: ``$REFEREE_SPEC_DIR``, else a ``shared/spec``
    beside the repository or one of its parents (a git worktree), else ``None``."""
    explicit = os.environ.get("REFEREE_SPEC_DIR")
    if explicit:
        return Path(explicit) if (Path(explicit) / "rules.md").is_file() else None
    for parent in REPO.parents:
        candidate = parent / "shared" / "spec"
        if (candidate / "rules.md").is_file():
            return candidate
    return None


def spec_file(name: str) -> Path:
    """``name`` from the real spec when present, else from the snapshot."""
    real = real_spec_dir()
    if real is not None and (real / name).is_file():
        return real / name
    return SNAPSHOT / name


def defined_rule_ids(text: str) -> set[str]:
    """Every rule ID a document defines (written in bold: ``**R-MOVE-5**``)."""
    return set(RULE_ID.findall(text))
