"""R-RANGE-1 and R-EXT-2..8 in the ruleset's range metric (tcgt: Chebyshev).

Ranges and extension groups are read in ``BattleState.metric`` (the ``range``
mechanic), never in a distance of their own; these scenarios pin tcgt's.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from referee.board import AreaSet, Square, parse_rect, parse_square, square_name
from referee.engine.mechanics.metric import Chebyshev
from referee.engine.targeting import extension_group
from referee.mapgraph import MapGraph, open_map

S = parse_square
METRIC = Chebyshev()
chebyshev = METRIC.distance


def names(squares: tuple[Square, ...]) -> list[str]:
    return [square_name(s) for s in squares]


def blocked(*squares: str) -> frozenset[Square]:
    return frozenset(S(n) for n in squares)


def within(graph: MapGraph, square: Square, r: int) -> tuple[Square, ...]:
    """Every area of ``graph`` within ``r`` of ``square``: what a range reaches."""
    return tuple(sq for sq in graph.squares if METRIC.in_range(square, sq, r))


# ---------------------------------------------------------------- R-RANGE-1
@pytest.mark.parametrize(
    ("square", "r", "count"),
    [("a1", 0, 1), ("a1", 1, 4), ("a1", 2, 9), ("d4", 0, 1), ("d4", 1, 9), ("d4", 2, 25), ("h8", 2, 9), ("a5", 2, 15)],
)
def test_r_range_1_ranges_0_1_2_at_corner_edge_and_centre(square: str, r: int, count: int) -> None:
    """R-RANGE-1: "range 0 = own area, range 1 = the 3x3 block, range 2 = the 5x5 block"."""
    reach = within(open_map(), S(square), r)
    assert len(reach) == count
    assert all(chebyshev(S(square), sq) <= r for sq in reach)
    assert list(reach) == sorted(reach)


def test_r_range_1_shapes_as_pictures() -> None:
    """R-RANGE-1 drawn: range 1 at the corner a1, range 2 at the centre d4."""
    assert AreaSet(within(open_map(), S("a1"), 1)) == AreaSet.from_names("a1 b1 a2 b2")
    assert AreaSet(within(open_map(), S("d4"), 2)) == AreaSet(parse_rect("b2-f6").squares())
    assert within(open_map(), S("d4"), 0) == (S("d4"),)


def test_r_range_1_range_stops_at_removed_and_blocked_areas_but_is_not_shielded() -> None:
    narrowed = open_map().restricted_to(parse_rect("c3-f6"))
    assert names(within(narrowed, S("c3"), 1)) == ["c3", "d3", "c4", "d4"]
    walled = MapGraph(8, 8, blocked=blocked("d4"))
    assert S("d4") not in within(walled, S("c3"), 2)
    assert S("e5") in within(walled, S("c3"), 2)  # straight distance, not a route


def test_r_range_1_negative_range_reaches_nothing() -> None:
    assert within(open_map(), S("d4"), -1) == ()


# ---------------------------------------------------------------- R-EXT-*
def group(user: str, primary: str, rng: int, others: list[str], engaged: bool = False) -> list[str]:
    return list(extension_group(METRIC, S(user), S(primary), rng, engaged, [(n, S(n)) for n in others]))


# The seed's pictures are lost; its text names d5, e5, f6 (enemies) and f3, g2
# (allies). A user at e4 is consistent with every sentence (d5, e5 within 1;
# f6, g2 within 2), so the examples below put the user there.
def test_r_ext_2_seed_range_1_at_d5_groups_e5_and_back() -> None:
    """Seed: 「射程1」のスキルでd5を狙った場合e5が、e5を狙った場合d5が「拡大」で指定できるグループ."""
    assert group("e4", "d5", 1, ["e5"]) == ["e5"]
    assert group("e4", "e5", 1, ["d5"]) == ["d5"]


def test_r_ext_8_seed_range_2_group_is_not_transitive() -> None:
    """Seed: e5を本来の対象に指定した場合、d5とf6が拡大で指定できる対象に含まれます。
    ただし…本来の対象をd5に指定すると、f6まで拡大が届きません (f6 is 2 from d5)."""
    assert group("e4", "e5", 2, ["d5", "f6"]) == ["d5", "f6"]
    assert group("e4", "d5", 2, ["e5", "f6"]) == ["e5"]


def test_r_ext_2_seed_heal_extension_f3_and_g2() -> None:
    """Seed: 回復スキルも拡大できるので、f3とg2の仲間を同時に回復できます."""
    assert group("e4", "f3", 2, ["g2"]) == ["g2"]
    assert group("e4", "g2", 2, ["f3"]) == ["f3"]


def test_r_ext_2_extras_must_be_in_the_skills_range_of_the_user() -> None:
    """R-EXT-2: "in the skill's range from the user and within distance 1 of the primary"."""
    assert group("d4", "e5", 1, ["f6", "e6"]) == []
    assert group("d4", "e5", 2, ["f6", "e6"]) == ["f6", "e6"]


def test_r_ext_2_group_keeps_the_roster_order_given() -> None:
    assert group("e4", "e5", 2, ["f6", "d5", "e6"]) == ["f6", "d5", "e6"]


def test_r_ext_2_primary_out_of_range_has_no_group() -> None:
    assert group("a1", "d4", 2, ["d5"]) == []


def test_r_ext_3_range_0_extends_only_within_the_same_area() -> None:
    """R-EXT-3: "With range 0, extra targets can only be in the same area"."""
    assert group("d4", "d4", 0, ["d4", "e4", "d5", "d4"]) == ["d4", "d4"]
    assert group("d4", "e4", 0, ["e4"]) == []


def test_r_ext_4_engaged_user_extends_only_in_its_own_area() -> None:
    """R-EXT-4: "While the user is engaged, an extended use takes every target, primary
    included, from the user's own area"."""
    assert group("d4", "d4", 2, ["d4", "e5", "d5"], engaged=True) == ["d4"]
    assert group("d4", "d4", 0, ["d4", "e4"], engaged=True) == ["d4"]


