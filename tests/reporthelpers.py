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


def renamed(report, old: str, new: str):  # type: ignore[no-untyped-def]
    """``report`` with the character ``old`` called ``new`` everywhere (inputs,
    events, result): how the escaping tests give a character a hostile name
    without a battle file (the loader may refuse such names)."""
    import json

    from referee.report.record import report_from_json, report_to_json

    text = json.dumps(report_to_json(report), ensure_ascii=False)
    text = text.replace(json.dumps(old)[1:-1], json.dumps(new, ensure_ascii=False)[1:-1])
    return report_from_json(json.loads(text))
