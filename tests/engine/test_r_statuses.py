"""Conformance scenarios for statuses (rules.md B, "Statuses"): R-ST-1, R-ST-2,
R-ST-BIND, R-ST-POISON, R-ST-CHANGE, R-ST-SINK, R-ST-CLEANSE.

In the manner of the DATC: the smallest position (fixed squares and order),
every chance and choice pinned by a *strict* ``ScriptedRng`` (a draw the rules
do not make fails the test), the rule text quoted, and assertions on the event
list.  Complements the first cases in test_r_actions.py / test_r_rules.py.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from referee.board import parse_square, square_name
from referee.catalog import SkillCatalog
from referee.elements import parse_pattern
from referee.engine import events as E
from referee.engine.battle import BattleRecord, BattleSetup, resolve_battle
from referee.engine.rng import ScriptedRng
from referee.engine.clauses import Extend, Hold, MoveTo, NeverUse, Preference, PreferenceKind, Release, TargetPref, UseFirst
from referee.plan.parser import parse_plan

from .helpers import TestPattern as Pat
from .helpers import battle, damage_to, fighter, hp, of, ruleset

HOLD = [Hold(line=9)]


# ------------------------------------------------------------------ helpers


def strict(setup: BattleSetup, *, turns: int = 1, script: dict[str, list[Any]] | None = None,
           rules: Any = None) -> BattleRecord:
    """Resolve with a strict ScriptedRng and check every scripted outcome was used."""
    rng = ScriptedRng(script or {}, strict=True)
    rec = resolve_battle(setup, rules if rules is not None else ruleset(turn_limit=turns), 1, rng=rng)
    assert rng.remaining() == {}, f"unused scripted outcomes: {rng.remaining()}"
    return rec


def only_turn(skill: str, turn: int, line: int = 1) -> NeverUse:
    """``never use SKILL when turn != N``."""
    return NeverUse(line=line, skill=skill, when=lambda c: c.state.turn != turn)


def once(skill: str) -> list[Any]:
    """Use SKILL in turn 1 only, and hold position."""
    return [only_turn(skill, 1), *HOLD]


def plan(text: str) -> Any:
    parsed, diags = parse_plan(text, "test.plan")
    assert [d for d in diags if d.severity == "error"] == []
    return parsed


def applied(rec: BattleRecord, target: str) -> list[tuple[Any, ...]]:
    return [(e.turn, e.status, e.object, e.index, e.pattern, e.duration)
            for e in of(rec, E.StatusApplied) if e.target == target]


def expired(rec: BattleRecord, target: str) -> list[tuple[Any, ...]]:
    return [(e.turn, e.status, e.object, e.index, e.pattern) for e in of(rec, E.StatusExpired) if e.target == target]


def cleansed(rec: BattleRecord, target: str) -> list[tuple[Any, ...]]:
    return [(e.turn, e.status, e.object, e.index, e.pattern, e.actor, e.skill)
            for e in of(rec, E.StatusCleansed) if e.target == target]


def no_effect(rec: BattleRecord) -> list[tuple[Any, ...]]:
    return [(e.turn, e.target, e.status, e.object, e.reason, e.rule) for e in of(rec, E.StatusNoEffect)]


def action(rec: BattleRecord, actor: str, turn: int) -> list[E.Event]:
    """The events of ``actor``'s action in ``turn``, action_start to action_end."""
    out: list[E.Event] = []
    for e in rec.events:
        if isinstance(e, E.ActionStart) and e.actor == actor and e.turn == turn:
            out.append(e)
        elif out:
            out.append(e)
            if isinstance(e, E.ActionEnd):
                break
    assert out, f"{actor} did not act in turn {turn}"
    return out


def stays(rec: BattleRecord, actor: str) -> list[tuple[int, str]]:
    return [(s.turn, s.reason) for s in of(rec, E.Stayed) if s.actor == actor]


def moves(rec: BattleRecord, actor: str) -> list[tuple[int, str]]:
    return [(m.turn, square_name(m.to_square)) for m in of(rec, E.Moved) if m.actor == actor]


def passed(rec: BattleRecord, actor: str) -> list[tuple[int, str, int, str]]:
    return [(p.turn, p.skill, p.entry, p.reason) for p in of(rec, E.SkillPassed) if p.actor == actor]


def uses(rec: BattleRecord, actor: str) -> list[tuple[int, str, tuple[int, ...]]]:
    return [(u.turn, u.skill, u.panels) for u in of(rec, E.SkillUsed) if u.actor == actor]


def cond_pattern(elements: str, turn_at_least: int) -> Pat:
    return Pat(parse_pattern(elements), when=lambda c: c.state.turn >= turn_at_least,
               condition_text=f"turn >= {turn_at_least}")


# ------------------------------------------------------------------ R-ST-1


def test_r_st_1_a_bind_counts_down_at_the_end_of_its_bearers_actions_only() -> None:
    """R-ST-1: "A status lasts the number of its bearer's actions named by the
    skill, counted down at the end of each of the bearer's actions".  B acts
    before A: Flame Bind (2 actions) lands after B's turn-1 action, so it
    covers B's actions of turns 2 and 3 and runs out at the end of B's turn-3
    action (A's actions count nothing); B walks off in turn 4."""
    b_plan = [Hold(line=1, when=lambda c: c.state.turn == 1), MoveTo(line=2, square=parse_square("e8"))]
    rec = strict(battle([fighter("A", "c3", "flame-bind", "火水", plan=once("flame-bind"))],
                        [fighter("B", "e5", "", body=5, plan=b_plan)], order=["B", "A"]), turns=4)
    assert applied(rec, "B") == [(1, "bind", "character", None, None, 2)]
    assert expired(rec, "B") == [(3, "bind", "character", None, None)]
    assert stays(rec, "B") == [(1, "hold"), (2, "bound"), (3, "bound")]
    assert moves(rec, "B") == [(4, "e6")]
    # the countdown is the last thing of the bearer's action: after its movement step
    turn3 = [e.TYPE for e in action(rec, "B", 3)]
    assert turn3[-3:] == ["stayed", "status_expired", "action_end"]


