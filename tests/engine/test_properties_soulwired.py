"""Invariants over random battles under soulwired's built mechanics (ability
initiative, d6 pools with evasion dice, hard mode) on tcgt's others: the
shared invariants, plus evasion dice never negative, the hard-mode level never
falling, checks matching their dice, and identical replays."""

from __future__ import annotations

import os

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.engine import events as E
from referee.engine.battle import resolve_battle

from .randombattle import random_setup
from .soulhelpers import house
from .test_properties import check_invariants

EXAMPLES = int(os.environ.get("SOUL_PROPERTY_EXAMPLES", "25"))


def check_soul_invariants(record) -> None:  # type: ignore[no-untyped-def]
    level = 0
    for ev in record.events:
        if isinstance(ev, E.EvasionDice):
            assert ev.dice >= 0
        if isinstance(ev, E.Evasion):
            assert 0 <= ev.committed <= ev.dice_before  # R-SOUL-HIT-4: capped at the dice left
            assert ev.dice_left == ev.dice_before - ev.committed >= 0
            assert len(ev.dice) == ev.committed
            assert 2 <= ev.difficulty <= 6  # R-SOUL-CHECK-2
            assert ev.evaded == any(f >= ev.difficulty for f in ev.dice)
        if isinstance(ev, E.D6Check):
            assert all(1 <= f <= 6 for f in ev.dice)
            assert ev.successes == sum(1 for f in ev.dice if f >= ev.difficulty)
            assert ev.success == (ev.successes > 0)  # R-SOUL-CHECK-1
        if isinstance(ev, E.HardMode):
            assert ev.level > level  # R-SOUL-HARD-2: never falls
            level = ev.level
        if isinstance(ev, E.TurnStalled):
            assert ev.level == level


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data(), st.integers(1, 4), st.integers(0, 10**6))
def test_invariants_hold_in_random_soulwired_battles(data, size, seed) -> None:  # type: ignore[no-untyped-def]
    setup = random_setup(lambda n: data.draw(st.integers(0, n - 1)), size)
    if data.draw(st.booleans()):
        from dataclasses import replace
        setup = replace(setup, order=None)  # the ability initiative, ties rolled
    rs = house(turn_limit=60)
    record = resolve_battle(setup, rs, seed)
    check_invariants(record, setup, 60)
    check_soul_invariants(record)
    again = resolve_battle(setup, rs, seed)
    assert [e.to_json() for e in again.events] == [e.to_json() for e in record.events]
