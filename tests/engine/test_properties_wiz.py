"""The invariants of ``test_properties`` over random battles under wiz's
built mechanics (IN initiative, percentile hits) taken into tcgt, plus the
percentile check's own: every chance within min..max, a hit iff die <= chance,
one d100 per weapon-on-enemy target that was not obstructed."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.engine import events as E
from referee.engine.battle import resolve_battle
from referee.ruleset import load_ruleset

from .randombattle import random_setup
from .test_properties import check_invariants
from .test_r_wiz_hit_and_initiative import WIZ_BLOCK


def _wizlike(tmp: Path) -> object:
    path = tmp / "wizlike.yaml"
    path.write_text(WIZ_BLOCK, encoding="utf-8")
    return replace(load_ruleset(path), turn_limit=60)


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(st.data(), st.integers(1, 4), st.integers(0, 10**6))
def test_invariants_hold_in_random_wizlike_battles(tmp_path: Path, data, size, seed) -> None:  # type: ignore[no-untyped-def]
    setup = replace(random_setup(lambda n: data.draw(st.integers(0, n - 1)), size), order=None)
    rs = _wizlike(tmp_path)
    record = resolve_battle(setup, rs, seed)  # type: ignore[arg-type]
    check_invariants(record, setup, 60)
    for ev in record.events:
        if isinstance(ev, E.D100Check):
            assert 5 <= ev.chance <= 95  # R-WIZ-HIT-2's clamp
            assert 1 <= ev.die <= 100 and ev.hit == (ev.die <= ev.chance)  # R-WIZ-HIT-1
    values = [e for e in record.events if isinstance(e, E.InitiativeValue)]
    assert [e.actor for e in values] == [c.sheet.name for c in setup.combatants]  # roster order, once
    again = resolve_battle(setup, rs, seed)  # type: ignore[arg-type]
    assert [e.to_json() for e in again.events] == [e.to_json() for e in record.events]


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data(), st.integers(1, 6), st.integers(0, 10**6))
def test_invariants_hold_in_random_built_in_wiz_battles(data, size, seed) -> None:  # type: ignore[no-untyped-def]
    """The built-in ``wiz`` ruleset (every mechanic: casts, area uses,
    percentile hits) keeps tcgt's invariants, and its own: every cast
    resolves or is lost in its turn (R-WIZ-CAST-2), every area selection is
    legal (R-WIZ-AREA-5), the same inputs give the same events."""
    setup = replace(random_setup(lambda n: data.draw(st.integers(0, n - 1)), size, text_plans=True), order=None)
    rs = replace(load_ruleset("wiz"), turn_limit=60)
    record = resolve_battle(setup, rs, seed)
    check_invariants(record, setup, 60)
    pending: dict[str, int] = {}
    for ev in record.events:
        if isinstance(ev, E.TurnStart):
            assert pending == {}, "a cast left unresolved at the end of a turn (R-WIZ-CAST-2)"
        elif isinstance(ev, E.Cast):
            assert ev.resolves_at < ev.value and ev.actor not in pending
            pending[ev.actor] = ev.resolves_at
        elif isinstance(ev, (E.CastResolves, E.CastLost)) and ev.actor in pending:
            pending.pop(ev.actor)
        elif isinstance(ev, E.AreaSelection) and not ev.fizzled:
            assert ev.slots == ev.count if ev.partial else ev.slots <= ev.count
            assert ev.levels == abs(ev.change) + len(ev.excluded)  # exclusion_cost 1 in wiz
            assert ev.tally[-1]["total"] == ev.slots
        elif isinstance(ev, E.AreaRoll):
            assert ev.total == sum(ev.dice) and len(ev.dice) == int(ev.area.split("x")[0])
    again = resolve_battle(setup, rs, seed)
    assert [e.to_json() for e in again.events] == [e.to_json() for e in record.events]
