"""Events: JSON round trips and docs/events.md documents every type."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from referee.board import parse_square
from referee.engine import events as E

DOC = Path(__file__).resolve().parents[2] / "docs" / "events.md"


def test_every_event_type_is_documented() -> None:
    text = DOC.read_text(encoding="utf-8")
    missing = [t for t in E.EVENT_TYPES if f"**`{t}`**" not in text and f"`{t}`**" not in text]
    assert missing == []


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