def test_r_st_1_skill_and_clause_binds_last_three_of_the_bearers_actions() -> None:
    """R-ST-1: "counted down at the end of each of the bearer's actions":
    Ia-Temu Curse's and Heat Wave's Binds (3 actions, skills.md) cover B's
    actions of turns 1-3 and expire together at the end of its turn-3 action;
    in turn 4 the entry is used again."""
    rec = strict(battle([fighter("B", "c3", "firecracker", "火", body=5, plan=[Hold(line=1)])],
                        [fighter("H", "d4", "heat-wave", "火風", plan=once("heat-wave")),
                         fighter("I", "c3", "ia-temu-curse", "地剣", plan=once("ia-temu-curse"))],
                        order=["H", "I", "B"]),
                 turns=4, script={"chances": [True]})  # the Curse's 1/3 Bind
    assert applied(rec, "B") == [(1, "bind", "clause", 1, None, 3), (1, "bind", "skill", 0, None, 3)]
    assert expired(rec, "B") == [(3, "bind", "skill", 0, None), (3, "bind", "clause", 1, None)]
    assert [(t, r) for t, _, _, r in passed(rec, "B")] == [(1, "bound"), (2, "bound"), (3, "bound")]
    assert [t for t, _, _ in uses(rec, "B")] == [4]


def test_r_st_1_poison_lasts_until_cleansed() -> None:
    """R-ST-1: "Poison lasts until cleansed": B pays its poisoned panel in
    every action and is hurt each time, never an expiry, until R's Restore
    (turn 3, after B's action) removes it; from turn 4 paying is harmless."""
    rec = strict(battle([fighter("B", "c3", "slash", "剣", body=5, plan=HOLD),
                         fighter("R", "c4", "restore", "水地", plan=[only_turn("restore", 3), *HOLD])],
                        [fighter("P", "c3", "poison-fang", "水剣", body=5, plan=once("poison-fang"))],
                        order=["P", "B", "R"]), turns=5)
    assert applied(rec, "B") == [(1, "poison", "panel", 0, 0, None)]
    poison = [(d.turn, d.skill) for d in of(rec, E.Damage) if d.target == "B" and d.cause == "poison"]
    assert poison == [(1, "slash"), (2, "slash"), (3, "slash")]
    assert [t for t, _, _ in uses(rec, "B")] == [1, 2, 3, 4, 5]
    assert expired(rec, "B") == []
    assert cleansed(rec, "B") == [(3, "poison", "panel", 0, 0, "R", "restore")]


def test_r_st_1_a_panel_change_lasts_three_of_its_bearers_actions_not_three_turns() -> None:
    """R-ST-1: "a panel change lasts 3 of its bearer's actions".  B acts
    first, so Whirlwind's change (after B's turn-1 action) covers B's actions
    of turns 2, 3 and 4: B pays 剣 from panel 1 then, from panel 0 in turn 5."""
    rec = strict(battle([fighter("W", "c3", "whirlwind", "風風", body=5, plan=once("whirlwind"))],
                        [fighter("B", "c3", "slash", "剣剣", body=5, plan=HOLD)], order=["B", "W"]), turns=5)
    assert applied(rec, "B") == [(1, "change", "panel", 0, 0, 3)]
    assert expired(rec, "B") == [(4, "change", "panel", 0, 0)]
    assert [(t, p) for t, _, p in uses(rec, "B")] == [(1, (0,)), (2, (1,)), (3, (1,)), (4, (1,)), (5, (0,))]


# ------------------------------------------------------------------ R-ST-2


def test_r_st_2_bind_inflicted_again_keeps_the_larger_remaining_count() -> None:
    """R-ST-2: "A status inflicted again on the same object keeps the larger
    remaining count".  Flame Bind (2) in turn 1; B's action leaves 1; Flame
    Bind again in turn 2: 2 is larger, so 2 remain (neither the old 1 kept nor
    1 + 2 added): B is bound through its turn-3 action and moves in turn 4."""
    a_plan = [NeverUse(line=1, skill="flame-bind", when=lambda c: c.state.turn >= 3), *HOLD]
    rec = strict(battle([fighter("A", "c3", "flame-bind", "火水", plan=a_plan)],
                        [fighter("B", "e5", "", body=5, plan=[MoveTo(line=1, square=parse_square("e8"))])],
                        order=["A", "B"]), turns=4)
    assert applied(rec, "B") == [(1, "bind", "character", None, None, 2), (2, "bind", "character", None, None, 2)]
    assert expired(rec, "B") == [(3, "bind", "character", None, None)]
    assert stays(rec, "B") == [(1, "bound"), (2, "bound"), (3, "bound")]
    assert moves(rec, "B") == [(4, "e6")]


def test_r_st_2_twice_in_one_turn_the_bind_is_not_added_up() -> None:
    """R-ST-2: "keeps the larger remaining count": two Flame Binds before B
    acts leave 2 actions, not 4."""
    rec = strict(battle([fighter("A1", "c3", "flame-bind", "火水", plan=once("flame-bind")),
                         fighter("A2", "c4", "flame-bind", "火水", plan=once("flame-bind"))],
                        [fighter("B", "e5", "", body=5, plan=[MoveTo(line=1, square=parse_square("e8"))])],
                        order=["A1", "A2", "B"]), turns=3)
    assert [a[-1] for a in applied(rec, "B")] == [2, 2]
    assert expired(rec, "B") == [(2, "bind", "character", None, None)]
    assert moves(rec, "B") == [(3, "e6")]


def _ruleset_with_long_bind(turns: int) -> Any:
    """tcgt plus "long-bind": Flame Bind with a 4-action Bind (numbers are data)."""
    rs = ruleset(turn_limit=turns)
    fb = rs.catalog.get("flame-bind")
    long = replace(fb, id="long-bind", name_ja="長縛", reading="ロングバインド", name_en="Long Bind",
                   effects=(replace(fb.effects[0], duration=4),))
    return replace(rs, catalog=SkillCatalog(rs.catalog.skills + (long,)))


def test_r_st_2_a_shorter_bind_does_not_shorten_a_longer_one() -> None:
    """R-ST-2: "keeps the larger remaining count": a 4-action Bind, then
    Flame Bind's 2 in the same turn: 4 remain; B is bound for 4 actions."""
    rec = strict(battle([fighter("L", "c3", "long-bind", "火水", plan=once("long-bind")),
                         fighter("A", "c4", "flame-bind", "火水", plan=once("flame-bind"))],
                        [fighter("B", "e5", "", body=5, plan=[MoveTo(line=1, square=parse_square("e8"))])],
                        order=["L", "A", "B"]), rules=_ruleset_with_long_bind(5))
    assert [(a[0], a[-1]) for a in applied(rec, "B")] == [(1, 4), (1, 4)]
    assert expired(rec, "B") == [(4, "bind", "character", None, None)]
    assert stays(rec, "B") == [(1, "bound"), (2, "bound"), (3, "bound"), (4, "bound")]
    assert moves(rec, "B") == [(5, "e6")]


