"""The JSON report: the interfaces.md fields, deterministic text, exact round trip."""

from __future__ import annotations

import json
from typing import Any

import pytest

from reporthelpers import FIXTURES, resolved


from referee.report import render
from referee.report.record import dumps_report, report_from_json


def test_top_level_fields_in_order() -> None:
    data = json.loads(render(resolved(str(FIXTURES / "duel.battle.yaml")), "json"))
    assert list(data)[:4] == ["referee", "format", "ruleset", "seed"]
    assert {"referee", "ruleset", "seed", "inputs", "events", "result"} <= set(data)
    assert set(data["ruleset"]) == {"name", "digest"} and len(data["ruleset"]["digest"]) == 64
    assert data["seed"] == 1 and data["seed_source"] == "file"
    start = data["events"][0]
    assert start["type"] == "battle_start" and start["seed"] == data["seed"]  # same value, same JSON type


def test_inputs_are_normalised_and_relative() -> None:
    data = json.loads(render(resolved(str(FIXTURES / "statuses.battle.yaml")), "json"))
    inputs = data["inputs"]
    assert inputs["battle"] == "statuses.battle.yaml"
    assert [c["name"] for c in inputs["characters"]] == ["Oboro", "Fumi", "Peko", "Isamu"]
    assert inputs["characters"][0]["sheet"] == "sheets/oboro.yaml"
    assert inputs["setup"]["Fumi"] == {"square": "c4", "hp": 10}
    assert "maintain sala-twin-trees when engaged" in inputs["characters"][0]["plan"]["text"]
    assert inputs["skill_names"]["poison-fang"] == {"en": "Poison Fang", "ja": "毒牙"}


def test_events_have_the_stable_fields() -> None:
    data = json.loads(render(resolved(str(FIXTURES / "melee.battle.yaml")), "json"))
    for event in data["events"]:
        assert isinstance(event["type"], str) and isinstance(event["turn"], int)
        if event["type"] == "damage":
            assert {"target", "amount", "hp_after", "cause"} <= set(event)
        if event["type"] in ("moved", "knockback", "pushed"):
            assert {"from", "to"} <= set(event)
    result = data["result"]
    assert result["winner"] in ("white", "black", "draw")
    assert set(result) >= {"winner", "reason", "turns", "final"}
    assert all(set(v) == {"team", "hp", "square", "down"} for v in result["final"].values())


def test_round_trip_is_byte_identical() -> None:
    rep = resolved(str(FIXTURES / "skirmish.battle.yaml"))
    text = dumps_report(rep)
    again = report_from_json(json.loads(text))
    assert dumps_report(again) == text
    assert render(again, "text", "ja") == render(rep, "text", "ja")


def test_one_event_per_line() -> None:
    text = dumps_report(resolved(str(FIXTURES / "duel.battle.yaml")))
    data = json.loads(text)
    event_lines = [line for line in text.splitlines() if line.startswith('    {"type": ')]
    assert len(event_lines) == len(data["events"])


def test_fast_event_encoder_matches_json_dumps() -> None:
    from referee.report.record import _dump

    samples = [{"type": "damage", "turn": 3, "target": "かぐら", "amount": 2, "hp_after": 0, "actor": None,
                "ratio": 0.5, "ok": True, "list": [1, "a\"b\\c\n"], "nested": {"x": []}}]
    for value in samples:
        assert _dump(value) == json.dumps(value, ensure_ascii=False, separators=(", ", ": "))


def test_event_lines_are_exactly_json_dumps_of_every_fixture_event() -> None:
    """The per-class line writer (record.event_json_line) must write what
    json.dumps writes for the event's dict: every event of every fixture, and
    events holding quotes, backslashes, newlines, Japanese, None and booleans."""
    from referee.board import parse_square
    from referee.engine import events as E
    from referee.report.record import event_json_line

    def dumps(event: E.Event) -> str:
        return json.dumps(event.to_json(), ensure_ascii=False, separators=(", ", ": "))

    seen: set[str] = set()
    for battle in sorted(FIXTURES.glob("*.battle.yaml")):
        for event in resolved(str(battle)).events:
            assert event_json_line(event) == dumps(event), (battle.name, event)
            seen.add(event.TYPE)
    assert len(seen) >= 25  # most event types occur in the fixtures
    odd = 'A "q" \\ 名前\n\t'
    tricky = [
        E.Moved(turn=1, actor=odd, from_square=parse_square("a1"), to_square=parse_square("b2"), mode="clause",
                toward=odd, line=None, rule="R-MOVE-8"),
        E.SkillPassed(turn=2, actor=odd, skill="slash", entry=0, reason="bound", line=None, detail=odd,
                      rule="R-ST-BIND"),
        E.TargetsChosen(turn=3, actor="x", skill="eruption", candidates=(odd, "y"), targets=(), preference="nearest",
                        extend_requested=0, extended=0, rule="R-PLAN-4"),
    ]
    for event in tricky:
        assert event_json_line(event) == dumps(event)


def test_generated_line_writer_guards_every_hint() -> None:
    """Issue 18: the generated writer trusts no hint -- a bool in an ``int``
    field, ``None`` in optional fields, non-text in a names tuple and bools in
    a numbers tuple are written exactly as json.dumps writes them."""
    from referee.engine import events as E
    from referee.report.record import event_json_line

    def dumps(event: E.Event) -> str:
        return json.dumps(event.to_json(), ensure_ascii=False, separators=(", ", ": "))

    odd: list[E.Event] = [
        E.SkillPassed(turn=True, actor="a", skill="s", entry=False, reason="r", line=None, detail="", rule="R"),
        E.SkillPassed(turn=2, actor="a", skill="s", entry=1, reason="r", line=7, detail="d", rule="R"),
        E.SkillPassed(turn=2, actor="a", skill="s", entry=1, reason="r", line=True, detail="d", rule="R"),
        E.SkillOrder(turn=1, actor="a", entries=(0, True, 2), skills=("x", 3), moved_by=()),  # type: ignore[arg-type]
        E.SkillOrder(turn=1, actor="a", entries=(), skills=(), moved_by=(4, 5)),
    ]
    for event in odd:
        assert event_json_line(event) == dumps(event)


