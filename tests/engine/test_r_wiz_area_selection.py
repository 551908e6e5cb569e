"""The area selection of Gase-Wiz (variant-wiz.md R-WIZ-AREA-3..7), checked on
the pure selection logic (``referee/engine/wiz_area.py``) against the seed's
own walkthroughs: Katino 1x3 with <魔法変化>/<魔法増幅> (W1) and Tiltwait on
the three troll groups with the berserker among them (W2)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from referee.board import Square, parse_square
from referee.engine.mechanics.metric import Chebyshev
from referee.engine.mechanics.wiz_area import AreaParams, Candidate, Group, Role, Selection, TallyStep, area_groups, select

DIST = Chebyshev().distance


def cand(name: str, square: str, index: int, role: Role = "wanted") -> Candidate:
    return Candidate(name, parse_square(square), index, role)


def trolls(berserker: Role = "spared") -> tuple[Square, list[Candidate]]:
    """W2's field: the Mage on a1; A1..A6 on a4, B1..B3 on d4, the Berserker
    and B5, B6 on e5, C1..C3 on h1 (roster: Mage, Berserker, then the trolls)."""
    cs = [cand("Berserker", "e5", 1, berserker)]
    names = [("A1", "a4"), ("A2", "a4"), ("A3", "a4"), ("A4", "a4"), ("A5", "a4"), ("A6", "a4"),
             ("B1", "d4"), ("B2", "d4"), ("B3", "d4"), ("B5", "e5"), ("B6", "e5"),
             ("C1", "h1"), ("C2", "h1"), ("C3", "h1")]
    cs += [cand(n, sq, i + 2) for i, (n, sq) in enumerate(names)]
    return parse_square("a1"), cs


def katino(params: AreaParams) -> Selection:
    """W1: six sleepers-to-be G1..G6 on c3, the Mage on c1; 1d3 rolled 2."""
    cs = [cand(f"G{i}", "c3", i) for i in range(1, 7)]
    return select(area_groups(parse_square("c1"), cs, DIST), params)


def test_r_wiz_area_3_groups_are_neighbours_numbered_by_distance_square_roster() -> None:
    """R-WIZ-AREA-3: "Groups are the connected components of the candidates
    under distance ≤ 1 … numbered 1, 2, … by distance from the user, then by
    square, then by roster order." The seed's 「トロールB(1 2 3 4(味方) 5 6)」."""
    user, cs = trolls()
    groups = area_groups(user, cs, DIST)
    assert [g.label for g in groups] == ["A", "B", "C"]
    assert [m.name for m in groups[0].members] == ["A1", "A2", "A3", "A4", "A5", "A6"]
    assert [(m.number, m.name) for m in groups[1].members] == [
        (1, "B1"), (2, "B2"), (3, "B3"), (4, "Berserker"), (5, "B5"), (6, "B6")]
    assert [m.distance for m in groups[1].members] == [3, 3, 3, 4, 4, 4]
    assert [m.name for m in groups[2].members] == ["C1", "C2", "C3"]
    # Ranks (test 5) are over the wanted trolls only: C3 is the 14th.
    assert groups[2].members[2].rank == 14 and groups[1].members[3].rank == 0


def test_r_wiz_area_5_katino_w1a_change_raises_to_a_run_of_three() -> None:
    """R-WIZ-AREA-5, W1a: <魔法変化>2, 1d3 = 2: 「選択対象の数は、0〜3体になる」; the
    best is A 1-3 with c = +1 (one level): G1..G3."""
    s = katino(AreaParams(roll=2, cap=3, change_levels=2, amplify_levels=0))
    assert s.partial == ("A", 1, 3) and s.whole == ()
    assert (s.change, s.amplify, s.levels, s.count, s.slots) == (1, 0, 1, 3, 3)
    assert s.targets == ("G1", "G2", "G3")


def test_r_wiz_area_5_katino_w1b_amplify_goes_past_nothing_but_adds_two() -> None:
    """W1b: <魔法増幅>2: R 2 + a 2 = 4 (「4体」): G1..G4."""
    s = katino(AreaParams(roll=2, cap=3, change_levels=0, amplify_levels=2))
    assert (s.change, s.amplify, s.count) == (0, 2, 4)
    assert s.targets == ("G1", "G2", "G3", "G4")


def test_r_wiz_area_5_katino_w1c_change_capped_by_a_times_b_amplify_beyond() -> None:
    """W1c: both: c = +1 (「A×Bを超えることはできない」: capped at 3) and a = 2
    (「こちらはA×Bを超えても良い」) make 5: G1..G5; six would need c = +2."""
    s = katino(AreaParams(roll=2, cap=3, change_levels=2, amplify_levels=2))
    assert (s.change, s.amplify, s.count) == (1, 2, 5)
    assert s.targets == ("G1", "G2", "G3", "G4", "G5")