def test_r_st_2_freeze_inflicted_twice_after_the_bearer_acted_covers_its_next_action_only() -> None:
    """R-ST-2: "Freeze covers only the next action however often inflicted":
    two Night Shriekers after B's turn-1 action freeze B's turn-2 action;
    in turn 3 it attacks again.  One expiry, at the end of the frozen action."""
    rec = strict(battle([fighter("B", "c3", "firecracker", "火", body=5, plan=HOLD)],
                        [fighter("N1", "d4", "night-shrieker", "風剣", body=5, plan=once("night-shrieker")),
                         fighter("N2", "d4", "night-shrieker", "風剣", body=5, plan=once("night-shrieker"))],
                        order=["B", "N1", "N2"]),
                 turns=3, script={"chances": [True, True], "ties": [0, 0]})  # Freeze x2; B's target N1 x2
    assert applied(rec, "B") == [(1, "freeze", "character", None, None, 1)] * 2
    assert [(t, r) for t, _, _, r in passed(rec, "B")] == [(2, "frozen")]
    assert [t for t, _, _ in uses(rec, "B")] == [1, 3]
    assert expired(rec, "B") == [(2, "freeze", "character", None, None)]


def test_r_st_2_a_change_when_every_panel_is_wind_has_no_effect() -> None:
    """R-ST-2: "a change when every panel is wind: no effect".  B's 風剣: the
    first Whirlwind changes panel 1; now every panel reads wind, and the
    second has no effect (its damage still lands, R-TURN-3a)."""
    rec = strict(battle([fighter("W1", "c3", "whirlwind", "風風", plan=HOLD),
                         fighter("W2", "c3", "whirlwind", "風風", plan=HOLD)],
                        [fighter("B", "c3", "", "風剣", body=5, plan=HOLD)], order=["W1", "W2", "B"]))
    assert applied(rec, "B") == [(1, "change", "panel", 1, 0, 3)]
    assert no_effect(rec) == [(1, "B", "change", "panel", "every panel is wind", "R-ST-2")]
    assert damage_to(rec, "B") == [(2, "skill", "whirlwind"), (2, "skill", "whirlwind")]


def test_r_st_2_poison_when_every_panel_is_poisoned_has_no_effect_but_the_hit_lands() -> None:
    """R-ST-2: "Poison when every panel of the active pattern is poisoned ...:
    no effect": B's two panels take the first two poisons (leftmost first,
    R-ST-POISON); the third has no effect."""
    rec = strict(battle([fighter(n, "c3", "poison-fang", "水剣", plan=HOLD) for n in ("P1", "P2", "P3")],
                        [fighter("B", "c3", "", "地火", body=5, plan=HOLD)], order=["P1", "P2", "P3", "B"]))
    assert [(a[3], a[4]) for a in applied(rec, "B")] == [(0, 0), (1, 0)]
    assert no_effect(rec) == [(1, "B", "poison", "panel", "every panel is poisoned", "R-ST-2")]
    assert damage_to(rec, "B") == [(2, "skill", "poison-fang")] * 3


def test_r_st_2_a_changed_panel_keeps_its_poison() -> None:
    """R-ST-2: "A changed panel keeps ... its poison": B's panel 0 (剣) is
    poisoned, then changed to wind; B pays Pressurize (風) with it and takes
    1 typeless poison damage."""
    rec = strict(battle([fighter("P", "c3", "poison-fang", "水剣", body=5, plan=HOLD),
                         fighter("W", "d4", "whirlwind", "風風", body=5, plan=HOLD)],
                        [fighter("B", "c3", "pressurize", "剣剣", body=5, plan=HOLD)], order=["P", "W", "B"]),
                 script={"chances": [True], "knockback": [0]})  # Pressurize's knockback on P, N
    assert [(a[1], a[3]) for a in applied(rec, "B")] == [("poison", 0), ("change", 0)]
    assert uses(rec, "B") == [(1, "pressurize", (0,))]
    assert damage_to(rec, "B")[-1] == (1, "poison", "pressurize")
    poison = [d for d in of(rec, E.Damage) if d.cause == "poison"][0]
    assert (poison.element, poison.rule) == ("", "R-ST-POISON")


def test_r_st_2_a_changed_panel_keeps_its_used_state() -> None:
    """R-ST-2: "A changed panel keeps its state": B pays Slash with panel 0,
    Whirlwind changes that used panel to wind; it stays used, so B's Skill
    Ensnare (風地) cannot pay and X's Firecracker is not obstructed."""
    rec = strict(battle([fighter("B", "c3", "slash skill-ensnare", "剣地", body=5, plan=HOLD)],
                        [fighter("W", "c3", "whirlwind", "風風", body=5, plan=HOLD),
                         fighter("X", "a5", "firecracker", "火", plan=HOLD)], order=["B", "W", "X"]))
    assert uses(rec, "B") == [(1, "slash", (0,))]
    assert applied(rec, "B") == [(1, "change", "panel", 0, 0, 3)]
    assert of(rec, E.Obstructed) == [] and of(rec, E.SinkStarted) == []
    assert damage_to(rec, "B") == [(2, "skill", "whirlwind"), (1, "skill", "firecracker")]


# ------------------------------------------------------------------ R-ST-CHANGE


def test_r_st_change_leftmost_non_wind_panel_of_the_active_pattern() -> None:
    """R-ST-CHANGE: "turns the leftmost non-wind panel of the active pattern
    into wind": B's active pattern is its second (火風, by condition); the
    change lands on its panel 0 (pattern 1), and B's Firecracker (火) can no
    longer be paid."""
    rec = strict(battle([fighter("W", "c3", "whirlwind", "風風", plan=HOLD)],
                        [fighter("B", "c3", "firecracker", ["火火", cond_pattern("火風", 0)], body=5, plan=HOLD)],
                        order=["W", "B"]))
    assert applied(rec, "B") == [(1, "change", "panel", 0, 1, 3)]
    assert [(p.pattern, p.reason) for p in of(rec, E.PatternSelected) if p.actor == "B" and p.turn == 1] == \
        [(1, "condition")]
    assert passed(rec, "B") == [(1, "firecracker", 0, "cost_unpayable")]


def test_r_st_change_skips_wind_panels() -> None:
    """R-ST-CHANGE: "the leftmost non-wind panel": on 風火風剣 the changes
    land on panels 1 then 3."""
    rec = strict(battle([fighter("W1", "c3", "whirlwind", "風風", plan=HOLD),
                         fighter("W2", "c3", "whirlwind", "風風", plan=HOLD)],
                        [fighter("B", "c3", "", "風火風剣", body=5, plan=HOLD)], order=["W1", "W2", "B"]))
    assert [(a[3], a[4], a[5]) for a in applied(rec, "B")] == [(1, 0, 3), (3, 0, 3)]