def test_every_event_class_has_the_fast_constructor_with_the_dataclass_signature() -> None:
    """Issue 18: events.Event gives each event class (a later variant's too) a
    generated ``__init__``; it keeps the dataclass's parameters, defaults and
    keyword-only calls, and events stay immutable."""
    import dataclasses
    import inspect

    import pytest

    from referee.engine import events as E

    for cls in E.EVENT_TYPES.values():
        assert getattr(cls.__init__, "__fast__", False), cls
        params = list(inspect.signature(cls).parameters.values())
        fields = dataclasses.fields(cls)
        assert [p.name for p in params] == [f.name for f in fields]
        for p, f in zip(params, fields):
            assert p.kind is inspect.Parameter.KEYWORD_ONLY
            assert p.default is (inspect.Parameter.empty if f.default is dataclasses.MISSING else f.default)
    event = E.ActionEnd(turn=1, actor="a")
    assert (event.turn, event.actor, event.rule) == (1, "a", "R-TURN-2")
    assert event == E.ActionEnd(turn=1, actor="a") and hash(event) == hash(E.ActionEnd(turn=1, actor="a"))
    with pytest.raises(dataclasses.FrozenInstanceError):
        event.turn = 2  # type: ignore[misc]
    with pytest.raises(TypeError):
        E.ActionEnd(1, "a")  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        E.ActionEnd(turn=1)  # type: ignore[call-arg]


def test_fast_line_writers_match_the_exact_writer_for_odd_values_in_every_field() -> None:
    """Issue 18 (item 4): the line writers read names and numbers from caches
    and squares from a table; a value the hint does not promise (a bool or a
    float in an int field, a list for a tuple, a dict, a square off every
    map, a str subclass) must be written exactly as the exact generated
    writer writes it -- the writer before the caches -- or fail as it fails;
    field by field, every class, after the caches have seen the ordinary
    values.  Where the event's dict can be built, that is json.dumps's text."""
    import dataclasses

    from referee.board import Square, parse_square
    from referee.engine import events as E
    from referee.report.record import _general_writer, event_json_line

    class Name(str):
        pass

    def outcome(fn: Any, event: E.Event) -> tuple[str, str]:
        try:
            return ("ok", fn(event))
        except Exception as exc:  # noqa: BLE001 - the two must fail alike
            return ("error", type(exc).__name__)

    base = {}
    for battle in sorted(FIXTURES.glob("*.battle.yaml")):
        for event in resolved(str(battle)).events:
            base.setdefault(type(event), event)
            event_json_line(event)  # the caches see the ordinary values first
    odd_values: list[Any] = [True, False, 1, 0, 1.0, 2.5, None, "x", "xy", Name("x"), 'q"\\\n', (1, True), (True,),
                             [1, 2], [], ("a", 1), ("a", Name("b")), {"k": 1}, (), parse_square("c3"),
                             Square(40, 1), Square(-1, 0), (parse_square("a1"),)]
    checked = 0
    for cls, event in base.items():
        exact = _general_writer(cls)
        for field in dataclasses.fields(cls):
            for value in odd_values:
                odd = dataclasses.replace(event, **{field.name: value})
                assert outcome(event_json_line, odd) == outcome(exact, odd), (cls.TYPE, field.name, value)
                checked += 1
    assert checked > 1000


def test_header_writer_matches_json_dumps_with_indent() -> None:
    """Issue 18 (item 4): the report's header and inputs are written by
    record._indented, not json.dumps(indent=2) (pure Python in 3.11); the
    text must be the same for every kind of value, nested at any depth."""
    from referee.report.record import _indented

    class Name(str):
        pass

    samples: list[Any] = [
        {"a": [1, 2.5, float("nan"), float("inf"), -0.0, 1e20, True, False, None, 'x"\n\\名', Name("n")],
         "b": {}, "c": [], "d": {"e": [[], {}, [[1]]]}, "t": (1, (2, 3))},
        [], {}, "s", 3, None, 10**30, {1: 2}, {"k": {True: 1, None: [1]}}, {"f": 0.1},
    ]
    for value in samples:
        expected = json.dumps(value, ensure_ascii=False, indent=2)
        assert _indented(value, "") == expected, value
        assert _indented(value, "  ") == expected.replace("\n", "\n  "), value


def test_digest_encoder_matches_json_dumps_with_sorted_keys() -> None:
    """Issue 18: inputs_digest encodes with one C encoder built once
    (record._digest_dump), not json.dumps per input; the text it hashes must
    be json.dumps's, so every digest written before stays valid."""
    from referee.report.record import _digest_dump

    class Name(str):
        pass

    samples: list[Any] = [
        {"b": [1, 2.5, float("nan"), float("inf"), -0.0, True, None, 'x"\n\\名', Name("n"), "\ud800"],
         "a": {"z": {}, "y": [], "x": (1, (2, 3))}},
        [], {}, "s", Name("t"), 3, None, 10**30, {"f": 0.1}, {"k": {"b": 1, "a": [{"d": 1, "c": 2}]}},
    ]
    for value in samples:
        assert _digest_dump(value) == json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    with pytest.raises(TypeError):
        _digest_dump({"a": object()})
