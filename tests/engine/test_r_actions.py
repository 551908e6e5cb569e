"""Conformance scenarios for an action's flow, panels, patterns and statuses.

R-TURN-2/3/3a/5, R-CHAR-2a, R-SK-1/3, R-PAN-2/5, R-PAT-3 and R-ST-1/2/CHANGE/
SINK/CLEANSE of ``../shared/spec/rules.md``, in the manner of the DATC: the
smallest position (fixed squares and order, a ``ScriptedRng`` pinning every
chance and choice), the rule quoted, and assertions on the event list.
"""

from __future__ import annotations

from typing import Any

from referee.board import parse_square, square_name
from referee.elements import parse_pattern
from referee.engine import events as E
from referee.engine.battle import BattleRecord
from referee.engine.clauses import Hold, MoveTo, NeverUse, Release

from .helpers import TestPattern as Pat
from .helpers import battle, damage_to, fighter, hp, of, run

HOLD = [Hold(line=9)]


def kinds(rec: BattleRecord, actor: str, turn: int = 1, wanted: tuple[str, ...] = ()) -> list[str]:
    """Event types of ``actor``'s action in ``turn`` (from action_start to action_end)."""
    out: list[str] = []
    inside = False
    for e in rec.events:
        if isinstance(e, E.ActionStart) and e.actor == actor and e.turn == turn:
            inside = True
        if inside and (not wanted or e.TYPE in wanted):
            out.append(e.TYPE)
        if inside and isinstance(e, E.ActionEnd):
            break
    return out


def used(rec: BattleRecord, actor: str) -> list[tuple[int, str, int, tuple[int, ...]]]:
    """(turn, skill, entry, panels) of every active use by ``actor``."""
    return [(u.turn, u.skill, u.entry, tuple(u.panels)) for u in of(rec, E.SkillUsed) if u.actor == actor]


def statuses(rec: BattleRecord, kind: type[E.Event], target: str) -> list[tuple[Any, ...]]:
    return [(e.turn, e.status, e.object, e.index) for e in of(rec, kind) if e.target == target]


# ---------------------------------------------------------------- R-TURN-2 / R-TURN-5


def test_r_turn_2_an_action_selects_resets_walks_maintains_then_moves() -> None:
    """R-TURN-2: "select its pattern (R-PAT-3), reset its panels (R-PAN-2),
    walk its skill list ... then maintenance (R-TURN-4); then movement
    (R-TURN-5). Statuses tick at the end of the action (R-ST-1)"."""
    rec = run(battle([fighter("A", "c3", "firecracker", "火")],
                     [fighter("B", "e5", "", body=5, plan=HOLD)]))
    assert kinds(rec, "A", wanted=("action_start", "pattern_selected", "panels_reset", "skill_order",
                                   "skill_used", "damage", "stayed", "moved", "action_end")) == [
        "action_start", "pattern_selected", "panels_reset", "skill_order", "skill_used", "damage",
        "stayed", "action_end"]


def test_r_turn_2_statuses_tick_at_the_end_of_the_action() -> None:
    """R-TURN-2: "Statuses tick at the end of the action": a Bind of 2 actions
    expires after its bearer's movement step of its second action."""
    rec = run(battle([fighter("A", "c3", "flame-bind", "火水", plan=[NeverUse(line=1, skill="flame-bind",
                                                                            when=lambda c: c.state.turn >= 2), *HOLD])],
                     [fighter("B", "c4", "", body=5, plan=HOLD)], order=["A", "B"]), turns=3)
    assert kinds(rec, "B", turn=2, wanted=("stayed", "status_expired", "action_end")) == [
        "stayed", "status_expired", "action_end"]


