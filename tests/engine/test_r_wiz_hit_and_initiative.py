"""Scenario tests for the wiz mechanics built so far (variant-wiz.md):
IN initiative (R-WIZ-IN-1/2) and the percentile hit roll (R-WIZ-HIT-1/2,
R-WIZ-MELEE-1/2, R-WIZ-MIS-1), each taken into tcgt by a house ruleset --
the spec's "a house ruleset taking one mechanic into tcgt gets exactly the
rules under that mechanic's heading"."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from referee.engine import events as E
from referee.engine.battle import resolve_battle
from referee.engine.mechanics.wiz import (
    facing_allowance, facing_of, in_value, missile_penalty, size_term,
)
from referee.engine.clauses import Hold
from referee.engine.rng import ScriptedRng
from referee.plan.parser import parse_plan
from referee.ruleset import load_ruleset
from tests.engine.helpers import battle, fighter, hp, of

HOLD = [Hold(line=9)]
WIZ_BLOCK = """extends: tcgt
mechanics:
  initiative: {kind: in_value, tie: decimal_dice}
  hit:        {kind: percentile, base: 70, per_reflex: 5, min: 5, max: 95,
               facing: {side: 10, back: 20}, missile: {base: 5, per_extra_opponent: 2},
               sizes: [T, S, M, L, H], aim: false}
"""


@pytest.fixture
def wizlike(tmp_path: Path) -> Any:
    path = tmp_path / "wizlike.yaml"
    path.write_text(WIZ_BLOCK, encoding="utf-8")
    return replace(load_ruleset(path), turn_limit=1)


def _plan(text: str) -> Any:
    plan, diags = parse_plan(text, "t.plan")
    assert diags == []
    return plan


# ------------------------------------------------------------------ initiative


def test_r_wiz_in_1_in_is_reflex_plus_move_plus_half_flexible() -> None:
    """R-WIZ-IN-1: IN = reflex + move + floor(flexible/2)."""
    assert in_value(3, 0, 0) == 3
    assert in_value(3, 2, 3) == 6
    assert in_value(1, 0, 1) == 1


def test_r_wiz_in_2_order_by_in_with_the_dice_breaking_ties(wizlike: Any) -> None:
    """R-WIZ-IN-2: "highest first. Equal IN go by R-TURN-1's dice value"; the
    dice are rolled exactly as in tcgt (every character, roster order)."""
    setup = battle([fighter("Slow", "a1", "", "剣", plan=HOLD), fighter("Tie1", "a2", "", "剣剣", plan=HOLD)],
                   [fighter("Fast", "h8", "", "剣剣剣", plan=HOLD), fighter("Tie2", "h7", "", "剣剣", plan=HOLD)])
    setup = replace(setup, order=None)
    # dice: Slow 6.66, Tie1 1.11, Fast 2.22, Tie2 5.55: Tie1 and Tie2 share IN 2, and
    # Tie2's dice put it first even though it is later in the roster
    rec = resolve_battle(setup, wizlike, 1, rng=ScriptedRng({"initiative": [6, 6, 6, 1, 1, 1, 2, 2, 2, 5, 5, 5]}))
    values = {e.actor: e.value for e in of(rec, E.InitiativeValue)}
    assert values == {"Slow": 1, "Tie1": 2, "Fast": 3, "Tie2": 2}
    assert [e.actor for e in of(rec, E.InitiativeValue)] == ["Slow", "Tie1", "Fast", "Tie2"]
    first_roll = next(i for i, e in enumerate(rec.events) if isinstance(e, E.InitiativeRoll))
    last_value = max(i for i, e in enumerate(rec.events) if isinstance(e, E.InitiativeValue))
    assert last_value < first_roll
    assert of(rec, E.ActionOrder)[0].order == ("Fast", "Tie2", "Tie1", "Slow")


# ------------------------------------------------------------------ hit roll


def test_r_wiz_hit_1_a_weapon_use_rolls_d100_per_target_and_a_miss_is_no_hit(wizlike: Any) -> None:
    """R-WIZ-HIT-1: "A face ≤ p hits. Otherwise the use does nothing to that
    target": 71 against 70 misses, 70 hits."""
    for face, expected in ((70, 9), (71, 12)):
        setup = battle([fighter("A", "c3", "slash", "剣剣剣", plan=HOLD)], [fighter("B", "c3", "", "剣剣剣", plan=HOLD)])
        rec = resolve_battle(setup, wizlike, 1, rng=ScriptedRng({"checks": [face]}))
        (check,) = of(rec, E.D100Check)
        assert (check.die, check.chance, check.hit) == (face, 70, face <= 70)
        assert hp(rec, "B") == expected


