"""The board vocabulary (referee.board): squares, directions, rectangles."""

from __future__ import annotations

import copy
import pickle

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
    direction_between,
    euclidean_sq,
    format_area_set,
    parse_rect,
    parse_square,
    rect_name,
    square_name,
)
from referee.engine.mechanics.metric import Chebyshev

S = parse_square
chebyshev = Chebyshev().distance

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


@given(squares, squares)
def test_squares_and_rects_hash_as_values_and_survive_copy_and_pickle(a: Square, b: Square) -> None:
    """Batch workers send events holding squares back by pickle; sets and
    dicts key on them.  The same, compiled (referee/compiled.py) or not."""
    rect = Rect(min(a.file, b.file), min(a.rank, b.rank), max(a.file, b.file), max(a.rank, b.rank))
    for value in (a, rect):
        assert copy.copy(value) == value == pickle.loads(pickle.dumps(value))
        assert type(pickle.loads(pickle.dumps(value))) is type(value)
    assert hash(a) == hash(Square(a.file, a.rank)) and (hash(a) == hash(b)) >= (a == b)
    assert len({a, b, Square(a.file, a.rank)}) == (1 if a == b else 2)


def test_r_rng_1_canonical_square_order_is_rank_then_file() -> None:
    """R-RNG-1: "squares a1, b1, ..., h1, a2, ... (rank by rank)"."""
    names = ["a2", "h1", "a1", "b1"]
    assert [square_name(s) for s in sorted(parse_square(n) for n in names)] == ["a1", "b1", "h1", "a2"]
    assert Rect.of_map(8, 8).squares()[:9] == tuple(parse_square(n) for n in "a1 b1 c1 d1 e1 f1 g1 h1 a2".split())


def test_r_rng_1_canonical_direction_order() -> None:
    """R-RNG-1: "directions N, NE, E, SE, S, SW, W, NW"."""
    assert [d.name for d in DIRECTIONS] == ["N", "NE", "E", "SE", "S", "SW", "W", "NW"]
    assert (Direction.N.dx, Direction.N.dy) == (0, 1)


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


# ---------------------------------------------------------------- rectangles
def test_rect_intersection() -> None:
    assert parse_rect("b2-g7").intersection(parse_rect("f6-h8")) == parse_rect("f6-g7")
    assert parse_rect("a1-b2").intersection(parse_rect("c3-d4")) is None


@given(st.integers(1, MAX_SIDE), st.integers(1, MAX_SIDE), st.data())
def test_r_narrow_2_clamp_is_the_nearest_kept_area(w: int, h: int, data: st.DataObject) -> None:
    """R-NARROW-2: "pushed to the nearest kept area (coordinates clamped into the kept
    rectangle)" -- the clamped square is on the kept rectangle and no kept square is
    nearer, by king steps or in a straight line."""
    board = Rect.of_map(w, h)
    a, b = data.draw(st.sampled_from(board.squares())), data.draw(st.sampled_from(board.squares()))
    kept = Rect(min(a.file, b.file), min(a.rank, b.rank), max(a.file, b.file), max(a.rank, b.rank))
    sq = data.draw(st.sampled_from(board.squares()))
    pushed = kept.clamp(sq)
    assert kept.contains(pushed)
    assert chebyshev(sq, pushed) == min(chebyshev(sq, k) for k in kept.squares())
    assert euclidean_sq(sq, pushed) == min(euclidean_sq(sq, k) for k in kept.squares())
    if kept.contains(sq):
        assert pushed == sq


def test_r_narrow_2_push_in_squares_on_an_odd_map() -> None:
    """R-NARROW-2 on 7x5 with the centre line c3-e3 kept."""
    kept = parse_rect("c3-e3")
    assert [square_name(kept.clamp(S(n))) for n in ("a1", "g5", "d1", "a3", "d5")] == ["c3", "e3", "d3", "c3", "d3"]


# ---------------------------------------------------------------- AreaSet
def test_area_set_compares_as_a_set_and_prints_as_a_grid() -> None:
    """Style lesson 1: an area set iterates canonically and prints as a grid of 1/."""
    area = AreaSet.from_names("c2 a1 b1", 3, 2)
    assert area == AreaSet({S("a1"), S("b1"), S("c2")}, 8, 8)  # the size is only for printing
    assert list(area) == [S("a1"), S("b1"), S("c2")]
    assert repr(area) == "AreaSet(3x2):\n..1\n11."
    assert S("a1") in area and S("a2") not in area and len(area) == 3
    assert AreaSet.from_names("a1") == AreaSet([S("a1")], 3, 3)