def test_r_turn_5_then_the_character_may_move() -> None:
    """R-TURN-5: "Then the character may move" -- after the maintenance step
    (the release of a maintained skill) and before the action ends."""
    plan = [MoveTo(line=1, square=parse_square("a8"))]
    rec = run(battle([fighter("S", "c3", "sala-twin-trees", "剣剣",
                              plan=[Release(line=1, skill="sala-twin-trees", when=lambda c: c.state.turn >= 2),
                                    *plan])],
                     [fighter("B", "h8", "", plan=HOLD)]), turns=2)
    assert kinds(rec, "S", turn=2, wanted=("maintain_released", "moved", "action_end")) == [
        "maintain_released", "moved", "action_end"]


# ---------------------------------------------------------------- R-TURN-3 / 3a


def test_r_turn_3_steps_in_order_and_the_knockback_comes_before_the_counter() -> None:
    """R-TURN-3: "(2) defences reduce ... (3) damage and effects apply, and Aqua
    Form heals; (4) knockback (Aqua Form's too); (5) counters ... each only
    against the attacker and within its range": Aqua Form pushes its owner
    out of its own Avenger's range 0 before Avenger counters."""
    rec = run(battle([fighter("A", "c3", "slash", "剣", plan=HOLD)],
                     [fighter("V", "c3", "aqua-form avenger", "水水地", body=5, plan=HOLD)]))
    assert kinds(rec, "A", wanted=("reaction", "damage", "heal", "knockback", "counter_missed")) == [
        "reaction", "reaction", "damage", "heal", "knockback", "reaction", "counter_missed"]
    defences = [(r.skill, r.reduce) for r in of(rec, E.Reaction) if r.kind == "defence"]
    assert defences == [("aqua-form", 2), ("avenger", 1)]
    assert damage_to(rec, "A") == []


def test_r_turn_3_without_the_push_the_counter_lands() -> None:
    """R-TURN-3 (5): the counter hits the attacker when it is within range."""
    rec = run(battle([fighter("A", "c3", "slash", "剣", plan=HOLD)],
                     [fighter("V", "c3", "aqua-form avenger", "水水地", body=5, plan=HOLD)]),
              script={"chances": [False]})
    assert of(rec, E.Knockback) == []
    assert damage_to(rec, "A") == [(2, "counter", "avenger")]


def test_r_turn_3_counter_damage_triggers_defences_but_no_counter() -> None:
    """R-TURN-3: "Counter damage is a hit for the attacker's defences but never
    triggers a counter": A's Avenger reduces V's Avenger counter but does not
    answer it."""
    rec = run(battle([fighter("A", "c3", "slash avenger", "剣地", body=5, plan=HOLD)],
                     [fighter("V", "c3", "avenger", "地", body=5, plan=HOLD)]))
    a_reactions = [(r.kind, r.skill) for r in of(rec, E.Reaction) if r.actor == "A"]
    assert a_reactions == [("defence", "avenger")]
    assert damage_to(rec, "A") == [(1, "counter", "avenger")]


def test_r_turn_3a_effects_land_when_damage_is_zero() -> None:
    """R-TURN-3a: "A hit's effects (statuses, panel changes, knockback) land
    whatever damage is left after reductions": Whirlwind reduced to 0 by Aqua
    Form still changes a panel."""
    rec = run(battle([fighter("A", "c3", "whirlwind", "風風", plan=HOLD)],
                     [fighter("V", "c3", "aqua-form", "水水剣", body=5, plan=HOLD)]),
              script={"chances": [False]})
    assert [d.amount for d in of(rec, E.Damage) if d.target == "V"] == [0]
    assert statuses(rec, E.StatusApplied, "V") == [(1, "change", "panel", 0)]


def test_r_turn_3a_pressurize_with_no_unused_panel_still_rolls_knockback() -> None:
    """R-TURN-3a: "Pressurize on a target with no unused panel changes none but
    still rolls its knockback"."""
    rec = run(battle([fighter("A", "c3", "pressurize pressurize", "風風", plan=HOLD)],
                     [fighter("V", "d4", "", "剣", plan=HOLD)]), script={"chances": [False, True]})
    assert [p.panel for p in of(rec, E.PanelUsed)] == [0, None]
    assert [c.effect for c in of(rec, E.ChanceRoll)] == ["knockback", "knockback"]
    assert [square_name(k.to_square) for k in of(rec, E.Knockback)] == ["e5"]


