"""variant-d20.md scenarios through the whole engine (the ``d20pool``
ruleset): fixed squares, fixed or ring order, dice scripted as faces.

These replay the worked examples without their plan clauses (D20-A without
its drop: the Striker rolls all three dice); with them, as the spec writes
them: tests/engine/test_r_d20_plan.py.
"""

from __future__ import annotations

from typing import Any

from referee.engine import events as E
from referee.engine.battle import BattleRecord, BattleSetup, resolve_battle
from referee.engine.clauses import Hold
from referee.engine.rng import ScriptedRng

from tests.engine.helpers import battle, fighter, hp, of, ruleset

HOLD = [Hold(line=1)]


def d20(setup: BattleSetup, turns: int | None = 1, **script: list[int]) -> tuple[BattleRecord, ScriptedRng]:
    rng = ScriptedRng(script, strict=True)
    record = resolve_battle(setup, ruleset("d20pool", turns), 1, rng=rng)
    return record, rng


def types(record: BattleRecord, actor: str) -> list[str]:
    """The event types of ``actor``'s first turn, action_start to action_end."""
    out: list[str] = []
    inside = False
    for e in record.events:
        if isinstance(e, E.ActionStart) and e.actor == actor:
            inside = True
        if inside:
            out.append(e.TYPE)
        if inside and isinstance(e, E.ActionEnd):
            break
    return out


def a_striker_and_a_guard(**striker: Any) -> BattleSetup:
    return battle([fighter("Striker", "d4", "slash", "剣剣剣", body=3, reflex=3, intellect=3, **striker)],
                  [fighter("Guard", "d4", "slash", "剣剣剣", body=3, reflex=3, intellect=3)],
                  order=["Striker", "Guard"])


def test_r_d20_hit_1_an_attack_check_against_sensitivity_then_a_defence_check() -> None:
    """R-D20-HIT-1/-2, D20-A without the drop: "Slash is sword at range 0:
    body 3 dice" 16 5 2 -> 16 + 3 = 19 >= 11, hit; "Guard defends with 3d20:
    5 13 2 -> 13", margin 6: Guard 12 -> 6.  Guard: 8 1 4 -> 11 >= 11 (equal
    succeeds); Striker defends 10 2 2 -> 10, margin 1: Striker 12 -> 11; Guard
    then self-recovers 3 (R-D20-TURN-3).  After round 1: White wins on HP."""
    record, rng = d20(a_striker_and_a_guard(), checks=[16, 5, 2, 5, 13, 2, 8, 1, 4, 10, 2, 2])
    checks = of(record, E.D20Check)
    assert [(c.actor, c.check, c.ability, c.dice, c.achievement) for c in checks] == [
        ("Striker", "attack", "body", (16, 5, 2), 19), ("Guard", "defence", "body", (5, 13, 2), 13),
        ("Guard", "attack", "body", (8, 1, 4), 11), ("Striker", "defence", "body", (10, 2, 2), 10)]
    assert [(t.target, t.sensitivity, t.hit) for t in of(record, E.HitTest)] == [("Guard", 11, True),
                                                                             ("Striker", 11, True)]
    assert [(m.margin) for m in of(record, E.Margin)] == [6, 1]
    damage = [(d.target, d.amount, d.printed) for d in of(record, E.Damage)]
    assert damage == [("Guard", 6, 6), ("Striker", 1, 1)]
    assert hp(record, "Guard") == 9 and hp(record, "Striker") == 11
    assert record.result.winner == "white" and rng.remaining() == {}


def test_r_d20_turn_1_action_first_then_support_in_the_spec_order() -> None:
    """R-D20-TURN-1: "the action first if it can be taken now ..., the support
    after it"; events: action_start, pattern_selected, panels_reset, the
    use (skill_used, d20_check, hit_test, d20_check, margin, damage), then
    support, maintenance, action_end.  Striker attacked and is unhurt: its
    support is nothing (R-D20-TURN-3 (4))."""
    record, _ = d20(a_striker_and_a_guard(), checks=[16, 5, 2, 5, 13, 2, 8, 1, 4, 10, 2, 2])
    seen = types(record, "Striker")
    assert seen[:3] == ["action_start", "pattern_selected", "panels_reset"]
    use = seen.index("skill_used")
    assert seen[use:use + 6] == ["skill_used", "d20_check", "hit_test", "d20_check", "margin", "damage"]
    assert seen.index("support") > use and seen[-1] == "action_end"
    support = [s for s in of(record, E.Support) if s.actor == "Striker"][0]
    assert (support.kind, support.first) == ("none", False)


