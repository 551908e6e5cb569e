"""R-SOUL-ACT-*, -STANCE-*, -MOVE-*, -DMG-1, -TERR-*, -PLAN-*, -RNG-1 and the
worked examples SW-A..C (variant-soulwired.md) under the built-in
``soulwired`` ruleset: fixed squares, fixed order where the example gives
one, scripted ``checks`` dice (faces as written in the spec)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

import pytest

from referee.board import parse_square
from referee.engine import events as E
from referee.engine.battle import BattleSetup, resolve_battle
from referee.engine.rng import ScriptedRng
from referee.plan import parse_plan
from referee.terrain import Terrain, TerrainObject
from tests.engine import helpers as H
from tests.engine.helpers import Spec, battle, damage_to, fighter, hp, of, ruleset


@dataclass(frozen=True)
class SoulSheet(H.TestSheet):
    """A test sheet with the ``soulwired:`` block (R-SOUL-FILE-1)."""

    garb: str | None = None
    evasion_type: str | None = None


def soul(name: str, square: str, skills: str, patterns: str = "剣剣剣", body: int = 3, reflex: int | None = None,
         intellect: int = 3, plan: str = "", garb: str | None = None, evasion_type: str | None = None,
         hp: int | None = None) -> Spec:
    """``fighter`` with a plan written in the plan language and the sheet block."""
    ast = None
    if plan:
        ast, diags = parse_plan(plan, "<test>")
        assert not [d for d in diags if d.severity == "error"], diags
    spec = fighter(name, square, skills=skills, patterns=patterns, body=body, reflex=reflex, intellect=intellect,
                   hp=hp)
    sheet = SoulSheet(**{f: getattr(spec.sheet, f) for f in ("name", "body", "reflex", "intellect", "max_hp",
                                                               "patterns", "skills", "file")},
                      garb=garb, evasion_type=evasion_type)
    return Spec(sheet, square, hp, ast)


def run(b: BattleSetup, turns: int = 1, **script: list[Any]) -> tuple[Any, ScriptedRng]:
    rng = ScriptedRng(dict(script))
    return resolve_battle(b, ruleset("soulwired", turns), 1, rng=rng), rng


def unordered(setup: BattleSetup, terrain: Terrain | None = None) -> BattleSetup:
    return replace(setup, order=None, terrain=terrain)


def with_terrain(setup: BattleSetup, terrain: Terrain) -> BattleSetup:
    return replace(setup, terrain=terrain)


def kinds(rec: Any, actor: str, turn: int = 1) -> list[str]:
    """The event types of ``actor``'s action in ``turn``."""
    out: list[str] = []
    inside = False
    for e in rec.events:
        if isinstance(e, E.ActionStart) and e.actor == actor and e.turn == turn:
            inside = True
        if inside:
            out.append(e.TYPE)
            if isinstance(e, E.ActionEnd):
                break
    return out


def sq(name: str) -> Any:
    return parse_square(name)


# ------------------------------------------------------------------ worked examples


def test_r_soul_stance_3_sw_a_focus_fire_drains_evasion_dice() -> None:
    """SW-A (R-SOUL-INIT-1, -STANCE-3, -HIT-1..4): "Each attacker is engaged,
    so focus: Slash checks body 3d6 at 3 ... T commits 2: 4 1 at 4, evaded (1
    left) ... T commits 1: 3, hit, T 12 → 9 ... T has no die (no_dice): hit,
    T → 6 ... Rest on itself: 6 → 9 ... White wins. Draws: 6 initiative, 12
    checks, 0 chances"."""
    setup = unordered(battle(white=[soul(n, "d4", "slash") for n in ("A1", "A2", "A3")],
                             black=[soul("T", "d4", "rest", patterns="水水水")]))
    rec, rng = run(setup, initiative=[90, 75, 75, 10, 30, 60],
                   checks=[5, 1, 1, 4, 1, 2, 2, 3, 3, 6, 6, 6], chances=[])
    assert [(e.actor, e.stance, e.reason) for e in of(rec, E.Stance)] == \
        [(n, "focus", "default") for n in ("A1", "A3", "A2", "T")]
    assert [c.difficulty for c in of(rec, E.D6Check)] == [3, 3, 3]
    assert [(e.committed, e.reason, e.evaded, e.dice_left) for e in of(rec, E.Evasion)] == \
        [(2, "default", True, 1), (1, "default", False, 0), (0, "no_dice", False, 0)]
    assert [e.hp_after for e in of(rec, E.Damage)] == [9, 6]
    assert hp(rec, "T") == 9 and rec.result.winner == "white"
    assert of(rec, E.TurnStalled) == [] and rng.remaining() == {}