def test_r_st_change_does_not_release_a_maintained_skill_whose_panel_it_changes() -> None:
    """R-ST-CHANGE: "it does not release a maintained skill whose panel it
    changes": Sala's panels 0 then 1 become wind; Sala stays maintained, its
    panels stay assigned, and it counters in both turns."""
    rec = strict(battle([fighter("W", "c3", "whirlwind", "風風", body=5, plan=HOLD)],
                        [fighter("S", "d4", "sala-twin-trees", "剣剣", body=5, plan=HOLD)], order=["S", "W"]),
                 turns=2)
    assert [(a[0], a[3]) for a in applied(rec, "S")] == [(1, 0), (2, 1)]
    assert of(rec, E.MaintainReleased) == []
    assert [r.kept for r in of(rec, E.PanelsReset) if r.actor == "S" and r.turn == 2] == [(0, 1)]
    assert passed(rec, "S") == [(2, "sala-twin-trees", 0, "already_maintained")]
    assert damage_to(rec, "W") == [(1, "counter", "sala-twin-trees")] * 4


# ------------------------------------------------------------------ R-ST-SINK


def test_r_st_sink_area_counts_as_engaged_for_everyone_for_movement_and_the_plan() -> None:
    """R-ST-SINK: "A sunk area counts as engaged for everyone in it -- for
    movement, ... and the plan's `engaged`".  A's Firecracker on E is
    ensnared and sinks c3; A's ally A2 there, with no enemy in its area, reads
    `engaged` (its clause holds back Firecracker) and cannot move."""
    a2 = plan("never use firecracker when engaged\nmove to c1\n")
    rec = strict(battle([fighter("A", "c3", "firecracker", "火", plan=HOLD),
                         fighter("A2", "c3", "firecracker", "火", plan=a2)],
                        [fighter("E", "e5", "skill-ensnare", "風地", plan=HOLD)], order=["A", "A2", "E"]))
    assert [(s.actor, s.skill, square_name(s.square)) for s in of(rec, E.SinkStarted)] == [("E", "skill-ensnare", "c3")]
    assert [(p.skill, p.reason, p.line) for p in of(rec, E.SkillPassed) if p.actor == "A2"] == \
        [("firecracker", "condition_false", 1)]
    assert [(s.reason, s.line) for s in of(rec, E.Stayed) if s.actor == "A2"] == [("sunk", 2)]
    assert moves(rec, "A2") == []


def _ext_layout(sink: bool) -> BattleSetup:
    a_plan = [TargetPref(line=1, preference=Preference(kind=PreferenceKind.NAMED, name="E")), *HOLD]
    a2_plan = [Extend(line=1, skill="eruption", count=1), *HOLD]
    return battle([fighter("A", "c3", "firecracker" if sink else "", "火", plan=a_plan),
                   fighter("A2", "c3", "eruption", "火火火", plan=a2_plan)],
                  [fighter("E", "e5", "skill-ensnare", "風地", plan=HOLD),
                   fighter("Y", "b2", "", body=5, plan=HOLD), fighter("Z", "b3", "", body=5, plan=HOLD)],
                  order=["A", "A2", "E", "Y", "Z"])


def test_r_st_sink_area_counts_as_engaged_for_extension() -> None:
    """R-ST-SINK: a sunk area counts as engaged "for ... R-EXT-4" ("While the
    user is engaged, an extended use takes every target, primary included,
    from the user's own area").  Unsunk, A2's Eruption extends to Y and Z;
    in the sunk c3 (no one else there) the use stays unextended."""
    control = strict(_ext_layout(sink=False), script={"ties": [0]})  # primary among Y, Z
    chosen = of(control, E.TargetsChosen)[0]
    assert (chosen.actor, chosen.extend_requested, chosen.extended, len(chosen.targets)) == ("A2", 1, 1, 2)
    rec = strict(_ext_layout(sink=True), script={"ties": [0]})
    assert [square_name(s.square) for s in of(rec, E.SinkStarted)] == ["c3"]
    chosen = [t for t in of(rec, E.TargetsChosen) if t.actor == "A2"][0]
    assert (chosen.extend_requested, chosen.extended, chosen.targets) == (1, 0, ("Y",))
    assert [u.panels for u in of(rec, E.SkillUsed) if u.actor == "A2"] == [(0, 1)]


def test_r_st_sink_stays_sunk_when_its_user_is_pushed_out_until_the_users_next_action() -> None:
    """R-ST-SINK: "it stays sunk if the user is pushed out" and lasts "until
    the start of the user's next action": A is pushed from c3 to b3; c3 stays
    sunk (A2 there cannot move); the sinking of c3 ends when A's turn-2
    action starts, and A2 walks."""
    p_plan = [TargetPref(line=1, preference=Preference(kind=PreferenceKind.NAMED, name="A")), only_turn("pressurize", 1, 2), *HOLD]
    a_plan = [TargetPref(line=1, preference=Preference(kind=PreferenceKind.NAMED, name="E")), only_turn("firecracker", 1, 2), *HOLD]
    rec = strict(battle([fighter("A", "c3", "firecracker", "火", plan=a_plan),
                         fighter("A2", "c3", "", plan=[MoveTo(line=1, square=parse_square("c1"))])],
                        [fighter("E", "e5", "skill-ensnare", "風地", plan=HOLD),
                         fighter("P", "d3", "pressurize", "風", body=5, plan=p_plan)],
                        order=["A", "P", "A2", "E"]), turns=2, script={"chances": [True]})  # knockback
    assert [(k.target, square_name(k.from_square), square_name(k.to_square)) for k in of(rec, E.Knockback)] == \
        [("A", "c3", "b3")]
    assert stays(rec, "A2") == [(1, "sunk")]
    assert [(s.turn, s.actor, square_name(s.square), s.cause) for s in of(rec, E.SinkEnded)] == \
        [(2, "A", "c3", "owner_action")]
    assert [e.TYPE for e in action(rec, "A", 2)][:2] == ["action_start", "sink_ended"]
    assert moves(rec, "A2") == [(2, "c2")]


