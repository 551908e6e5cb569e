"""Invariants over random battles under soulwired's built mechanics (ability
initiative, d6 pools with evasion dice, hard mode) on tcgt's others: the
shared invariants, plus evasion dice never negative, the hard-mode level never
falling, checks matching their dice, and identical replays."""

from __future__ import annotations

import os

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.board import square_name
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


# --- issue 12: the whole soulwired ruleset (soul action, points, terrain) ---


def check_terrain_invariants(record) -> None:  # type: ignore[no-untyped-def]
    """Nobody stands in a blocked or object area (R-SOUL-TERR-1), at any
    moment: placed, moved or knocked back."""
    closed: set[str] = set()
    for ev in record.events:
        if isinstance(ev, E.Terrain):
            closed = {square_name(s) for s in ev.blocked} | {str(o["square"]) for o in ev.objects}
        elif isinstance(ev, E.ObjectDestroyed):
            closed.discard(square_name(ev.square))
        elif isinstance(ev, E.Placed):
            assert square_name(ev.square) not in closed, ev
        elif isinstance(ev, (E.Moved, E.Knockback)):
            assert square_name(ev.to_square) not in closed, ev
        elif isinstance(ev, E.MoveEnd) and ev.phase in ("first", "second"):
            assert ev.points_left >= 0


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data(), st.integers(1, 4), st.integers(0, 10**6))
def test_invariants_hold_in_random_battles_of_the_soulwired_ruleset(data, size, seed) -> None:  # type: ignore[no-untyped-def]
    """The built-in ``soulwired`` ruleset on random terrain: the shared
    invariants, evasion dice never negative, the level never falling, nobody
    inside an object, and identical replays."""
    from dataclasses import replace

    from referee.board import Square
    from referee.ruleset import load_ruleset
    from referee.terrain import Terrain, TerrainObject

    setup = random_setup(lambda n: data.draw(st.integers(0, n - 1)), size)
    squares = data.draw(st.lists(st.tuples(st.integers(0, 7), st.integers(0, 7)), max_size=6, unique=True))
    kinds = [data.draw(st.integers(0, 2)) for _ in squares]
    cells = [Square(file=f, rank=r) for f, r in squares]
    terrain = Terrain(tuple(s for s, k in zip(cells, kinds) if k == 0), tuple(s for s, k in zip(cells, kinds) if k == 1),
                      tuple(TerrainObject(s, 1 + data.draw(st.integers(0, 5)), data.draw(st.integers(0, 2)))
                            for s, k in zip(cells, kinds) if k == 2))
    setup = replace(setup, terrain=terrain, order=None if data.draw(st.booleans()) else setup.order)
    rs = replace(load_ruleset("soulwired"), turn_limit=40)
    record = resolve_battle(setup, rs, seed)
    check_invariants(record, setup, 40)
    check_soul_invariants(record)
    check_terrain_invariants(record)
    again = resolve_battle(setup, rs, seed)
    assert [e.to_json() for e in again.events] == [e.to_json() for e in record.events]
