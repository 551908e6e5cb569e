"""The map graph (referee.mapgraph): ranges, routes, knockback, groups, narrowing."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from referee.board import Direction, Rect, Square, chebyshev, parse_rect, parse_square, sign, square_name
from referee.mapgraph import MapGraph, extension_group, kept_rect_for_stage, open_map

S = parse_square


def names(squares: tuple[Square, ...]) -> list[str]:
    return [square_name(s) for s in squares]


# ---------------------------------------------------------------- R-RANGE-1
@pytest.mark.parametrize(
    ("square", "r", "count"),
    [("a1", 0, 1), ("a1", 1, 4), ("a1", 2, 9), ("d4", 0, 1), ("d4", 1, 9), ("d4", 2, 25), ("h8", 2, 9), ("a5", 2, 15)],
)
def test_r_range_1_ranges_0_1_2_at_corner_edge_and_centre(square: str, r: int, count: int) -> None:
    """R-RANGE-1: "range 0 = own area, range 1 = the 3x3 block, range 2 = the 5x5 block"."""
    reach = open_map().within_range(S(square), r)
    assert len(reach) == count
    assert all(chebyshev(S(square), sq) <= r for sq in reach)
    assert list(reach) == sorted(reach)


def test_r_range_1_range_stops_at_removed_areas() -> None:
    narrowed = open_map().restricted_to(parse_rect("c3-f6"))
    assert names(narrowed.within_range(S("c3"), 1)) == ["c3", "d3", "c4", "d4"]


# ---------------------------------------------------------------- R-MOVE-5
def walk(graph: MapGraph, src: Square, dst: Square) -> list[str]:
    path = []
    while src != dst:
        (src,) = graph.next_steps(src, dst)
        path.append(square_name(src))
    return path


def test_r_move_5_c3_toward_e7_steps_diagonally_first() -> None:
    """R-MOVE-5: "from c3 toward e7 the steps are d4, e5, e6, e7"."""
    assert walk(open_map(), S("c3"), S("e7")) == ["d4", "e5", "e6", "e7"]


@given(st.integers(1, 32), st.integers(1, 32), st.data())
def test_r_move_5_open_rectangle_step_is_sign_dx_sign_dy(w: int, h: int, data: st.DataObject) -> None:
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
    graph = MapGraph(3, 3, blocked=frozenset({S("b2")}))
    assert names(graph.next_steps(S("a1"), S("c3"))) == ["b1", "a2"]


def test_r_move_5_rook_adjacency_for_variants() -> None:
    graph = MapGraph(8, 8, adjacency="rook")
    assert graph.distance(S("a1"), S("b2")) == 2
    assert names(graph.next_steps(S("a1"), S("b2"))) == ["b1", "a2"]


def test_r_narrow_4_removed_areas_are_not_on_routes() -> None:
    """R-NARROW-4: "Removed areas leave the map: no step, route or destination uses them"."""
    narrowed = open_map().restricted_to(parse_rect("c3-f6"))
    assert not narrowed.contains(S("b2"))
    assert narrowed.distance(S("c3"), S("b2")) is None
    assert narrowed.next_steps(S("c3"), S("a1")) == ()
    assert narrowed.clamp(S("a1")) == S("c3")
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


def test_r_knock_1_push_from_range_2_moves_one_area() -> None:
    assert open_map().knockback(S("b2"), S("d3")).dest == S("e4")


def test_r_knock_2_from_the_same_area_the_caller_draws_the_direction() -> None:
    """R-KNOCK-2: "From range 0 (same area) the direction is drawn at random from the 8"."""
    graph = open_map()
    with pytest.raises(ValueError, match="R-KNOCK-2"):
        graph.knockback(S("d4"), S("d4"))
    assert graph.knockback(S("d4"), S("d4"), Direction.SW).dest == S("c3")


@pytest.mark.parametrize(("attacker", "target"), [("a2", "a1"), ("b2", "a1"), ("g8", "h8"), ("d7", "d8")])
def test_r_knock_3_push_off_the_field_hits_the_wall_and_stays(attacker: str, target: str) -> None:
    """R-KNOCK-3: "A push off the field leaves the target in place and deals 1 typeless damage"."""
    push = open_map().knockback(S(attacker), S(target))
    assert push.dest == S(target) and push.hit_wall


def test_r_knock_3_a_removed_area_is_off_the_field() -> None:
    narrowed = open_map().restricted_to(parse_rect("b2-g7"))
    push = narrowed.knockback(S("c3"), S("b2"))
    assert push.dest == S("b2") and push.hit_wall


# ---------------------------------------------------------------- R-EXT-*
def group(user: str, primary: str, rng: int, others: list[str], engaged: bool = False) -> list[str]:
    return list(extension_group(S(user), S(primary), rng, engaged, [(n, S(n)) for n in others]))


def test_r_ext_2_range_1_at_d5_groups_e5_and_back() -> None:
    """R-EXT-2 (the seed's first picture): a range-1 skill aimed at d5 may add e5, and at e5 may add d5."""
    assert group("d4", "d5", 1, ["e5"]) == ["e5"]
    assert group("d4", "e5", 1, ["d5"]) == ["d5"]


def test_r_ext_8_range_2_group_is_not_transitive() -> None:
    """R-EXT-8 (the seed's second picture): a range-2 skill aimed at e5 reaches d5 and f6,
    but aimed at d5 it does not reach f6 (distance 2 from d5). The user stands at e4."""
    assert group("e4", "e5", 2, ["d5", "f6"]) == ["d5", "f6"]
    assert group("e4", "d5", 2, ["e5", "f6"]) == ["e5"]


def test_r_ext_2_extras_must_be_in_the_skills_range_of_the_user() -> None:
    assert group("d4", "e5", 1, ["f6", "e6"]) == []
    assert group("d4", "e5", 2, ["f6", "e6"]) == ["f6", "e6"]


def test_r_ext_2_heal_extension_f3_and_g2() -> None:
    """The seed: "回復スキルも拡大できるので、f3とg2の仲間を同時に回復できます"."""
    assert group("e4", "f3", 2, ["g2"]) == ["g2"]


def test_r_ext_3_range_0_extends_only_within_the_same_area() -> None:
    """R-EXT-3: "With range 0, extra targets can only be in the same area"."""
    assert group("d4", "d4", 0, ["d4", "e4", "d4"]) == ["d4", "d4"]


def test_r_ext_4_engaged_user_extends_only_in_its_own_area() -> None:
    """R-EXT-4: "While the user is engaged, an extended use takes every target, primary
    included, from the user's own area"."""
    assert group("d4", "d4", 2, ["d4", "e5", "d5"], engaged=True) == ["d4"]
    assert group("d4", "e5", 2, ["e5", "d4"], engaged=True) == []


def test_r_ext_5_the_user_is_never_in_its_own_group() -> None:
    """R-EXT-5: the caller passes others only; a group built from the roster keeps the user out."""
    roster = [("user", S("d4")), ("ally", S("d4")), ("foe", S("e5"))]
    others = [(k, sq) for k, sq in roster if k != "user"]
    assert "user" not in extension_group(S("d4"), S("e5"), 1, False, others)


# ---------------------------------------------------------------- narrowing
def test_r_narrow_1_generic_stages_on_8x8_and_odd_sizes() -> None:
    assert [str(kept_rect_for_stage(8, 8, k)) for k in (1, 2, 3)] == ["b2-g7", "c3-f6", "d4-e5"]
    assert str(kept_rect_for_stage(5, 5, 1)) == "b2-d4"
    assert str(kept_rect_for_stage(5, 5, 2)) == "c3-c3"
    assert str(kept_rect_for_stage(1, 1, 3)) == "a1-a1"


@given(st.integers(1, 32), st.integers(1, 32), st.integers(0, 5), st.data())
def test_every_geometry_function_works_on_any_size(w: int, h: int, r: int, data: st.DataObject) -> None:
    graph = open_map(w, h)
    src = data.draw(st.sampled_from(graph.squares))
    dst = data.draw(st.sampled_from(graph.squares))
    assert src in graph.within_range(src, r)
    assert graph.distance(src, dst) == chebyshev(src, dst)
    kept = kept_rect_for_stage(w, h, data.draw(st.integers(1, 4)))
    assert graph.restricted_to(kept).contains(kept.clamp(src))
    direction = data.draw(st.sampled_from(list(Direction)))
    push = graph.knockback(src, src, direction)
    assert graph.contains(push.dest)
    assert push.hit_wall == (not Rect.of_map(w, h).contains(src.offset(direction.dx, direction.dy)))
