"""Invariants over random battles under ORM's map mixed into tcgt (the
``house-orm-movement`` fixture ruleset: Manhattan ranges, 4-way steps around
enemies, no engagement lock, axis knockback -- R-ORM-MAP-1, R-ORM-MOVE-1,
R-ORM-KNOCK-1, two of a side an area, R-ORM-MOVE-2): tcgt's invariants
hold, every step and push is 4-way, no step or push ends in a full area of
its side, and the same seed gives the same events."""

from __future__ import annotations

from dataclasses import replace
from functools import lru_cache
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.board import Square
from referee.engine import events as E
from referee.engine.battle import resolve_battle
from referee.ruleset import Ruleset, load_ruleset

from .randombattle import random_setup
from .test_properties import check_invariants

HOUSE = Path(__file__).resolve().parents[2] / "fixtures" / "house-orm-movement.ruleset.yaml"
LIMIT = 60
CAPACITY = 2  # the fixture's capacity_per_side


@lru_cache(maxsize=1)
def orm_map_house() -> Ruleset:
    return replace(load_ruleset(HOUSE), turn_limit=LIMIT)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data(), st.integers(1, 4), st.integers(0, 10**6))
def test_invariants_hold_in_random_battles_on_orms_map(data: st.DataObject, size: int, seed: int) -> None:
    setup = random_setup(lambda n: data.draw(st.integers(0, n - 1)), size)
    record = resolve_battle(setup, orm_map_house(), seed)
    check_invariants(record, setup, LIMIT)
    team: dict[str, str] = {}
    where: dict[str, Square] = {}
    for ev in record.events:
        if isinstance(ev, E.Placed):
            team[ev.actor], where[ev.actor] = ev.team, ev.square
        if isinstance(ev, E.Down):
            where.pop(ev.target, None)
        if isinstance(ev, E.Pushed):
            where[ev.target] = ev.to_square
        if isinstance(ev, E.Moved):
            a, b = ev.from_square, ev.to_square
            assert abs(a.file - b.file) + abs(a.rank - b.rank) == 1  # R-ORM-MOVE-1: 4-way steps
            where[ev.actor] = b
            # R-ORM-MOVE-2: tcgt's one step (a move's last) never ends in a full area
            assert sum(1 for n, sq in where.items() if sq == b and team[n] == team[ev.actor]) <= CAPACITY
        if isinstance(ev, E.Knockback):
            assert ev.direction in ("N", "E", "S", "W")  # R-ORM-KNOCK-1: one axis
            if not ev.wall:
                where[ev.target] = ev.to_square
                # R-ORM-MOVE-2: a push into a full area meets a wall
                assert sum(1 for n, sq in where.items()
                           if sq == ev.to_square and team[n] == team[ev.target]) <= CAPACITY
    assert resolve_battle(setup, orm_map_house(), seed).events == record.events
