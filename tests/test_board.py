"""The board vocabulary (referee.board): squares, directions, rectangles."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from referee.board import (
    DIRECTIONS,
    MAX_SIDE,
    AreaSet,
    Direction,
    InvalidSquareError,
    Rect,
    Square,
    StageArea,
    chebyshev,
    direction_between,
    euclidean_sq,
    format_area_set,
    kept_rect_for_stage,
    narrowing_schedule,
    nearest,
    parse_rect,
    parse_square,
    rect_name,
    square_name,
    step_toward_sign,
)

S = parse_square

squares = st.builds(Square, st.integers(0, MAX_SIDE - 1), st.integers(0, MAX_SIDE - 1))


def test_parse_and_name_are_inverse_on_the_chess_board() -> None:
    assert parse_square("c3") == Square(2, 2)
    assert square_name(Square(7, 7)) == "h8"
    assert parse_square("C3") == Square(2, 2)


@given(squares)
def test_square_names_round_trip_up_to_32x32(sq: Square) -> None:
    assert parse_square(square_name(sq)) == sq


@pytest.mark.parametrize("bad", ["", "c", "3", "c0", "c33", "i-1", "ag1", "c3x", "💥"])
def test_bad_square_names_raise_a_value_error_with_an_example(bad: str) -> None:
    with pytest.raises(InvalidSquareError, match="c3|ranks"):
        parse_square(bad)


def test_r_rng_1_canonical_square_order_is_rank_then_file() -> None:
    """R-RNG-1: "squares a1, b1, ..., h1, a2, ... (rank by rank)"."""
    names = ["a2", "h1", "a1", "b1"]
    assert [square_name(s) for s in sorted(parse_square(n) for n in names)] == ["a1", "b1", "h1", "a2"]
    assert Rect.of_map(8, 8).squares()[:9] == tuple(parse_square(n) for n in "a1 b1 c1 d1 e1 f1 g1 h1 a2".split())


def test_r_rng_1_canonical_direction_order() -> None:
    """R-RNG-1: "directions N, NE, E, SE, S, SW, W, NW"."""
    assert [d.name for d in DIRECTIONS] == ["N", "NE", "E", "SE", "S", "SW", "W", "NW"]
    assert (Direction.N.dx, Direction.N.dy) == (0, 1)


def test_chebyshev_is_king_distance() -> None:
    assert chebyshev(parse_square("c3"), parse_square("e7")) == 4
    assert chebyshev(parse_square("a1"), parse_square("a1")) == 0


def test_r_knock_1_direction_between_is_sign_of_delta() -> None:
    assert direction_between(parse_square("c3"), parse_square("e7")) is Direction.NE
    assert direction_between(parse_square("c3"), parse_square("c1")) is Direction.S
    assert direction_between(parse_square("c3"), parse_square("c3")) is None


def test_r_narrow_2_clamp_pushes_into_the_kept_rectangle() -> None:
    """R-NARROW-2: "pushed to the nearest kept area (coordinates clamped into the kept rectangle)"."""
    kept = parse_rect("b2-g7")
    assert kept.clamp(parse_square("a1")) == parse_square("b2")
    assert kept.clamp(parse_square("h5")) == parse_square("g5")
    assert kept.clamp(parse_square("d8")) == parse_square("d7")
    assert kept.clamp(parse_square("d4")) == parse_square("d4")


def test_r_narrow_1_insets_of_the_8x8_map() -> None:
    """R-NARROW-1: stages keep b2-g7, then c3-f6, then d4-e5."""
    board = Rect.of_map(8, 8)
    assert [rect_name(board.inset(k)) for k in (1, 2, 3, 4, 9)] == ["b2-g7", "c3-f6", "d4-e5", "d4-e5", "d4-e5"]


@given(st.integers(1, MAX_SIDE), st.integers(1, MAX_SIDE), st.integers(0, 40))
def test_insets_never_empty_the_field_on_any_size(w: int, h: int, k: int) -> None:
    rect = Rect.of_map(w, h).inset(k)
    assert 1 <= rect.width <= w and 1 <= rect.height <= h
    assert Rect.of_map(w, h).contains(Square(rect.min_file, rect.min_rank))
    assert Rect.of_map(w, h).contains(Square(rect.max_file, rect.max_rank))


def test_rect_names_round_trip_and_either_corner_order() -> None:
    assert rect_name(parse_rect("g7-b2")) == "b2-g7"
    with pytest.raises(InvalidSquareError):
        parse_rect("b2")


def test_area_set_prints_as_a_grid() -> None:
    grid = format_area_set({parse_square("a1"), parse_square("c2")}, 3, 2)
    assert grid == "..1\n1.."


def test_map_sizes_outside_1_to_32_are_refused() -> None:
    with pytest.raises(ValueError):
        Rect.of_map(0, 8)
    with pytest.raises(ValueError):
        Rect.of_map(8, 33)


def test_files_beyond_z_are_aa_to_af() -> None:
    """Maps up to 32x32: files a..z, then aa..af."""
    assert parse_square("z1") == Square(25, 0)
    assert parse_square("aa1") == Square(26, 0)
    assert parse_square("af32") == Square(31, 31)
    assert square_name(Square(27, 4)) == "ab5"
    with pytest.raises(InvalidSquareError):
        square_name(Square(32, 0))
    with pytest.raises(InvalidSquareError):
        square_name(Square(-1, 0))


def test_direction_from_no_delta_names_r_knock_2() -> None:
    with pytest.raises(ValueError, match="R-KNOCK-2"):
        Direction.from_delta(0, 0)
    assert Direction.from_delta(-5, 3) is Direction.NW


# ---------------------------------------------------------------- R-MOVE-5 geometry
def test_r_move_5_step_toward_sign_is_diagonal_first() -> None:
    """R-MOVE-5: "from c3 toward e7 the steps are d4, e5, e6, e7"."""
    here, path = S("c3"), []
    while here != S("e7"):
        here = step_toward_sign(here, S("e7"))
        path.append(square_name(here))
    assert path == ["d4", "e5", "e6", "e7"]
    assert step_toward_sign(S("c3"), S("c3")) == S("c3")


@given(squares, squares)
def test_r_move_5_step_toward_sign_gains_exactly_one_king_step(a: Square, b: Square) -> None:
    step = step_toward_sign(a, b)
    assert chebyshev(step, b) == max(chebyshev(a, b) - 1, 0)
    assert chebyshev(a, step) == (0 if a == b else 1)


def test_r_move_6_nearest_returns_every_tied_square_in_canonical_order() -> None:
    """R-MOVE-6: "toward the nearest enemy ... then R-RNG-1": the ties, canonical order."""
    assert nearest(S("d4"), [S("f6"), S("b4"), S("d2"), S("h8"), S("b4")]) == (S("d2"), S("b4"), S("f6"))
    assert nearest(S("d4"), [S("h8"), S("e5")]) == (S("e5"),)
    assert nearest(S("d4"), []) == ()


# ---------------------------------------------------------------- rectangles
def test_rect_intersection() -> None:
    assert parse_rect("b2-g7").intersection(parse_rect("f6-h8")) == parse_rect("f6-g7")
    assert parse_rect("a1-b2").intersection(parse_rect("c3-d4")) is None


def test_rect_inset_refuses_a_negative_amount() -> None:
    with pytest.raises(ValueError):
        Rect.of_map(8, 8).inset(-1)


@given(st.integers(1, MAX_SIDE), st.integers(1, MAX_SIDE), st.data())
def test_r_narrow_2_clamp_is_the_nearest_kept_area(w: int, h: int, data: st.DataObject) -> None:
    """R-NARROW-2: "pushed to the nearest kept area (coordinates clamped into the kept
    rectangle)" -- the clamped square is on the kept rectangle and no kept square is
    nearer, by king steps or in a straight line."""
    board = Rect.of_map(w, h)
    kept = board.inset(data.draw(st.integers(0, 16)))
    sq = data.draw(st.sampled_from(board.squares()))
    pushed = kept.clamp(sq)
    assert kept.contains(pushed)
    assert chebyshev(sq, pushed) == min(chebyshev(sq, k) for k in kept.squares())
    assert euclidean_sq(sq, pushed) == min(euclidean_sq(sq, k) for k in kept.squares())
    if kept.contains(sq):
        assert pushed == sq


def test_r_narrow_2_push_in_squares_on_an_odd_map() -> None:
    """R-NARROW-2 on 7x5: stage 1 keeps b2-f4, stage 2 the centre line c3-e3."""
    assert rect_name(kept_rect_for_stage(7, 5, 1)) == "b2-f4"
    assert rect_name(kept_rect_for_stage(7, 5, 2)) == "c3-e3"
    kept = kept_rect_for_stage(7, 5, 2)
    assert [square_name(kept.clamp(S(n))) for n in ("a1", "g5", "d1", "a3", "d5")] == ["c3", "e3", "d3", "c3", "d3"]


# ---------------------------------------------------------------- narrowing schedule
def test_r_narrow_1_generic_schedule_of_8x8_is_the_tcgt_one() -> None:
    """R-NARROW-1: "Stages keep b2-g7, then c3-f6, then d4-e5, then one of d4/e4/d5/e5"."""
    stages = narrowing_schedule(8, 8)
    assert [(rect_name(s.kept), s.draw_one) for s in stages] == [
        ("b2-g7", False), ("c3-f6", False), ("d4-e5", False), ("d4-e5", True)]
    assert [square_name(q) for q in stages[-1].candidates()] == ["d4", "e4", "d5", "e5"]
    assert stages[0].candidates() == ()


@pytest.mark.parametrize(
    ("w", "h", "expected"),
    [
        (1, 1, []),
        (2, 2, [("a1-b2", True)]),
        (3, 3, [("b2-b2", False)]),
        (5, 5, [("b2-d4", False), ("c3-c3", False)]),
        (7, 7, [("b2-f6", False), ("c3-e5", False), ("d4-d4", False)]),
        (8, 1, [("b1-g1", False), ("c1-f1", False), ("d1-e1", False), ("d1-e1", True)]),
        (1, 2, [("a1-a2", True)]),
    ],
)
def test_r_narrow_1_generic_schedule_degenerate_and_odd_sizes(w: int, h: int, expected: list[tuple[str, bool]]) -> None:
    assert [(rect_name(s.kept), s.draw_one) for s in narrowing_schedule(w, h)] == expected


def test_r_narrow_1_generic_schedule_of_32x32_ends_on_the_centre_four() -> None:
    stages = narrowing_schedule(32, 32)
    assert len(stages) == 16
    assert rect_name(stages[0].kept) == "b2-ae31"
    assert [square_name(q) for q in stages[-1].candidates()] == ["p16", "q16", "p17", "q17"]


@given(st.integers(1, MAX_SIDE), st.integers(1, MAX_SIDE))
def test_r_narrow_1_every_stage_is_inside_the_last_and_never_empty(w: int, h: int) -> None:
    previous = Rect.of_map(w, h)
    for i, stage in enumerate(narrowing_schedule(w, h)):
        assert previous.intersection(stage.kept) == stage.kept
        assert stage.kept.width >= 1 and stage.kept.height >= 1
        assert stage.draw_one == (len(stage.candidates()) > 0)
        if stage.draw_one:
            assert i == len(narrowing_schedule(w, h)) - 1
            assert 2 <= len(stage.candidates()) <= 4
            assert list(stage.candidates()) == sorted(stage.candidates())
        else:
            assert stage.kept != previous
        previous = stage.kept


def test_stage_area_is_a_plain_value() -> None:
    assert StageArea(parse_rect("d4-e5"), True) == StageArea(parse_rect("d4-e5"), draw_one=True)


# ---------------------------------------------------------------- AreaSet
def test_area_set_compares_as_a_set_and_prints_as_a_grid() -> None:
    """Style lesson 1: an area set iterates canonically and prints as a grid of 1/."""
    area = AreaSet.from_names("c2 a1 b1", 3, 2)
    assert area == AreaSet({S("a1"), S("b1"), S("c2")}, 8, 8)  # the size is only for printing
    assert list(area) == [S("a1"), S("b1"), S("c2")]
    assert repr(area) == "AreaSet(3x2):\n..1\n11."
    assert S("a1") in area and S("a2") not in area and len(area) == 3
    assert AreaSet.from_names("a1") == AreaSet([S("a1")], 3, 3)
