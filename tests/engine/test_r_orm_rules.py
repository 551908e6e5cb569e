"""Conformance scenarios for the ``orm`` ruleset (variant-orm.md), one or more
per rule ID, each quoting its rule: fixed squares and order, a scripted RNG
(die faces per stream), assertions on events.  The spec's worked examples
O1, O2 and O3 are here as written."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from referee.engine import events as E
from referee.engine.battle import BattleRecord
from referee.engine.mechanics.orm_turn import normal_attack_skill
from referee.engine.mechanics.registry import build_mechanics
from referee.mechanicspec import SimpleMainSpec

from .ormhelpers import orm_battle, orm_fighter, orm_ruleset, orm_run, with_action


def of(record: BattleRecord, cls: type[E.Event], **match: Any) -> list[Any]:
    return [e for e in record.events if isinstance(e, cls) and all(getattr(e, k) == v for k, v in match.items())]


def hp_after(record: BattleRecord, target: str) -> list[int]:
    return [e.hp_after for e in of(record, E.Damage, target=target)]


def o1() -> tuple[BattleRecord, Any]:
    """Worked example O1: one action check, two reactions, a tie."""
    setup = orm_battle(
        [orm_fighter("Pyra", "d4", patterns="火火火", skills="eruption", plan="extend eruption by 1\ntarget Mo\n")],
        [orm_fighter("Mo", "d5", patterns="水水水", skills="rest", defence={"fire": 2}),
         orm_fighter("Lu", "d5", "2/1/6", patterns="水", skills="rest")],
        ["Pyra", "Mo", "Lu"])
    return orm_run(setup, {"checks": [5, 4, 2, 2, 2, 3, 1, 1, 2, 2], "damage": [3, 3]})


def o2() -> tuple[BattleRecord, Any]:
    """Worked example O2: support, a critical follow-up, the end."""
    setup = orm_battle(
        [orm_fighter("Kai", "c3", patterns="水水水", skills="rest"),
         orm_fighter("Rin", "c3", patterns="水水水", skills="rest")],
        [orm_fighter("Orc", "c4", patterns="水水水", skills="rest")], ["Kai", "Orc", "Rin"])
    return orm_run(setup, {"checks": [2, 3, 4, 3, 3, 4, 6, 6, 2, 1, 2, 3], "damage": [2, 5, 6, 6]})


RUNNER_PLAN = "move toward Boss\nnever use normal-attack\n"
HOLD_PLAN = "hold position\nnever use normal-attack\n"


def o3(pairs: bool) -> BattleRecord:
    """Worked example O3: a 4-way route around an enemy (O3a); with a full area (O3b)."""
    white = [orm_fighter("Runner", "a1", skills="slash", plan=RUNNER_PLAN)]
    if pairs:
        white += [orm_fighter(n, "b2", skills="slash", plan=RUNNER_PLAN) for n in ("Pair1", "Pair2")]
    black = [orm_fighter("Guard", "a2", patterns="水水水", skills="rest", plan=HOLD_PLAN),
             orm_fighter("Boss", "a4", patterns="水水水", skills="rest", plan=HOLD_PLAN)]
    record, _ = orm_run(orm_battle(white, black, ["Runner"] + [f.sheet.name for f in white[1:] + black],
                                   blocked=["b4"]))
    return record


def runner_events(record: BattleRecord) -> list[Any]:
    start = next(i for i, e in enumerate(record.events) if isinstance(e, E.ActionStart) and e.actor == "Runner")
    end = next(i for i, e in enumerate(record.events) if isinstance(e, E.ActionEnd) and e.actor == "Runner")
    return list(record.events[start:end + 1])


# ------------------------------------------------------------------ abilities


def test_r_orm_abil_2_action_value_movement_and_hp() -> None:
    """R-ORM-ABIL-2: "行動値 = reflex + intellect; 移動力 = 1 + floor(reflex/3);
    HP = 10 × body."  A 2/4/3 character: 行動値 7, two steps a move, HP 20."""
    assert orm_ruleset().max_hp(2) == 20
    setup = orm_battle([orm_fighter("Swift", "a1", "2/4/3", patterns="剣剣剣剣", plan="move toward Far\n")],
                       [orm_fighter("Far", "h8", patterns="水水水", skills="rest", plan="hold position\n")], rolled=True)
    record, _ = orm_run(setup, {"initiative": [1, 1]})
    assert [(e.actor, e.base) for e in of(record, E.InitiativeScore)] == [("Swift", 7), ("Far", 6)]
    moves = of(record, E.SimpleUse, actor="Swift", kind="move")
    assert [m.steps for m in moves] == [2, 2]
    assert of(record, E.Placed, actor="Swift")[0].max_hp == 20


# ------------------------------------------------------------------ initiative