def test_r_st_sink_overlapping_sinkings_end_with_the_last() -> None:
    """R-ST-SINK: "Overlapping sinkings end with the last": A1 and A2 both
    sink c3; when A1's next action starts its sinking ends but c3 stays sunk
    (B still cannot move) until A2's next action starts."""
    b_plan = [MoveTo(line=1, square=parse_square("c1"))]
    rec = strict(battle([fighter("A1", "c3", "firecracker", "火", plan=once("firecracker")),
                         fighter("B", "c3", "", plan=b_plan),
                         fighter("A2", "c3", "firecracker", "火", plan=once("firecracker"))],
                        [fighter("E", "e5", "skill-ensnare", "風地風地", plan=HOLD)],
                        order=["A1", "B", "A2", "E"]), turns=3)
    assert [(s.turn, square_name(s.square)) for s in of(rec, E.SinkStarted)] == [(1, "c3"), (1, "c3")]
    assert [(s.turn, s.actor, s.cause) for s in of(rec, E.SinkEnded)] == \
        [(2, "A1", "owner_action"), (2, "A2", "owner_action")]
    assert stays(rec, "B") == [(1, "sunk"), (2, "sunk")]
    assert moves(rec, "B") == [(3, "c2")]


def test_r_st_sink_ends_when_its_user_is_down_even_after_being_pushed_out() -> None:
    """R-ST-SINK: "until the start of the user's next action or until the
    user is down, whichever comes first": A, pushed out of the sunk c3, is
    then felled; c3's sinking ends at once (B, still in c3, walks in the same
    turn)."""
    p_plan = [TargetPref(line=1, preference=Preference(kind=PreferenceKind.NAMED, name="A")), *HOLD]
    k_plan = [TargetPref(line=1, preference=Preference(kind=PreferenceKind.NAMED, name="A")), *HOLD]
    a_plan = [TargetPref(line=1, preference=Preference(kind=PreferenceKind.NAMED, name="E")), *HOLD]
    rec = strict(battle([fighter("A", "c3", "firecracker", "火", hp=1, plan=a_plan),
                         fighter("W2", "h1", "", plan=HOLD),
                         fighter("B", "c3", "", plan=[MoveTo(line=1, square=parse_square("c1"))])],
                        [fighter("E", "e5", "skill-ensnare", "風地", plan=HOLD),
                         fighter("P", "d3", "pressurize", "風", plan=p_plan),
                         fighter("K", "a5", "firecracker", "火", plan=k_plan),
                         fighter("B2", "h8", "", plan=HOLD)],
                        order=["A", "P", "K", "B", "E", "W2", "B2"]), script={"chances": [True]})  # knockback
    assert [(k.target, square_name(k.to_square)) for k in of(rec, E.Knockback)] == [("A", "b3")]
    assert [(d.target, d.cause) for d in of(rec, E.Down)] == [("A", "hit")]
    assert [(s.turn, s.actor, square_name(s.square), s.cause) for s in of(rec, E.SinkEnded)] == \
        [(1, "A", "c3", "owner_down")]
    assert moves(rec, "B") == [(1, "c2")]


def test_r_st_sink_a_user_already_down_when_ensnare_fires_sinks_nothing() -> None:
    """R-ST-SINK: sunk "until the start of the user's next action or until the
    user is down, whichever comes first".  A's extended Eruption: K's
    Kusanagi counter fells A on the first target (R-CHAR-2a: the use goes on),
    then E's Skill Ensnare cancels it against E -- its user is already down,
    so no sinking lasts: W, in A's area, walks away in the same turn."""
    a_plan = [Extend(line=1, skill="eruption", count=1),
              TargetPref(line=2, preference=Preference(kind=PreferenceKind.NAMED, name="K")), *HOLD]
    rec = strict(battle([fighter("A", "c3", "eruption", "火火火", hp=3, plan=a_plan),
                         fighter("W", "c3", "", plan=[MoveTo(line=1, square=parse_square("a1"))]),
                         fighter("W2", "h1", "", plan=HOLD), fighter("W3", "h2", "", plan=HOLD)],
                        [fighter("K", "d4", "kusanagi", "火剣", body=5, plan=HOLD),
                         fighter("E", "d3", "skill-ensnare", "風地", plan=HOLD),
                         fighter("B2", "h8", "", plan=HOLD)],
                        order=["A", "W", "K", "E", "W2", "W3", "B2"]))
    assert of(rec, E.SkillUsed)[0].targets == ("K", "E")
    assert [(d.target, d.cause) for d in of(rec, E.Down)] == [("A", "hit")]
    assert [(o.actor, o.by) for o in of(rec, E.Obstructed)] == [("E", "A")]
    assert of(rec, E.SinkStarted) == [] and of(rec, E.SinkEnded) == []
    assert moves(rec, "W") == [(1, "b2")]


# ------------------------------------------------------------------ R-ST-CLEANSE


def test_r_st_cleanse_rest_removes_the_first_status_only_skills_then_clauses_then_panels() -> None:
    """R-ST-CLEANSE: "Rest removes one status (chance 2/3 ...): the first of
    the target's skill entries (sheet order), plan clauses, active-pattern
    panels left to right (poison only)".  B carries a skill Bind, a clause
    Bind and a poison; R's Rests of turns 1, 2 and 3 remove them in that
    order, one each; the cleansed Binds never expire."""
    rec = strict(battle([fighter("B", "c3", "slash", "剣剣", body=5, plan=[Hold(line=1)]),
                         fighter("R", "a1", "rest", "水", plan=HOLD)],
                        [fighter("I", "c3", "ia-temu-curse", "地剣", body=5, plan=once("ia-temu-curse")),
                         fighter("H", "e5", "heat-wave", "火風", plan=once("heat-wave")),
                         fighter("P", "c3", "poison-fang", "水剣", body=5, plan=once("poison-fang"))],
                        order=["I", "H", "P", "B", "R"]),
                 turns=3, script={"chances": [True, True, True, True], "ties": [0, 0]})
    # chances: Curse's Bind, then Rest's cleanse x3; ties: B's Slash target (I or P) in turns 2, 3
    assert [a[1:4] for a in applied(rec, "B")] == [("bind", "skill", 0), ("bind", "clause", 1), ("poison", "panel", 0)]
    assert cleansed(rec, "B") == [(1, "bind", "skill", 0, None, "R", "rest"),
                                  (2, "bind", "clause", 1, None, "R", "rest"),
                                  (3, "poison", "panel", 0, 0, "R", "rest")]
    rolls = [(c.turn, c.effect, c.numerator, c.denominator, c.success)
             for c in of(rec, E.ChanceRoll) if c.skill == "rest"]
    assert rolls == [(t, "cleanse", 2, 3, True) for t in (1, 2, 3)]
    assert expired(rec, "B") == []
    assert [t for t, _, _ in uses(rec, "B")] == [2, 3]  # the cleansed entry is usable from B's next action