def test_r_soul_hard_2_sw_b_hard_mode_rises_to_level_1_then_2() -> None:
    """SW-B (R-SOUL-HARD-1..3, -HIT-5): Walker focuses (attack at 3), Post
    commits 2 of its 3 dice; stalled turns 1-4; `hard_mode` level 1 at the
    start of turn 3, level 2 at turn 5; turn 5 5 5 at 6: hit, Post 12 → 9,
    then Rest → 12; 25 checks; draw."""
    setup = battle(white=[soul("Walker", "d4", "slash")], black=[soul("Post", "d4", "rest", patterns="水水水")],
                   order=["Walker", "Post"])
    checks = [4, 1, 1, 4, 2,  3, 3, 3, 1, 5,  6, 2, 2, 5, 1,  2, 3, 1, 4, 5,  3, 1, 1, 5, 5]
    rec, rng = run(setup, 5, checks=checks)
    assert [c.difficulty for c in of(rec, E.D6Check)] == [3] * 5
    assert [e.difficulty for e in of(rec, E.Evasion)] == [4, 4, 5, 5, 6]
    assert [(e.turn, e.stalled, e.run, e.level) for e in of(rec, E.TurnStalled)] == \
        [(1, 1, 0, 0), (2, 2, 0, 0), (3, 3, 1, 1), (4, 4, 2, 1)]
    assert [(e.turn, e.level, e.melee_evasion_difficulty) for e in of(rec, E.HardMode)] == [(3, 1, 5), (5, 2, 6)]
    assert damage_to(rec, "Post") == [(3, "skill", "slash")] and hp(rec, "Post") == 12
    assert rec.result.winner == "draw" and rng.remaining() == {}


def test_r_soul_move_3_sw_c_points_objects_default_stances_hit_and_run() -> None:
    """SW-C (R-SOUL-MOVE-1..4, -STANCE-3, -TERR-1): "Moves b2→c2, c2→d1,
    d1→c2, e1→d2, d2→c2. Draws: 17 checks, 1 chances, 0 ties ... Black
    wins"; Archer no stance, Brute manoeuvre (2 points, 6 dice)."""
    setup = unordered(battle(
        white=[soul("Archer", "b2", "night-shrieker", patterns="風剣風剣風剣", body=2, reflex=6, intellect=1,
                    plan="keep away from enemies when attacked")],
        black=[soul("Brute", "e1", "slash", patterns="剣剣", body=5, reflex=2, intellect=2)]),
        Terrain(objects=(TerrainObject(sq("c1"), 6, 1),)))
    rec, rng = run(setup, checks=[1, 2, 3, 1, 2, 4, 3, 1, 2, 6, 1, 2, 5, 3, 3, 4, 1], chances=[False], ties=[])
    assert [(e.actor, e.from_square, e.to_square) for e in of(rec, E.Moved)] == [
        ("Archer", sq("b2"), sq("c2")), ("Archer", sq("c2"), sq("d1")), ("Archer", sq("d1"), sq("c2")),
        ("Brute", sq("e1"), sq("d2")), ("Brute", sq("d2"), sq("c2"))]
    assert [(e.actor, e.stance) for e in of(rec, E.Stance)] == [("Archer", "none"), ("Brute", "maneuver")]
    assert [(e.actor, e.phase, e.points) for e in of(rec, E.MovePhase)][:3] == \
        [("Archer", "first", 3), ("Archer", "second", 1), ("Brute", "first", 2)]
    assert of(rec, E.EvasionDice)[-1].dice == 6
    assert hp(rec, "Brute") == 18 and rec.result.winner == "black" and rng.remaining() == {}


# ------------------------------------------------------------------ the action