def test_r_wiz_hit_1_spells_never_roll(wizlike: Any) -> None:
    """R-WIZ-HIT-1: "Spells, counters and passives never roll" (a skill
    without 剣 in its cost is a spell, R-WIZ-KIND-1)."""
    setup = battle([fighter("A", "c3", "eruption", "火火火", plan=HOLD)], [fighter("B", "c3", "", "剣剣剣", plan=HOLD)])
    rec = resolve_battle(setup, wizlike, 1, rng=ScriptedRng())
    assert of(rec, E.D100Check) == [] and hp(rec, "B") < 12


def test_r_wiz_hit_2_reflex_difference_and_clamp(wizlike: Any) -> None:
    """R-WIZ-HIT-2: p = 70 + 5 × (user's reflex − target's reflex) ..., clamped to 5..95."""
    setup = battle([fighter("A", "c3", "slash", "剣剣剣", plan=HOLD)], [fighter("B", "c3", "", "剣", plan=HOLD)])
    rec = resolve_battle(setup, wizlike, 1, rng=ScriptedRng({"checks": [80]}))
    (check,) = of(rec, E.D100Check)
    assert (check.reflex_mod, check.chance, check.hit) == (10, 80, True)


def test_r_wiz_melee_1_and_2_the_seeds_front_side_back_w3(wizlike: Any) -> None:
    """Worked example W3: Knight, E1, E2, E3 on d4; the Knight targets E3;
    `checks` 10 75 85 72 -> front 70 hit, side 80 hit, back 90 hit, front 70 miss.
    Knight 6, E3 9, E1 12, E2 12."""
    knight = fighter("Knight", "d4", "slash", "剣剣剣", plan=_plan("target E3\nhold position\n"))
    foes = [fighter(n, "d4", "slash", "剣剣剣", plan=HOLD) for n in ("E1", "E2", "E3")]
    rec = resolve_battle(battle([knight], foes), wizlike, 1, rng=ScriptedRng({"checks": [10, 75, 85, 72]}))
    checks = of(rec, E.D100Check)
    assert [(c.actor, c.target, c.facing, c.chance, c.hit) for c in checks] == [
        ("Knight", "E3", "front", 70, True), ("E1", "Knight", "side", 80, True),
        ("E2", "Knight", "back", 90, True), ("E3", "Knight", "front", 70, False)]
    assert [hp(rec, n) for n in ("Knight", "E3", "E1", "E2")] == [6, 9, 12, 12]


def test_r_wiz_melee_2_allowance_and_wide_view() -> None:
    """R-WIZ-MELEE-2: f = 1 + 2·[wide_view ≥ 1] + [wide_view ≥ 2] + floor(sense/2);
    W3b's wide_view 1 gives f = 3 (all three front); wide_view 2 has no back."""
    assert facing_allowance(0, 0) == 1 and facing_allowance(1, 0) == 3
    assert facing_allowance(2, 0) == 4 and facing_allowance(0, 3) == 2
    assert [facing_of(k, 1, 0) for k in (1, 2, 3)] == ["front", "side", "back"]
    assert [facing_of(k, 3, 1) for k in (1, 2, 3)] == ["front", "front", "front"]
    assert facing_of(9, 1, 2) == "side"


def test_r_wiz_mis_1_missile_penalty_by_opponents(wizlike: Any) -> None:
    """R-WIZ-MIS-1: "1対1の場合は通常どおり5%", +2 per further enemy in the
    target's area; none when the target is not in a melee."""
    archer = fighter("Archer", "c3", "night-shrieker", "風剣剣", plan=HOLD)
    alone = resolve_battle(battle([archer], [fighter("B", "d4", "", "剣剣剣", plan=HOLD)]), wizlike, 1,
                           rng=ScriptedRng({"checks": [1]}))
    (c,) = of(alone, E.D100Check)
    assert (c.facing, c.missile_penalty, c.chance) == (None, 0, 70)
    allies = [fighter(n, "d4", "", "剣剣剣", plan=HOLD) for n in ("W1", "W2")]
    crowded = resolve_battle(battle([archer, *allies], [fighter("B", "d4", "", "剣剣剣", plan=HOLD)]), wizlike, 1,
                             rng=ScriptedRng({"checks": [1]}))
    (c,) = of(crowded, E.D100Check)
    assert (c.facing, c.missile_penalty, c.chance) == (None, 7, 63)


def test_r_wiz_mis_1_size_term_from_the_seeds_examples() -> None:
    """R-WIZ-MIS-1: "M fighting T: 14; S fighting T: 9; three M fighting H: 0"."""
    sizes = ("T", "S", "M", "L", "H")
    assert missile_penalty(1, size_term("M", "T", sizes), 5, 2) == 14
    assert missile_penalty(1, size_term("S", "T", sizes), 5, 2) == 9
    assert missile_penalty(3, size_term("M", "H", sizes), 5, 2) == 0
    assert missile_penalty(0, 0, 5, 2) == 0
