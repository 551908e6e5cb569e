"""variant-d20.md: the d20 pool arithmetic (``referee/engine/d20pool_checks.py``).

Each test is named after the rule it checks and quotes it; dice are scripted
as faces on the ``checks`` / ``initiative`` streams.  The worked examples
D20-A (a drop-dice attack against a defence roll) and D20-B (the order by
ring numbers with 1D20 ties) are replayed at this layer: their every die and
every number.  (The engine scenarios of these rules come with the mechanics.)
"""

from __future__ import annotations

import pytest
from hypothesis import given, strategies as st

from referee.board import parse_square
from referee.engine.d20pool_checks import (
    D20PoolParams, attack_ability, boost_amount, derived_values, dropped_dice, is_hit, margin,
    next_in_fixed_order, rank_contenders, ring_number, roll_pool, select_next,
)
from referee.engine.rng import ScriptedRng


def scripted(**streams: list[int]) -> ScriptedRng:
    return ScriptedRng(streams, strict=True)


def test_r_d20_val_1_derived_values_of_a_3_3_3_and_a_5_2_2_character() -> None:
    """R-D20-VAL-1: 耐久力 = 4 x body, 防御力 = body, 感応力 = 8 + reflex,
    表現力 = intellect, 移動力 = 1 + floor(reflex / 3).  "A 3/3/3 character
    has HP 12, 感応力 11, 3 defence dice, 表現力 3, 移動力 2"; D20-C's Ogre
    5/2/2: max 20, 感応力 10, 5 defence dice, 表現力 2."""
    v = derived_values(3, 3, 3)
    assert (v.hp, v.sensitivity, v.defence_dice, v.expression, v.move_points) == (12, 11, 3, 3, 2)
    ogre = derived_values(5, 2, 2)
    assert (ogre.hp, ogre.sensitivity, ogre.defence_dice, ogre.expression, ogre.move_points) == (20, 10, 5, 2, 1)


def test_r_d20_val_1_attack_dice_follow_the_skill() -> None:
    """R-D20-VAL-1: attack dice are body for sword at range 0, reflex for
    sword at range 1 or more, intellect for any other element."""
    assert attack_ability(5, 2, 1, sword=True, skill_range=0) == 5
    assert attack_ability(5, 2, 1, sword=True, skill_range=1) == 2
    assert attack_ability(5, 2, 1, sword=False, skill_range=0) == 1


def test_r_d20_check_1_keep_the_highest_plus_modifiers_against_the_target() -> None:
    """R-D20-CHECK-1: "最も高い出目 + 達成値への修正が達成値となり、目標値以上で成功".
    D20-A's Guard: 3d20 8 1 4 -> 8 + 3 = 11 >= 11, hit (equal succeeds)."""
    rng = scripted(checks=[8, 1, 4])
    check = roll_pool(rng, 3, printed=3)
    assert check.dice == (8, 1, 4) and check.highest == 8 and check.achievement == 11
    assert is_hit(check, 11) and not is_hit(check, 12)
    assert rng.remaining() == {}


def test_r_d20_check_2_all_ones_is_a_fumble_and_a_20_a_critical() -> None:
    """R-D20-CHECK-2: "すべてのダイスが出目 1 = ファンブル → 達成値 0 に変更"; a 20
    is a critical, with ``critical_bonus`` (default 0) added."""
    fumble = roll_pool(scripted(checks=[1, 1]), 2, printed=9, boost=3)
    assert fumble.fumble and fumble.achievement == 0 and not is_hit(fumble, 0)
    critical = roll_pool(scripted(checks=[20, 1]), 2, printed=3)
    assert critical.critical and not critical.fumble and critical.achievement == 23
    bonus = roll_pool(scripted(checks=[20]), 1, params=D20PoolParams(critical_bonus=5))
    assert bonus.critical_modifier == 5 and bonus.achievement == 25