def test_r_soul_act_1_the_order_of_an_action() -> None:
    """R-SOUL-ACT-1 / Events: "action_start, pattern_selected, panels_reset,
    evasion_dice, stance, ..., the first move (move_phase, moved…, move_end),
    the walk ..., the second move, ..., action_end"."""
    setup = battle(white=[soul("A", "a1", "slash")], black=[soul("B", "a3", "rest", patterns="水水水")])
    rec, _ = run(setup, checks=[1, 1, 1])
    seq = kinds(rec, "A")
    assert seq[:5] == ["action_start", "pattern_selected", "panels_reset", "evasion_dice", "stance"]
    assert seq.index("move_phase") < seq.index("moved") < seq.index("move_end") < seq.index("skill_order")
    assert seq.index("d6_check") < len(seq) - 1 - seq[::-1].index("move_phase")
    assert seq[-1] == "action_end"
    assert [e.phase for e in of(rec, E.MoveEnd) if e.actor == "A"] == ["first", "second"]


def test_r_soul_act_2_one_offensive_use_then_offensive_limit() -> None:
    """R-SOUL-ACT-2: "An action makes at most one ... after it the walk passes
    over offensive entries (skill_passed, reason offensive_limit ...)"; heals
    are not limited; passives still pass as passive (clarification)."""
    setup = battle(white=[soul("A", "d4", "slash avenger firecracker rest", patterns="剣地火水", reflex=4, hp=6)],
                   black=[soul("B", "d4", "rest", patterns="水水水")])
    rec, _ = run(setup, checks=[1, 1, 1])
    passed = [(e.skill, e.reason) for e in of(rec, E.SkillPassed) if e.actor == "A"]
    assert ("avenger", "passive") in passed and ("firecracker", "offensive_limit") in passed
    assert [e.skill for e in of(rec, E.SkillUsed) if e.actor == "A"] == ["slash", "rest"]


def test_r_soul_stance_1_focus_forgoes_the_first_move_and_eases_attacks() -> None:
    """R-SOUL-STANCE-1: "the first move is forgone; the action's attack checks
    are one step easier; the second move has all the movement points"."""
    setup = battle(white=[soul("A", "a1", "firecracker", patterns="火火火", plan="focus")],
                   black=[soul("B", "a3", "rest", patterns="水水水")])
    rec, _ = run(setup, checks=[1, 1, 1])
    assert [(e.phase, e.points) for e in of(rec, E.MovePhase) if e.actor == "A"] == [("second", 2)]
    check = of(rec, E.D6Check)[0]
    assert check.difficulty == 3 and check.steps == ({"cause": "focus", "steps": -1},)


def test_r_soul_stance_2_manoeuvre_check_gives_a_point_and_a_die_and_hardens_attacks() -> None:
    """R-SOUL-STANCE-2: "a reflex check at NORMAL ... Success: +1 movement
    point ... and +1 evasion die ... Success or not, the action's attack
    checks are one step harder"."""
    setup = battle(white=[soul("A", "a1", "slash", reflex=3, plan="maneuver")],
                   black=[soul("B", "a4", "rest", patterns="水水水")])
    rec, _ = run(setup, checks=[4, 1, 1, 6, 6, 6, 1, 1])
    man = of(rec, E.D6Check)[0]
    assert (man.check, man.ability, man.difficulty, man.success) == ("maneuver", "reflex", 4, True)
    assert [(e.dice, e.cause) for e in of(rec, E.EvasionDice) if e.actor == "A"] == [(3, "refill"), (4, "maneuver")]
    assert [(e.phase, e.points) for e in of(rec, E.MovePhase) if e.actor == "A"][0] == ("first", 3)
    attack = of(rec, E.D6Check)[1]
    assert attack.difficulty == 5 and attack.steps == ({"cause": "maneuver", "steps": 1},)


def test_r_soul_stance_3_a_clause_decides_before_the_default() -> None:
    """R-SOUL-STANCE-3: "The first stance clause ... whose condition holds
    decides": `no stance when turn <= 1` over the default focus."""
    setup = battle(white=[soul("A", "d4", "slash", plan="no stance when turn <= 1\nfocus")],
                   black=[soul("B", "d4", "rest", patterns="水水水")])
    rec, _ = run(setup, checks=[1, 1, 1])
    st = of(rec, E.Stance)[0]
    assert (st.stance, st.reason, st.line) == ("none", "clause", 1)
    assert of(rec, E.D6Check)[0].steps == ()


# ------------------------------------------------------------------ movement