# ---------------------------------------------------------------- R-CHAR-2a


def test_r_char_2a_a_felled_target_still_counters() -> None:
    """R-CHAR-2a: "A target felled by a hit still makes that hit's counters
    ... Down is decided when the R-TURN-3 step that hurt the character is
    over"."""
    rec = run(battle([fighter("A", "c3", "slash", "剣", plan=HOLD)],
                     [fighter("V", "c3", "avenger", "地", hp=2, plan=HOLD)]))
    assert damage_to(rec, "V") == [(2, "skill", "slash")] and hp(rec, "V") == 0
    assert damage_to(rec, "A") == [(2, "counter", "avenger")]
    order = [e.TYPE for e in rec.events if e.TYPE in ("damage", "down")]
    assert order == ["damage", "damage", "down"]


def test_r_char_2a_a_user_felled_by_a_counter_ends_its_action() -> None:
    """R-CHAR-2a: a user felled during its own use "finishes that use against
    its remaining targets ...; then its action ends": its next entry is not
    used and it does not move."""
    rec = run(battle([fighter("A", "c3", "slash firecracker", "剣火", hp=2, plan=HOLD),
                      fighter("A2", "a1", "", plan=HOLD)],
                     [fighter("V", "c3", "avenger", "地", body=5, plan=HOLD),
                      fighter("V2", "h8", "", plan=HOLD)]))
    assert hp(rec, "A") == 0
    assert used(rec, "A") == [(1, "slash", 0, (0,))]
    assert kinds(rec, "A", wanted=("stayed", "moved")) == []


# ---------------------------------------------------------------- R-SK-1 / R-SK-3


def test_r_sk_1_each_entry_is_used_at_most_once_per_action() -> None:
    """R-SK-1: "Each skill entry is used at most once per action, actively":
    one entry, one use, though panels remain; a second entry of the same
    skill is a second use."""
    once = run(battle([fighter("A", "c3", "firecracker", "火火", plan=HOLD)],
                      [fighter("B", "d4", "", body=5, plan=HOLD)]))
    assert used(once, "A") == [(1, "firecracker", 0, (0,))]
    twice = run(battle([fighter("A", "c3", "firecracker firecracker", "火火", plan=HOLD)],
                       [fighter("B", "d4", "", body=5, plan=HOLD)]))
    assert used(twice, "A") == [(1, "firecracker", 0, (0,)), (1, "firecracker", 1, (1,))]


def test_r_sk_3_reductions_never_make_damage_negative_and_walls_are_typeless() -> None:
    """R-SK-3: "Damage has an element (the skill's) or is typeless (walls ...).
    Reductions cannot make damage negative"."""
    rec = run(battle([fighter("A", "b2", "firecracker pressurize", "火風", plan=HOLD)],
                     [fighter("V", "a1", "avenger aqua-form", "地水水", body=5, plan=HOLD)]),
              script={"chances": [True, False]})
    hits = [(d.amount, d.hp_after, d.cause, d.element, d.printed) for d in of(rec, E.Damage) if d.target == "V"]
    # Firecracker's printed 1 against Avenger (-1) and Aqua Form (-2): 0, not -2;
    # Aqua Form then pushes its owner from a1 into the wall: 1 typeless damage.
    assert hits == [(0, 20, "skill", "fire", 1), (1, 19, "wall", "", 1)]


# ---------------------------------------------------------------- R-PAN-2 / R-PAN-5


def test_r_pan_2_panels_become_unused_at_the_owners_next_action() -> None:
    """R-PAN-2: "At the start of its owner's action every panel of the active
    pattern becomes unused ... Using a skill turns its cost panels used": a
    passive paid in someone else's action cannot fire again until then."""
    rec = run(battle([fighter("A1", "c3", "slash", "剣", plan=HOLD), fighter("A2", "c3", "slash", "剣", plan=HOLD)],
                     [fighter("V", "c3", "avenger", "地", body=5, plan=HOLD)]), turns=2,
              script={"chances": []})
    fired = [(r.turn, r.attacker) for r in of(rec, E.Reaction) if r.kind == "defence"]
    assert fired == [(1, "A1"), (2, "A1")]  # A2's hits came while the 地 panel was used
    assert [(r.turn, r.kept) for r in of(rec, E.PanelsReset) if r.actor == "V"] == [(0, ()), (1, ()), (2, ())]


