"""The movement's ``chebyshev_box`` promise (issue 18), which lets R-MOVE-6's
approach take the first ring holding an enemy without measuring a route:
inside the box ``route_length`` is exactly the Chebyshev distance, outside
it None -- checked against the mechanic's own ``route_length`` mid-battle in
every built-in ruleset, on an open map and on a map with blocked areas."""

from __future__ import annotations

from typing import Any

import pytest

from referee.board import Square
from referee.engine.battle import resolve_battle
from referee.engine.core import Resolution
from referee.mapgraph import MapGraph

from .helpers import ruleset
from .test_state_index import RULESETS, _setup


@pytest.mark.parametrize("name", RULESETS)
def test_routes_inside_the_promised_box_are_chebyshev(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    checked = [0, 0]  # states asked, states with a box
    original = Resolution.emit

    def emit(self: Resolution, event: Any) -> None:
        st = self.state
        if len(self.events) % 53 == 0:
            movement = self.mechanics.movement
            box = movement.chebyshev_box(st)
            checked[0] += 1
            if box is not None:
                checked[1] += 1
                assert movement.routes_at_least_chebyshev
                x0, y0, x1, y1 = box
                mover = st.fighters[len(self.events) % len(st.fighters)]
                squares = (*st.graph.squares[::5], Square(-1, -1), Square(x1 + 1, y0))
                for a in squares:
                    for z in squares[::3]:
                        inside = all(x0 <= q.file <= x1 and y0 <= q.rank <= y1 for q in (a, z))
                        want = max(abs(a.file - z.file), abs(a.rank - z.rank)) if inside else None
                        assert movement.route_length(st, mover, a, z) == want, (box, a, z)
        original(self, event)

    monkeypatch.setattr(Resolution, "emit", emit)
    rs = ruleset(name)
    for seed in range(3):
        resolve_battle(_setup(name, seed, 8), rs, seed)
    assert checked[0] > 10, checked
    if name in ("tcgt", "wiz", "d20pool"):
        assert checked[1] == checked[0], checked  # the open king map: always promised


def test_open_box_only_on_an_open_king_map() -> None:
    assert MapGraph(8, 8).open_box == (0, 0, 7, 7)
    assert MapGraph(8, 8, adjacency="rook").open_box is None
    assert MapGraph(8, 8, blocked=frozenset({Square(3, 3)})).open_box is None