def test_r_soul_move_1_points_are_one_plus_a_third_of_reflex() -> None:
    """R-SOUL-MOVE-1: "Movement points ... 1 + floor(reflex / 3)": reflex 6 → 3."""
    setup = battle(white=[soul("A", "a1", "slash", patterns="剣剣剣剣剣剣", reflex=6, body=2, intellect=1)],
                   black=[soul("B", "h8", "rest", patterns="水水水")])
    rec, _ = run(setup)
    assert of(rec, E.MovePhase)[0].points == 3
    assert of(rec, E.MoveEnd)[0].steps == 3


def test_r_soul_move_1_a_non_evader_starting_in_a_barrier_has_one_point() -> None:
    """R-SOUL-MOVE-1: "A character with evasion_type: none that starts its
    action in a barrier area has 1 in place of the formula"."""
    setup = with_terrain(battle(white=[soul("A", "a1", "slash", patterns="剣剣剣剣剣剣", reflex=6, body=2, intellect=1,
                                         evasion_type="none")],
                             black=[soul("B", "h8", "rest", patterns="水水水")]),
                      Terrain(barriers=(sq("a1"),)))
    rec, _ = run(setup)
    assert of(rec, E.MovePhase)[0].points == 1


def test_r_soul_move_2_a_barrier_costs_three_and_the_minimum_move() -> None:
    """R-SOUL-MOVE-2: "costs 1, or 3 into a barrier area ... the minimum move:
    a character that has not stepped yet ... may take one such step, and is
    left with 0 points"."""
    barriers = tuple(sq(s) for s in ("b1", "b2", "a2"))
    setup = with_terrain(battle(white=[soul("A", "a1", "slash")], black=[soul("B", "h8", "rest", patterns="水水水")]),
                      Terrain(barriers=barriers))
    rec, _ = run(setup)
    first = of(rec, E.MoveEnd)[0]
    assert (first.steps, first.points_left) == (1, 0)
    assert of(rec, E.Moved)[0].to_square == sq("b2")


def test_r_soul_move_2_non_evaders_never_enter_barriers() -> None:
    """R-SOUL-MOVE-2: "nor barrier areas by evasion_type: none": walled in by
    barriers, it has no legal step (no_route)."""
    barriers = tuple(sq(s) for s in ("b1", "b2", "a2"))
    setup = with_terrain(battle(white=[soul("A", "a1", "slash", evasion_type="none")],
                             black=[soul("B", "h8", "rest", patterns="水水水")]),
                      Terrain(barriers=barriers))
    rec, _ = run(setup)
    assert not [e for e in of(rec, E.Moved) if e.actor == "A"]
    assert [e.reason for e in of(rec, E.MoveEnd) if e.actor == "A"][0] in ("no_route",)


def test_r_soul_move_3_routes_go_around_objects_and_blocked_areas() -> None:
    """R-SOUL-MOVE-3: distances are least total step cost; "Blocked and object
    areas are never entered" (R-SOUL-MOVE-2): b1 blocked, the step goes b2."""
    setup = with_terrain(battle(white=[soul("A", "a1", "slash")], black=[soul("B", "c1", "rest", patterns="水水水")]),
                      Terrain(blocked=(sq("b1"),)))
    rec, _ = run(setup, checks=[1, 1, 1])
    assert of(rec, E.Moved)[0].to_square == sq("b2")


def test_r_soul_move_3_no_route_to_any_enemy_ends_without_a_draw() -> None:
    """R-SOUL-MOVE-3: "an area with no route is never nearer than one with a
    route; if no candidate has one, the move ends no_route, without a draw":
    A is walled in by blocked areas, two enemies equally far: no ties draw."""
    walls = tuple(sq(s) for s in ("b1", "b2", "a2"))
    setup = with_terrain(battle(white=[soul("A", "a1", "slash")],
                                black=[soul("B", "h8", "rest", patterns="水水水"),
                                       soul("C", "h8", "rest", patterns="水水水")]),
                         Terrain(blocked=walls))
    rec, rng = run(setup)
    assert [e.reason for e in of(rec, E.MoveEnd) if e.actor == "A"] == ["no_route"]  # focus: one move
    assert not [d for d in rng.log if d[0] == "ties"]


def test_r_soul_move_4_second_move_only_approaches_if_not_attacked() -> None:
    """R-SOUL-MOVE-4: "The second move follows the movement clauses, else the
    approach only if the character has not attacked": a failed check still
    counts as attacking, so A stays (reason attacked)."""
    setup = battle(white=[soul("A", "a3", "night-shrieker", patterns="風剣風", reflex=3)],
                   black=[soul("B", "a4", "rest", patterns="水水水")])
    rec, _ = run(setup, checks=[1, 1, 1], chances=[])
    second = [e for e in of(rec, E.MoveEnd) if e.actor == "A" and e.phase == "second"][0]
    assert second.reason == "attacked"