def test_r_pan_5_passives_are_readied_from_the_first_hit() -> None:
    """R-PAN-5: "At battle start each character's active pattern is the one
    R-PAT-3 selects, all its panels are unused ...: passives are readied from
    the first hit" -- before the owner has acted at all."""
    rec = run(battle([fighter("A", "c3", "slash", "剣", plan=HOLD)],
                     [fighter("V", "c3", "avenger", "地", body=5, plan=HOLD)], order=["A", "V"]))
    first_v_action = next(i for i, e in enumerate(rec.events) if isinstance(e, E.ActionStart) and e.actor == "V")
    reaction = next(i for i, e in enumerate(rec.events) if isinstance(e, E.Reaction))
    assert reaction < first_v_action
    assert [(r.skill, tuple(r.panels)) for r in of(rec, E.Reaction) if r.kind == "defence"] == [("avenger", (0,))]


# ---------------------------------------------------------------- R-PAT-3


def _pattern_when(turn_at_least: int) -> Pat:
    return Pat(parse_pattern("火火"), when=lambda c: c.state.turn >= turn_at_least,
                       condition_text=f"turn >= {turn_at_least}")


def test_r_pat_3_conditioned_patterns_are_tried_before_the_default() -> None:
    """R-PAT-3: "the active pattern is the first listed whose condition holds,
    conditioned patterns being tried before unconditioned ones (so the first
    unconditioned pattern is the default)"."""
    rec = run(battle([fighter("A", "c3", "", ["剣剣", _pattern_when(2)], plan=HOLD)],
                     [fighter("B", "h8", "", plan=HOLD)]), turns=2)
    chosen = [(p.turn, p.pattern, p.reason) for p in of(rec, E.PatternSelected) if p.actor == "A"]
    assert chosen == [(0, 0, "default"), (1, 0, "default"), (2, 1, "condition")]  # turn 0: R-PAN-5


def test_r_pat_3_switching_patterns_releases_every_maintained_skill() -> None:
    """R-PAT-3: "Switching patterns releases every maintained skill"."""
    rec = run(battle([fighter("S", "c3", "sala-twin-trees", ["剣剣", _pattern_when(2)], plan=HOLD)],
                     [fighter("B", "h8", "", plan=HOLD)]), turns=2)
    assert [(m.turn, m.skill) for m in of(rec, E.MaintainStarted)] == [(1, "sala-twin-trees")]
    assert [(m.turn, m.skill, m.cause) for m in of(rec, E.MaintainReleased)] == [(2, "sala-twin-trees", "pattern_switch")]


# ---------------------------------------------------------------- R-ST-1 / R-ST-2


def test_r_st_1_bind_lasts_its_bearers_actions_and_poison_until_cleansed() -> None:
    """R-ST-1: "A status lasts the number of its bearer's actions named by the
    skill, counted down at the end of each of the bearer's actions ... Poison
    lasts until cleansed"."""
    stop = [NeverUse(line=1, skill="flame-bind", when=lambda c: c.state.turn >= 2),
            NeverUse(line=2, skill="poison-fang", when=lambda c: c.state.turn >= 2), *HOLD]
    rec = run(battle([fighter("A", "c3", "flame-bind poison-fang", "火水水剣", plan=stop)],
                     [fighter("B", "c3", "", body=5, plan=HOLD)], order=["A", "B"]), turns=4)
    assert sorted(s[1] for s in statuses(rec, E.StatusApplied, "B")) == ["bind", "poison"]
    assert statuses(rec, E.StatusExpired, "B") == [(2, "bind", "character", None)]


