"""The board vocabulary (referee.board): squares, directions, rectangles."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from referee.board import (
    DIRECTIONS,
    MAX_SIDE,
    Direction,
    InvalidSquareError,
    Rect,
    Square,
    chebyshev,
    direction_between,
    format_area_set,
    parse_rect,
    parse_square,
    rect_name,
    square_name,
)

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