def test_r_d20_turn_3_self_recover_heals_expression_when_hurt() -> None:
    """R-D20-TURN-3 (3): "HP < max: self-recover" 表現力 (intellect 3), a
    ``heal`` with cause ``recover``, never above max."""
    record, _ = d20(a_striker_and_a_guard(), checks=[16, 5, 2, 5, 13, 2, 8, 1, 4, 10, 2, 2])
    heals = [(h.target, h.amount, h.cause) for h in of(record, E.Heal)]
    assert heals == [("Guard", 3, "recover")]


def test_r_d20_check_2_a_fumble_misses_and_calls_no_defence() -> None:
    """R-D20-CHECK-2 with -HIT-1: every die a 1 is a fumble, achievement 0:
    "a fumble hits no one" and no defence roll follows."""
    record, rng = d20(a_striker_and_a_guard(), checks=[1, 1, 1, 8, 1, 4, 10, 2, 2])
    first = of(record, E.D20Check)[0]
    assert first.fumble and first.achievement == 0
    assert [t.hit for t in of(record, E.HitTest)][0] is False
    assert [d.target for d in of(record, E.Damage)] == ["Striker"] and rng.remaining() == {}


def test_r_d20_move_1_a_shift_takes_up_to_move_points_steps() -> None:
    """R-D20-MOVE-1: "[移動力] 以下のマス数だけ ... 移動する": reflex 3 -> 2 steps,
    each decided afresh (R-MOVE-6 toward the nearest enemy); engagement does
    not stop it.  Nothing to use, so the support comes first."""
    setup = battle([fighter("Runner", "a1", "slash", "剣剣剣", body=3, reflex=3, intellect=3)],
                   [fighter("Post", "h8", "", "剣剣剣", body=3, reflex=3, intellect=3, plan=HOLD)],
                   order=["Runner", "Post"])
    record, _ = d20(setup)
    moves = [(m.actor, m.from_square.file, m.from_square.rank, m.to_square.file, m.to_square.rank)
             for m in of(record, E.Moved)]
    assert moves == [("Runner", 0, 0, 1, 1), ("Runner", 1, 1, 2, 2)]
    end = of(record, E.MoveEnd)[0]
    assert (end.steps, end.points_left, end.reason) == (2, 0, "no_points")
    support = [s for s in of(record, E.Support) if s.actor == "Runner"][0]
    assert (support.kind, support.first) == ("shift", True)
    assert of(record, E.Stayed) == []  # "stayed is not emitted"


def test_r_d20_order_1_turns_by_ring_number_read_at_each_selection() -> None:
    """R-D20-ORDER-1/-2: without ``order``, the highest ring goes first: C on
    d4 (4), then B on c3 (3), then A on a1 (1); a lone contender rolls nothing."""
    setup = BattleSetup(battle([fighter("A", "a1", plan=HOLD), fighter("B", "c3", plan=HOLD)],
                               [fighter("C", "d4", plan=HOLD)]).combatants, None)
    record, rng = d20(setup)
    selected = [(s.actor, s.number) for s in of(record, E.TurnSelected)]
    assert selected == [("C", 4), ("B", 3), ("A", 1)] and of(record, E.TurnRoll) == []


def test_r_d20_order_3_ties_roll_1d20_keys_in_roster_order() -> None:
    """R-D20-ORDER-3, D20-B's first selection: A and D on ring 4 roll 12, 12,
    then 3, 17: D [12, 17] goes before A [12, 3]."""
    setup = BattleSetup(battle([fighter("A", "d4", "rest", "水水水", plan=HOLD)],
                               [fighter("D", "e5", "rest", "水水水", plan=HOLD)]).combatants, None)
    record, rng = d20(setup, initiative=[12, 12, 3, 17])
    assert [(r.actor, r.roll, r.key) for r in of(record, E.TurnRoll)] == [
        ("A", 12, (12,)), ("D", 12, (12,)), ("A", 3, (12, 3)), ("D", 17, (12, 17))]
    assert [s.actor for s in of(record, E.TurnSelected)] == ["D", "A"] and rng.remaining() == {}