def test_r_st_cleanse_rest_failing_its_chance_removes_nothing() -> None:
    """R-ST-CLEANSE: "Rest removes one status (chance 2/3 ...)": the draw
    fails; the poison stays and hurts B's next payment."""
    rec = strict(battle([fighter("B", "c3", "slash", "剣", body=5, plan=HOLD),
                         fighter("R", "d4", "rest", "水", plan=[only_turn("rest", 1), *HOLD])],
                        [fighter("P", "c3", "poison-fang", "水剣", body=5, plan=once("poison-fang"))],
                        order=["P", "R", "B"]), script={"chances": [False]})
    assert [(c.effect, c.success) for c in of(rec, E.ChanceRoll)] == [("cleanse", False)]
    assert cleansed(rec, "B") == []
    assert [d.cause for d in of(rec, E.Damage) if d.target == "B"] == ["skill", "poison"]


def test_r_st_cleanse_rest_draws_nothing_for_statuses_on_the_character_or_a_panel_change() -> None:
    """R-ST-CLEANSE: Rest's chance is "drawn only if one exists" among skill
    entries, clauses and panels "(poison only)"; "Neither touches statuses on
    the character itself (Bind, Freeze)".  B carries Bind, Freeze and a panel
    change: Rest heals, draws nothing (the strict script has no outcome for
    it) and removes nothing; B is frozen and bound in its action."""
    rec = strict(battle([fighter("R", "g7", "rest", "水", plan=HOLD),
                         fighter("B", "e5", "firecracker", "火剣", body=5,
                                 plan=[MoveTo(line=1, square=parse_square("e8"))])],
                        [fighter("F", "c3", "flame-bind", "火水", body=5, plan=HOLD),
                         fighter("N", "d5", "night-shrieker", "風剣", body=5, plan=HOLD),
                         fighter("W", "d5", "whirlwind", "風風", body=5, plan=HOLD)],
                        order=["F", "N", "W", "R", "B"]), script={"chances": [True]})  # Freeze
    assert [a[1:3] for a in applied(rec, "B")] == [("bind", "character"), ("freeze", "character"), ("change", "panel")]
    assert [(u.skill, u.targets) for u in of(rec, E.SkillUsed) if u.actor == "R"] == [("rest", ("B",))]
    assert [c for c in of(rec, E.ChanceRoll) if c.skill == "rest"] == []
    assert cleansed(rec, "B") == []
    assert passed(rec, "B") == [(1, "firecracker", 0, "frozen")]
    assert stays(rec, "B") == [(1, "bound")]


def test_r_st_cleanse_restore_removes_everything_on_every_pattern_but_not_on_the_character() -> None:
    """R-ST-CLEANSE: "Restore removes all of those, those on inactive
    patterns, and panel changes.  Neither touches statuses on the character
    itself (Bind, Freeze)".  B's first pattern (now inactive) carries a
    poisoned, changed panel; its active second pattern a poison; its entry
    and clause are bound; the character is bound and frozen.  Restore removes
    the first five, in order, and nothing else: B is frozen in turn 3 and its
    Bind runs out at the end of its turn-4 action."""
    def turn2(skill: str) -> list[Any]:
        return [only_turn(skill, 2), *HOLD]

    b_patterns = ["剣剣", cond_pattern("水剣", 2)]
    rec = strict(battle([fighter("B", "c3", "eruption", b_patterns, body=5, plan=[Hold(line=1)]),
                         fighter("R", "b2", "restore", "水地", plan=turn2("restore"))],
                        [fighter("P", "c3", "poison-fang", "水剣", body=5, plan=once("poison-fang")),
                         fighter("W", "d4", "whirlwind", "風風", body=5, plan=once("whirlwind")),
                         fighter("P2", "c3", "poison-fang", "水剣", body=5, plan=turn2("poison-fang")),
                         fighter("I", "c3", "ia-temu-curse", "地剣", body=5, plan=turn2("ia-temu-curse")),
                         fighter("H", "d4", "heat-wave", "火風", body=5, plan=turn2("heat-wave")),
                         fighter("F", "d4", "flame-bind", "火水", body=5, plan=turn2("flame-bind")),
                         fighter("N", "d4", "night-shrieker", "風剣", body=5, plan=turn2("night-shrieker"))],
                        order=["P", "W", "B", "P2", "I", "H", "F", "N", "R"]),
                 turns=4, script={"chances": [True, True]})  # Curse's Bind, Freeze
    assert [a[:5] for a in applied(rec, "B")] == [
        (1, "poison", "panel", 0, 0), (1, "change", "panel", 0, 0),
        (2, "poison", "panel", 0, 1), (2, "bind", "skill", 0, None), (2, "bind", "clause", 1, None),
        (2, "bind", "character", None, None), (2, "freeze", "character", None, None)]
    assert [c[:5] for c in cleansed(rec, "B")] == [
        (2, "bind", "skill", 0, None), (2, "bind", "clause", 1, None),
        (2, "poison", "panel", 0, 0), (2, "change", "panel", 0, 0), (2, "poison", "panel", 0, 1)]
    assert [c for c in of(rec, E.ChanceRoll) if c.skill == "restore"] == []
    assert [(t, r) for t, _, _, r in passed(rec, "B")][-2:] == [(3, "frozen"), (4, "cost_unpayable")]
    assert expired(rec, "B") == [(3, "freeze", "character", None, None), (4, "bind", "character", None, None)]


# ------------------------------------------------------------------ R-ST-BIND


def test_r_st_bind_skill_bind_takes_the_first_unbound_entry_in_sheet_order_not_walk_order() -> None:
    """R-ST-BIND: "Skill Bind takes the first unbound entry in sheet order" and
    "that entry cannot be used": `use firecracker first` puts entry 1 first in
    B's walk, but the Curse binds entry 0 (Slash), passed as `bound`, while
    Firecracker is still used."""
    b_plan = [UseFirst(line=1, skill="firecracker"), *HOLD]
    rec = strict(battle([fighter("I", "c3", "ia-temu-curse", "地剣", body=5, plan=HOLD)],
                        [fighter("B", "c3", "slash firecracker", "剣火", body=5, plan=b_plan)], order=["I", "B"]),
                 script={"chances": [True]})
    assert applied(rec, "B") == [(1, "bind", "skill", 0, None, 3)]
    assert of(rec, E.SkillOrder)[-1].entries == (1, 0)
    assert [(s.skill, s.entry, s.reason, s.rule) for s in of(rec, E.SkillPassed) if s.actor == "B"] == \
        [("slash", 0, "bound", "R-ST-BIND")]
    assert [u[1] for u in uses(rec, "B")] == ["firecracker"]


