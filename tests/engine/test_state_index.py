"""The battle state's kept indexes equal a recount: the occupancy by area
and the standing members of each army are changed only by
``BattleState.move`` and ``BattleState.set_down`` (checked after every change
of drawn positions), and every change of a character's square or down flag
in the engine -- variants' included (d20pool's KO and revival, knockback,
orm's given-back steps, soulwired's look-ahead undo, the narrowing, setup
draws) -- goes through them (checked in the source)."""

from __future__ import annotations

import ast
from dataclasses import replace
from pathlib import Path
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from referee.board import Square
from referee.engine.mechanics.metric import Chebyshev
from referee.engine.mechanics.orm import Manhattan
from referee.engine.rng import BattleRng
from referee.engine.state import BLACK, WHITE, BattleState
from referee.terrain import Terrain

from .positions import Piece, pieces, position
from .randombattle import random_setup
from .test_properties_d20pool import D20_CLAUSES

ROOT = Path(__file__).resolve().parents[2]
RULESETS = ("tcgt", "orm", "wiz", "soulwired", "d20pool")


def _setup(name: str, seed: int, size: int) -> Any:
    src = BattleRng(f"index-{name}-{seed}")
    draw = lambda n: src.randrange("setup", n)  # noqa: E731 (input generation only)
    setup = random_setup(draw, size, text_plans=True, extra=D20_CLAUSES if name == "d20pool" else ())
    if name == "orm":
        combatants = tuple(replace(c, sheet=replace(c.sheet, max_hp=10 * c.sheet.body)) for c in setup.combatants)
        blocked = tuple(Square(draw(8), 2 + draw(4)) for _ in range(draw(3)))
        setup = replace(setup, combatants=combatants, terrain=Terrain(blocked=blocked) if blocked else None)
    if name == "wiz" or (name == "soulwired" and draw(2)):
        setup = replace(setup, order=None)
    return setup


#: An operation on a position: move character ``i`` to an area (file, rank),
#: or set its down flag.
Op = tuple[str, int, int, int]

#: A small map, so that characters share areas often.
SIDE = 2

ops = st.lists(st.one_of(
    st.tuples(st.just("move"), st.integers(0, 11), st.integers(-1, SIDE - 1), st.integers(-1, SIDE - 1)),
    st.tuples(st.just("down"), st.integers(0, 11), st.integers(0, 1), st.just(0))), max_size=30)


def _recount_errors(state: BattleState, queries: list[tuple[int, int, int, int]], side: int = SIDE) -> list[str]:
    """Where the kept indexes differ from a recount of the characters."""
    living = [f for f in state.fighters if not f.down]
    errors = []
    for sq in [Square(x, y) for x in range(-1, side) for y in range(-1, side)]:
        here = [f.name for f in living if f.square == sq]
        if [f.name for f in state.occupancy.at(sq)] != here:
            errors.append(f"at {sq}: {[f.name for f in state.occupancy.at(sq)]} != {here}")
    for team in (WHITE, BLACK):
        if [f.name for f in state.standing_by_team[team]] != [f.name for f in living if f.team == team]:
            errors.append(f"standing {team}")
    for x, y, r, side in queries:
        sq = Square(x, y)
        team = (None, WHITE, BLACK)[side % 3]
        enemies = side >= 3
        got = [f.name for f in state.occupancy.within(sq, r, team, enemies=enemies)]
        want = [f.name for f in living if state.metric.in_range(sq, f.square, r)
                and (team is None or (f.team != team) == enemies)]
        if got != want:
            errors.append(f"within {sq} {r} {team} {enemies}: {got} != {want}")
    return errors


@given(pieces(SIDE), ops, st.lists(st.tuples(st.integers(-1, SIDE - 1), st.integers(-1, SIDE - 1), st.integers(-1, 5),
                                          st.integers(0, 5)), min_size=1, max_size=6), st.booleans())
def test_kept_indexes_equal_a_recount_after_every_change(drawn: list[Piece], changes: list[Op],
                                                          queries: list[tuple[int, int, int, int]],
                                                          manhattan: bool) -> None:
    """The occupancy by area and the standing members of each army, kept by
    ``BattleState.move`` and ``BattleState.set_down``, equal a recount after
    every change -- a step, a push, a setup draw from the waiting square
    (-1, -1), a fall, a revival -- and every range scan (R-RANGE-1, either
    metric, any side) equals a scan of every living character."""
    state = position(drawn, size=SIDE, metric=Manhattan() if manhattan else Chebyshev())
    assert _recount_errors(state, queries) == []
    for kind, i, a, b in changes:
        f = state.fighters[i % len(state.fighters)]
        if kind == "move":
            state.move(f, Square(a, b))
        else:
            state.set_down(f, bool(a))
        assert _recount_errors(state, queries) == [], (kind, f.name, a, b)


@given(pieces(8), st.lists(st.tuples(st.integers(-1, 7), st.integers(-1, 7), st.integers(-1, 9), st.integers(0, 5)),
                          min_size=1, max_size=12), st.booleans())
def test_a_range_scan_reads_every_living_character_in_range(drawn: list[Piece], queries: list[tuple[int, int, int, int]],
                                                           manhattan: bool) -> None:
    """On a full-size map, for any centre (the waiting square included),
    range and side: the scan of the box is the scan of every character."""
    state = position(drawn, size=8, metric=Manhattan() if manhattan else Chebyshev())
    assert _recount_errors(state, queries, 8) == []


def test_no_square_or_down_is_assigned_outside_the_state() -> None:
    """Every ``x.square = ...`` / ``x.down = ...`` in the engine is inside
    ``BattleState`` or ``Fighter.__init__`` (a new one would bypass the kept
    indexes)."""
    offenders = []
    for path in sorted((ROOT / "referee" / "engine").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            targets: list[ast.expr] = []
            if isinstance(node, ast.Assign):
                targets = list(node.targets)
            elif isinstance(node, (ast.AugAssign, ast.AnnAssign)):
                targets = [node.target]
            flat: list[ast.expr] = []
            for t in targets:
                flat.extend(t.elts if isinstance(t, ast.Tuple) else [t])
            for t in flat:
                if isinstance(t, ast.Attribute) and t.attr in ("square", "down"):
                    offenders.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    allowed = {"referee/engine/state.py"}
    # an event's own field records a square; it moves no one
    assert [o for o in offenders if o.split(":")[0] not in allowed and not o.startswith("referee/engine/events")] == []


def test_every_range_metric_stays_inside_the_chebyshev_box() -> None:
    """The occupancy index narrows range scans to the Chebyshev box of the
    range: every registered range metric must never reach beyond it
    (``in_range(a, b, r)`` implies both the file and rank gaps are <= r)."""
    from referee.board import Square as Sq
    from referee.engine.mechanics.registry import RANGE
    from referee.mechanicspec import PlainSpec

    squares = [Sq(f, r) for f in range(-1, 9) for r in range(-1, 9)]
    assert RANGE.kinds()
    for kind in RANGE.kinds():
        metric = RANGE.build(PlainSpec(kind))
        for a in squares:
            for b in squares:
                for r in range(0, 5):
                    if metric.in_range(a, b, r):
                        assert abs(a.file - b.file) <= r and abs(a.rank - b.rank) <= r, (kind, a, b, r)