def test_r_orm_init_1_every_turn_each_living_character_rolls_one_die_in_roster_order() -> None:
    """R-ORM-INIT-1: "At the start of every turn, right after `turn_start`,
    each living character rolls 1d6 on `initiative`, in roster order. Its
    先制値 is 行動値 + die ... and higher acts first."""
    setup = orm_battle([orm_fighter("A", "a1", plan="hold position\nnever use normal-attack\n"),
                        orm_fighter("B", "b1", plan="hold position\nnever use normal-attack\n")],
                       [orm_fighter("C", "h8", plan="hold position\nnever use normal-attack\n")], rolled=True)
    record, rng = orm_run(setup, {"initiative": [2, 5, 3, 6, 1, 4]}, turns=2)
    scores = of(record, E.InitiativeScore)
    assert [(e.turn, e.actor, e.die, e.value) for e in scores] == [
        (1, "A", 2, 8), (1, "B", 5, 11), (1, "C", 3, 9), (2, "A", 6, 12), (2, "B", 1, 7), (2, "C", 4, 10)]
    orders = [e.order for e in of(record, E.ActionOrder) if not e.fixed]
    assert orders == [("B", "C", "A"), ("A", "C", "B")]
    turn_start = record.events.index(of(record, E.TurnStart, turn=1)[0])
    assert isinstance(record.events[turn_start + 1], E.InitiativeScore)
    assert not of(record, E.InitiativeRoll)


def test_r_orm_init_1_a_fixed_order_draws_nothing() -> None:
    """R-ORM-INIT-1: "A battle-file `order` replaces this on every turn, and nothing is drawn." """
    setup = orm_battle([orm_fighter("A", "a1", plan=HOLD_PLAN)], [orm_fighter("C", "h8", plan=HOLD_PLAN)],
                       ["C", "A"])
    record, rng = orm_run(setup, turns=2)
    assert not of(record, E.InitiativeScore)
    assert not [d for d in rng.log if d[0] == "initiative"]
    assert [e.actor for e in of(record, E.ActionStart)] == ["C", "A", "C", "A"]


def test_r_orm_init_2_pcs_then_reflex_then_a_draw() -> None:
    """R-ORM-INIT-2: "Equal 先制値 go first to the battle file's `pcs` side ...
    then to the higher reflex ... Each block still tied is then drawn ... a
    choice on `initiative` among its remaining members, in roster order,
    picks the next to act, until one is left."  All score 9: Black is the
    PC side, so Bo (black) first; then W2 (reflex 4) before W1 and W3
    (reflex 3), who are drawn: choice 1 picks W3."""
    white = [orm_fighter("W1", "a1", "3/3/3", plan=HOLD_PLAN), orm_fighter("W2", "b1", "2/4/3", "剣剣剣剣", plan=HOLD_PLAN),
             orm_fighter("W3", "c1", "3/3/3", plan=HOLD_PLAN)]
    black = [orm_fighter("Bo", "h8", "3/3/3", plan=HOLD_PLAN)]
    record, _ = orm_run(orm_battle(white, black, rolled=True, pcs="black"), {"initiative": [3, 2, 3, 3, 1]})
    tie = of(record, E.InitiativeTie)[0]
    assert (tie.value, tie.tied, tie.order, tie.draws) == (9, ("W1", "W2", "W3", "Bo"), ("Bo", "W2", "W3", "W1"), (1,))
    assert of(record, E.ActionOrder)[-1].order == ("Bo", "W2", "W3", "W1")
    assert record.events.index(tie) < record.events.index(of(record, E.ActionOrder)[-1])


# ------------------------------------------------------------------ the action


def test_r_orm_act_1_simple_phase_then_main_phase_and_acted_from_the_start() -> None:
    """R-ORM-ACT-1: "An action runs in this order: the simple phase ...; the
    main phase ... and any follow-up; maintenance; then statuses tick ... A
    character is acted from the start of its action ... Reacting ... never
    make[s] it acted."  The Orc reacted to Kai, yet still supports nobody
    (alone) -- and Kai, acted, gives Rin's follow-up no support (O2)."""
    record, _ = o2()
    kinds = [type(e).__name__ for e in record.events if getattr(e, "actor", None) == "Kai" and e.turn == 1]
    assert kinds.index("PhaseStart") < kinds.index("PatternSelected") < kinds.index("SkillUsed")
    phases = [e.phase for e in of(record, E.PhaseStart, actor="Kai")]
    assert phases == ["simple", "main"]
    rin_action = of(record, E.Nd6Check, actor="Rin", role="action")[0]
    assert rin_action.support == 0 and rin_action.supporter is None


def test_r_orm_act_2_maintain_starts_spend_simple_uses_and_one_left_without_a_use_waits() -> None:
    """R-ORM-ACT-2: "The simple phase has up to `simple_uses` ... uses ... Maintain
    starts, a use each ... an entry left without a use waits for a later
    action.  Moves, with the uses left."  With one simple use, Fiery Cloak
    starts and Sala Twin Trees is passed with ``no_use_left``; nothing moves."""
    keeper = orm_fighter("Keeper", "a1", "2/4/3", patterns="火地剣剣", skills="fiery-cloak sala-twin-trees",
                         plan="never use normal-attack\n")
    record, _ = orm_run(orm_battle([keeper], [orm_fighter("Far", "h8", plan=HOLD_PLAN)]),
                        ruleset=with_action(simple_uses=1))
    assert [(e.n, e.kind, e.skill) for e in of(record, E.SimpleUse, actor="Keeper")] == [(1, "maintain", "fiery-cloak")]
    passed = of(record, E.SkillPassed, actor="Keeper", skill="sala-twin-trees")
    assert [p.reason for p in passed] == ["no_use_left"]
    assert not of(record, E.Moved, actor="Keeper")
    record, _ = orm_run(orm_battle([keeper], [orm_fighter("Far", "h8", plan=HOLD_PLAN)]))
    assert [e.kind for e in of(record, E.SimpleUse, actor="Keeper")] == ["maintain", "maintain"]


