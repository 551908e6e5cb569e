"""A lean json report is the complete one without its decision events.

The engine always writes the decision events (``events.is_decision``); a
round's json leaves them out when it is written (``"decisions": false``),
the written formats read them only for ``--explain``, and ``replay``
compares a lean report with a resolution written the same way.
"""

from __future__ import annotations

import json
import os
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.app.pipeline import resolve_file
from referee.board import parse_square
from referee.engine import events as E
from referee.engine.battle import resolve_battle
from referee.report import FORMATS, Report, render
from referee.report.record import report_from_json, report_to_json

from engine.helpers import ruleset
from engine.randombattle import random_setup
from engine.test_properties_d20pool import D20_CLAUSES
from reporthelpers import fixture_battles

EXAMPLES = int(os.environ.get("REFEREE_LEAN_EXAMPLES", "12"))
RULESETS = ("tcgt", "orm", "wiz", "soulwired", "d20pool")
EXTRA = {"d20pool": D20_CLAUSES}


def _decisions_left_out(events: list[dict[str, object]]) -> list[dict[str, object]]:
    return [e for e in events if not E.is_decision(E.event_from_json(e))]


def _assert_lean_is_full_without_decisions(report: Report) -> None:
    full = report_to_json(report)
    lean = report_to_json(replace(report, decisions=False))
    assert lean["events"] == _decisions_left_out(full["events"])
    assert len(lean["events"]) < len(full["events"])
    assert {k: v for k, v in lean.items() if k not in ("events", "decisions")} == \
        {k: v for k, v in full.items() if k != "events"}


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data(), st.sampled_from(RULESETS), st.integers(1, 4), st.integers(0, 10**6), st.booleans())
def test_a_lean_json_is_the_full_json_without_its_decisions(data, name, size, seed, fixed) -> None:  # type: ignore[no-untyped-def]
    setup = random_setup(lambda n: data.draw(st.integers(0, n - 1)), size, text_plans=True,
                         extra=EXTRA.get(name, ()))
    if not fixed:
        setup = replace(setup, order=None)  # the ruleset's initiative, ties rolled
    record = resolve_battle(setup, ruleset(name, 40), seed)
    report = Report(referee="test", ruleset={"name": name, "digest": "-"}, seed=seed, seed_source="option",
                    inputs={}, events=tuple(record.events), result=record.result)
    _assert_lean_is_full_without_decisions(report)


def test_a_pattern_switch_stays_in_a_lean_json() -> None:
    """The written report always says a character switched patterns, so a
    switching ``pattern_selected`` is not a decision event."""
    switched = E.PatternSelected(turn=2, actor="Goro", pattern=1, elements="火火", reason="condition", switched=True)
    kept = E.PatternSelected(turn=2, actor="Goro", pattern=1, elements="火火", reason="kept", switched=False)
    assert not E.is_decision(switched) and E.is_decision(kept)
    assert E.is_decision(E.Stayed(turn=1, actor="Goro", square=parse_square("c3"), reason="engaged", line=None,
                                  rule="R-MOVE-6"))


@pytest.mark.parametrize("battle", fixture_battles(), ids=lambda p: p.stem)
def test_every_fixture_renders_the_same_from_its_lean_json(battle: Path) -> None:
    """Every format but json, in both languages, compact and full, reads
    nothing a lean json leaves out: the report read back from it renders as
    the complete one (every ruleset's fixtures, terrain and variant plan
    words included)."""
    full = resolve_file(battle)
    _assert_lean_is_full_without_decisions(full)
    lean = report_from_json(json.loads(render(replace(full, decisions=False), "json")))
    assert not lean.decisions and not any(E.is_decision(e) for e in lean.events)
    for fmt in FORMATS:
        if fmt == "json":
            continue
        for lang in ("en", "ja"):
            assert render(lean, fmt, lang) == render(full, fmt, lang), (fmt, lang)
        assert render(lean, fmt, full=True) == render(full, fmt, full=True), fmt


@pytest.mark.parametrize("kind", ["turn_selected", "support", "move_end", "phase_start", "simple_use"])
def test_the_variants_explain_only_events_are_decisions(kind: str) -> None:
    """d20pool's ``turn_selected``, ``support`` and ``move_end``, soulwired's
    ``move_end`` and ORM's ``phase_start`` and ``simple_use`` are written only
    by ``--explain`` (their handlers only explain), so a lean json leaves
    them out; the fixtures' renderings above hold every other format
    unchanged without them."""
    from referee.report.written import EXPLAIN_ONLY_TYPES

    assert kind in E.DECISION_TYPES
    assert kind in EXPLAIN_ONLY_TYPES


def test_a_lean_report_says_so_and_a_complete_one_is_unchanged() -> None:
    report = resolve_file(fixture_battles()[0])
    lean = json.loads(render(replace(report, decisions=False), "json"))
    full = json.loads(render(report, "json"))
    assert lean["decisions"] is False
    assert "decisions" not in full
    keys = list(full)
    at = keys.index("inputs")
    assert list(lean) == keys[:at] + ["decisions"] + keys[at:]


def test_explain_refuses_a_lean_report() -> None:
    """``--explain`` of a report without decisions would silently say nothing."""
    lean = replace(resolve_file(fixture_battles()[0]), decisions=False)
    with pytest.raises(ValueError, match="without its decision events"):
        render(lean, "text", explain=True)


def test_replay_confirms_a_lean_report_and_catches_an_edit(tmp_path: Path) -> None:
    from referee.app.replay import replay_report

    path = tmp_path / "lean.json"
    path.write_text(render(replace(resolve_file(fixture_battles()[0]), decisions=False), "json"), encoding="utf-8")
    outcome = replay_report(path)
    assert outcome.identical, outcome.message
    data = json.loads(path.read_text("utf-8"))
    data["decisions"] = True  # claims its decisions are there: they are not
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    assert not replay_report(path).identical