# ------------------------------------------------------------------ damage, terrain


def test_r_soul_dmg_1_armour_against_physical_only() -> None:
    """R-SOUL-DMG-1: "armour counts only against physical damage ...: 1 with
    garb armoured"; the damage's reduced includes it, an armour event says so."""
    setup = battle(white=[soul("A", "d4", "slash"), soul("M", "d5", "firecracker", patterns="火火火")],
                   black=[soul("B", "d4", "rest", patterns="水水水", garb="armoured")])
    rec, _ = run(setup, checks=[6, 1, 1, 1, 1, 6, 1, 1, 1, 1])
    dmg = of(rec, E.Damage)
    assert [(d.skill, d.amount, d.reduced) for d in dmg] == [("slash", 2, 1), ("firecracker", 1, 0)]
    assert [(a.target, a.armour, a.skill) for a in of(rec, E.Armour)] == [("B", 1, "slash")]


def test_r_soul_terr_1_terrain_event_and_setup_redraws_off_objects() -> None:
    """R-SOUL-TERR-1: "a setup draw landing on one is discarded and both
    coordinates drawn again"; the battle reports its terrain."""
    a = fighter("A", "a1", skills="slash")
    setup = replace(battle(white=[a], black=[soul("B", "h8", "rest", patterns="水水水")]), order=("A", "B"))
    setup = replace(setup, combatants=(replace(setup.combatants[0], square=None), setup.combatants[1]),
                    terrain=Terrain(objects=(TerrainObject(sq("a1"), 3, 0),)))
    rec, rng = run(setup, setup=[0, 0, 2, 1])
    assert of(rec, E.Placed)[0].square == sq("c2")
    assert of(rec, E.Terrain)[0].objects == ({"square": "a1", "strength": 3, "armour": 0},)


def test_r_soul_terr_2_an_object_is_attacked_on_order_and_destroyed() -> None:
    """R-SOUL-TERR-2: "the first `attack object at SQ` clause whose condition
    holds, whose object stands and whose SQ is within the skill's range makes
    that entry's use target the object alone ... The attack check is made,
    with no evasion; on success strength drops by max(0, printed − armour if
    physical) ... at 0 the object is removed and its area freed"; it is the
    action's offensive use."""
    setup = with_terrain(battle(white=[soul("A", "b1", "night-shrieker night-shrieker", patterns="風剣風剣風剣",
                                            body=2, reflex=6, intellect=1, plan="attack object at c1\nfocus")],
                                black=[soul("B", "h8", "rest", patterns="水水水")]),
                         Terrain(objects=(TerrainObject(sq("c1"), 1, 1),)))
    rec, _ = run(setup, checks=[6, 1, 1, 1, 1, 1])
    hits = of(rec, E.ObjectHit)
    assert [(h.printed, h.armour, h.amount, h.strength_after) for h in hits] == [(2, 1, 1, 0)]
    assert [e.square for e in of(rec, E.ObjectDestroyed)] == [sq("c1")]
    assert of(rec, E.Evasion) == [] and of(rec, E.ChanceRoll) == []
    assert ("night-shrieker", "offensive_limit") in [(e.skill, e.reason) for e in of(rec, E.SkillPassed)]
    assert of(rec, E.SkillUsed)[0].targets == ("object:c1",)


def _shrieker_at_an_object(plan: str, foe_square: str = "h8", foe_hp: int | None = None) -> Any:
    setup = with_terrain(battle(white=[soul("A", "b1", "night-shrieker night-shrieker", patterns="風剣風剣風剣",
                                            body=2, reflex=6, intellect=1, plan=f"attack object at c1\n{plan}\nfocus")],
                                black=[soul("B", foe_square, "rest", patterns="水水水", hp=foe_hp)]),
                         Terrain(objects=(TerrainObject(sq("c1"), 1, 1),)))
    rec, _ = run(setup, checks=[6, 1, 1, 1, 1, 1])
    return rec


