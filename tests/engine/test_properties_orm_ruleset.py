"""Invariants over random legal battles under the ``orm`` ruleset
(variant-orm.md): tcgt's (HP within 0..max, nobody off the field, the down
never act, a panel never paid twice, every battle ends by the cap) plus
ORM's own: no area ever holds more than two of a side once an action is over
(R-ORM-MOVE-2), no move goes on after entering an enemy's area (no route
through an enemy, R-ORM-MOVE-1), nobody stands on blocked terrain, every
check's value adds up (R-ORM-CHK-1), and the same inputs give byte-identical
events across processes and hash seeds."""

from __future__ import annotations

import os
from dataclasses import replace
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.board import Square
from referee.engine import events as E
from referee.terrain import Terrain
from referee.engine.battle import BattleRecord, BattleSetup, resolve_battle

from .crossprocess import events_across_processes
from .ormhelpers import orm_ruleset
from .randombattle import random_setup
from .test_properties import check_invariants

LIMIT = 40
EXAMPLES = int(os.environ.get("REFEREE_ORM_EXAMPLES", "25"))


def orm_setup(draw: Any, size: int) -> BattleSetup:
    """A random battle with ORM's HP (10 x body), a PC side and up to two
    blocked squares (squares drawn, R-SETUP-1 redrawing blocked or full ones)."""
    setup = random_setup(draw, size, text_plans=True)
    combatants = tuple(replace(c, sheet=replace(c.sheet, max_hp=10 * c.sheet.body)) for c in setup.combatants)
    blocked = tuple(Square(draw(8), 2 + draw(4)) for _ in range(draw(3)))
    return BattleSetup(combatants, None, pcs=("white", "black", None)[draw(3)],
                       terrain=Terrain(blocked=blocked) if blocked else None)


def check_orm_invariants(record: BattleRecord, setup: BattleSetup) -> None:
    team = {c.sheet.name: c.team for c in setup.combatants}
    where: dict[str, Square] = {}
    down: set[str] = set()
    entered_enemy: set[str] = set()
    for ev in record.events:
        if isinstance(ev, E.Placed):
            where[ev.actor] = ev.square
        elif isinstance(ev, E.Moved):
            assert ev.actor not in entered_enemy, "a move went on through an enemy's area (R-ORM-MOVE-1)"
            where[ev.actor] = ev.to_square
            if any(where[o] == ev.to_square and team[o] != team[ev.actor] for o in where if o not in down):
                entered_enemy.add(ev.actor)
        elif isinstance(ev, E.SimpleUse):
            entered_enemy.discard(ev.actor)
        elif isinstance(ev, E.Knockback):
            where[ev.target] = ev.to_square
        elif isinstance(ev, E.Down):
            down.add(ev.target)
        elif isinstance(ev, E.Nd6Check):
            assert ev.value >= sum(ev.dice) + ev.ability_value + ev.support
            assert ev.critical == (sum(1 for d in ev.dice if d == 6) >= 2)
        if isinstance(ev, (E.ActionEnd, E.ActionOrder)):
            held: dict[tuple[str, Square], int] = {}
            for name, square in where.items():
                if name not in down:
                    assert setup.terrain is None or square not in setup.terrain.blocked
                    held[(team[name], square)] = held.get((team[name], square), 0) + 1
            assert max(held.values(), default=0) <= 2, held  # R-ORM-MOVE-2


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data(), st.integers(1, 4), st.integers(0, 10**6))
def test_invariants_hold_in_random_orm_battles(data: st.DataObject, size: int, seed: int) -> None:
    setup = orm_setup(lambda n: data.draw(st.integers(0, n - 1)), size)
    rs = orm_ruleset(LIMIT)
    record = resolve_battle(setup, rs, seed)
    check_invariants(record, setup, LIMIT)
    check_orm_invariants(record, setup)
    again = resolve_battle(setup, rs, seed)
    assert [e.to_json() for e in again.events] == [e.to_json() for e in record.events]


def test_orm_byte_identical_across_processes_and_hash_seeds() -> None:
    """R-ORM-RNG-1 / R-RNG-1: same inputs + seed = byte-identical events."""
    events = events_across_processes("tests.engine.test_properties_orm_ruleset:orm_setup",
                                      "tests.engine.ormhelpers:orm_ruleset", 100,
                                      seed=3003, digits="31415926535897932384626433832795")
    assert any(e["type"] == "nd6_check" for e in events)