def test_r_orm_act_3_worked_example_o3a_two_moves_of_two_steps() -> None:
    """R-ORM-ACT-3 with O3a: "Move 1 goes b1, b2; move 2 goes b3, a3 ...
    four `moved`; two `simple_use` (a1→b2 and b2→a3, 2 steps each); the
    Runner ends on a3."""
    events = runner_events(o3(pairs=False))
    moved = [(str(e.from_square), str(e.to_square)) for e in events if isinstance(e, E.Moved)]
    assert moved == [("a1", "b1"), ("b1", "b2"), ("b2", "b3"), ("b3", "a3")]
    uses = [(str(e.from_square), str(e.to_square), e.steps) for e in events if isinstance(e, E.SimpleUse)]
    assert uses == [("a1", "b2", 2), ("b2", "a3", 2)]


def test_r_orm_act_3_a_move_that_keeps_no_step_ends_the_phase_with_stayed() -> None:
    """R-ORM-ACT-3: "A move that keeps no step costs no use and ends the phase,
    with `stayed` giving tcgt's reason"."""
    record, _ = o2()
    assert [(e.reason) for e in of(record, E.Stayed, actor="Kai")] == ["in_reach"]
    assert not of(record, E.SimpleUse, actor="Kai")


def test_r_orm_act_4_the_first_entry_used_ends_the_main_phase() -> None:
    """R-ORM-ACT-4: "It ends after the first entry used ...: each later entry
    is passed with no other test."  Pyra's Eruption is used; the normal
    attack (the implicit last entry) is passed ``main_used``."""
    record, _ = o1()
    order = of(record, E.SkillOrder, actor="Pyra")[-1]
    assert order.skills == ("eruption", "normal-attack")
    assert [(p.skill, p.reason) for p in of(record, E.SkillPassed, actor="Pyra")] == [("normal-attack", "main_used")]
    assert len(of(record, E.SkillUsed, actor="Pyra")) == 1


def test_r_orm_act_5_the_normal_attack_is_innate() -> None:
    """R-ORM-ACT-5: "The normal attack (`normal-attack`, 通常攻撃) is innate:
    no cost (level 0), attack, range 1, targets enemies, power 2, element
    sword, check body. Its entry index is the number of sheet entries."""
    spec = orm_ruleset().mechanics.action
    assert isinstance(spec, SimpleMainSpec)
    skill = normal_attack_skill(spec.normal_attack)
    assert (skill.id, skill.cost, skill.level, skill.classes, skill.range, skill.targets, skill.damage,
            skill.element.value, skill.name_ja) == ("normal-attack", (), 0, ("attack",), 1, "enemies", 2, "sword", "通常攻撃")
    assert build_mechanics(orm_ruleset().mechanics).action.innate_skills() == (skill,)
    record, _ = o2()
    used = of(record, E.SkillUsed, actor="Kai")[0]
    assert (used.skill, used.entry, used.panels) == ("normal-attack", 1, ())
    assert of(record, E.Nd6Check, actor="Kai")[0].ability == "body"


# ------------------------------------------------------------------ map and movement


def test_r_orm_move_2_worked_example_o3b_a_full_area_is_passed_not_stopped_on() -> None:
    """R-ORM-MOVE-2 with O3b: "Move 1 would end on full b2, so it ends on b1.
    Move 2 passes b2 and ends on b3 ... `moved` a1→b1, b1→b2, b2→b3;
    `simple_use` a1→b1 (1 step) and b1→b3 (2 steps)"."""
    events = runner_events(o3(pairs=True))
    moved = [(str(e.from_square), str(e.to_square)) for e in events if isinstance(e, E.Moved)]
    assert moved == [("a1", "b1"), ("b1", "b2"), ("b2", "b3")]
    uses = [(str(e.from_square), str(e.to_square), e.steps) for e in events if isinstance(e, E.SimpleUse)]
    assert uses == [("a1", "b1", 1), ("b1", "b3", 2)]


def test_r_orm_move_2_setup_redraws_a_full_area() -> None:
    """R-ORM-MOVE-2 *Setup*: "R-SETUP-1 redraws (file, then row) while the
    drawn square is blocked or full; full counts every fixed-square ally"."""
    white = [orm_fighter("A", "a1", plan=HOLD_PLAN), orm_fighter("B", "a1", plan=HOLD_PLAN),
             orm_fighter("C", "", plan=HOLD_PLAN)]
    record, _ = orm_run(orm_battle(white, [orm_fighter("D", "h8", plan=HOLD_PLAN)], ["A", "B", "C", "D"]),
                        {"setup": [0, 0, 1, 0]})
    assert str(of(record, E.Placed, actor="C")[0].square) == "b1"