def test_r_st_2_freeze_covers_only_the_next_action_however_often_inflicted() -> None:
    """R-ST-2: "Freeze covers only the next action however often inflicted"."""
    once = [NeverUse(line=1, skill="night-shrieker", when=lambda c: c.state.turn >= 2), *HOLD]
    rec = run(battle([fighter("A1", "c3", "night-shrieker", "風剣", plan=once),
                      fighter("A2", "c3", "night-shrieker", "風剣", plan=once)],
                     [fighter("B", "c3", "slash", "剣", body=5, plan=HOLD)], order=["A1", "A2", "B"]), turns=2)
    assert [(s.turn, s.status) for s in of(rec, E.StatusApplied) if s.target == "B"] == [(1, "freeze"), (1, "freeze")]
    frozen = [(p.turn, p.reason) for p in of(rec, E.SkillPassed) if p.actor == "B" and p.reason == "frozen"]
    assert frozen == [(1, "frozen")]


def test_r_st_2_poison_when_every_panel_is_poisoned_has_no_effect() -> None:
    """R-ST-2: "Poison when every panel of the active pattern is poisoned ...:
    no effect"."""
    rec = run(battle([fighter("A1", "c3", "poison-fang", "水剣", plan=HOLD),
                      fighter("A2", "c3", "poison-fang", "水剣", plan=HOLD)],
                     [fighter("B", "c3", "", "剣", body=5, plan=HOLD)], order=["A1", "A2", "B"]))
    assert statuses(rec, E.StatusApplied, "B") == [(1, "poison", "panel", 0)]
    assert [(n.status, n.target) for n in of(rec, E.StatusNoEffect)] == [("poison", "B")]


# ---------------------------------------------------------------- R-ST-CHANGE


def test_r_st_change_leftmost_non_wind_panel_becomes_wind_for_3_actions() -> None:
    """R-ST-CHANGE: "A panel change (Whirlwind) turns the leftmost non-wind
    panel of the active pattern into wind (R-ST-1 duration)" -- 3 actions;
    the bearer then pays 剣 from the next panel (R-PAN-3)."""
    stop = [NeverUse(line=1, skill="whirlwind", when=lambda c: c.state.turn >= 2), *HOLD]
    rec = run(battle([fighter("A", "c3", "whirlwind", "風風", body=5, plan=stop)],
                     [fighter("B", "c3", "slash", "剣剣", body=5, plan=HOLD)], order=["A", "B"]), turns=4)
    applied = [(s.status, s.object, s.index, s.duration) for s in of(rec, E.StatusApplied) if s.target == "B"]
    assert applied == [("change", "panel", 0, 3)]
    assert [u[3] for u in used(rec, "B")] == [(1,), (1,), (1,), (0,)]
    assert statuses(rec, E.StatusExpired, "B") == [(3, "change", "panel", 0)]


# ---------------------------------------------------------------- R-ST-SINK


def test_r_st_sink_the_users_area_is_sunk_until_its_next_action_and_others_may_enter() -> None:
    """R-ST-SINK: "When Skill Ensnare fires, the area where the user stands is
    sunk until the start of the user's next action ...; others may still move
    or be pushed in" (the user is the one whose use was cancelled:
    docs/decisions.md)."""
    stop = [NeverUse(line=1, skill="firecracker", when=lambda c: c.state.turn >= 2), *HOLD]
    rec = run(battle([fighter("A", "c3", "firecracker", "火", plan=stop)],
                     [fighter("E", "d4", "skill-ensnare", "風地", plan=HOLD),
                      fighter("F", "b2", "", plan=[MoveTo(line=1, square=parse_square("c3"))])],
                     order=["A", "E", "F"]), turns=2)
    assert [o.against_skill for o in of(rec, E.Obstructed)] == ["firecracker"] and damage_to(rec, "E") == []
    assert [(s.turn, s.actor, square_name(s.square)) for s in of(rec, E.SinkStarted)] == [(1, "E", "c3")]  # E's Ensnare sinks A's area
    assert [(m.turn, square_name(m.to_square)) for m in of(rec, E.Moved) if m.actor == "F"] == [(1, "c3")]
    ended = next(i for i, e in enumerate(rec.events) if isinstance(e, E.SinkEnded))
    a_turn_2 = next(i for i, e in enumerate(rec.events) if isinstance(e, E.ActionStart) and e.actor == "A" and e.turn == 2)
    assert [(s.turn, s.cause) for s in of(rec, E.SinkEnded)] == [(2, "owner_action")] and ended == a_turn_2 + 1