def test_r_wiz_area_7_the_troll_tiltwait_exactly_as_the_seed_tells_it() -> None:
    """R-WIZ-AREA-5..7, W2, the seed's walkthrough step by step:
    (2) 5d5 = 15; (3) 1〜6で6体を選択; (4) B に移る際 −2 → 最大数 13;
    (5)(6) B 1,2,3, 4 の味方は外す (1 level), 5,6 → 12 (外した味方も含まれる);
    (7) 残り3レベルで最大数 16, 次のグループで 14; (8) C 1,2 → 14.
    「最終的にトロールCの1体は対象から外れてしまった」."""
    user, cs = trolls()
    s = select(area_groups(user, cs, DIST), AreaParams(roll=15, cap=25, change_levels=4, amplify_levels=0))
    assert s.whole == ("A", "B") and s.partial == ("C", 1, 2)
    assert s.excluded == ("Berserker",)
    assert (s.change, s.amplify, s.penalty, s.count, s.slots, s.levels) == (3, 0, 4, 14, 14, 4)
    assert s.tally == (
        TallyStep("roll", None, 15, (), 15, 0),
        TallyStep("take", "A", 6, (), 15, 6),
        TallyStep("enter", "B", -2, (), 13, 6),
        TallyStep("take", "B", 6, (4,), 13, 12),
        TallyStep("change", None, 3, (), 16, 12),
        TallyStep("enter", "C", -2, (), 14, 12),
        TallyStep("take", "C", 2, (), 14, 14),
    )
    assert s.targets == ("A1", "A2", "A3", "A4", "A5", "A6", "B1", "B2", "B3", "B5", "B6", "C1", "C2")
    assert "C3" not in s.targets and "Berserker" not in s.targets


def test_r_wiz_area_7_w2b_friendly_fire_takes_every_troll_and_the_berserker() -> None:
    """W2b: 「味方を巻き添えにすれば、<魔法変化>が1レベル分浮くので、全てのトロールを
    対象とすることもできる」: with the Berserker risked, A, B, C whole, c = +4, E = ∅."""
    user, cs = trolls("risked")
    s = select(area_groups(user, cs, DIST), AreaParams(roll=15, cap=25, change_levels=4, amplify_levels=0))
    assert s.whole == ("A", "B", "C") and s.partial is None
    assert (s.change, s.levels, s.count, s.slots, s.excluded) == (4, 4, 15, 15, ())
    assert len(s.targets) == 15 and "Berserker" in s.targets


def test_r_wiz_area_6_lowering_and_surplus() -> None:
    """R-WIZ-AREA-6: with no partial group and d ≤ 0 the surplus is lost (no
    level spent); a partial group needs T = N, lowering when R is larger."""
    cs = [cand("X", "c3", 0), cand("Y", "c3", 1)]
    s = select(area_groups(parse_square("c1"), cs, DIST), AreaParams(roll=5, cap=6, change_levels=0, amplify_levels=0))
    assert s.whole == ("A",) and (s.change, s.count, s.slots) == (0, 5, 2)
    # X wanted, then two spared allies: excluding both costs 2 levels, while
    # the run X alone with 2 rolled lowers by 1 (one level): fewer levels win.
    cs = [cand("X", "c2", 0), cand("Y1", "c3", 1, "spared"), cand("Y2", "c3", 2, "spared")]
    s = select(area_groups(parse_square("c1"), cs, DIST), AreaParams(roll=2, cap=3, change_levels=2, amplify_levels=0))
    assert s.partial == ("A", 1, 1) and s.change == -1 and s.levels == 1 and s.targets == ("X",)
    assert s.tally[-1] == TallyStep("change", None, -1, (), 1, 1)


def test_r_wiz_area_4_spared_must_be_excluded_else_no_selection() -> None:
    """R-WIZ-AREA-5: "every taken spared member is in E"; with no level and
    the only wanted one behind a spared ally in one square... it can still be
    run 1-1; a lone spared member in the same run cannot be taken."""
    cs = [cand("Ally", "c2", 0, "spared"), cand("Foe", "c3", 1)]
    s = select(area_groups(parse_square("c1"), cs, DIST), AreaParams(roll=1, cap=3, change_levels=0, amplify_levels=0))
    assert s.partial == ("A", 2, 2) and s.targets == ("Foe",)
    # Roll 2 needs c = −1 for a run of one: no level, so it fizzles.
    s = select(area_groups(parse_square("c1"), cs, DIST), AreaParams(roll=2, cap=3, change_levels=0, amplify_levels=0))
    assert s.fizzled and s.targets == ()


def test_r_wiz_area_7_no_draw_ties_go_by_labels_then_runs() -> None:
    """R-WIZ-AREA-7 test 6: two lone wanted foes at the same rank would tie
    on 1-5 only if equal; here equal ranks cannot happen, so the nearer wins
    by test 5, and with equal groups the earlier label."""
    cs = [cand("Near", "c2", 0), cand("Far", "c5", 1)]
    s = select(area_groups(parse_square("c1"), cs, DIST), AreaParams(roll=1, cap=3, change_levels=0, amplify_levels=0))
    assert s.whole == ("A",) and s.targets == ("Near",)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 7), st.integers(0, 7), st.sampled_from(["wanted", "spared", "risked", "neutral"])),
                min_size=1, max_size=12),
       st.integers(1, 25), st.integers(0, 5), st.integers(0, 5))