def test_r_orm_move_2_a_push_into_a_full_area_meets_a_wall() -> None:
    """R-ORM-MOVE-2 *Pushes*: "A push into a full area of the target's side
    meets a wall (R-KNOCK-3)."  Pressurize pushes Tgt north from c2 into c3,
    which holds two of its side: it stays and takes 1 wall damage, no dice
    (R-ORM-DMG-3)."""
    pusher = orm_fighter("Pusher", "c1", patterns="風風風", skills="pressurize", plan="target Tgt\n")
    black = [orm_fighter("Tgt", "c2", plan=HOLD_PLAN)] + [orm_fighter(n, "c3", plan=HOLD_PLAN) for n in ("P1", "P2")]
    record, _ = orm_run(orm_battle([pusher], black), {"checks": [6, 5, 5, 1, 1, 2], "chances": [True]})
    kb = of(record, E.Knockback, target="Tgt")[0]
    assert (str(kb.to_square), kb.wall) == ("c2", True)
    assert [(e.amount, e.cause) for e in of(record, E.Damage, target="Tgt")] == [(1, "wall")]
    assert not of(record, E.DamageRoll)


def test_r_orm_move_3_never_use_normal_attack_drops_it_from_the_reach() -> None:
    """R-ORM-MOVE-3: "R-MOVE-6's reach counts the normal attack's range 1,
    unless the plan holds `never use normal-attack` with no condition."  A
    character next to an enemy with only Slash (range 0) and that clause
    must step into the enemy's area rather than stay `in_reach`."""
    me = orm_fighter("Me", "c3", skills="slash", plan="never use normal-attack\n")
    record, _ = orm_run(orm_battle([me], [orm_fighter("Foe", "c4", plan=HOLD_PLAN)]), {"checks": [1, 2, 3, 3, 3, 3]})
    assert [str(e.to_square) for e in of(record, E.Moved, actor="Me")] == ["c4"]
    me = orm_fighter("Me", "c3", skills="slash", plan="never use normal-attack when hp <= 5\n")
    record, _ = orm_run(orm_battle([me], [orm_fighter("Foe", "c4", plan=HOLD_PLAN)]), {"checks": [1, 2, 3, 3, 3, 3]})
    assert not of(record, E.Moved, actor="Me")
    assert [e.reason for e in of(record, E.Stayed, actor="Me")] == ["in_reach"]


# ------------------------------------------------------------------ checks


def test_r_orm_chk_2_which_ability_each_side_rolls() -> None:
    """R-ORM-CHK-2: "The actor uses ... reflex when 剣 is in its cost and
    intellect otherwise, body for the normal attack. The reactor uses reflex
    against sword damage and intellect against anything else ... Heals ...
    roll nothing."  O1: Eruption (火火) is intellect against intellect; O2:
    the normal attack is body against reflex; Mo's Rest rolls nothing."""
    record, _ = o1()
    assert [(e.actor, e.role, e.ability) for e in of(record, E.Nd6Check)][:3] == [
        ("Pyra", "action", "intellect"), ("Mo", "reaction", "intellect"), ("Lu", "reaction", "intellect")]
    assert not of(record, E.Nd6Check, skill="rest")
    record, _ = o2()
    assert [(e.role, e.ability) for e in of(record, E.Nd6Check)][:2] == [("action", "body"), ("reaction", "reflex")]


def test_r_orm_chk_3_worked_example_o1_one_action_check_two_reactions_a_tie() -> None:
    """R-ORM-CHK-3 with O1: "3 `nd6_check`; `opposed_result` Mo `higher`
    (hit), Lu `tie` (no hit); one `damage_roll` (power 4, dice [3,3], defence
    2, total 8). Mo 22, Lu 20."""
    record, _ = o1()
    pyra_turn = [e for e in record.events if e.turn == 1]
    checks = [e for e in of(record, E.Nd6Check) if e in pyra_turn][:3]
    assert [(e.actor, e.value) for e in checks] == [("Pyra", 14), ("Mo", 12), ("Lu", 14)]
    assert [(e.target, e.reason, e.hit) for e in of(record, E.OpposedResult, actor="Pyra")] == [
        ("Mo", "higher", True), ("Lu", "tie", False)]
    roll = of(record, E.DamageRoll, actor="Pyra")
    assert [(r.power, r.dice, r.defence, r.total) for r in roll] == [(4, (3, 3), 2, 8)]
    assert hp_after(record, "Mo")[0] == 22 and not of(record, E.Damage, target="Lu")


def test_r_orm_chk_3_an_action_fumble_ends_the_use_and_a_reaction_fumble_is_hit() -> None:
    """R-ORM-CHK-3: "If it fumbles, the use ends: no R-TURN-3 step runs for
    any target, and the cost stays paid ... The use hits it iff the action
    value is greater, or the reaction fumbled"."""
    setup = orm_battle([orm_fighter("Kai", "c3", patterns="水水水", skills="rest")],
                       [orm_fighter("Orc", "c4", patterns="水水水", skills="rest", plan=HOLD_PLAN)])
    record, _ = orm_run(setup, {"checks": [1, 1, 1]})
    assert [(e.reason, e.reaction_value) for e in of(record, E.OpposedResult)] == [("action_fumble", None)]
    assert not of(record, E.Nd6Check, actor="Orc") and not of(record, E.Damage)
    record, _ = orm_run(setup, {"checks": [1, 1, 2, 1, 1, 1], "damage": [1, 1]})
    result = of(record, E.OpposedResult)[0]
    assert (result.action_value, result.reason, result.hit) == (7, "reaction_fumble", True)
    assert hp_after(record, "Orc") == [26]