def test_r_d20_order_4_a_fixed_order_replaces_the_rings() -> None:
    """R-D20-ORDER-4: "the next turn goes to the earliest unacted standing
    character in the list", whatever the rings."""
    setup = battle([fighter("A", "a1", plan=HOLD)], [fighter("C", "d4", plan=HOLD)], order=["A", "C"])
    record, _ = d20(setup)
    assert [(s.actor, s.rule) for s in of(record, E.TurnSelected)] == [("A", "R-D20-ORDER-4"),
                                                                        ("C", "R-D20-ORDER-4")]


def test_r_d20_end_1_a_wipeout_is_checked_at_the_end_of_the_round() -> None:
    """R-D20-END-1: "基本的に P C すべてが KO になった時点でバトルは終了する",
    checked only at round end: Ogre (hp 3) is KO'd by Fighter; the battle ends
    after the round, reason ``wipeout``, in round 1."""
    setup = battle([fighter("Fighter", "d4", "slash", "剣剣剣", body=3, reflex=3, intellect=3)],
                   [fighter("Ogre", "d4", "", "剣剣", body=5, reflex=2, intellect=2, hp=3, plan=HOLD)],
                   order=["Fighter", "Ogre"])
    record, rng = d20(setup, turns=None, checks=[2, 14, 9, 6, 1, 12, 3, 10])
    end = of(record, E.BattleEnd)[0]
    assert (end.result.winner, end.result.reason, end.result.turns, end.rule) == ("white", "wipeout", 1,
                                                                                    "R-D20-END-1")
    assert [d.target for d in of(record, E.Down)] == ["Ogre"] and rng.remaining() == {}


def test_r_d20_end_2_the_winners_ko_members_get_back_up() -> None:
    """R-D20-END-2: "勝利側の K O キャラクターは [耐久力] を 0 から 1 に変更する":
    White's Scout (hp 1) is KO'd by Black's Brute; White's Fighter then KOs
    Brute; at round end White wins and Scout is ``revived`` at HP 1, not down
    in the final result."""
    setup = battle([fighter("Scout", "d4", "", "剣剣剣", hp=1, plan=HOLD),
                    fighter("Fighter", "d4", "slash", "剣剣剣", body=3, reflex=3, intellect=3)],
                   [fighter("Brute", "d4", "slash", "剣剣剣", body=3, reflex=3, intellect=3, hp=1)],
                   order=["Brute", "Fighter", "Scout"])
    # Brute: Slash on Scout (first by roster among equals) 19 9 9 -> 22, hit; Scout defends 1 1 1
    record, rng = d20(setup, turns=None, ties=[0], checks=[19, 9, 9, 1, 1, 1, 15, 2, 2, 3, 2, 2])
    revived = of(record, E.Revived)
    assert [(r.target, r.hp, r.cause) for r in revived] == [("Scout", 1, "victory")]
    final = {c.name: (c.hp, c.down) for c in record.result.final}
    assert final["Scout"] == (1, False) and final["Brute"] == (0, True)
    assert record.result.reason == "wipeout" and rng.remaining() == {}


def test_r_d20_term_1_events_turn_counts_rounds() -> None:
    """R-D20-TERM-1: "The seed's ラウンド (round) is a tcgt turn (events' turn
    counts rounds)": each standing character takes one turn per round."""
    setup = battle([fighter("A", "a1", plan=HOLD)], [fighter("C", "h8", plan=HOLD)], order=["A", "C"])
    record, _ = d20(setup, turns=2)
    assert [(s.turn, s.actor) for s in of(record, E.TurnSelected)] == [(1, "A"), (1, "C"), (2, "A"), (2, "C")]
    assert record.result.turns == 2 and record.result.reason == "turn_limit"


