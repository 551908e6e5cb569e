"""R-SETUP-1's drawn start squares on terrain (R-SOUL-TERR-1, R-ORM-MOVE-2).

A draw landing on a blocked or object area is discarded and both coordinates
are drawn again; under orm a full area of the side is redrawn too.  These
tests pin the squares *and* the number of ``setup`` draws against a model of
the order the engine has always drawn in (the movement's ``may_stop`` first,
then the terrain), so that folding the terrain check into the draw moves no
draw (R-RNG-1)."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

import pytest

from referee.board import Square, parse_square
from referee.engine import events as E
from referee.engine.battle import BattleSetup, resolve_battle
from referee.engine.rng import BattleRng, ScriptedRng
from referee.terrain import Terrain, TerrainObject

from .helpers import battle, fighter, of, ruleset


def sq(name: str) -> Square:
    return parse_square(name)


#: Terrain crowding both armies' R-SETUP-1 rows so that many draws are discarded:
#: blocked areas, objects, and barriers (which R-SOUL-TERR-1 does not close).
CROWDED = Terrain(
    blocked=tuple(sq(f"{f}{r}") for f in "abcdef" for r in (1, 2, 7, 8)),
    barriers=tuple(sq(f"{f}{r}") for f in "gh" for r in (1, 2, 3, 6, 7, 8)),
    objects=tuple(TerrainObject(sq(f"{f}{r}"), 3, 0) for f in "abcdef" for r in (3, 6)),
)


def drawn_battle(names_white: str, names_black: str, terrain: Terrain | None,
                 fixed: dict[str, str] | None = None) -> BattleSetup:
    """Every character drawn (R-SETUP-1) unless ``fixed`` gives its square."""
    fixed = fixed or {}
    setup = battle(white=[fighter(n, "a1") for n in names_white.split()],
                   black=[fighter(n, "h8") for n in names_black.split()])
    combatants = tuple(replace(c, square=sq(fixed[c.sheet.name]) if c.sheet.name in fixed else None)
                       for c in setup.combatants)
    return replace(setup, combatants=combatants, terrain=terrain)


def old_order(setup: BattleSetup, rs: Any, seed: int, capacity: int = 0) -> tuple[list[Square], int]:
    """The squares and ``setup`` draw count of the engine's former two loops:
    ``draw_square`` drew (file, row) until the movement's ``may_stop`` held
    (orm: on the map and not full, R-ORM-MOVE-2), then the battle redrew the
    whole while the square was a blocked or object area (R-SOUL-TERR-1)."""
    stream = random.Random(f"{seed}:setup")
    draws = 0
    width, height = rs.map.width, rs.map.height
    closed = setup.terrain.closed() if setup.terrain is not None else frozenset()
    off_map = closed | frozenset(sq(s) for s in rs.map.blocked)
    where: dict[str, tuple[str, Square]] = {c.sheet.name: (c.team, c.square) for c in setup.combatants
                                            if c.square is not None}
    squares = []
    for c in setup.combatants:
        if c.square is not None:
            squares.append(c.square)
            continue

        def may_stop(square: Square) -> bool:
            if capacity <= 0:
                return True
            held = sum(1 for team, at in where.values() if team == c.team and at == square)
            return square not in off_map and held < capacity

        while True:
            while True:
                file, row = stream.randrange(width), stream.randrange(height - 2)
                draws += 2
                square = Square(file=file, rank=height - 1 - row if c.team == "black" else row)
                if may_stop(square):
                    break
            if square not in closed:
                break
        where[c.sheet.name] = (c.team, square)
        squares.append(square)
    return squares, draws


def placed(rec: Any) -> list[Square]:
    return [e.square for e in of(rec, E.Placed)]


@pytest.mark.parametrize("seed", range(40))
def test_r_soul_terr_1_drawn_starts_avoid_closed_areas_in_the_old_order(seed: int) -> None:
    """R-SOUL-TERR-1: "a setup draw landing on one is discarded and both
    coordinates drawn again": no start on a blocked or object area; the
    squares and the ``setup`` draws are exactly the former order's."""
    setup = drawn_battle("A B C D", "E F G H", CROWDED)
    rs = ruleset("soulwired", 1)
    rng = BattleRng(seed)
    rec = resolve_battle(setup, rs, seed, rng=rng)
    squares = placed(rec)
    assert not set(squares) & CROWDED.closed()
    assert (squares, rng.draws["setup"]) == old_order(setup, rs, seed)


@pytest.mark.parametrize("seed", range(40))
def test_r_orm_move_2_drawn_starts_avoid_blocked_and_full_areas_in_the_old_order(seed: int) -> None:
    """R-ORM-MOVE-2 *Setup*: "R-SETUP-1 redraws (file, then row) while the
    drawn square is blocked or full"; fixed-square allies count; same draws."""
    terrain = Terrain(blocked=CROWDED.blocked)
    setup = drawn_battle("A B C D E", "F G H I J", terrain, fixed={"A": "g1", "B": "g1", "F": "h8"})
    rs = ruleset("orm", 1)
    rng = BattleRng(seed)
    rec = resolve_battle(setup, rs, seed, rng=rng)
    squares = placed(rec)
    assert not set(squares) & terrain.closed()
    assert (squares, rng.draws["setup"]) == old_order(setup, rs, seed, capacity=2)


def test_r_soul_terr_1_scripted_discards_blocked_then_object_and_keeps_a_barrier() -> None:
    """A blocked area (a1), then an object's area (c3), are discarded, both
    coordinates each time; a barrier area (g1) is not closed to a setup draw
    (R-SOUL-TERR-1 closes blocked and object areas only), so it stands."""
    setup = drawn_battle("A", "B", CROWDED, fixed={"B": "h8"})
    rng = ScriptedRng({"setup": [0, 0, 2, 2, 6, 0]})
    rec = resolve_battle(setup, ruleset("soulwired", 1), 1, rng=rng)
    assert placed(rec)[0] == sq("g1")
    assert rng.remaining().get("setup", 0) == 0


def test_r_setup_1_a_start_never_lands_on_a_rulesets_own_blocked_area() -> None:
    """docs/decisions.md "Start squares on a ruleset's blocked areas": a house
    ruleset's ``map.blocked`` areas are discarded like R-SOUL-TERR-1's blocked
    areas, under every movement (tcgt's steps here, which stop anywhere)."""
    rs = ruleset("tcgt")
    blocked = tuple(f"{f}{r}" for f in "abcdefgh" for r in (1, 2, 3, 6, 7, 8) if (ord(f) + r) % 2)
    rs = replace(rs, map=replace(rs.map, blocked=blocked))
    closed = {sq(s) for s in blocked}
    setup = drawn_battle("W1 W2 W3 W4", "B1 B2 B3 B4", None)
    for seed in range(25):
        record = resolve_battle(setup, rs, seed)
        placed = [e.square for e in record.events if isinstance(e, E.Placed)]
        assert len(placed) == 8 and not closed & set(placed), seed