def test_r_orm_chk_4_a_counter_hit_is_its_own_opposed_check() -> None:
    """R-ORM-CHK-4: "A counter hit in range (R-RANGE-3) is its own opposed
    check. The owner acts, with the counter skill's ability, and the attacker
    reacts ... On a hit the attacker's defences apply, then R-ORM-DMG-1, with
    the counter's damage as power."  Ava's Avenger (地: intellect) answers
    Kai's normal attack: 6+6+2+3 = 27 (critical) against 1+2+3+3 = 9, so
    2 + (3+4) + 10 = 19 earth damage; a losing counter deals nothing."""
    def run(checks: list[int]) -> BattleRecord:
        setup = orm_battle([orm_fighter("Kai", "c3", patterns="水水水", skills="rest")],
                           [orm_fighter("Ava", "c3", patterns="地地地", skills="avenger", plan=HOLD_PLAN)])
        return orm_run(setup, {"checks": checks, "damage": [1, 1, 3, 4]})[0]

    record = run([6, 5, 4, 1, 1, 2, 6, 6, 2, 1, 2, 3])
    checks = [(e.actor, e.role, e.skill, e.ability) for e in of(record, E.Nd6Check)]
    assert checks[2:] == [("Ava", "action", "avenger", "intellect"), ("Kai", "reaction", "avenger", "intellect")]
    roll = of(record, E.DamageRoll, cause="counter")
    assert [(r.power, r.dice, r.critical_bonus, r.total) for r in roll] == [(2, (3, 4), 10, 19)]
    assert [(e.amount, e.cause) for e in of(record, E.Damage, target="Kai")] == [(19, "counter")]
    record = run([6, 5, 4, 1, 1, 2, 1, 1, 2, 6, 6, 6])
    assert [e.reason for e in of(record, E.OpposedResult, actor="Ava")] == ["lower"]
    assert not of(record, E.Damage, target="Kai")


# ------------------------------------------------------------------ damage and healing


def test_r_orm_dmg_1_power_plus_dice_plus_critical_less_element_defence() -> None:
    """R-ORM-DMG-1: "max(0, power + 2d6 (`damage`) + 10 if its action check was
    critical − the target's `defence` for the damage element − TCGT's
    reductions". O2: 2 + (2+5) = 9; the critical follow-up 2 + (6+6) + 10 = 24."""
    record, _ = o2()
    rolls = of(record, E.DamageRoll)
    assert [(r.actor, r.cause, r.power, r.dice, r.critical_bonus, r.total) for r in rolls] == [
        ("Kai", "skill", 2, (2, 5), 0, 9), ("Rin", "follow_up", 2, (6, 6), 10, 24)]
    assert [e.printed for e in of(record, E.Damage, target="Orc")] == [9, 24]
    setup = orm_battle([orm_fighter("Kai", "c3", patterns="水水水", skills="rest")],
                       [orm_fighter("Tank", "c4", patterns="水水水", skills="rest", plan=HOLD_PLAN, defence={"sword": 3})])
    record, _ = orm_run(setup, {"checks": [6, 5, 4, 1, 1, 2], "damage": [1, 1]})
    assert [(r.defence, r.total) for r in of(record, E.DamageRoll)] == [(3, 1)]


def test_r_orm_dmg_2_a_heal_adds_two_dice_rolled_even_when_capped() -> None:
    """R-ORM-DMG-2: "An active use of a skill with a catalogue `heal` (Rest 3
    ...) heals heal + 2d6 ... with no check and up to max HP. The dice are
    rolled even when capped."  Mo at 25/30 is healed 3 + (4+4) = 11, capped at 5."""
    setup = orm_battle([orm_fighter("Medic", "a1", patterns="水水水", skills="rest", plan=HOLD_PLAN),
                        orm_fighter("Mo", "a1", patterns="水水水", hp=25, plan=HOLD_PLAN)],
                       [orm_fighter("Far", "h8", plan=HOLD_PLAN)])
    record, _ = orm_run(setup, {"damage": [4, 4]})
    roll = of(record, E.HealRoll)[0]
    assert (roll.target, roll.base, roll.dice, roll.total) == ("Mo", 3, (4, 4), 11)
    assert [(e.amount, e.hp_after) for e in of(record, E.Heal)] == [(5, 30)]
    assert not of(record, E.Nd6Check)


def test_r_orm_dmg_3_wall_damage_stays_one_without_dice() -> None:
    """R-ORM-DMG-3: "Wall and poison damage stay 1, with no dice and no
    defence."  (The pushed target meets the full area as a wall.)"""
    pusher = orm_fighter("Pusher", "c1", patterns="風風風", skills="pressurize", plan="target Tgt\n")
    black = [orm_fighter("Tgt", "c2", plan=HOLD_PLAN, defence={"sword": 3})] + \
        [orm_fighter(n, "c3", plan=HOLD_PLAN) for n in ("P1", "P2")]
    record, _ = orm_run(orm_battle([pusher], black), {"checks": [6, 5, 5, 1, 1, 2], "chances": [True]})
    assert [(e.amount, e.cause, e.printed) for e in of(record, E.Damage, target="Tgt")] == [(1, "wall", 1)]
    assert not of(record, E.DamageRoll)


# ------------------------------------------------------------------ support