def test_r_d20_check_3_drop_dice_for_plus_two_each_keeping_one() -> None:
    """R-D20-CHECK-3: "ダイスロールを 1 個減らす(最大で残り 1 個になるまで)ごとに達成値 +2";
    k = min(N, n - 1).  D20-A: Striker drops 2 of 3 dice: 16 + 3 + 4 = 23."""
    assert dropped_dice(3, 2) == 2 and dropped_dice(3, 5) == 2 and dropped_dice(1, 2) == 0
    rng = scripted(checks=[16])
    check = roll_pool(rng, 3, dropped=dropped_dice(3, 2), printed=3)
    assert check.dice == (16,) and check.drop_modifier == 4 and check.achievement == 23
    assert rng.remaining() == {}


def test_r_d20_check_3_a_single_die_of_1_is_a_fumble_after_drops() -> None:
    """R-D20-CHECK-3 with -CHECK-2, D20-A's aside: "Had the single die shown 1:
    fumble, achievement 0, a miss, and no defence roll"."""
    check = roll_pool(scripted(checks=[1]), 3, dropped=2, printed=3)
    assert check.fumble and check.achievement == 0 and not is_hit(check, 11)


def test_r_d20_check_4_boost_never_takes_hp_to_zero() -> None:
    """R-D20-CHECK-4: b = min(N, 表現力, HP - 1); "0 になるように減少させることはできない"."""
    assert boost_amount(3, 3, 12) == 3
    assert boost_amount(5, 3, 12) == 3  # capped by 表現力
    assert boost_amount(3, 3, 2) == 1  # HP 2 -> at most 1
    assert boost_amount(3, 3, 1) == 0  # no boost at HP 1
    check = roll_pool(scripted(checks=[10]), 1, printed=2, boost=boost_amount(3, 3, 12))
    assert check.boost == 3 and check.achievement == 15


def test_r_d20_hit_2_margin_is_attack_less_defence_never_negative() -> None:
    """R-D20-HIT-2: "攻撃判定の達成値 - 防御判定の達成値 → ダメージ", max 0.
    D20-A: 23 against Guard's 3d20 5 13 2 -> 13: margin 10; Striker's defence
    10 2 2 against 11: margin 1."""
    rng = scripted(checks=[16, 5, 13, 2, 8, 1, 4, 10, 2, 2])
    attack = roll_pool(rng, 3, dropped=2, printed=3)
    defence = roll_pool(rng, 3)
    assert defence.achievement == 13 and margin(attack, defence) == 10
    guard_attack = roll_pool(rng, 3, printed=3)
    striker_defence = roll_pool(rng, 3)
    assert margin(guard_attack, striker_defence) == 1
    assert margin(striker_defence, guard_attack) == 0
    assert rng.remaining() == {}  # D20-A: "Draws: 10 checks"


@pytest.mark.parametrize(("square", "number"), [
    ("a1", 1), ("h8", 1), ("d1", 1), ("b2", 2), ("g7", 2), ("c3", 3), ("f6", 3), ("d4", 4), ("e5", 4), ("e4", 4),
])
def test_r_d20_order_2_rings_on_8x8(square: str, number: int) -> None:
    """R-D20-ORDER-2: 1 + min(f, r, W - 1 - f, H - 1 - r): "the edge is 1, the
    border of b2-g7 2, the border of c3-f6 3, d4-e5 4"."""
    assert ring_number(parse_square(square), 8, 8) == number