def test_r_soul_terr_2_use_only_when_target_holds_x_back_from_the_object() -> None:
    """R-SOUL-TERR-2 [clarified]: use clauses' `target` conditions see no
    candidate in an object, "so a `use X only when target …` clause is false
    and holds X back from the object, exactly as with no candidate in range
    (R-PLAN-5)".  No character is in range either: A uses nothing, rolls
    nothing, and the object stands.  With B in range at 2 HP, the entry goes
    on as usual and takes B."""
    rec = _shrieker_at_an_object("use night-shrieker only when target hp <= 3")
    assert of(rec, E.ObjectHit) == [] and of(rec, E.ObjectDestroyed) == []
    assert [e for e in of(rec, E.SkillUsed) if e.actor == "A"] == []
    assert [c for c in of(rec, E.D6Check) if c.actor == "A" and c.check == "attack"] == []
    assert {(e.skill, e.reason) for e in of(rec, E.SkillPassed) if e.actor == "A"} == {("night-shrieker", "no_target")}
    near = _shrieker_at_an_object("use night-shrieker only when target hp <= 3", "c2", 2)
    assert of(near, E.ObjectHit) == []
    assert [e.targets for e in of(near, E.SkillUsed) if e.actor == "A"] == [("B",)]


def test_r_soul_terr_2_never_use_when_target_does_not_apply_to_the_object() -> None:
    """R-SOUL-TERR-2 [clarified]: "`never use X when target …` does not apply"
    to an object attack: A's Night Shrieker hits the object as ordered."""
    rec = _shrieker_at_an_object("never use night-shrieker when target hp >= 1")
    assert [(h.amount, h.strength_after) for h in of(rec, E.ObjectHit)] == [(1, 0)]
    assert of(rec, E.SkillUsed)[0].targets == ("object:c1",)


def test_r_soul_terr_2_melee_reaches_no_object_out_of_range() -> None:
    """R-SOUL-TERR-2: only an object "within the skill's range": Slash
    (range 0) never reaches c1 from b1, so the entry goes on as usual."""
    setup = with_terrain(battle(white=[soul("A", "b1", "slash", plan="attack object at c1\nfocus")],
                                black=[soul("B", "h8", "rest", patterns="水水水")]),
                         Terrain(objects=(TerrainObject(sq("c1"), 2, 1),)))
    rec, _ = run(setup)
    assert of(rec, E.ObjectHit) == [] and [c for c in of(rec, E.D6Check) if c.actor == "A"] == []


# ------------------------------------------------------------------ plans, RNG, files


def test_r_soul_plan_1_stance_clauses_parse_and_decide() -> None:
    """R-SOUL-PLAN-1: `focus`, `maneuver` (or `manoeuvre`), `no stance`, each
    with an optional `when C`."""
    plan, diags = parse_plan("focus when engaged\nmanoeuvre when hp <= 4\nno stance when turn <= 1\n", "<t>")
    assert not diags and plan is not None
    assert [c.stance for c in plan.clauses] == ["focus", "maneuver", "none"]  # type: ignore[attr-defined]


def test_r_soul_plan_2_evasion_clauses_commit_what_they_say() -> None:
    """R-SOUL-PLAN-2 / R-SOUL-HIT-4: "k comes from the first evasion clause
    ... whose condition holds, capped at the dice left"; `never evade`
    commits none; `incoming melee` reads the use being evaded."""
    setup = battle(white=[soul("A", "d4", "slash"), soul("C", "d4", "slash")],
                   black=[soul("B", "d4", "rest", patterns="水水水",
                               plan="never evade when evasion dice <= 1\nevade with 1 when incoming melee")])
    rec, _ = run(setup, checks=[6, 1, 1, 1, 6, 1, 1, 1, 1, 1, 1])
    assert [(e.committed, e.reason, e.line) for e in of(rec, E.Evasion)][:2] == [(1, "clause", 2), (1, "clause", 2)]


def test_r_soul_plan_3_object_clause_needs_a_square() -> None:
    """R-SOUL-PLAN-3 / -PLAN-5: `attack object at SQ [when C]`; SQ not a
    square is an error."""
    plan, diags = parse_plan("attack object at c1 when not engaged\nattack object at Kagura\n", "<t>")
    assert [d.code for d in diags] == ["not-a-square"]