def test_r_wiz_area_5_every_selection_is_legal(spots: list[tuple[int, int, str]], roll: int, change: int,
                                               amplify: int) -> None:
    """R-WIZ-AREA-5's legality holds for whatever the search returns: levels
    within L, |c| ≤ L, 0 ≤ R + c ≤ A·B, a ≤ M, T = N with a partial group and
    T ≤ N otherwise, every spared taken member excluded, a wanted one affected."""
    cs = [Candidate(f"P{i}", Square(file=f, rank=r), i, role) for i, (f, r, role) in enumerate(spots)]  # type: ignore[arg-type]
    groups = area_groups(Square(file=0, rank=0), cs, DIST)
    p = AreaParams(roll=roll, cap=25, change_levels=change, amplify_levels=amplify)
    s = select(groups, p)
    roles = {c.name: c.role for c in cs}
    if s.fizzled:
        assert s.targets == ()
        return
    assert s.levels <= change and abs(s.change) <= change and 0 <= roll + s.change <= 25
    assert 0 <= s.amplify <= amplify
    assert s.slots == s.count if s.partial else s.slots <= s.count
    assert any(roles[t] == "wanted" for t in s.targets)
    assert not any(roles[t] == "spared" for t in s.targets)
    assert s.tally[-1].total == s.slots


def _reference(groups: list[Group], p: AreaParams) -> tuple[tuple[str, ...], tuple[str, int, int] | None] | None:
    """R-WIZ-AREA-5..7 read literally, by brute force over every selection
    (no bound, no pruning): the (whole, partial) the referee must choose."""
    from itertools import combinations
    best: tuple[object, ...] | None = None
    chosen = None
    n = len(groups)
    options: list[tuple[tuple[int, ...], tuple[int, int, int] | None]] = []
    for k in range(n + 1):
        for whole in combinations(range(n), k):
            if whole:
                options.append((whole, None))
            for gi in range(n):
                if gi in whole:
                    continue
                size = len(groups[gi].members)
                for lo in range(1, size + 1):
                    for hi in range(lo, size + 1):
                        if hi - lo + 1 < size:
                            options.append((whole, (gi, lo, hi)))
    for whole, partial in options:
        taken = [m for gi in whole for m in groups[gi].members]
        if partial:
            taken += list(groups[partial[0]].members[partial[1] - 1:partial[2]])
        n_groups = len(whole) + (partial is not None)
        d = len(taken) + p.group_penalty * (n_groups - 1) - p.roll
        if partial is None and d <= 0:
            c = a = 0
        elif d < 0:
            c, a = d, 0
        else:
            a = min(p.amplify_levels, d)
            c = d - a
        if abs(c) > p.change_levels or not 0 <= p.roll + c <= p.cap:
            continue
        spared = [m for m in taken if m.role == "spared"]
        levels = abs(c) + p.exclusion_cost * len(spared)
        if levels > p.change_levels:
            continue
        excluded = list(spared)
        for m in taken:
            if m.role == "risked" and levels + p.exclusion_cost <= p.change_levels:
                excluded.append(m)
                levels += p.exclusion_cost
        affected = [m for m in taken if m not in excluded]
        wanted = sorted(m.rank for m in affected if m.role == "wanted")
        if not wanted:
            continue
        labels = "".join(sorted([groups[gi].label for gi in whole] + ([groups[partial[0]].label] if partial else [])))
        part = (0, "", 0, 0) if partial is None else (1, groups[partial[0]].label, partial[1], partial[2] - partial[1])
        key = (-len(wanted), sum(m.role == "risked" for m in affected), levels, n_groups, tuple(wanted), labels, part)
        if best is None or key < best:
            best, chosen = key, (tuple(groups[gi].label for gi in whole),
                                 None if partial is None else (groups[partial[0]].label, partial[1], partial[2]))
    return chosen


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 6), st.integers(0, 6), st.sampled_from(["wanted", "spared", "risked", "neutral"])),
                min_size=1, max_size=9),
       st.integers(1, 25), st.integers(0, 5), st.integers(0, 5), st.integers(1, 25))
def test_r_wiz_area_7_the_search_agrees_with_the_rules_read_literally(
        spots: list[tuple[int, int, str]], roll: int, change: int, amplify: int, cap: int) -> None:
    """R-WIZ-AREA-7: the bounded search picks exactly the selection that a
    literal, exhaustive reading of R-WIZ-AREA-5..7 picks (or both fizzle)."""
    cs = [Candidate(f"P{i}", Square(file=f, rank=r), i, role) for i, (f, r, role) in enumerate(spots)]  # type: ignore[arg-type]
    groups = list(area_groups(Square(file=0, rank=0), cs, DIST))
    p = AreaParams(roll=min(roll, cap), cap=cap, change_levels=change, amplify_levels=amplify)
    s = select(groups, p)
    expected = _reference(groups, p)
    assert (None if s.fizzled else (s.whole, s.partial)) == expected
