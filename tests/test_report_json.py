"""The JSON report: the interfaces.md fields, deterministic text, exact round trip."""

from __future__ import annotations

import dataclasses
import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from reporthelpers import FIXTURES, renamed, resolved

from referee.report import render
from referee.report.record import dumps_report, inputs_digest, report_from_json, report_to_json


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


_TEXT = st.text(min_size=1, max_size=12)


@settings(max_examples=60, deadline=None)
@given(name=_TEXT, title=st.text(max_size=20))
def test_any_text_keeps_one_event_per_line_and_reads_back_exactly(name: str, title: str) -> None:
    """Whatever a name or title holds (quotes, backslashes, line breaks,
    Japanese, controls), each event is one line that reads back as the
    event's JSON, non-ASCII text is written as itself, and the report reads
    back to the same text (interfaces.md: one event per line, UTF-8)."""
    base = resolved(str(FIXTURES / "duel.battle.yaml"))
    named = renamed(base, base.characters()[0]["name"], name)
    rep = dataclasses.replace(named, inputs={**named.inputs, "title": title})
    text = dumps_report(rep)
    assert text.endswith("}\n") and json.loads(text) == json.loads(json.dumps(report_to_json(rep)))
    lines = [line for line in text.split("\n") if line.startswith('    {"type": ')]
    assert len(lines) == len(rep.events)
    for line, event in zip(lines, rep.events):
        assert json.loads(line.rstrip(",")) == event.to_json()
    assert json.dumps(name, ensure_ascii=False)[1:-1] in lines[0] + lines[1]  # placed: the name as written
    assert dumps_report(report_from_json(json.loads(text))) == text


@settings(max_examples=100)
@given(st.dictionaries(st.text(max_size=5), st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3),
    max_leaves=8), max_size=4))
def test_inputs_digest_hashes_each_input_by_content_not_key_order(inputs: dict[str, Any]) -> None:
    """``inputs_digest`` names an input edited by hand: one 16-digit hex digest
    per input, the same for the same content written in another key order,
    and another when the content changes."""
    def reordered(value: Any) -> Any:
        if isinstance(value, dict):
            return {k: reordered(value[k]) for k in reversed(list(value))}
        if isinstance(value, list):
            return [reordered(v) for v in value]
        return value

    digest = inputs_digest(inputs)
    assert list(digest) == list(inputs)
    assert all(len(d) == 16 and int(d, 16) >= 0 for d in digest.values())
    assert inputs_digest(reordered(inputs)) == {k: digest[k] for k in reversed(list(inputs))}
    for key, value in inputs.items():
        assert inputs_digest({key: [value]})[key] != digest[key]
