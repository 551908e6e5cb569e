"""Helpers for the report, CLI and golden tests: the fixtures and how to
resolve them (the engine needs referee.board/mapgraph; until they exist the
tests that resolve battles are skipped with that reason)."""

from __future__ import annotations

import functools
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "fixtures"
DEMO = ROOT / "referee" / "demo" / "demo.battle.yaml"


def need_engine() -> None:
    """Skip (with the reason) when the geometry modules have not landed yet."""
    pytest.importorskip("referee.board", reason="referee.board has not landed yet; the engine cannot run")
    pytest.importorskip("referee.mapgraph", reason="referee.mapgraph has not landed yet; the engine cannot run")


def fixture_battles() -> list[Path]:
    """The top-level fixture battles (fixtures/*.battle.yaml), sorted."""
    return sorted(FIXTURES.glob("*.battle.yaml"))


@functools.lru_cache(maxsize=None)
def resolved(path: str):  # type: ignore[no-untyped-def]
    """A fixture's report, resolved once per test session."""
    from referee.report.pipeline import resolve_file

    return resolve_file(path)
