"""Scenario tests named after rule IDs (fixed setup and order, scripted RNG)."""

from __future__ import annotations

from referee.engine import events as E
from referee.engine.rng import ScriptedRng
from referee.engine.battle import resolve_battle
from referee.engine.clauses import Hold, KeepAway, NeverUse, UseFirst

from .helpers import battle, damage_to, fighter, hp, of, ruleset, run

HOLD = [Hold(line=9)]


def test_r_goal_1_ends_when_an_army_is_down_to_a_third() -> None:
    """R-GOAL-1: "The battle ends the moment either army is down to a third
    of its starting members" (1 -> 0); checked after the use is resolved."""
    rec = run(battle([fighter("A", "c3", "slash", "剣", plan=HOLD)],
                     [fighter("B", "c3", "", body=1, hp=2, plan=HOLD)]), turns=5)
    assert rec.result.winner == "white" and rec.result.reason == "army_reduced"
    assert rec.result.turns == 1
    assert isinstance(rec.events[-1], E.BattleEnd)


def test_r_goal_2_equal_heads_more_total_hp_wins_at_the_cap() -> None:
    """R-GOAL-2 / R-TURN-9: equal head counts -> more total HP wins."""
    rec = run(battle([fighter("A", "a1", "", hp=10, plan=HOLD)],
                     [fighter("B", "h8", "", hp=11, plan=HOLD)]), turns=2)
    assert rec.result.winner == "black" and rec.result.reason == "turn_limit"


def test_r_turn_9_the_cap_ends_a_draw() -> None:
    """R-TURN-9: after the last turn the head count, then HP decide; equal: draw."""
    rec = run(battle([fighter("A", "a1", "", plan=HOLD)], [fighter("B", "h8", "", plan=HOLD)]), turns=3)
    assert rec.result.winner == "draw" and rec.result.turns == 3


def test_r_turn_9_the_narrowing_then_the_goal_check_then_the_turn_limit() -> None:
    """R-TURN-9 [clarified]: "At the end of a turn the order is: the narrowing
    of that turn (R-NARROW-1..3), then the goal check (R-GOAL-1), then the turn
    limit (this rule, or a ruleset's own `turn_limit`)".  A ruleset whose
    `turn_limit` is 30 still narrows after turn 30: W1 and W2 on the edge are
    pushed in and take their body (3) from 3 HP, so White is down to one of
    three and Black wins by R-GOAL-1 in turn 30 -- not by the turn limit on a
    3-3 head count."""
    white = [fighter("W1", "a1", "", hp=3, plan=HOLD), fighter("W2", "a8", "", hp=3, plan=HOLD),
             fighter("W3", "d4", "", plan=HOLD)]
    black = [fighter(n, sq, "", plan=HOLD) for n, sq in (("B1", "d5"), ("B2", "e4"), ("B3", "e5"))]
    rng = ScriptedRng(strict=True)
    rec = resolve_battle(battle(white, black), ruleset(turn_limit=30), 1, rng=rng)
    tail = [e.TYPE for e in rec.events if e.turn == 30 and e.TYPE in ("narrowing", "pushed", "damage", "down",
                                                                      "battle_end")]
    assert tail == ["narrowing", "pushed", "pushed", "damage", "damage", "down", "down", "battle_end"]
    assert (rec.result.winner, rec.result.reason, rec.result.turns) == ("black", "army_reduced", 30)
    assert rng.log == []


def test_r_char_2_damage_amount_is_hp_lost_and_heal_amount_hp_gained() -> None:
    """R-CHAR-2 with interfaces.md [clarified]: "`damage.amount` is the HP
    actually lost and `heal.amount` the HP actually gained (never more than
    the HP there was to lose or to regain), the dice or printed figure before
    that cap in their own fields".  Rest (heal 3) on Wen, 1 HP short: amount
    1; Slash (3) on Bo at 2 HP: amount 2, printed 3."""
    white = [fighter("Med", "c3", "rest", "水", plan=HOLD), fighter("Ax", "c3", "slash", "剣", plan=HOLD),
             fighter("Wen", "c3", "", hp=11, plan=HOLD)]
    rng = ScriptedRng(strict=True)
    rec = resolve_battle(battle(white, [fighter("Bo", "c3", "", body=1, hp=2, plan=HOLD)]), ruleset(turn_limit=1), 1,
                         rng=rng)
    assert [(e.target, e.amount, e.hp_after, e.cause) for e in of(rec, E.Heal)] == [("Wen", 1, 12, "skill")]
    assert [(e.target, e.amount, e.printed, e.reduced, e.hp_after) for e in of(rec, E.Damage)] == [
        ("Bo", 2, 3, 0, 0)]
    assert rng.log == []


