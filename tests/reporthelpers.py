"""Helpers for the report, CLI and golden tests: the fixtures and how to
resolve them."""

from __future__ import annotations

import functools
from pathlib import Path


ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "fixtures"
DEMO = ROOT / "referee" / "demo" / "demo.battle.yaml"


def fixture_battles() -> list[Path]:
    """The top-level fixture battles (fixtures/*.battle.yaml), sorted."""
    return sorted(FIXTURES.glob("*.battle.yaml"))


@functools.lru_cache(maxsize=None)
def resolved(path: str):  # type: ignore[no-untyped-def]
    """A fixture's report, resolved once per test session."""
    from referee.app.pipeline import resolve_file

    return resolve_file(path)