def test_r_orm_sup_1_support_once_from_an_unacted_ally_in_the_area() -> None:
    """R-ORM-SUP-1: "A check gets +`support_bonus` (2) while an ally of the
    roller stands in its area and has not acted this turn ... only once
    however many allies qualify."  O1: Mo is supported by Lu and Lu by Mo;
    O2: Kai by Rin, but not Rin (follow-up) by Kai, who has acted."""
    record, _ = o1()
    assert [(e.actor, e.support, e.supporter) for e in of(record, E.Nd6Check)][:3] == [
        ("Pyra", 0, None), ("Mo", 2, "Lu"), ("Lu", 2, "Mo")]
    three = orm_battle([orm_fighter(n, "c3", patterns="水水水", skills="rest") for n in ("Kai", "X")],
                       [orm_fighter("Orc", "c4", patterns="水水水", skills="rest")], ["Kai", "Orc", "X"])
    record, _ = orm_run(three, {"checks": [2, 3, 4, 3, 3, 4]})
    assert of(record, E.Nd6Check, actor="Kai")[0].value == 2 + 3 + 4 + 3 + 2


def test_r_orm_sup_2_worked_example_o2_a_critical_follow_up_ends_the_battle() -> None:
    """R-ORM-SUP-2 with O2: "`follow_up` (Rin, supporting Kai, at the Orc),
    then `battle_end`: White wins by `army_reduced` in turn 1. Rin is still
    not acted."""
    record, _ = o2()
    fu = of(record, E.FollowUp)
    assert [(e.actor, e.supporting, e.target) for e in fu] == [("Rin", "Kai", "Orc")]
    assert isinstance(record.events[-1], E.BattleEnd)
    assert (record.result.winner, record.result.reason, record.result.turns) == ("white", "army_reduced", 1)
    assert not of(record, E.ActionStart, actor="Rin")
    assert record.events.index(fu[0]) > record.events.index(of(record, E.Damage, target="Orc")[0])


def test_r_orm_sup_2_never_target_naming_the_target_excludes_the_follow_up() -> None:
    """R-ORM-SUP-2: "`never target` naming that target does" exclude it."""
    setup = orm_battle([orm_fighter("Kai", "c3", patterns="水水水", skills="rest"),
                        orm_fighter("Rin", "c3", patterns="水水水", skills="rest", plan="never target Orc\n")],
                       [orm_fighter("Orc", "c4", patterns="水水水", skills="rest")], ["Kai", "Orc", "Rin"])
    record, _ = orm_run(setup, {"checks": [2, 3, 4, 3, 3, 4], "damage": [2, 5]})
    assert not of(record, E.FollowUp)


def test_r_orm_move_2_keep_away_weighs_only_areas_where_it_may_stop() -> None:
    """R-ORM-MOVE-2: "`keep away` weighs only areas where it may stop": b1 is
    farther from the enemy but full of the mover's side, so it stays."""
    white = [orm_fighter("Shy", "c1", plan="keep away from enemies\nnever use normal-attack\n")] + \
        [orm_fighter(n, "b1", plan=HOLD_PLAN) for n in ("P1", "P2")]
    black = [orm_fighter("Foe", "d2", plan=HOLD_PLAN)]
    record, _ = orm_run(orm_battle(white, black), {"checks": [1, 2, 3, 3, 3, 3]})
    assert [str(e.to_square) for e in of(record, E.Moved, actor="Shy")] == []


def test_r_orm_sup_2_no_follow_up_when_the_plan_excludes_the_normal_attack() -> None:
    """R-ORM-SUP-2: "its plan neither says `never follow up` nor excludes that
    normal attack by `never use` ..."."""
    setup = orm_battle([orm_fighter("Kai", "c3", patterns="水水水", skills="rest"),
                        orm_fighter("Rin", "c3", patterns="水水水", skills="rest", plan="never use normal-attack\n")],
                       [orm_fighter("Orc", "c4", patterns="水水水", skills="rest")], ["Kai", "Orc", "Rin"])
    record, _ = orm_run(setup, {"checks": [2, 3, 4, 3, 3, 4], "damage": [2, 5]})
    assert not of(record, E.FollowUp)


# ------------------------------------------------------------------ end, randomness


def test_r_orm_end_1_the_battle_ends_only_when_an_army_has_no_one_standing() -> None:
    """R-ORM-END-1: "the battle ends when an army has no one standing". One of
    two Black down does not end it (tcgt's third would)."""
    setup = orm_battle([orm_fighter("Kai", "c3", patterns="水水水", skills="rest")],
                       [orm_fighter("Orc", "c4", patterns="水水水", skills="rest", hp=3, plan=HOLD_PLAN),
                        orm_fighter("Two", "h8", plan=HOLD_PLAN)], ["Kai", "Orc", "Two"])
    record, _ = orm_run(setup, {"checks": [6, 5, 4, 1, 1, 2], "damage": [3, 3]}, turns=1)
    assert of(record, E.Down, target="Orc")
    assert record.result.reason == "turn_limit"
    assert orm_ruleset().mechanics.stall.kind == "none"


def test_r_orm_rng_1_draws_follow_resolution_order_on_their_streams() -> None:
    """R-ORM-RNG-1: "`checks`: per use, the action dice; then, per target in
    order, its reaction dice ... `damage`: 2 dice per hit with damage"."""
    _, rng = o1()
    streams = [s for s, _, _ in rng.log][:12]
    assert streams == ["checks"] * 6 + ["damage"] * 2 + ["checks"] * 4


# ------------------------------------------------------------------ files


