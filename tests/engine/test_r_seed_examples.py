"""The seed's own examples (../shared/seeds/004_*.txt), as scenario tests."""

from __future__ import annotations

from referee.engine import events as E
from referee.engine.clauses import Extend, Flag, Hold, MoveGoal, MoveToward, PlanFlag, PlanRules

from .helpers import battle, damage_to, fighter, hp, of, run

HOLD = [Hold(line=9)]


def test_r_range_3_kusanagi_returns_1_against_firecracker_at_range_1() -> None:
    """R-RANGE-3 / skills.md: Kusanagi counters fire damage equal to the
    attack's printed damage: "Firecracker 1, Eruption 4"."""
    rec = run(battle([fighter("A", "c3", "firecracker", "火", plan=HOLD)],
                     [fighter("K", "d4", "kusanagi", "火剣", plan=HOLD)]))
    assert damage_to(rec, "K") == [(0, "skill", "firecracker")]  # 1 - 2, never negative (R-SK-3)
    assert damage_to(rec, "A") == [(1, "counter", "kusanagi")]


def test_r_range_3_kusanagi_counter_does_not_reach_range_2_but_still_reduces() -> None:
    """R-RANGE-3: "a counter hit lands only if the attacker is within the
    counter's range at that moment. Damage reduction applies to its owner
    whatever the range." (Kusanagi range 1 vs Firecracker from range 2.)"""
    rec = run(battle([fighter("A", "c3", "firecracker", "火", plan=HOLD)],
                     [fighter("K", "e5", "kusanagi", "火剣", plan=HOLD)]))
    assert damage_to(rec, "K") == [(0, "skill", "firecracker")]
    assert damage_to(rec, "A") == []
    missed = of(rec, E.CounterMissed)
    assert [(m.actor, m.reason) for m in missed] == [("K", "out_of_range")]


def test_r_plan_2_kusanagi_returns_4_against_eruption() -> None:
    """skills.md: Kusanagi "reduce by 2, then counter fire damage equal to the
    attack's printed damage ... Eruption 4"."""
    rec = run(battle([fighter("A", "c3", "eruption", "火火", plan=HOLD)],
                     [fighter("K", "d4", "kusanagi", "火剣", plan=HOLD)]))
    assert damage_to(rec, "K") == [(2, "skill", "eruption")]
    assert damage_to(rec, "A") == [(4, "counter", "kusanagi")]


def test_r_plan_2_kusanagi_reduces_an_allys_eruption_without_countering() -> None:
    """R-PLAN-2: counters "do not answer allies' skills unless the plan says
    `counter allies`; reductions ... always apply" -- the seed's Kusanagi
    caught in an ally's Eruption."""
    plan = [Extend(line=1, skill="eruption", count=None), Flag(line=2, flag=PlanFlag.FRIENDLY_FIRE), Hold(line=3)]
    rec = run(battle([fighter("A", "d4", "eruption", "火火火火", plan=plan),
                      fighter("K", "d5", "kusanagi", "火剣", plan=HOLD)],
                     [fighter("X", "c5", "", plan=HOLD), fighter("Y", "e5", "", plan=HOLD),
                      fighter("Z", "h8", "", plan=HOLD)]), turns=1)
    # K is the primary: through K the use reaches both X and Y (R-EXT-9)
    used = of(rec, E.SkillUsed)[0]
    assert used.targets[0] == "K" and sorted(used.targets[1:]) == ["X", "Y"]
    assert [d for d in damage_to(rec, "K")] == [(2, "skill", "eruption")]
    assert [r.kind for r in of(rec, E.Reaction) if r.actor == "K"] == ["defence"]
    assert damage_to(rec, "A") == []