def test_r_d20_order_3_worked_example_d20_b() -> None:
    """R-D20-ORDER-3, D20-B: "Ring 4 holds A and D: both keys are empty, both
    roll (A, then D): 12, 12; equal, both roll again: A [12, 3], D [12, 17].
    D goes."  Then, after the push, "Ring 3 now holds A and C: C's empty key
    is a prefix of A's, so C alone rolls: [9].  A [12, 3] beats C [9]"; C and B
    then go alone, without a roll.  "Draws: 5 initiative"."""
    rng = scripted(initiative=[12, 12, 3, 17, 9])
    keys: dict[str, list[int]] = {}
    rolled: list[tuple[str, int]] = []

    def roll(name: str) -> int:
        face = rng.die("initiative", 20)
        rolled.append((name, face))
        return face

    first = select_next([("A", 4), ("B", 1), ("C", 3), ("D", 4)], keys, roll)
    assert first == ["D", "A"]
    assert rolled == [("A", 12), ("D", 12), ("A", 3), ("D", 17)]
    # D pushed A from d4 to c3 (ring 3): positions are read at each selection.
    second = select_next([("A", 3), ("B", 1), ("C", 3)], keys, roll)
    assert second == ["A", "C"] and keys["C"] == [9]
    assert select_next([("B", 1), ("C", 3)], keys, roll) == ["C"]
    assert select_next([("B", 1)], keys, roll) == ["B"]
    assert select_next([], keys, roll) == []
    assert rng.remaining() == {} and len(rolled) == 5


def test_r_d20_order_1_the_highest_number_goes_first_without_a_roll() -> None:
    """R-D20-ORDER-1: "ナンバーの高いマスの未行動キャラクターから順番にターンを開始";
    a lone contender rolls nothing."""
    rng = scripted()
    assert select_next([("A", 1), ("B", 2), ("C", 3)], {}, lambda n: rng.die("initiative", 20)) == ["C"]


def test_r_d20_order_4_a_fixed_order_gives_the_turn_to_the_earliest_unacted_standing() -> None:
    """R-D20-ORDER-4, D20-C: after Medic revives Fighter, "The earliest unacted
    standing character in order is now Fighter"."""
    order = ["Ogre", "Fighter", "Medic"]
    assert next_in_fixed_order(order, {"Ogre": True, "Fighter": False, "Medic": True}) == "Ogre"
    assert next_in_fixed_order(order, {"Ogre": False, "Fighter": False, "Medic": True}) == "Medic"
    assert next_in_fixed_order(order, {"Ogre": False, "Fighter": True, "Medic": False}) == "Fighter"
    assert next_in_fixed_order(order, {}) is None


def _prefix(a: list[int], b: list[int]) -> bool:
    return len(a) <= len(b) and b[:len(a)] == a


@given(st.lists(st.integers(1, 4), min_size=1, max_size=8), st.data())
def test_r_d20_order_3_ranking_is_a_strict_order_of_distinct_keys(numbers: list[int], data: st.DataObject) -> None:
    """R-D20-ORDER-3 property: the contenders are those on the highest number;
    after settling no contender's key equals or is a prefix of another's, and
    the ranking is by key, higher first."""
    names = [f"c{i}" for i in range(len(numbers))]
    keys: dict[str, list[int]] = {}
    ranked = select_next(list(zip(names, numbers)), keys, lambda n: data.draw(st.integers(1, 3)))
    top = max(numbers)
    assert sorted(ranked) == sorted(n for n, k in zip(names, numbers) if k == top)
    if len(ranked) > 1:
        assert not any(_prefix(keys[a], keys[b]) for a in ranked for b in ranked if a != b)
    assert [keys[n] for n in ranked] == sorted((keys[n] for n in ranked), reverse=True)


def test_r_d20_order_3_equal_keys_all_roll_together_in_roster_order() -> None:
    """R-D20-ORDER-3: "each member of S rolls 1D20 in roster order": three
    empty keys roll together (c0, c1, c2), then only the equal pair again."""
    rolled: list[str] = []
    faces = iter([7, 9, 7, 4, 2])

    def roll(name: str) -> int:
        rolled.append(name)
        return next(faces)

    keys: dict[str, list[int]] = {}
    assert rank_contenders(["c0", "c1", "c2"], keys, roll) == ["c1", "c0", "c2"]
    assert rolled == ["c0", "c1", "c2", "c0", "c2"] and keys == {"c0": [7, 4], "c1": [9], "c2": [7, 2]}