def test_r_pan_3_left_front_rule() -> None:
    """R-PAN-3: "for each element needed, the leftmost unused panel of that element"."""
    rec = run(battle([fighter("A", "c3", "firecracker eruption", "剣火水火火", plan=HOLD)],
                     [fighter("B", "d4", "", body=5, plan=HOLD)]))
    assert [u.panels for u in of(rec, E.SkillUsed)] == [(1,), (3, 4)]


def test_r_plan_3_unpayable_entry_is_passed_over() -> None:
    """R-PLAN-3: "one whose cost cannot be paid ... is passed over"."""
    rec = run(battle([fighter("A", "c3", "eruption firecracker", "火", plan=HOLD)],
                     [fighter("B", "d4", "", plan=HOLD)]))
    passed = [(p.skill, p.reason) for p in of(rec, E.SkillPassed) if p.actor == "A"]
    assert passed == [("eruption", "cost_unpayable")]
    assert [u.skill for u in of(rec, E.SkillUsed)] == ["firecracker"]


def test_r_plan_1_rest_not_used_on_unhurt() -> None:
    """R-PLAN-1: "Rest and Restore are not used on a target ... whose HP loss is 0"."""
    rec = run(battle([fighter("A", "c3", "rest", "水", plan=HOLD)], [fighter("B", "h8", "", plan=HOLD)]))
    assert [(p.skill, p.reason) for p in of(rec, E.SkillPassed) if p.actor == "A"] == [("rest", "heal_guard")]


def test_r_range_2_no_target_in_range() -> None:
    """R-RANGE-2: "A skill chooses targets only within its range"."""
    rec = run(battle([fighter("A", "a1", "slash", "剣", plan=HOLD)], [fighter("B", "b2", "", plan=HOLD)]))
    assert [(p.skill, p.reason) for p in of(rec, E.SkillPassed) if p.actor == "A"] == [("slash", "no_target")]


def test_r_plan_5_use_first_moves_an_entry_up() -> None:
    """R-PLAN-5: "each `use X first` whose condition then holds moves X above
    every entry not moved by an earlier clause"."""
    plan = [UseFirst(line=1, skill="firecracker"), Hold(line=2)]
    rec = run(battle([fighter("A", "c3", "eruption firecracker", "火火火", plan=plan)],
                     [fighter("B", "d4", "", body=5, plan=HOLD)]))
    order = of(rec, E.SkillOrder)[0]
    assert order.skills == ("firecracker", "eruption") and order.moved_by == (1,)


def test_r_plan_5_never_use_when_condition_holds() -> None:
    """R-PLAN-5: `never use X when C` is checked when X is tried."""
    plan = [NeverUse(line=1, skill="firecracker", when=lambda c: c.me.hp <= 20), Hold(line=2)]
    rec = run(battle([fighter("A", "c3", "firecracker", "火", plan=plan)], [fighter("B", "d4", "", plan=HOLD)]))
    assert [(p.reason, p.line) for p in of(rec, E.SkillPassed) if p.actor == "A"] == [("condition_false", 1)]


def test_r_char_2_down_names_what_took_the_last_hp() -> None:
    """R-CHAR-2 / issue 9: a ``down`` event says what felled the character --
    a wall during a hit is ``wall``, not ``hit``; a narrowing ``narrowing``;
    a skill's damage ``hit``."""
    walled = run(battle([fighter("A", "b2", "pressurize", "風", plan=HOLD)],
                        [fighter("B", "a1", "", hp=1, plan=HOLD), fighter("C", "h8", "", plan=HOLD)]))
    assert [(d.target, d.cause) for d in of(walled, E.Down)] == [("B", "wall")]
    slashed = run(battle([fighter("A", "c3", "slash", "剣", plan=HOLD)],
                         [fighter("B", "c3", "", hp=1, plan=HOLD), fighter("C", "h8", "", plan=HOLD)]))
    assert [(d.target, d.cause) for d in of(slashed, E.Down)] == [("B", "hit")]


def test_r_knock_3_wall_damage() -> None:
    """R-KNOCK-3: "A push off the field leaves the target in place and deals 1
    typeless damage (the wall)"."""
    rec = run(battle([fighter("A", "b2", "pressurize", "風", plan=HOLD)], [fighter("B", "a1", "", plan=HOLD)]))
    kb = of(rec, E.Knockback)[0]
    assert kb.wall and kb.from_square == kb.to_square
    assert damage_to(rec, "B") == [(1, "wall", "pressurize")]