def test_r_d20_turn_2_the_action_is_one_use_and_the_walk_stops_there() -> None:
    """R-D20-TURN-2: "the first entry the skill walk uses ..., the walk
    stopping there": with Slash listed twice, tcgt would use both; d20pool
    uses one (R-SK-1's one use per turn is replaced)."""
    setup = battle([fighter("Striker", "d4", "slash slash", "剣剣剣", body=3, reflex=3, intellect=3)],
                   [fighter("Guard", "d4", "", "剣剣剣", body=3, reflex=3, intellect=3, plan=HOLD)],
                   order=["Striker", "Guard"])
    record, rng = d20(setup, checks=[16, 5, 2, 5, 13, 2])
    assert [u.actor for u in of(record, E.SkillUsed)] == ["Striker"] and rng.remaining() == {}


def test_r_d20_hit_3_a_skill_without_damage_calls_no_defence_check() -> None:
    """R-D20-HIT-3: "A hit by a skill without damage (Pressurize) calls no
    defence check": one attack check on intellect dice (R-D20-VAL-1), a hit
    test, then Pressurize's effect; no margin."""
    setup = battle([fighter("Caster", "d4", "pressurize", "風風風", body=3, reflex=3, intellect=3)],
                   [fighter("Guard", "d6", "", "剣剣剣", body=3, reflex=3, intellect=3, plan=HOLD)],
                   order=["Caster", "Guard"])
    record, rng = d20(setup, checks=[15, 2, 2], chances=[False])
    checks = of(record, E.D20Check)
    assert [(c.check, c.ability, c.achievement) for c in checks] == [("attack", "intellect", 15)]
    assert [t.hit for t in of(record, E.HitTest)] == [True] and of(record, E.Margin) == []
    assert len(of(record, E.PanelUsed)) == 1 and rng.remaining() == {}


def test_r_d20_ko_1_a_ko_character_takes_no_turn() -> None:
    """R-D20-KO-1, D20-C's first turn: Ogre (5/2/2, HP 3 of 20) slashes
    Fighter: 19 4 11 8 2 -> 22 >= 11; Fighter defends 3 7 5 -> 7, margin 15:
    Fighter KO (``down`` on d4).  It "takes no turn"; Ogre self-recovers 2
    (表現力) -> 5; at round end White has no one standing: Black wins."""
    setup = battle([fighter("Fighter", "d4", "slash", "剣剣剣", body=3, reflex=3, intellect=3)],
                   [fighter("Ogre", "d4", "slash", "剣剣", body=5, reflex=2, intellect=2, hp=3)],
                   order=["Ogre", "Fighter"])
    record, rng = d20(setup, turns=None, checks=[19, 4, 11, 8, 2, 3, 7, 5])
    assert [(m.margin, m.target) for m in of(record, E.Margin)] == [(15, "Fighter")]
    assert [(d.target, d.square.file, d.square.rank) for d in of(record, E.Down)] == [("Fighter", 3, 3)]
    assert [s.actor for s in of(record, E.TurnSelected)] == ["Ogre"]
    assert hp(record, "Ogre") == 5 and record.result.winner == "black" and rng.remaining() == {}


def test_r_d20_rng_1_checks_draw_on_checks_and_damage_and_area_stay_unused() -> None:
    """R-D20-RNG-1: "variants add checks, damage and area"; d20pool draws its
    dice on ``checks`` and its tie rolls on ``initiative``; "damage and area
    are not used"."""
    from referee.engine.rng import BattleRng

    setup = BattleSetup(battle(
        [fighter("A", "c3", "slash firecracker", "剣火剣"), fighter("B", "d4", "rest slash", "水剣剣")],
        [fighter("C", "f6", "slash eruption", "剣火火"), fighter("D", "e5", "slash", "剣剣剣")]).combatants, None)
    rng = BattleRng(7)
    record = resolve_battle(setup, ruleset("d20pool", 12), 7, rng=rng)
    assert rng.draws["checks"] > 0 and rng.draws["initiative"] > 0
    assert rng.draws["damage"] == 0 and rng.draws["area"] == 0
    assert record.result is not None
