"""docs/intake.md shows receipts made by the real code, not typed by hand."""

from __future__ import annotations

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_sample_receipts_are_what_the_referee_writes() -> None:
    spec = importlib.util.spec_from_file_location("intake_samples", ROOT / "scripts" / "intake_samples.py")
    assert spec is not None and spec.loader is not None
    samples = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(samples)
    doc = (ROOT / "docs" / "intake.md").read_text(encoding="utf-8")
    assert samples.with_samples(doc, samples.samples()) == doc, \
        "docs/intake.md's samples are stale: python scripts/intake_samples.py --write"


def test_every_new_command_is_in_the_readme() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for command in ("roster", "intake", "status", "remind", "lock"):
        assert f"| `referee {command} " in readme, command