def test_r_knock_5_aqua_form_knocks_its_owner_out_of_sala_range() -> None:
    """R-KNOCK-5: "a Sala counter's second hit misses if the attacker's own
    Aqua Form, answering the first, pushed it out of range"."""
    rec = run(battle([fighter("A", "c3", "night-shrieker aqua-form", "風剣水水", plan=HOLD)],
                     [fighter("S", "d4", "sala-twin-trees", "剣剣", plan=HOLD)], order=["S", "A"]))
    assert [e.skill for e in of(rec, E.MaintainStarted)] == ["sala-twin-trees"]
    kb = of(rec, E.Knockback)
    assert [(k.target, k.skill) for k in kb] == [("A", "aqua-form")]
    assert kb[0].to_square.file == 1 and kb[0].to_square.rank == 1  # b2
    assert damage_to(rec, "A") == [(0, "counter", "sala-twin-trees")]
    assert [(m.actor, m.reason) for m in of(rec, E.CounterMissed)] == [("S", "out_of_range")]


def test_r_ext_6_extended_use_keeps_hitting_after_its_user_falls() -> None:
    """R-EXT-6: "if a counter from the first target drops the user to 0 HP,
    the rest are still hit"."""
    plan = [Extend(line=1, skill="eruption", count=1), Hold(line=2)]
    rec = run(battle([fighter("A", "c3", "eruption", "火火火", hp=3, plan=plan),
                      fighter("W2", "a8", "", plan=HOLD), fighter("W3", "a7", "", plan=HOLD)],
                     [fighter("K", "d4", "kusanagi", "火剣", plan=HOLD), fighter("B", "d3", "", plan=HOLD)]))
    assert of(rec, E.SkillUsed)[0].targets == ("K", "B")
    assert damage_to(rec, "A") == [(3, "counter", "kusanagi")]
    assert damage_to(rec, "B") == [(4, "skill", "eruption")]
    downs = [d.target for d in of(rec, E.Down)]
    assert downs == ["A"]
    assert hp(rec, "A") == 0


def _three_enemy_layout(friendly_fire: bool) -> list:
    plan = [Extend(line=1, skill="eruption", count=None), Hold(line=3)]
    if friendly_fire:
        plan.append(Flag(line=2, flag=PlanFlag.FRIENDLY_FIRE))
    return battle([fighter("A", "d4", "eruption", "火火火火火", plan=plan),
                   fighter("M", "d5", "", body=5, plan=HOLD)],
                  [fighter("X", "c5", "", plan=HOLD), fighter("Y", "e5", "", plan=HOLD),
                   fighter("Z", "c4", "", plan=HOLD)])


def test_r_ext_9_three_enemies_only_by_catching_an_ally_with_friendly_fire() -> None:
    """R-EXT-9: "Under friendly fire an ally may be the primary of an extended
    use ... chosen only when that hits strictly more enemies than any enemy
    primary -- the seed's 'only one way to hit three enemies at once'"."""
    rec = run(_three_enemy_layout(True))
    used = of(rec, E.SkillUsed)[0]
    assert used.targets[0] == "M" and sorted(used.targets[1:]) == ["X", "Y", "Z"]


def test_r_ext_9_without_friendly_fire_no_ally_is_caught() -> None:
    """R-EXT-9: "an unextended use never targets an ally unless a clause names
    allies"; extension "never takes allies" without friendly fire."""
    rec = run(_three_enemy_layout(False))
    used = of(rec, E.SkillUsed)[0]
    assert "M" not in used.targets and len(used.targets) == 2


def test_r_move_5_rest_user_at_c3_walks_d4_e5_toward_e7() -> None:
    """R-MOVE-5: "from c3 toward e7 the steps are d4, e5, e6, e7; to use Rest
    (range 2) on e7 it stops after d4, e5"."""
    toward = MoveToward(line=1, who=MoveGoal.ALLY_MATCHING, match=lambda c: c.target.hp_lost >= 5, then_use="rest")
    rec = run(battle([fighter("R", "c3", "rest", "水", plan=[toward]),
                      fighter("H", "e7", "", body=3, hp=7, plan=HOLD)],
                     [fighter("E", "h1", "", plan=HOLD)]), turns=3)
    moves = [(m.actor, m.to_square) for m in of(rec, E.Moved)]
    assert [(a, (s.file, s.rank)) for a, s in moves][:2] == [("R", (3, 3)), ("R", (4, 4))]
    # turn 3: from e5, e7 is within Rest's range 2: Rest, no third step toward e7
    assert [(u.turn, u.actor, u.skill, u.targets) for u in of(rec, E.SkillUsed)] == [(3, "R", "rest", ("H",))]
