"""Issue 18, item 3: decision events cost nothing unless a report reads them.

A lean resolution (``decisions=False``) must give exactly the full
resolution's events with the decision events (``events.is_decision``) left
out -- same draws, same everything else -- under every built-in ruleset; and
every report format that does not read them (the written ones without
``--explain``) must be byte-identical whichever resolution it renders.  A
lean json report says ``"decisions": false`` and ``replay`` confirms it.
"""

from __future__ import annotations

import json
import os
import sys
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.app.pipeline import resolve_file
from referee.board import parse_square
from referee.engine import events as E
from referee.engine.battle import resolve_battle
from referee.report import FORMATS, needs_decisions, render

from .helpers import ruleset
from .randombattle import random_setup
from .test_properties_d20pool import D20_CLAUSES

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests"))
from reporthelpers import fixture_battles  # noqa: E402

EXAMPLES = int(os.environ.get("REFEREE_LEAN_EXAMPLES", "12"))
RULESETS = ("tcgt", "orm", "wiz", "soulwired", "d20pool")
EXTRA = {"d20pool": D20_CLAUSES}


def _json(events: tuple[E.Event, ...] | list[E.Event]) -> list[dict[str, object]]:
    return [e.to_json() for e in events]


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data(), st.sampled_from(RULESETS), st.integers(1, 4), st.integers(0, 10**6), st.booleans())
def test_a_lean_resolution_is_the_full_one_without_its_decisions(data, name, size, seed, fixed) -> None:  # type: ignore[no-untyped-def]
    setup = random_setup(lambda n: data.draw(st.integers(0, n - 1)), size, text_plans=True,
                         extra=EXTRA.get(name, ()))
    if not fixed:
        setup = replace(setup, order=None)  # the ruleset's initiative, ties rolled
    rs = ruleset(name, 40)
    full = resolve_battle(setup, rs, seed)
    lean = resolve_battle(setup, rs, seed, decisions=False)
    assert _json(lean.events) == _json([e for e in full.events if not E.is_decision(e)])
    assert lean.result == full.result
    assert any(E.is_decision(e) for e in full.events)
    assert not any(E.is_decision(e) for e in lean.events)


def test_a_pattern_switch_stays_in_a_lean_resolution() -> None:
    """The written report always says a character switched patterns, so a
    switching ``pattern_selected`` is not a decision event."""
    switched = E.PatternSelected(turn=2, actor="Goro", pattern=1, elements="火火", reason="condition", switched=True)
    kept = E.PatternSelected(turn=2, actor="Goro", pattern=1, elements="火火", reason="kept", switched=False)
    assert not E.is_decision(switched) and E.is_decision(kept)
    assert E.is_decision(E.Stayed(turn=1, actor="Goro", square=parse_square("c3"), reason="engaged", line=None,
                                  rule="R-MOVE-6"))


@pytest.mark.parametrize("battle", fixture_battles(), ids=lambda p: p.stem)
def test_every_fixture_renders_the_same_from_a_lean_resolution(battle: Path) -> None:
    """Every format but json, in both languages, compact and full, reads
    nothing a lean resolution leaves out (every ruleset's fixtures, terrain
    and variant plan words included)."""
    full = resolve_file(battle)
    lean = resolve_file(battle, decisions=False)
    assert _json(lean.events) == _json([e for e in full.events if not E.is_decision(e)])
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
    by ``--explain`` (their handlers only explain), so a lean resolution does
    not build them; the fixtures' renderings above hold every other format
    unchanged without them."""
    from referee.report.written import EXPLAIN_ONLY_TYPES

    assert kind in E.DECISION_TYPES
    assert kind in EXPLAIN_ONLY_TYPES


def test_only_explain_and_a_complete_json_need_the_decisions() -> None:
    assert not needs_decisions(("text", "md", "bbcode", "discord", "html"))
    assert needs_decisions(("text",), explain=True)
    assert needs_decisions(("json", "text"))
    assert not needs_decisions(("json", "text"), json_decisions=False)


def test_a_lean_report_says_so_and_a_complete_one_is_unchanged() -> None:
    battle = fixture_battles()[0]
    lean = json.loads(render(resolve_file(battle, decisions=False), "json"))
    full = json.loads(render(resolve_file(battle), "json"))
    assert lean["decisions"] is False
    assert "decisions" not in full
    keys = list(full)
    at = keys.index("inputs")
    assert list(lean) == keys[:at] + ["decisions"] + keys[at:]


def test_explain_refuses_a_lean_report() -> None:
    """``--explain`` of a report without decisions would silently say nothing."""
    lean = resolve_file(fixture_battles()[0], decisions=False)
    with pytest.raises(ValueError, match="without its decision events"):
        render(lean, "text", explain=True)


def test_replay_confirms_a_lean_report_and_catches_an_edit(tmp_path: Path) -> None:
    from referee.app.replay import replay_report

    battle = fixture_battles()[0]
    path = tmp_path / "lean.json"
    path.write_text(render(resolve_file(battle, decisions=False), "json"), encoding="utf-8")
    outcome = replay_report(path)
    assert outcome.identical, outcome.message
    data = json.loads(path.read_text("utf-8"))
    data["decisions"] = True  # claims its decisions are there: they are not
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    assert not replay_report(path).identical