SHEET = "name: Mo\nabilities: {body: 3, reflex: 3, intellect: 3}\npatterns: [水水水]\nskills: [rest]\n"


def sheet_codes(text: str, ruleset: Any) -> list[tuple[str, int]]:
    from referee.sheet import parse_sheet
    _, diags = parse_sheet(text, "mo.yaml", ruleset)
    return [(d.code, d.line) for d in diags if d.is_error]


def test_r_orm_sheet_1_defence_block() -> None:
    """R-ORM-SHEET-1: "A sheet may carry `defence: {fire, water, wind, earth,
    sword}` (keys 火 水 風 地 剣 accepted): integers ≥ 0, absent = 0, summing to
    at most `defence_points` (3)."""
    from referee.sheet import parse_sheet
    sheet, diags = parse_sheet(SHEET + "defence: {火: 2, sword: 1}\n", "mo.yaml", orm_ruleset())
    assert sheet is not None and dict(sheet.defence) == {"fire": 2, "sword": 1}, diags
    assert sheet_codes(SHEET + "defence: {fire: 2, sword: 2}\n", orm_ruleset()) == [("defence-over-budget", 5)]
    assert sheet_codes(SHEET + "defence: {fire: -1}\n", orm_ruleset()) == [("invalid-value", 5)]
    assert sheet_codes(SHEET + "defence: {ice: 1}\n", orm_ruleset()) == [("unknown-element", 5)]


def test_r_orm_check_1_sheets_battle_files_and_rulesets(tmp_path: Path) -> None:
    """R-ORM-CHECK-1: "`defence` under a ruleset without element defence ...
    `pcs` other than white or black, or `pcs` without the PC tie rule; an
    area over capacity; a blocked `setup` square; `terrain.barriers` ...
    *Rulesets:* `simple_uses` < 1" are each an error."""
    from referee.battlefile import load_battle
    from referee.ruleset import load_ruleset, load_ruleset_file
    assert sheet_codes(SHEET + "defence: {fire: 1}\n", load_ruleset("tcgt")) == [("clause-not-in-ruleset", 5)]
    (tmp_path / "sheets").mkdir()
    for name in ("Mo", "Lu", "Ki", "Bo"):
        (tmp_path / "sheets" / f"{name}.yaml").write_text(SHEET.replace("Mo", name), encoding="utf-8")

    def codes(extra: str, ruleset: str = "orm") -> list[str]:
        path = tmp_path / "b.battle.yaml"
        path.write_text(f"title: t\nruleset: {ruleset}\nteams:\n  white: [sheets/Mo.yaml, sheets/Lu.yaml, sheets/Ki.yaml]\n"
                        f"  black: [sheets/Bo.yaml]\n" + extra, encoding="utf-8")
        return sorted(d.code for d in load_battle(path)[1] if d.is_error)

    assert "clause-not-in-ruleset" in codes("pcs: white\n", "tcgt")
    assert codes("") == []
    assert codes("pcs: grey\n") == ["invalid-value"]
    assert "area-over-capacity" in codes("setup: {Mo: {square: c3}, Lu: {square: c3}, Ki: {square: c3}}\n")
    assert "blocked-square" in codes("terrain: {blocked: [c3]}\nsetup: {Mo: {square: c3}}\n")
    assert "unknown-field" in codes("terrain: {barriers: [c3]}\n")
    bad = tmp_path / "bad.ruleset.yaml"
    bad.write_text("extends: orm\nmechanics:\n  action: {kind: simple_main, simple_uses: 0, move_points: {base: 1, "
                   "per_reflex: 3}, normal_attack: {power: 2, element: sword, range: 1, check: body}}\n", encoding="utf-8")
    got, diags = load_ruleset_file(bad)
    assert got is None and [d.code for d in diags] == ["invalid-value"]


def test_r_orm_check_1_plans_normal_attack_and_never_follow_up() -> None:
    """R-ORM-CHECK-1 *Plans*: "`extend` ... of `normal-attack`; `target` inside
    `never follow up`; that clause, or `normal-attack`, where the mechanics lack
    them (`clause-not-in-ruleset`, `unknown-skill`)" are errors."""
    from referee.ruleset import load_ruleset
    def text_with(clause: str) -> str:
        return SHEET + f"plan: |\n  {clause}\n"

    assert sheet_codes(text_with("never use normal-attack when hp <= 5"), orm_ruleset()) == []
    assert sheet_codes(text_with("extend normal-attack by 1"), orm_ruleset()) == [("not-extendable", 6)]
    assert sheet_codes(text_with("never follow up when target hp <= 3"), orm_ruleset()) == [
        ("target-without-skill", 6)]
    tcgt = load_ruleset("tcgt")
    assert sheet_codes(text_with("never follow up"), tcgt) == [("clause-not-in-ruleset", 6)]
    assert sheet_codes(text_with("never use normal-attack"), tcgt) == [("unknown-skill", 6)]