def test_r_st_sink_ends_when_its_user_is_down() -> None:
    """R-ST-SINK: sunk "until the start of the user's next action or until the
    user is down, whichever comes first"."""
    rec = run(battle([fighter("A", "c3", "firecracker", "火", hp=1, plan=HOLD),
                      fighter("A2", "a1", "", plan=HOLD)],
                     [fighter("E", "d4", "skill-ensnare", "風地", plan=HOLD),
                      fighter("K", "a5", "firecracker", "火", plan=HOLD),
                      fighter("K2", "h8", "", plan=HOLD)], order=["A", "K", "E", "A2", "K2"]))
    assert [(s.actor, square_name(s.square)) for s in of(rec, E.SinkStarted)] == [("E", "c3")]
    assert [(s.turn, s.actor, s.cause) for s in of(rec, E.SinkEnded)] == [(1, "A", "owner_down")]


# ---------------------------------------------------------------- R-ST-CLEANSE


def test_r_st_cleanse_rest_removes_one_status_on_a_chance() -> None:
    """R-ST-CLEANSE: "Rest removes one status (chance 2/3, drawn only if one
    exists)" -- the poison on the panel; the draw is a chance_roll."""
    rec = run(battle([fighter("P", "c3", "poison-fang", "水剣", plan=[NeverUse(line=1, skill="poison-fang",
                                                                        when=lambda c: c.state.turn >= 2), *HOLD])],
                     [fighter("B", "c3", "", "剣剣", body=5, plan=HOLD),
                      fighter("R", "d4", "rest", "水", plan=HOLD)], order=["P", "B", "R"]))
    assert statuses(rec, E.StatusCleansed, "B") == [(1, "poison", "panel", 0)]
    assert [(c.effect, c.success) for c in of(rec, E.ChanceRoll) if c.skill == "rest"] == [("cleanse", True)]


def test_r_st_cleanse_rest_draws_nothing_when_there_is_no_status() -> None:
    """R-ST-CLEANSE: the 2/3 chance is "drawn only if one exists"."""
    rec = run(battle([fighter("R", "c3", "rest", "水", plan=HOLD), fighter("W", "c3", "", hp=5, plan=HOLD)],
                     [fighter("B", "h8", "", plan=HOLD)]))
    assert [u.skill for u in of(rec, E.SkillUsed)] == ["rest"]
    assert [c for c in of(rec, E.ChanceRoll) if c.skill == "rest"] == []


def test_r_st_cleanse_restore_removes_all_but_not_bind_on_the_character() -> None:
    """R-ST-CLEANSE: "Restore removes all of those ... Neither touches statuses
    on the character itself (Bind, Freeze)"."""
    stop = [NeverUse(line=1, skill="flame-bind", when=lambda c: c.state.turn >= 2),
            NeverUse(line=2, skill="poison-fang", when=lambda c: c.state.turn >= 2), *HOLD]
    rec = run(battle([fighter("A", "c3", "flame-bind poison-fang", "火水水剣", plan=stop)],
                     [fighter("B", "c3", "", "剣剣", body=5, plan=HOLD),
                      fighter("R", "d4", "restore", "水地", plan=HOLD)], order=["A", "B", "R"]))
    assert sorted(s[1] for s in statuses(rec, E.StatusApplied, "B")) == ["bind", "poison"]
    assert statuses(rec, E.StatusCleansed, "B") == [(1, "poison", "panel", 0)]
