"""A ring of the occupancy index holds exactly the living characters at
that Chebyshev distance."""

from __future__ import annotations

from typing import Any

import pytest

from referee.board import Square
from referee.engine.battle import resolve_battle
from referee.engine.core import Resolution

from .helpers import ruleset
from .test_state_index import _setup


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