def test_r_st_bind_a_bound_entry_cannot_fire_and_with_every_entry_bound_a_skill_bind_has_no_effect() -> None:
    """R-ST-BIND: a bound entry "cannot be used or fire"; "none left ...: no
    effect".  Avenger reduces the first Curse (R-TURN-3 step 2), whose Bind
    lands at step 3, so Avenger's counter (step 5) no longer fires; against
    the second Curse it does not fire at all, and the second Bind finds no
    unbound entry."""
    rec = strict(battle([fighter("I", "c3", "ia-temu-curse", "地剣", body=5, plan=HOLD)],
                        [fighter("B", "c3", "avenger", "地", body=5, plan=HOLD)], order=["I", "B"]),
                 turns=2, script={"chances": [True, True]})
    # turn 1: Avenger reduces (step 2, paid), the Bind lands (step 3): its counter (step 5) no longer fires
    assert [(r.turn, r.skill, r.kind) for r in of(rec, E.Reaction)] == [(1, "avenger", "defence")]
    assert damage_to(rec, "I") == []
    assert damage_to(rec, "B") == [(3, "skill", "ia-temu-curse"), (4, "skill", "ia-temu-curse")]
    assert applied(rec, "B") == [(1, "bind", "skill", 0, None, 3)]
    assert no_effect(rec) == [(2, "B", "bind", "skill", "every entry is bound", "R-ST-BIND")]
    # A character with no skill entries at all (only possible in a hand-built
    # position) is told apart from one whose entries are all bound.
    bare = strict(battle([fighter("I", "c3", "ia-temu-curse", "地剣", body=5, plan=HOLD)],
                         [fighter("B", "c3", "", body=5, plan=HOLD)], order=["I", "B"]),
                  script={"chances": [True]})
    assert no_effect(bare) == [(1, "B", "bind", "skill", "no skills", "R-ST-BIND")]


def test_r_st_bind_a_maintained_entry_is_released_and_makes_no_counter() -> None:
    """R-ST-BIND: "On a skill entry: that entry cannot be used or fire, and if
    maintained it is released".  The Curse binds S's maintained Sala (step 3
    of R-TURN-3): it is released at once and its counters (step 5) do not
    come; in S's next action the entry is passed as bound and nothing is kept."""
    rec = strict(battle([fighter("I", "c3", "ia-temu-curse", "地剣", body=5, plan=HOLD)],
                        [fighter("S", "c3", "sala-twin-trees", "剣剣", body=5, plan=HOLD)], order=["S", "I"]),
                 turns=2, script={"chances": [True, True]})
    assert [(m.turn, m.skill, m.entry, m.cause, m.rule) for m in of(rec, E.MaintainReleased)] == \
        [(1, "sala-twin-trees", 0, "bound", "R-ST-BIND")]
    released = next(i for i, e in enumerate(rec.events) if isinstance(e, E.MaintainReleased))
    assert isinstance(rec.events[released - 1], E.StatusApplied)
    assert [r for r in of(rec, E.Reaction) if r.actor == "S"] == []
    assert damage_to(rec, "I") == []
    assert [r.kept for r in of(rec, E.PanelsReset) if r.actor == "S" and r.turn == 2] == [()]
    assert passed(rec, "S") == [(2, "sala-twin-trees", 0, "bound")]


def test_r_st_bind_a_bound_clause_is_ignored_and_clause_binds_go_in_file_order() -> None:
    """R-ST-BIND: "On a plan clause: the clause is ignored ... clause Bind the
    first unbound clause in file order; none left ...: no effect".  Heat Waves
    bind B's line 3 (`never use firecracker`) then line 5 (`hold position`);
    the third finds none.  B fires and, its hold ignored, does not stay for it."""
    b_plan = [NeverUse(line=3, skill="firecracker"), Hold(line=5)]
    rec = strict(battle([fighter("H1", "c3", "heat-wave", "火風", body=5, plan=HOLD),
                         fighter("H2", "c3", "heat-wave", "火風", body=5, plan=HOLD),
                         fighter("H3", "c3", "heat-wave", "火風", body=5, plan=HOLD)],
                        [fighter("B", "d4", "firecracker", "火", body=5, plan=b_plan)],
                        order=["H1", "H2", "H3", "B"]), script={"ties": [0]})  # B's target among H1..H3
    assert [a[2:4] for a in applied(rec, "B")] == [("clause", 3), ("clause", 5)]
    assert no_effect(rec) == [(1, "B", "bind", "clause", "no unbound clause", "R-ST-BIND")]
    assert [u[1] for u in uses(rec, "B")] == ["firecracker"]
    assert [(s.reason, s.line) for s in of(rec, E.Stayed) if s.actor == "B"] == [("attacked", None)]


def test_r_st_bind_with_no_plan_a_clause_bind_has_no_effect() -> None:
    """R-ST-BIND: "clause Bind ...; none left, or no plan: no effect"."""
    rec = strict(battle([fighter("H", "c3", "heat-wave", "火風", plan=HOLD)],
                        [fighter("B", "d4", "", body=5, plan=None)], order=["H", "B"]))
    assert applied(rec, "B") == []
    assert no_effect(rec) == [(1, "B", "bind", "clause", "no plan", "R-ST-BIND")]


def test_r_st_bind_the_plans_bound_means_bind_on_the_character() -> None:
    """R-ST-BIND: "The plan's `bound` means Bind on the character": B's
    `never use firecracker when bound` does not hold under the Curse's skill
    Bind (on Slash), and holds under Flame Bind."""
    b_plan = "never use firecracker when bound\nhold position\n"
    by_curse = strict(battle([fighter("I", "c3", "ia-temu-curse", "地剣", body=5, plan=HOLD)],
                             [fighter("B", "c3", "slash firecracker", "剣火", body=5, plan=plan(b_plan))],
                             order=["I", "B"]), script={"chances": [True]})
    assert [a[1:4] for a in applied(by_curse, "B")] == [("bind", "skill", 0)]
    assert [u[1] for u in uses(by_curse, "B")] == ["firecracker"]
    by_flame = strict(battle([fighter("F", "c4", "flame-bind", "火水", body=5, plan=HOLD)],
                             [fighter("B", "c3", "slash firecracker", "剣火", body=5, plan=plan(b_plan))],
                             order=["F", "B"]))
    assert [a[1:4] for a in applied(by_flame, "B")] == [("bind", "character", None)]
    assert [(p.skill, p.reason, p.line) for p in of(by_flame, E.SkillPassed) if p.actor == "B"] == \
        [("slash", "no_target", None), ("firecracker", "condition_false", 1)]


