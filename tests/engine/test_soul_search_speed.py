"""The soulwired least-cost searches' fast paths (issue 12's speed goal)
answer exactly as the plain searches do (R-SOUL-MOVE-2/3): the breadth-first
pass on a map without barriers against the heap search, and the memoised
enemy stops against a fresh set."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from referee.board import Square
from referee.engine.mechanics import soul_action as sa
from referee.mapgraph import MapGraph

squares = st.builds(Square, st.integers(0, 7), st.integers(0, 7))


@settings(max_examples=150, deadline=None)
@given(adjacency=st.sampled_from(["king", "rook"]), blocked=st.frozensets(squares, max_size=12),
       stops=st.frozensets(squares, max_size=10), start=squares, reverse=st.booleans())
def test_breadth_first_matches_heap_search(adjacency: str, blocked: frozenset[Square], stops: frozenset[Square],
                                           start: Square, reverse: bool) -> None:
    """With no barrier every step costs 1; the heap search over a barrier
    that costs 1 and may be entered (the same costs) must give the same
    least costs, forward and reverse, stops honoured."""
    graph = MapGraph(8, 8, adjacency, blocked - {start})  # type: ignore[arg-type]
    anywhere = next(iter(sorted(graph.squares)))
    fast = sa._search(graph, frozenset(), 3, True, stops, start, reverse)
    plain = sa._search(graph, frozenset({anywhere}), 1, True, stops, start, reverse)
    assert fast == plain
    assert list(fast) == list(plain)  # the same order: areas by index


def test_enemy_squares_memo_follows_moves() -> None:
    """The memo answers the set of standing enemies' areas, also after one
    moves or goes down."""
    from types import SimpleNamespace

    a1, b2, c3 = Square(0, 0), Square(1, 1), Square(2, 2)
    me = SimpleNamespace(team="A")
    e1 = SimpleNamespace(team="B", down=False, square=a1)
    e2 = SimpleNamespace(team="B", down=False, square=b2)
    state = SimpleNamespace(fighters=[me, e1, e2])
    me.down, me.square = False, c3
    assert sa.enemy_squares(state, me) == {a1, b2}  # type: ignore[arg-type]
    assert sa.enemy_squares(state, me) == {a1, b2}  # type: ignore[arg-type]
    e1.square = c3
    assert sa.enemy_squares(state, me) == {c3, b2}  # type: ignore[arg-type]
    e2.down = True
    assert sa.enemy_squares(state, me) == {c3}  # type: ignore[arg-type]
