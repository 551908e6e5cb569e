"""Invariants over random battles under ORM's map mixed into tcgt (the
``house-orm-movement`` fixture ruleset: Manhattan ranges, 4-way steps around
enemies, no engagement lock, axis knockback -- R-ORM-MAP-1, R-ORM-MOVE-1,
R-ORM-KNOCK-1): tcgt's invariants hold, every step and push is 4-way, and
the same seed gives the same events."""

from __future__ import annotations

from dataclasses import replace
from functools import lru_cache
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.engine import events as E
from referee.engine.battle import resolve_battle
from referee.ruleset import Ruleset, load_ruleset

from .randombattle import random_setup
from .test_properties import check_invariants

HOUSE = Path(__file__).resolve().parents[2] / "fixtures" / "house-orm-movement.ruleset.yaml"
LIMIT = 60


@lru_cache(maxsize=1)
def orm_map_house() -> Ruleset:
    return replace(load_ruleset(HOUSE), turn_limit=LIMIT)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data(), st.integers(1, 4), st.integers(0, 10**6))
def test_invariants_hold_in_random_battles_on_orms_map(data: st.DataObject, size: int, seed: int) -> None:
    setup = random_setup(lambda n: data.draw(st.integers(0, n - 1)), size)
    record = resolve_battle(setup, orm_map_house(), seed)
    check_invariants(record, setup, LIMIT)
    for ev in record.events:
        if isinstance(ev, E.Moved):
            a, b = ev.from_square, ev.to_square
            assert abs(a.file - b.file) + abs(a.rank - b.rank) == 1  # R-ORM-MOVE-1: 4-way steps
        if isinstance(ev, E.Knockback):
            assert ev.direction in ("N", "E", "S", "W")  # R-ORM-KNOCK-1: one axis
    assert resolve_battle(setup, orm_map_house(), seed).events == record.events
