"""The map graph (referee.mapgraph): areas, routes, knockback, narrowing."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from referee.board import Direction, Rect, Square, parse_rect, parse_square, sign, square_name
from referee.engine.mechanics.metric import Chebyshev
from referee.mapgraph import MapGraph, open_map

S = parse_square
chebyshev = Chebyshev().distance


def names(squares: tuple[Square, ...]) -> list[str]:
    return [square_name(s) for s in squares]


def blocked(*squares: str) -> frozenset[Square]:
    return frozenset(S(n) for n in squares)


# ---------------------------------------------------------------- construction
def test_map_refuses_bad_shapes_instead_of_ignoring_them() -> None:
    with pytest.raises(ValueError, match="adjacency"):
        MapGraph(8, 8, adjacency="queen")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="not on the 8x8 map"):
        MapGraph(8, 8, blocked=blocked("i1"))
    with pytest.raises(ValueError):
        MapGraph(0, 8)
    with pytest.raises(ValueError):
        MapGraph(33, 8)
    with pytest.raises(ValueError, match="not inside"):
        MapGraph(4, 4, kept=parse_rect("c3-e5"))


def test_maps_of_one_shape_share_their_tables() -> None:
    """Built once: every battle builds a MapGraph, the routes are computed once per process."""
    assert MapGraph(8, 8).squares is MapGraph(8, 8).squares
    assert MapGraph(8, 8, blocked=blocked("d4")).squares is not MapGraph(8, 8).squares


def test_blocked_squares_are_not_on_the_map() -> None:
    graph = MapGraph(3, 3, blocked=blocked("b2"))
    assert names(graph.squares) == ["a1", "b1", "c1", "a2", "c2", "a3", "b3", "c3"]
    assert not graph.contains(S("b2"))
    assert names(graph.neighbours(S("a1"))) == ["b1", "a2"]


# ---------------------------------------------------------------- R-MOVE-5
def walk(graph: MapGraph, src: Square, dst: Square, stop_within: int = 0) -> list[str]:
    path = []
    while chebyshev(src, dst) > stop_within:
        (src,) = graph.next_steps(src, dst)
        path.append(square_name(src))
    return path


def test_r_move_5_c3_toward_e7_steps_diagonally_first() -> None:
    """R-MOVE-5: "from c3 toward e7 the steps are d4, e5, e6, e7"."""
    assert walk(open_map(), S("c3"), S("e7")) == ["d4", "e5", "e6", "e7"]


def test_r_move_5_rest_on_e7_stops_in_range_after_d4_e5() -> None:
    """R-MOVE-5: "to use Rest (range 2) on e7 it stops after d4, e5" (stopping is the caller's)."""
    assert walk(open_map(), S("c3"), S("e7"), stop_within=2) == ["d4", "e5"]


def test_r_move_5_no_step_when_there_or_unreachable() -> None:
    assert open_map().next_steps(S("d4"), S("d4")) == ()
    cut = MapGraph(3, 3, blocked=blocked("a2", "b2", "c2"))
    assert cut.distance(S("a1"), S("a3")) is None
    assert cut.next_steps(S("a1"), S("a3")) == ()
    assert open_map().next_steps(S("d4"), S("i9")) == ()


@given(st.integers(1, 32), st.integers(1, 32), st.data())
def test_r_move_5_open_rectangle_step_is_sign_dx_sign_dy(w: int, h: int, data: st.DataObject) -> None:
    """R-MOVE-5: "on an open rectangle this is always the step (sign dx, sign dy)"."""
    graph = open_map(w, h)
    src = data.draw(st.sampled_from(graph.squares))
    dst = data.draw(st.sampled_from(graph.squares))
    steps = graph.next_steps(src, dst)
    if src == dst:
        assert steps == ()
    else:
        assert steps == (src.offset(sign(dst.file - src.file), sign(dst.rank - src.rank)),)


def test_r_move_5_blocked_map_returns_ties_for_the_rng() -> None:
    """R-MOVE-5: "Remaining ties (blocked maps): R-RNG-1" -- candidates in canonical order."""
    graph = MapGraph(3, 3, blocked=blocked("b2"))
    assert names(graph.next_steps(S("a1"), S("c3"))) == ["b1", "a2"]


def test_r_move_5_around_a_wall_both_ways_are_candidates() -> None:
    """A wall c2-c4 on 5x5: from a3 to e3 the routes over c1 and c5 are equally short
    and b2, b4 equally near e3 in a straight line -- both offered, b2 first."""
    graph = MapGraph(5, 5, blocked=blocked("c2", "c3", "c4"))
    assert graph.distance(S("a3"), S("e3")) == 4
    assert names(graph.next_steps(S("a3"), S("e3"))) == ["b2", "b4"]
    # Once committed to the south side the route is unique.
    assert names(graph.next_steps(S("b2"), S("e3"))) == ["c1"]


def test_r_move_5_shortest_route_beats_the_straight_line() -> None:
    """Steps stay on a shortest route first; the straight line only breaks ties
    among those. With c1-c4 walled on 5x5, from b3 to d3 the only gap is c5: b2 is
    as near d3 in a straight line as b4, but leads away from the gap."""
    graph = MapGraph(5, 5, blocked=blocked("c1", "c2", "c3", "c4"))
    assert graph.distance(S("b3"), S("d3")) == 4
    assert names(graph.next_steps(S("b3"), S("d3"))) == ["b4"]


def test_r_move_5_rook_adjacency_for_variants() -> None:
    """4-way maps (R-VAR-ORM): routes are Manhattan; the straight line picks the longer axis."""
    graph = MapGraph(8, 8, adjacency="rook")
    assert graph.distance(S("a1"), S("b2")) == 2
    assert names(graph.next_steps(S("a1"), S("b2"))) == ["b1", "a2"]
    assert names(graph.next_steps(S("a1"), S("c2"))) == ["b1"]
    assert names(graph.neighbours(S("b2"))) == ["b1", "a2", "c2", "b3"]


@given(
    st.integers(2, 12),
    st.integers(2, 12),
    st.sampled_from(["king", "rook"]),
    st.sets(st.tuples(st.integers(0, 11), st.integers(0, 11)), max_size=30),
    st.data(),
)
def test_r_move_5_following_any_candidate_reaches_the_destination_by_a_shortest_route(
    w: int, h: int, adjacency: str, walls: set[tuple[int, int]], data: st.DataObject
) -> None:
    """Every candidate is a neighbour one step nearer by route; any choice the RNG
    makes arrives in exactly distance(src, dst) steps."""
    graph = MapGraph(w, h, adjacency, frozenset(Square(f, r) for f, r in walls if f < w and r < h))  # type: ignore[arg-type]
    if not graph.squares:
        return
    src = data.draw(st.sampled_from(graph.squares))
    dst = data.draw(st.sampled_from(graph.squares))
    total = graph.distance(src, dst)
    if total is None:
        assert graph.next_steps(src, dst) == ()
        return
    here, steps = src, 0
    while here != dst:
        candidates = graph.next_steps(here, dst)
        assert candidates and list(candidates) == sorted(set(candidates))
        assert all(c in graph.neighbours(here) and graph.distance(c, dst) == graph.distance(here, dst) - 1  # type: ignore[operator]
                   for c in candidates)
        here = data.draw(st.sampled_from(candidates))
        steps += 1
    assert steps == total


def test_r_narrow_4_removed_areas_are_not_on_routes() -> None:
    """R-NARROW-4: "Removed areas leave the map: no step, route or destination uses them"."""
    narrowed = open_map().restricted_to(parse_rect("c3-f6"))
    assert not narrowed.contains(S("b2"))
    assert narrowed.distance(S("c3"), S("b2")) is None
    assert narrowed.next_steps(S("c3"), S("a1")) == ()
    assert narrowed.next_steps(S("c3"), narrowed.clamp(S("a1"))) == ()  # a1 becomes c3: already there
    assert narrowed.clamp(S("h8")) == S("f6")
    assert open_map().restricted_to(parse_rect("c3-f6")) is narrowed


# ---------------------------------------------------------------- R-KNOCK-*
@pytest.mark.parametrize(
    ("attacker", "dest"),
    [("d5", "d3"), ("e5", "c3"), ("e4", "c4"), ("e3", "c5"), ("d3", "d5"), ("c3", "e5"), ("c4", "e4"), ("c5", "e3")],
)
def test_r_knock_1_push_directly_away_in_all_8_directions(attacker: str, dest: str) -> None:
    """R-KNOCK-1: "one area directly away from the attacker: by (sign dx, sign dy)"."""
    push = open_map().knockback(S(attacker), S("d4"))
    assert (square_name(push.dest), push.hit_wall) == (dest, False)


@pytest.mark.parametrize(("attacker", "dest"), [("b2", "e4"), ("d1", "d4"), ("a3", "e3"), ("b5", "e2")])
def test_r_knock_1_push_from_range_2_or_more_moves_one_area_by_the_signs(attacker: str, dest: str) -> None:
    """R-KNOCK-1: the signs of (dx, dy), not the angle: b2 -> d3 is NE, so d3 goes to e4."""
    assert open_map().knockback(S(attacker), S("d3")).dest == S(dest)


@pytest.mark.parametrize(
    ("direction", "dest"),
    [(Direction.N, "d5"), (Direction.NE, "e5"), (Direction.E, "e4"), (Direction.SE, "e3"),
     (Direction.S, "d3"), (Direction.SW, "c3"), (Direction.W, "c4"), (Direction.NW, "c5")],
)
def test_r_knock_2_from_the_same_area_the_drawn_direction_decides(direction: Direction, dest: str) -> None:
    """R-KNOCK-2: "From range 0 (same area) the direction is drawn at random from the 8"."""
    push = open_map().knockback(S("d4"), S("d4"), direction)
    assert (square_name(push.dest), push.hit_wall) == (dest, False)


def test_r_knock_2_same_area_without_a_direction_is_refused() -> None:
    with pytest.raises(ValueError, match="R-KNOCK-2"):
        open_map().knockback(S("d4"), S("d4"))


@pytest.mark.parametrize(
    ("attacker", "target"),
    [("a2", "a1"), ("b2", "a1"), ("b1", "a1"), ("g8", "h8"), ("g7", "h8"), ("d7", "d8"), ("b1", "a2"), ("g1", "h2")],
)
def test_r_knock_3_push_off_the_field_hits_the_wall_and_stays(attacker: str, target: str) -> None:
    """R-KNOCK-3: "A push off the field leaves the target in place and deals 1 typeless damage".
    At corners and along edges; a diagonal push along an edge (b1 -> a2 goes NW) never slides."""
    push = open_map().knockback(S(attacker), S(target))
    assert push.dest == S(target) and push.hit_wall


def test_r_knock_3_same_area_push_into_the_wall() -> None:
    push = open_map().knockback(S("a1"), S("a1"), Direction.W)
    assert push.dest == S("a1") and push.hit_wall
    assert not open_map().knockback(S("a1"), S("a1"), Direction.NE).hit_wall


def test_r_knock_3_a_removed_area_is_off_the_field() -> None:
    """R-KNOCK-3: "[decision] An area removed by narrowing is off the field"."""
    narrowed = open_map().restricted_to(parse_rect("b2-g7"))
    push = narrowed.knockback(S("c3"), S("b2"))
    assert push.dest == S("b2") and push.hit_wall


def test_r_knock_3_a_blocked_area_is_a_wall() -> None:
    graph = MapGraph(8, 8, blocked=blocked("e4"))
    push = graph.knockback(S("c4"), S("d4"))
    assert push.dest == S("d4") and push.hit_wall


# ---------------------------------------------------------------- narrowing
def test_r_narrow_4_what_is_removed_stays_removed() -> None:
    narrowed = open_map().restricted_to(parse_rect("c3-f6"))
    assert narrowed.restricted_to(parse_rect("b2-g7")).kept == parse_rect("c3-f6")
    assert narrowed.restricted_to(parse_rect("a1-d4")).kept == parse_rect("c3-d4")
    with pytest.raises(ValueError, match="nothing"):
        narrowed.restricted_to(parse_rect("a1-b2"))


def test_r_narrow_4_blocked_areas_stay_blocked_after_narrowing() -> None:
    graph = MapGraph(8, 8, blocked=blocked("d4")).restricted_to(parse_rect("c3-f6"))
    assert not graph.contains(S("d4")) and graph.contains(S("e4"))
    assert graph.distance(S("c4"), S("e4")) == 2


# ---------------------------------------------------------------- degenerate and large maps
def test_one_by_one_map() -> None:
    graph = MapGraph(1, 1)
    a1 = S("a1")
    assert graph.squares == (a1,) and graph.contains(a1)
    assert graph.distance(a1, a1) == 0
    assert graph.next_steps(a1, a1) == ()
    assert all(graph.knockback(a1, a1, d) == graph.knockback(a1, a1, Direction.N) for d in Direction)
    assert graph.knockback(a1, a1, Direction.SW).hit_wall
    assert graph.restricted_to(Rect(0, 0, 0, 0)) is graph.restricted_to(Rect(0, 0, 0, 0))


def test_thirty_two_by_thirty_two_map() -> None:
    graph = MapGraph(32, 32)
    assert len(graph.squares) == 1024
    assert graph.distance(S("a1"), S("af32")) == 31
    assert names(graph.next_steps(S("a1"), S("af32"))) == ["b2"]
    assert names(graph.next_steps(S("z5"), S("af5"))) == ["aa5"]
    assert graph.knockback(S("ae31"), S("af32")).hit_wall
    assert graph.knockback(S("ae30"), S("ae31")).dest == S("ae32")
    assert graph.restricted_to(parse_rect("p16-q17")).squares == tuple(S(n) for n in ("p16", "q16", "p17", "q17"))


@given(st.integers(1, 32), st.integers(1, 32), st.integers(0, 5), st.data())
def test_every_geometry_function_works_on_any_size(w: int, h: int, r: int, data: st.DataObject) -> None:
    graph = open_map(w, h)
    src = data.draw(st.sampled_from(graph.squares))
    dst = data.draw(st.sampled_from(graph.squares))
    assert graph.distance(src, dst) == chebyshev(src, dst)
    kept = Rect(min(src.file, dst.file), min(src.rank, dst.rank), max(src.file, dst.file), max(src.rank, dst.rank))
    assert graph.restricted_to(kept).contains(kept.clamp(src))
    direction = data.draw(st.sampled_from(list(Direction)))
    push = graph.knockback(src, src, direction)
    assert graph.contains(push.dest)
    assert push.hit_wall == (not Rect.of_map(w, h).contains(src.offset(direction.dx, direction.dy)))
    if src != dst:
        away = graph.knockback(src, dst)
        assert away.hit_wall or chebyshev(src, away.dest) == chebyshev(src, dst) + 1


@given(st.integers(1, 16), st.integers(1, 16), st.data())
def test_r_move_5_rook_distance_is_manhattan_on_open_maps(w: int, h: int, data: st.DataObject) -> None:
    graph = open_map(w, h, "rook")
    a = data.draw(st.sampled_from(graph.squares))
    b = data.draw(st.sampled_from(graph.squares))
    assert graph.distance(a, b) == abs(a.file - b.file) + abs(a.rank - b.rank)


def test_open_king_maps_route_by_formula_exactly_as_the_tables_would() -> None:
    """Issue 18: on an open king rectangle route lengths and R-MOVE-5's next
    steps come from a formula; they must equal the graph's breadth-first
    answer (shortest route, then nearest in straight line) for every pair,
    narrowed maps and off-map squares included."""
    import networkx as nx  # type: ignore[import-untyped]

    from referee.board import Rect, Square, euclidean_sq
    from referee.mapgraph import MapGraph

    def expected(graph: MapGraph, src: Square, dst: Square) -> tuple[int | None, tuple[Square, ...]]:
        g = graph._t.graph
        if src not in g or dst not in g:
            return None, ()
        to_dst = nx.single_source_shortest_path_length(g, dst)
        total = to_dst.get(src)
        if not total:
            return total, ()
        on_route = [n for n in graph.neighbours(src) if to_dst.get(n) == total - 1]
        best = min(euclidean_sq(n, dst) for n in on_route)
        return total, tuple(n for n in on_route if euclidean_sq(n, dst) == best)

    maps = [MapGraph(8, 8), MapGraph(5, 3), MapGraph(1, 1), MapGraph(6, 6).restricted_to(Rect(1, 2, 4, 4))]
    for graph in maps:
        assert graph._open
        probe = [Square(f, r) for f in range(-1, graph.width + 1) for r in range(-1, graph.height + 1)]
        for src in probe:
            for dst in probe:
                assert (graph.distance(src, dst), graph.next_steps(src, dst)) == expected(graph, src, dst), (graph, src, dst)
    assert not MapGraph(8, 8, "rook")._open
    assert not MapGraph(8, 8, blocked=frozenset({Square(3, 3)}))._open
