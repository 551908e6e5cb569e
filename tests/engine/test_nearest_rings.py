"""R-MOVE-6's nearest enemies read ring by ring (issue 18) are the full
scan's: the same enemies, in roster order, at the same route length, for
every approach of random battles of every built-in ruleset; and a ring of
the occupancy index holds exactly the living characters at that Chebyshev
distance."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from referee.board import Square
from referee.engine import movement
from referee.engine.battle import resolve_battle
from referee.engine.core import Resolution
from referee.engine.state import Fighter

from .helpers import ruleset
from .test_state_index import RULESETS, _setup


def _full_scan(b: Resolution, f: Fighter, enemies: list[Fighter],
               here: Square | None = None) -> tuple[list[Fighter], int]:
    """The enemies at the least route length from ``here`` (``f``'s area), every one measured."""
    start = f.square if here is None else here
    dist = [movement._dist(b, f, start, e.square) for e in enemies]
    nearest = min(dist)
    return [e for e, d in zip(enemies, dist) if d == nearest], nearest


@pytest.mark.parametrize("name,side", [*((n, 8) for n in RULESETS), ("tcgt", 23)])
def test_ring_search_equals_the_full_scan(name: str, side: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """On 8x8 the rings mostly answer; on 23x23 the enemies are often beyond
    the rings' budget and the Chebyshev bounds order the measurements."""
    original = movement.nearest_enemies
    asked = [0, 0]  # calls, calls that read rings (more than _RING_FROM enemies)

    def checked(b: Resolution, f: Fighter, enemies: list[Fighter],
                here: Square | None = None) -> tuple[list[Fighter], int]:
        got = original(b, f, enemies, here)
        want = _full_scan(b, f, enemies, here)
        assert [g.name for g in got[0]] == [g.name for g in want[0]] and got[1] == want[1], (f, got, want)
        asked[0] += 1
        asked[1] += len(enemies) > movement._RING_FROM
        return got

    monkeypatch.setattr(movement, "nearest_enemies", checked)
    rs = ruleset(name)
    if side != 8:
        rs = replace(rs, map=replace(rs.map, width=side, height=side))
    for seed in range(8):
        size = (4, 8, 12, 16)[seed % 4]
        assert resolve_battle(_setup(name, seed, size), rs, seed).result is not None
    assert asked[1] > 20, asked  # the ring search really ran


def test_rings_hold_exactly_the_characters_at_that_distance(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every ring around every area (and the off-map waiting square) of a
    few positions mid-battle, against a recount."""
    checked = [0]
    original = Resolution.emit

    def emit(self: Resolution, event: Any) -> None:
        st = self.state
        if len(self.events) % 97 == 0:
            living = [g for g in st.fighters if not g.down]
            for sq in (*st.graph.squares[::7], Square(-1, -1)):
                for d in range(max(st.graph.width, st.graph.height) + 2):
                    want = sorted(g.name for g in living
                                  if max(abs(g.square.file - sq.file), abs(g.square.rank - sq.rank)) == d)
                    assert sorted(g.name for g in st.ring(sq, d)) == want, (sq, d)
                    checked[0] += 1
        original(self, event)

    monkeypatch.setattr(Resolution, "emit", emit)
    rs = ruleset("tcgt")
    for seed in range(3):
        resolve_battle(_setup("tcgt", seed, 8), rs, seed)
    assert checked[0] > 100


def test_a_metric_promising_its_box_is_its_range_keeps_the_promise() -> None:
    """``box_is_range`` lets candidate searches skip ``in_range`` on what the
    occupancy index returns for the box (issue 18): a registered metric that
    promises it must mean exactly the box; Chebyshev does."""
    from referee.engine.mechanics.registry import RANGE
    from referee.mechanicspec import PlainSpec

    squares = [Square(f, r) for f in range(-1, 9) for r in range(-1, 9)]
    promised = []
    for kind in RANGE.kinds():
        metric = RANGE.build(PlainSpec(kind))
        if not metric.box_is_range:
            continue
        promised.append(kind)
        for a in squares:
            for b in squares:
                for r in range(0, 5):
                    box = abs(a.file - b.file) <= r and abs(a.rank - b.rank) <= r
                    assert metric.in_range(a, b, r) is box, (kind, a, b, r)
    assert "chebyshev" in promised, promised


def test_hp_is_assigned_only_where_settle_downs_hears_of_it() -> None:
    """``settle_downs`` reads the characters ``lose_hp`` took to 0 (issue 18),
    so HP may fall nowhere else: every assignment to ``.hp`` in the engine is
    in ``core.py`` (``lose_hp``, ``gain_hp``) or d20pool's revival (which
    raises it)."""
    import ast
    from pathlib import Path

    root = Path(__file__).resolve().parents[2] / "referee" / "engine"
    found = []
    for path in sorted(root.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            targets: list[ast.expr] = []
            if isinstance(node, ast.Assign):
                targets = list(node.targets)
            elif isinstance(node, (ast.AugAssign, ast.AnnAssign)):
                targets = [node.target]
            for t in targets:
                if isinstance(t, ast.Attribute) and t.attr == "hp":
                    found.append(f"{path.relative_to(root)}:{type(node).__name__}")
    allowed = {"core.py:AugAssign", "mechanics/d20pool.py:Assign", "state.py:Assign"}
    assert found and set(found) <= allowed, found