def test_r_ext_4_engaged_user_with_a_primary_elsewhere_has_no_group() -> None:
    """R-EXT-4: the primary too must be in the user's area; elsewhere the use stays unextended."""
    assert group("d4", "e5", 2, ["e5", "d4", "e4"], engaged=True) == []


def test_r_ext_5_the_user_is_never_in_its_own_group() -> None:
    """R-EXT-5: "The user is never in its own extension group"; the caller names it in
    ``exclude`` (or leaves it out), since an ally may share its area."""
    roster = [("user", S("d4")), ("ally", S("d4")), ("foe", S("e5")), ("primary", S("d5"))]
    got = extension_group(METRIC, S("d4"), S("d5"), 1, False, roster, exclude={"user", "primary"})
    assert got == ("ally", "foe")
    engaged = extension_group(METRIC, S("d4"), S("d4"), 1, True, roster, exclude=("user",))
    assert engaged == ("ally",)


def test_r_ext_negative_range_is_refused() -> None:
    with pytest.raises(ValueError):
        extension_group(METRIC, S("d4"), S("d4"), -1, False, [])


@given(st.integers(0, 3), st.booleans(), st.data())
def test_r_ext_8_every_group_member_obeys_r_ext_2_to_4(r: int, engaged: bool, data: st.DataObject) -> None:
    board = open_map().squares
    user = data.draw(st.sampled_from(board))
    primary = data.draw(st.sampled_from(board))
    others = data.draw(st.lists(st.sampled_from(board), max_size=8))
    got = extension_group(METRIC, user, primary, r, engaged, list(enumerate(others)))
    for i in got:
        sq = others[i]
        assert chebyshev(user, sq) <= r and chebyshev(primary, sq) <= 1
        if engaged:
            assert sq == user == primary
    expected = [i for i, sq in enumerate(others)
                if chebyshev(user, primary) <= r and chebyshev(user, sq) <= r and chebyshev(primary, sq) <= 1
                and (not engaged or sq == user == primary)]
    assert list(got) == expected