def test_r_soul_plan_4_conditions_and_fewest_evasion_dice() -> None:
    """R-SOUL-PLAN-4: `target evasion dice`, `hard mode`, `ultra hard`,
    `attacked`; preference `fewest evasion dice`: the spent one is chosen."""
    setup = battle(white=[soul("A", "d4", "slash"), soul("C", "d4", "slash", plan="target fewest evasion dice")],
                   black=[soul("B", "d4", "rest", patterns="水水水"), soul("D", "d4", "rest", patterns="水水水")])
    rec, _ = run(setup, checks=[6, 1, 1, 4, 1, 6, 1, 1, 4])
    chosen = [e.targets for e in of(rec, E.TargetsChosen) if e.actor == "C"][0]
    first = [e.targets for e in of(rec, E.TargetsChosen) if e.actor == "A"][0]
    assert chosen == first  # the one A made spend its dice


def test_r_soul_plan_5_words_refused_under_tcgt_and_misplaced_incoming() -> None:
    """R-SOUL-PLAN-5: "any clause, condition or preference of R-SOUL-PLAN-1..4
    under a ruleset without these mechanics (clause-not-in-ruleset) ...
    `incoming ...` outside an evasion clause; `target` in a stance or object
    clause"."""
    from referee.plan import check_plan
    plan, _ = parse_plan("focus when incoming melee\nattack object at c1 when target hp <= 3\n", "<t>")
    assert plan is not None
    soul_codes = {d.code for d in check_plan(plan, features=ruleset("soulwired").features)}
    assert soul_codes == {"incoming-outside-evasion", "target-without-skill"}
    tcgt_codes = [d.code for d in check_plan(plan, features=ruleset("tcgt").features)]
    assert tcgt_codes.count("clause-not-in-ruleset") >= 3


def test_r_soul_rng_1_checks_stream_only_for_pools() -> None:
    """R-SOUL-RNG-1: "checks: a manoeuvre check's dice at step 2; per
    offensive use, the attack-check dice, then ... evasion dice"; `damage`
    and `area` are not used."""
    setup = battle(white=[soul("A", "d4", "slash")], black=[soul("B", "d4", "rest", patterns="水水水")])
    rec, rng = run(setup, checks=[6, 1, 1, 1, 1], damage=[], area=[])
    assert rng.remaining() == {}
    assert [len(c.dice) for c in of(rec, E.D6Check)] + [len(e.dice) for e in of(rec, E.Evasion)] == [3, 2]


def test_r_soul_file_1_garb_evasive_and_evasion_type_none() -> None:
    """R-SOUL-FILE-1: "狩衣 giving +1 evasion die ...; 【回避種別】なし never
    evades" (no evasion event, clarification)."""
    setup = battle(white=[soul("A", "d4", "slash"), soul("C", "d4", "slash")],
                   black=[soul("B", "d4", "rest", patterns="水水水", garb="evasive"),
                          soul("N", "d5", "rest", patterns="水水水", evasion_type="none")])
    rec, _ = run(setup, checks=[6, 1, 1, 1, 1, 6, 1, 1, 1, 1])
    refills = {e.actor: e.dice for e in of(rec, E.EvasionDice)}
    assert refills["B"] == 4 and refills["N"] == 0
    assert {e.actor for e in of(rec, E.Evasion)} == {"B"}


def test_r_soul_file_2_terrain_only_under_soulwired(tmp_path: Any) -> None:
    """R-SOUL-FILE-2: terrain errors (off the map, listed twice, strength < 1,
    setup square on an object) and rejection under a ruleset without it."""
    from referee.battlefile import load_battle
    sheet = "name: {n}\nabilities: {{body: 3, reflex: 3, intellect: 3}}\npatterns: [剣剣剣]\nskills: [slash]\n"
    (tmp_path / "a.yaml").write_text(sheet.format(n="A"), "utf-8")
    (tmp_path / "b.yaml").write_text(sheet.format(n="B"), "utf-8")
    body = ("title: t\nruleset: {rs}\nteams: {{white: [a.yaml], black: [b.yaml]}}\nsetup: {{A: {{square: c1}}}}\n"
            "terrain:\n  blocked: [z9, d5]\n  barriers: [d5]\n  objects: [{{square: c1, strength: 0}}]\n")
    (tmp_path / "s.battle.yaml").write_text(body.format(rs="soulwired"), "utf-8")
    _, diags = load_battle(tmp_path / "s.battle.yaml")
    assert {"off-map", "duplicate-square", "out-of-range", "blocked-square"} <= {d.code for d in diags}
    (tmp_path / "t.battle.yaml").write_text(body.format(rs="tcgt"), "utf-8")
    _, diags = load_battle(tmp_path / "t.battle.yaml")
    assert [d.code for d in diags] == ["clause-not-in-ruleset"]