# ------------------------------------------------------------------ R-ST-POISON


def test_r_st_poison_on_a_maintained_panel_hurts_at_every_maintenance_step_the_paying_one_included() -> None:
    """R-ST-POISON: "at maintenance it deals 1 if assigned to a maintained
    skill (R-TURN-4)"; R-TURN-4: "deals 1 at every maintenance step, the one
    of the action that paid it included".  S starts Sala with a poisoned
    panel: 1 for paying, 1 at that action's maintenance, 1 at the next."""
    rec = strict(battle([fighter("P", "h1", "poison-fang", "水剣", body=5, plan=once("poison-fang"))],
                        [fighter("S", "h1", "sala-twin-trees", "剣剣", body=5, plan=HOLD)], order=["P", "S"]),
                 turns=2)
    assert applied(rec, "S") == [(1, "poison", "panel", 0, 0, None)]
    assert [(d.turn, d.amount, d.cause, d.skill, d.rule) for d in of(rec, E.Damage) if d.target == "S"] == [
        (1, 2, "skill", "poison-fang", "R-TURN-3"),
        (1, 1, "poison", "sala-twin-trees", "R-ST-POISON"),
        (1, 1, "poison", "sala-twin-trees", "R-TURN-4"),
        (2, 1, "poison", "sala-twin-trees", "R-TURN-4")]
    turn1 = [e.TYPE for e in action(rec, "S", 1)]
    assert turn1.index("maintain_started") < turn1.index("damage") < turn1.index("stayed")
    assert hp(rec, "S") == 20 - 5


def test_r_st_poison_at_0_hp_takes_nothing_and_records_nothing() -> None:
    """R-ST-POISON with R-CHAR-2 ("HP never below 0") and R-CHAR-2a (down is
    settled after the step): S pays Sala with two poisoned panels at 1 HP --
    the first deals 1, the second meets 0 HP and is not recorded as a
    0-damage loss; then S is down."""
    rec = strict(battle([fighter("P", "h1", "poison-fang", "水剣", body=5, plan=once("poison-fang")),
                         fighter("Q", "h1", "poison-fang", "水剣", body=5, plan=once("poison-fang"))],
                        [fighter("S", "h1", "sala-twin-trees", "剣剣", body=5, hp=5, plan=HOLD)],
                        order=["P", "Q", "S"]))
    assert [a[3] for a in applied(rec, "S")] == [0, 1]
    assert [(d.amount, d.hp_after, d.cause) for d in of(rec, E.Damage) if d.target == "S"] == [
        (2, 3, "skill"), (2, 1, "skill"), (1, 0, "poison")]
    assert [d.target for d in of(rec, E.Down)] == ["S"]


def test_r_st_poison_on_a_panel_not_assigned_to_a_maintained_skill_does_not_hurt_at_maintenance() -> None:
    """R-ST-POISON: "at maintenance it deals 1 if assigned to a maintained
    skill": the poison sits on panel 0 (水); Sala is paid with panels 1, 2."""
    rec = strict(battle([fighter("P", "h1", "poison-fang", "水剣", body=5, plan=once("poison-fang"))],
                        [fighter("S", "h1", "sala-twin-trees", "水剣剣", body=5, plan=HOLD)], order=["P", "S"]),
                 turns=2)
    assert [m.panels for m in of(rec, E.MaintainStarted)] == [(1, 2)]
    assert [d.cause for d in of(rec, E.Damage) if d.target == "S"] == ["skill"]


def test_r_st_poison_a_released_skill_no_longer_hurts_at_maintenance() -> None:
    """R-ST-POISON / R-TURN-4: only a panel "assigned to a maintained skill"
    hurts: `release sala when turn >= 2` releases it at turn 2's
    maintenance step, which then deals nothing."""
    s_plan = [Release(line=1, skill="sala-twin-trees", when=lambda c: c.state.turn >= 2), *HOLD]
    rec = strict(battle([fighter("P", "h1", "poison-fang", "水剣", body=5, plan=once("poison-fang"))],
                        [fighter("S", "h1", "sala-twin-trees", "剣剣", body=5, plan=s_plan)], order=["P", "S"]),
                 turns=2)
    assert [(m.turn, m.cause, m.line) for m in of(rec, E.MaintainReleased)] == [(2, "clause", 1)]
    assert [(d.turn, d.rule) for d in of(rec, E.Damage) if d.cause == "poison"] == \
        [(1, "R-ST-POISON"), (1, "R-TURN-4")]


def test_r_st_poison_at_maintenance_is_not_a_hit() -> None:
    """R-ST-POISON: "Not a hit" (R-SK-1a: "poison ... damage [is] not [a]
    hit"): Shield Mist, maintained from P's hit, reduces "every hit" but not
    the maintenance poison on its own panel, and fires no reaction for it."""
    rec = strict(battle([fighter("P", "c3", "poison-fang", "水剣", body=5, plan=once("poison-fang"))],
                        [fighter("B", "c3", "shield-mist", "水風", body=5, plan=HOLD)], order=["P", "B"]))
    assert [(m.skill, m.panels) for m in of(rec, E.MaintainStarted)] == [("shield-mist", (0, 1))]
    assert applied(rec, "B") == [(1, "poison", "panel", 0, 0, None)]
    assert [(d.amount, d.cause, d.printed, d.reduced, d.element) for d in of(rec, E.Damage) if d.target == "B"] == \
        [(1, "skill", 2, 1, "sword"), (1, "poison", 1, 0, "")]
    assert [r.turn for r in of(rec, E.Reaction) if r.actor == "B"] == [1]  # P's hit only


def test_r_st_poison_sits_on_the_leftmost_not_yet_poisoned_panel_of_the_active_pattern() -> None:
    """R-ST-POISON: "Poison sits on a panel of the active pattern (the
    leftmost not yet poisoned)": B's active pattern is its second; two
    poisons land on its panels 0 and 1 (pattern 1)."""
    rec = strict(battle([fighter("P1", "c3", "poison-fang", "水剣", plan=HOLD),
                         fighter("P2", "c3", "poison-fang", "水剣", plan=HOLD)],
                        [fighter("B", "c3", "", ["剣剣剣", cond_pattern("地地地", 0)], body=5, plan=HOLD)],
                        order=["P1", "P2", "B"]))
    assert [(a[3], a[4]) for a in applied(rec, "B")] == [(0, 1), (1, 1)]

