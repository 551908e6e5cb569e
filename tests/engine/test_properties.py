"""Invariants over random legal battles (style lesson 15)."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.engine import events as E
from referee.engine.battle import resolve_battle

from .crossprocess import events_across_processes
from .helpers import ruleset
from .randombattle import random_setup


def check_invariants(record, setup, limit: int) -> None:  # type: ignore[no-untyped-def]
    max_hp = {c.sheet.name: c.sheet.max_hp for c in setup.combatants}
    down: set[str] = set()
    acting: set[str] = set()
    for ev in record.events:
        if isinstance(ev, (E.Damage, E.Heal)):
            assert 0 <= ev.hp_after <= max_hp[ev.target]  # R-CHAR-2, heals cap
        for sq_field in ("square", "from_square", "to_square"):
            sq = getattr(ev, sq_field, None)
            if sq is not None:
                assert 0 <= sq.file < 8 and 0 <= sq.rank < 8  # nobody off the field
        if isinstance(ev, E.Down):
            down.add(ev.target)
        if isinstance(ev, E.Revived):  # R-D20-KO-2: a KO can be healed
            down.discard(ev.target)
        if isinstance(ev, (E.ActionStart, E.SkillUsed, E.Moved)):
            assert ev.actor not in down  # the dead never act
        if isinstance(ev, E.SkillUsed):
            assert len(set(ev.panels)) == len(ev.panels)  # a panel is never paid twice
    assert isinstance(record.events[-1], E.BattleEnd)
    assert record.result.turns <= limit  # every battle ends by the cap


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data(), st.integers(1, 4), st.integers(0, 10**6))
def test_invariants_hold_with_plans_written_in_the_plan_language(data, size, seed) -> None:  # type: ignore[no-untyped-def]
    """The same invariants with parsed plans (every canonical clause kind)."""
    setup = random_setup(lambda n: data.draw(st.integers(0, n - 1)), size, text_plans=True)
    record = resolve_battle(setup, ruleset(turn_limit=60), seed)
    check_invariants(record, setup, 60)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data(), st.integers(1, 4), st.integers(0, 10**6))
def test_invariants_hold_in_random_battles(data, size, seed) -> None:  # type: ignore[no-untyped-def]
    setup = random_setup(lambda n: data.draw(st.integers(0, n - 1)), size)
    rs = ruleset(turn_limit=60)
    record = resolve_battle(setup, rs, seed)
    check_invariants(record, setup, 60)
    again = resolve_battle(setup, rs, seed)
    assert [e.to_json() for e in again.events] == [e.to_json() for e in record.events]


def test_same_seed_byte_identical_across_processes_and_hash_seeds() -> None:
    """R-RNG-1: same inputs + seed = byte-identical events, whatever PYTHONHASHSEED."""
    events = events_across_processes("tests.engine.randombattle:random_setup", "tests.engine.helpers:ruleset",
                                     seed=20071213, digits="31415926535897932384626433832795")
    assert len(events) > 10