@pytest.mark.parametrize("garb", ["evasive", "armoured"])
def test_r_soul_file_1_sheet_block_is_read_and_refused_values(garb: str, tmp_path: Any) -> None:
    """R-SOUL-FILE-1: "Other keys or values are errors; under a ruleset
    without these mechanics the block is ignored with a warning"."""
    from referee.sheet import load_sheet
    base = "name: A\nabilities: {body: 3, reflex: 3, intellect: 3}\npatterns: [剣剣剣]\nskills: [slash]\n"
    path = tmp_path / "a.yaml"
    path.write_text(base + f"soulwired: {{garb: {garb}}}\n", "utf-8")
    sheet, diags = load_sheet(path, ruleset("soulwired"))
    assert sheet is not None and sheet.garb == garb and not diags
    sheet, diags = load_sheet(path, ruleset("tcgt"))
    assert sheet is not None and sheet.garb is None and [d.severity for d in diags] == ["warning"]
    path.write_text(base + "soulwired: {garb: silk, colour: red}\n", "utf-8")
    _, diags = load_sheet(path, ruleset("soulwired"))
    assert sorted(d.code for d in diags) == ["invalid-value", "unknown-field"]


def test_r_soul_file_2_a_report_carries_the_terrain_and_replay_checks_it() -> None:
    """R-SOUL-FILE-2: the terrain travels in the report's inputs (replay
    rebuilds the battle from them); a malformed one is refused, not crashed on."""
    import json
    from pathlib import Path

    from referee.app.inputcheck import check_report_inputs
    from referee.app.inputs import setup_from_inputs

    report = json.loads((Path(__file__).resolve().parents[2] / "fixtures" / "soulwired-6v6.json.golden")
                        .read_text("utf-8"))
    inputs = report["inputs"]
    assert setup_from_inputs(inputs).terrain.objects[0] == TerrainObject(sq("a4"), 6, 1)
    assert check_report_inputs(inputs, ruleset("soulwired"), "r.json") == []
    inputs["terrain"]["barriers"] = ["z99"]
    inputs["characters"][0]["soulwired"] = {"garb": "silk"}
    codes = [(d.code, d.message) for d in check_report_inputs(inputs, ruleset("soulwired"), "r.json")]
    assert [c for c, _ in codes] == ["bad-input", "bad-input"]


def test_r_soul_terr_1_a_knockback_into_an_object_hits_a_wall_barriers_do_not() -> None:
    """R-SOUL-TERR-1: "a knockback into one hits a wall (R-KNOCK-3).
    Knockback ignores barriers": Pressurize pushes B east into the object on
    e3 (wall: 1 damage, B stays); a barrier there would not stop it."""
    def push(terrain: Terrain) -> Any:
        setup = with_terrain(battle(white=[soul("A", "c3", "pressurize", patterns="風風風")],
                                    black=[soul("B", "d3", "rest", patterns="水水水")]), terrain)
        rec, _ = run(setup, checks=[6, 1, 1, 1, 1], knockback=[True])
        return of(rec, E.Knockback)[0]
    wall = push(Terrain(objects=(TerrainObject(sq("e3"), 3, 0),)))
    assert (wall.wall, wall.to_square) == (True, sq("d3"))
    free = push(Terrain(barriers=(sq("e3"),)))
    assert (free.wall, free.to_square) == (False, sq("e3"))


def test_r_soul_act_1_the_soul_action_needs_points_and_pools(tmp_path: Any) -> None:
    """R-SOUL-ACT-1's moves spend movement points (R-SOUL-MOVE-1) and its
    stances move d6-pool checks (R-SOUL-STANCE-1/2): a house ruleset naming
    the soul action without them is refused at its field, not crashed on."""
    from referee.diagnostics import ReferError
    from referee.ruleset import load_ruleset
    path = tmp_path / "h.ruleset.yaml"
    path.write_text("extends: tcgt\nmechanics:\n  action: {kind: soul, offensive_uses: 1}\n", "utf-8")
    with pytest.raises(ReferError) as err:
        load_ruleset(path)
    assert [(d.code, d.line) for d in err.value.diagnostics] == [("mechanic-needs-partner", 3)] * 2