def test_r_knock_1_pushes_directly_away() -> None:
    """R-KNOCK-1: "one area directly away from the attacker"."""
    rec = run(battle([fighter("A", "c3", "pressurize", "風", plan=HOLD)], [fighter("B", "e4", "", plan=HOLD)]))
    kb = of(rec, E.Knockback)[0]
    assert (kb.to_square.file, kb.to_square.rank) == (5, 4) and kb.direction == "NE"


def test_r_knock_2_range_0_direction_is_drawn() -> None:
    """R-KNOCK-2: "From range 0 (same area) the direction is drawn at random"."""
    setup = battle([fighter("A", "c3", "pressurize", "風", plan=HOLD)], [fighter("B", "c3", "", plan=HOLD)])
    rng = ScriptedRng({"knockback": [4]})  # S
    rec = resolve_battle(setup, ruleset(turn_limit=1), 1, rng=rng)
    kb = of(rec, E.Knockback)[0]
    assert kb.direction == "S" and (kb.to_square.file, kb.to_square.rank) == (2, 1)


def test_r_st_poison_payment_hurts() -> None:
    """R-ST-POISON: "paying with it deals 1 typeless damage to its owner"."""
    rec = run(battle([fighter("P", "c3", "poison-fang", "水剣", plan=HOLD)],
                     [fighter("B", "c3", "slash", "剣", body=5, plan=HOLD)], order=["P", "B"]), turns=2)
    assert any(s.status == "poison" for s in of(rec, E.StatusApplied))
    assert (1, "poison", "slash") in damage_to(rec, "B")


def test_r_st_bind_character_stops_movement() -> None:
    """R-MOVE-4 / R-ST-BIND: Bind on the character stops its own movement."""
    rec = run(battle([fighter("A", "a1", "flame-bind", "火水", plan=HOLD)],
                     [fighter("B", "c3", "", body=5)], order=["A", "B"]))
    assert [s.reason for s in of(rec, E.Stayed) if s.actor == "B"] == ["bound"]


def test_r_st_freeze_no_active_skills_next_action() -> None:
    """R-ST-FREEZE: "it uses no skills actively in its next action"."""
    rec = run(battle([fighter("A", "c3", "night-shrieker", "風剣", plan=HOLD)],
                     [fighter("B", "d4", "slash", "剣", body=5, plan=HOLD)], order=["A", "B"]))
    assert [(p.skill, p.reason) for p in of(rec, E.SkillPassed) if p.actor == "B"] == [("slash", "frozen")]


def test_r_move_3_attacker_does_not_auto_move() -> None:
    """R-MOVE-3: a character that "has not attacked in this action moves
    automatically"; one that attacked stays."""
    rec = run(battle([fighter("A", "a1", "firecracker", "火")], [fighter("B", "c3", "", body=5, plan=HOLD)]))
    assert [s.reason for s in of(rec, E.Stayed) if s.actor == "A"] == ["attacked"]


def test_r_move_6_walks_until_in_reach() -> None:
    """R-MOVE-6: "It steps only when no enemy is within reach"."""
    rec = run(battle([fighter("A", "a1", "firecracker", "火")], [fighter("B", "e5", "", plan=HOLD)]), turns=2)
    moves = [(m.to_square.file, m.to_square.rank) for m in of(rec, E.Moved)]
    assert moves == [(1, 1), (2, 2)]


def test_r_move_8_keep_away() -> None:
    """R-MOVE-8: keep away: "take the one farthest from the nearest enemy"."""
    rec = run(battle([fighter("A", "c3", "", plan=[KeepAway(line=1)])], [fighter("B", "d4", "", plan=HOLD)]))
    m = of(rec, E.Moved)[0]
    assert (m.to_square.file, m.to_square.rank) == (1, 1)


def test_r_turn_1_initiative_three_dice_and_tie_digits() -> None:
    """R-TURN-1: three dice read as d.dd; "Tied characters alone roll one
    more digit each, until all differ"."""
    from referee.engine.battle import BattleSetup

    setup = battle([fighter("A", "a1", "", plan=HOLD)], [fighter("B", "h8", "", plan=HOLD)])
    setup = BattleSetup(setup.combatants, None)
    rng = ScriptedRng({"initiative": [3, 5, 2, 3, 5, 2, 1, 6]})  # die faces (R-VAR-2)
    rec = resolve_battle(setup, ruleset(turn_limit=1), 1, rng=rng)
    rolls = {r.actor: r.value for r in of(rec, E.InitiativeRoll)}
    assert rolls == {"A": "3.521", "B": "3.526"}
    assert of(rec, E.ActionOrder)[0].order == ("B", "A")


