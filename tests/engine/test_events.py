"""Events: JSON round trips and docs/events.md documents every type."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import pytest

from referee.board import parse_square
from referee.engine import events as E

DOC = Path(__file__).resolve().parents[2] / "docs" / "events.md"


def doc_entries(text: str) -> dict[str, str]:
    """docs/events.md's entries: ``- **`type`** ...`` up to the next entry or
    heading, by type (``**`a`** / **`b`**`` documents both)."""
    entries: dict[str, str] = {}
    for block in re.split(r"\n(?=- \*\*|#)", text):
        names = re.findall(r"\*\*`([a-z0-9_]+)`\*\*", block.split("\n")[0])
        for name in names:
            entries[name] = block
    return entries


def test_every_event_type_and_field_is_documented() -> None:
    """Each type has an entry naming every field it writes (``type``,
    ``turn`` and ``rule`` are the common fields), so the page cannot fall
    behind the dataclasses."""
    entries = doc_entries(DOC.read_text(encoding="utf-8"))
    missing = {}
    for name, cls in E.EVENT_TYPES.items():
        entry = entries.get(name, "")
        fields = [json_name for _, json_name, _ in E.event_fields(cls) if json_name not in ("type", "turn", "rule")]
        absent = [f for f in fields if f"`{f}`" not in entry]
        if not entry or absent:
            missing[name] = absent or ["(no entry)"]
    assert missing == {}


def test_the_doc_check_sees_a_missing_field() -> None:
    entries = doc_entries("## X\n\n- **`down`** `target`, `square`.\n- **`pushed`** `target`.\n")
    assert "`cause`" not in entries["down"] and "pushed" in entries


def test_event_types_are_snake_case_and_unique() -> None:
    for name, cls in E.EVENT_TYPES.items():
        assert name == cls.TYPE and name.islower() and " " not in name


def test_knockback_round_trip_uses_from_and_to() -> None:
    ev = E.Knockback(turn=3, target="A", from_square=parse_square("c3"),
                     to_square=parse_square("d4"), direction="NE", wall=False,
                     actor="B", skill="pressurize")
    data = ev.to_json()
    assert data["type"] == "knockback" and data["from"] == "c3" and data["to"] == "d4"
    assert E.event_from_json(data) == ev


def test_battle_end_round_trip() -> None:
    final = (E.FinalCharacter("A", "white", 3, parse_square("a1"), False),)
    ev = E.BattleEnd(turn=4, result=E.BattleResult("white", "army_reduced", 4, final, "R-GOAL-1"))
    data = ev.to_json()
    assert data["result"]["final"] == {"A": {"team": "white", "hp": 3, "square": "a1", "down": False}}
    assert E.event_from_json(data) == ev


def test_events_are_frozen() -> None:
    ev = E.Damage(turn=1, target="x", amount=2, hp_after=3, cause="wall")
    with pytest.raises(dataclasses.FrozenInstanceError):
        ev.amount = 5  # type: ignore[misc]


def test_every_event_class_takes_its_fields_by_keyword_with_their_defaults() -> None:
    """Every event class (a later variant's too) is built by keyword only,
    with its declared defaults, and events compare and hash by value."""
    import inspect

    for cls in E.EVENT_TYPES.values():
        params = list(inspect.signature(cls).parameters.values())
        fields = dataclasses.fields(cls)
        assert [p.name for p in params] == [f.name for f in fields]
        for p, f in zip(params, fields):
            assert p.kind is inspect.Parameter.KEYWORD_ONLY
            assert p.default is (inspect.Parameter.empty if f.default is dataclasses.MISSING else f.default)
    event = E.ActionEnd(turn=1, actor="a")
    assert (event.turn, event.actor, event.rule) == (1, "a", "R-TURN-2")
    assert event == E.ActionEnd(turn=1, actor="a") and hash(event) == hash(E.ActionEnd(turn=1, actor="a"))
    with pytest.raises(TypeError):
        E.ActionEnd(1, "a")  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        E.ActionEnd(turn=1)  # type: ignore[call-arg]
