"""Helpers for the report, CLI and golden tests: the fixtures and how to
resolve them."""

from __future__ import annotations

import functools
from pathlib import Path


ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "fixtures"
DEMO = ROOT / "referee" / "demo" / "demo.battle.yaml"


def tree(folder: Path) -> dict[str, bytes]:
    """Every file below ``folder`` by its relative path: two outputs
    compared byte for byte."""
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


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


def standoff_text(folder: Path, turn_limit: int, white_hp: int = 12, black_hp: int = 12) -> str:
    """The text report of two characters who hold position far apart (a1,
    h8) until a ``turn_limit``-turn cap, written into ``folder``."""
    from referee.app.pipeline import resolve_file
    from referee.report import render

    (folder / "short.yaml").write_text(f"extends: tcgt\nname: short\nturn_limit: {turn_limit}\n", "utf-8")
    for name in ("Aki", "Bo"):
        (folder / f"{name}.yaml").write_text(
            f"name: {name}\nabilities: {{body: 3, reflex: 3, intellect: 3}}\npatterns: [剣剣剣]\n"
            "skills: [slash]\nplan: |\n  hold position\n", "utf-8")
    (folder / "b.battle.yaml").write_text(
        "title: standoff\nruleset: short.yaml\nseed: 1\nteams: {white: [Aki.yaml], black: [Bo.yaml]}\n"
        f"setup: {{Aki: {{square: a1, hp: {white_hp}}}, Bo: {{square: h8, hp: {black_hp}}}}}\n", "utf-8")
    return render(resolve_file(folder / "b.battle.yaml"), "text", "en")