def test_r_setup_1_random_squares_from_own_edge() -> None:
    """R-SETUP-1: file 1-8 and row 1-6 "counted from its own edge (a Black
    row 1 is rank 8)"."""
    from referee.engine.battle import BattleSetup, Combatant

    setup = battle([fighter("A", "a1", "", plan=HOLD)], [fighter("B", "h8", "", plan=HOLD)])
    setup = BattleSetup(tuple(Combatant(c.sheet, c.plan, c.team) for c in setup.combatants), setup.order)
    rng = ScriptedRng({"setup": [2, 0, 7, 5]})
    rec = resolve_battle(setup, ruleset(turn_limit=1), 1, rng=rng)
    placed = {p.actor: (p.square.file, p.square.rank, p.drawn) for p in of(rec, E.Placed)}
    assert placed == {"A": (2, 0, True), "B": (7, 2, True)}


def test_r_narrow_2_push_and_body_damage() -> None:
    """R-NARROW-2: pushed "to the nearest kept area ... then each pushed
    character takes damage equal to its body ability"."""
    rec = run(battle([fighter("A", "a1", "", body=3, plan=HOLD), fighter("A2", "d4", "", plan=HOLD)],
                     [fighter("B", "h8", "", body=4, plan=HOLD), fighter("B2", "e5", "", plan=HOLD)]), turns=30)
    assert of(rec, E.Narrowing)[0].kept == "b2-g7"
    pushes = {p.target: (p.to_square.file, p.to_square.rank) for p in of(rec, E.Pushed)}
    assert pushes == {"A": (1, 1), "B": (6, 6)}
    assert damage_to(rec, "A") == [(3, "narrowing", None)] and damage_to(rec, "B") == [(4, "narrowing", None)]


def test_r_sk_1a_avenger_fires_once_per_hit_unless_stacked() -> None:
    """R-SK-1a: "A skill listed several times fires only its first usable
    entry per hit, unless the plan orders it stacked"."""
    rec = run(battle([fighter("A", "c3", "slash", "剣", plan=HOLD)],
                     [fighter("B", "c3", "avenger avenger", "地地", body=5, plan=HOLD)]))
    assert [r.entry for r in of(rec, E.Reaction) if r.kind == "defence"] == [0]
    assert damage_to(rec, "B") == [(2, "skill", "slash")]


def test_r_sk_1a_a_stack_condition_counts_enemies_in_the_stacked_skills_range() -> None:
    """R-SK-1a with interfaces.md: ``stack avenger when enemies in range >= 2``
    names Avenger, so "in range" is Avenger's range 0 (the same area), not
    distance 1: with one enemy in B's area and one beside it, no stacking;
    with both in its area, both entries fire."""
    from referee.plan.parser import parse_plan

    plan, _ = parse_plan("stack avenger when enemies in range >= 2\nhold position\n", "b.plan")

    def defences(c_square: str) -> list[int]:
        rec = run(battle([fighter("A", "c3", "slash", "剣", plan=HOLD), fighter("C", c_square, "", plan=HOLD)],
                         [fighter("B", "c3", "avenger avenger", "地地", body=5, plan=plan)], order=["A", "C", "B"]))
        return [r.entry for r in of(rec, E.Reaction) if r.kind == "defence"]

    assert defences("d4") == [0]
    assert defences("c3") == [0, 1]


def test_r_turn_4_maintained_skill_and_sala_counters() -> None:
    """R-TURN-4 / R-SK-2: a maintain skill is started actively and its panels
    stay assigned: at the owner's next action they are not reset."""
    rec = run(battle([fighter("S", "c3", "sala-twin-trees", "剣剣", plan=HOLD)],
                     [fighter("B", "h8", "", plan=HOLD)]), turns=2)
    assert [m.skill for m in of(rec, E.MaintainStarted)] == ["sala-twin-trees"]
    resets = [r.kept for r in of(rec, E.PanelsReset) if r.actor == "S"]
    assert resets[-1] == (0, 1)
    assert [p.reason for p in of(rec, E.SkillPassed) if p.actor == "S" and p.turn == 2] == ["already_maintained"]