def test_r_orm_battle_1_pcs_and_terrain(tmp_path: Path) -> None:
    """R-ORM-BATTLE-1: "A battle file may carry `pcs: white|black` ... and
    `terrain: {blocked: [squares]}`, whose areas are off the map."  The
    6v6 fixture loads both and the engine goes around the rocks."""
    from referee.app.inputs import battle_inputs
    from referee.battlefile import load_battle
    battle, diags = load_battle(Path(__file__).resolve().parents[2] / "fixtures" / "orm-6v6.battle.yaml")
    assert battle is not None, diags
    assert battle.pcs == "black" and battle.terrain is not None
    assert [str(sq) for sq in battle.terrain.blocked] == ["d4", "e5"]
    inputs = battle_inputs(battle)
    assert inputs["pcs"] == "black" and inputs["terrain"] == {"blocked": ["d4", "e5"]}
    setup = orm_battle([orm_fighter("A", "d3", plan="move to d5\n")], [orm_fighter("B", "h8", plan=HOLD_PLAN)],
                       blocked=["d4"])
    record, _ = orm_run(setup)
    assert "d4" not in [str(e.to_square) for e in of(record, E.Moved)]


def test_r_orm_plan_1_normal_attack_names_and_never_follow_up() -> None:
    """R-ORM-PLAN-1: "`normal-attack` (also `Normal Attack`, `通常攻撃`,
    `つうじょうこうげき`) may be named wherever a clause names a skill. The new
    clause is `never follow up [when C]`"  Rin at 30 HP with `never follow up
    when hp >= 30` does not follow Kai's attack (O2's setting)."""
    from referee.plan import parse_plan
    from referee.plan.format import format_plan
    plan, diags = parse_plan("never follow up when hp <= 10\nwith 通常攻撃 target lowest hp\n", "x.plan")
    assert not diags and format_plan(plan) == "never follow up when hp <= 10\nwith 通常攻撃 target lowest hp\n"
    setup = orm_battle([orm_fighter("Kai", "c3", patterns="水水水", skills="rest"),
                        orm_fighter("Rin", "c3", patterns="水水水", skills="rest", plan="never follow up when hp >= 30\n")],
                       [orm_fighter("Orc", "c4", patterns="水水水", skills="rest")], ["Kai", "Orc", "Rin"])
    record, _ = orm_run(setup, {"checks": [2, 3, 4, 3, 3, 4], "damage": [2, 5]})
    assert not of(record, E.FollowUp)
    setup = orm_battle([orm_fighter("Kai", "c3", patterns="水水水", skills="rest", plan="never use 通常攻撃\n")],
                       [orm_fighter("Orc", "c4", patterns="水水水", skills="rest")])
    record, _ = orm_run(setup)
    assert not of(record, E.SkillUsed, actor="Kai")


# ------------------------------------------------------------------ events


def test_r_orm_ev_1_new_events_serialise_and_read_as_a_gm_posts_them() -> None:
    """R-ORM-EV-1: the new types round-trip through JSON, `initiative_roll` is
    not emitted, and written reports show every die."""
    from referee.report.messages import message
    record, _ = o2()
    for e in record.events:
        assert E.event_from_json(e.to_json()) == e
    assert not of(record, E.InitiativeRoll)
    for kind in ("initiative_score", "initiative_tie", "phase_start", "simple_use", "nd6_check", "opposed_result",
                 "damage_roll", "heal_roll", "follow_up"):
        assert kind in E.EVENT_TYPES
    text = message("en", "orm.check.action", actor="Pyra", skill="Eruption", ability="intellect", count=3, x=3,
                   dice="[5,4,2]", support="", critical="", fumble="", value=14)
    assert text == "Pyra: Eruption, intellect 3d6+3 [5,4,2]+3 = 14"


def test_r_orm_ev_1_damage_roll_comes_after_the_defence_reaction() -> None:
    """R-ORM-EV-1: `damage_roll` comes "Just before the hit's `damage`": after
    the target's defences (R-TURN-3 step 2), for a hit as for a counter hit.
    Kai's normal attack hits Ava (6+5+4+3 = 18 against 1+1+2+3 = 7); her
    readied Avenger reduces it (`reaction`, kind defence), then the roll
    2 + (1+1) = 4, then `damage` 4 − 1 = 3.  Her counter (6+6+2+3 = 27,
    critical, against 9) rolls 2 + (3+4) + 10 = 19 just before its `damage`."""
    setup = orm_battle([orm_fighter("Kai", "c3", patterns="水水水", skills="rest")],
                       [orm_fighter("Ava", "c3", patterns="地地地", skills="avenger", plan=HOLD_PLAN)])
    record, rng = orm_run(setup, {"checks": [6, 5, 4, 1, 1, 2, 6, 6, 2, 1, 2, 3], "damage": [1, 1, 3, 4]})
    start = next(i for i, e in enumerate(record.events) if isinstance(e, E.SkillUsed) and e.actor == "Kai")
    seen = [(e.TYPE, getattr(e, "kind", None) or getattr(e, "cause", None) or getattr(e, "role", None))
            for e in record.events[start:] if e.TYPE in ("reaction", "damage_roll", "damage", "nd6_check")]
    assert seen[:8] == [
        ("nd6_check", "action"), ("nd6_check", "reaction"), ("reaction", "defence"), ("damage_roll", "skill"),
        ("damage", "skill"), ("reaction", "counter"), ("nd6_check", "action"), ("nd6_check", "reaction")]
    assert seen[8:10] == [("damage_roll", "counter"), ("damage", "counter")]
    assert [(e.target, e.amount, e.printed, e.reduced) for e in of(record, E.Damage)][:2] == [
        ("Ava", 3, 4, 1), ("Kai", 19, 19, 0)]
    assert rng.remaining() == {}
