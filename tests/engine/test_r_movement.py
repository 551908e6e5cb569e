"""Conformance scenarios for movement, knockback and field narrowing.

R-MOVE-1..8, R-KNOCK-4/5 and R-NARROW-1..4 of ``../shared/spec/rules.md``,
in the manner of the DATC: each test builds the smallest position (fixed
squares, fixed order, a ``ScriptedRng`` pinning every chance and choice),
quotes the rule it checks and asserts on the event list -- who moved where,
who stayed and why, who was knocked back or pushed, and what damage that
caused.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from referee.board import Square, parse_square, square_name
from referee.engine import events as E
from referee.engine.battle import BattleRecord, resolve_battle
from referee.engine.rng import ScriptedRng
from referee.mechanicspec import StepsSpec
from referee.engine.conditions import CondContext
from referee.engine.clauses import (
    Condition,
    Extend,
    Hold,
    KeepAway,
    Maintain,
    MoveGoal,
    MoveTo,
    MoveToward,
    NeverUse,
    Preference,
    PreferenceKind,
    TargetPref,
)
from referee.plan import ast as A
from referee.plan.parser import parse_plan

from .helpers import battle, damage_to, fighter, hp, of, ruleset, run

HOLD = [Hold(line=9)]


def plan(text: str) -> A.Plan:
    parsed, diags = parse_plan(text, "test.plan")
    assert [d for d in diags if d.severity == "error"] == []
    return parsed


def sq(name: str) -> Square:
    return parse_square(name)


def moves(rec: BattleRecord, actor: str) -> list[tuple[int, str, str]]:
    """(turn, from, to) of every ``moved`` event of ``actor``."""
    return [(m.turn, square_name(m.from_square), square_name(m.to_square))
            for m in of(rec, E.Moved) if m.actor == actor]


def stays(rec: BattleRecord, actor: str) -> list[tuple[int, str]]:
    """(turn, reason) of every ``stayed`` event of ``actor``."""
    return [(s.turn, s.reason) for s in of(rec, E.Stayed) if s.actor == actor]


def index_of(rec: BattleRecord, pred: Callable[[E.Event], bool]) -> int:
    """Position of the first event satisfying ``pred`` (fails if none)."""
    return next(i for i, e in enumerate(rec.events) if pred(e))


def from_turn(n: int) -> Condition:
    return lambda c: c.state.turn >= n


def before_turn(n: int) -> Condition:
    return lambda c: c.state.turn < n


def hurt(c: CondContext) -> bool:
    return c.me.hp_lost > 0


# ---------------------------------------------------------------- R-MOVE-1


def test_r_move_1_engaged_character_does_not_move() -> None:
    """R-MOVE-1: "A character may move only if it is not *engaged* (an enemy
    in its area)" -- neither by a `move to` clause nor by keeping away."""
    rec = run(battle([fighter("A", "c3", plan=[MoveTo(line=1, square=sq("h8"))])],
                     [fighter("B", "c3", plan=HOLD)]), turns=2)
    assert moves(rec, "A") == []
    assert stays(rec, "A") == [(1, "engaged"), (2, "engaged")]
    away = run(battle([fighter("A", "c3", plan=[KeepAway(line=1)])], [fighter("B", "c3", plan=HOLD)]))
    assert moves(away, "A") == [] and stays(away, "A") == [(1, "engaged")]


def test_r_move_1_an_engaged_character_holding_position_is_reported_engaged() -> None:
    """R-MOVE-1 before R-MOVE-7: an engaged character "may move only if it is
    not engaged", so when its plan also says `hold position` the stay is
    reported as engaged (the reason that actually kept it) with the clause's
    line; while free, the same clause is reported as a hold.  B walks into
    A's area after A's first action."""
    b_plan = [NeverUse(line=1, skill="slash"), MoveTo(line=2, square=sq("c3"))]
    rec = run(battle([fighter("A", "c3", plan=[Hold(line=4)])],
                     [fighter("B", "d4", "slash", "剣", plan=b_plan)], order=["A", "B"]), turns=2)
    assert moves(rec, "B") == [(1, "d4", "c3")]
    assert [(s.turn, s.reason, s.line, s.rule) for s in of(rec, E.Stayed) if s.actor == "A"] == [
        (1, "hold", 4, "R-MOVE-7"), (2, "engaged", 4, "R-MOVE-1")]


def test_r_move_1_sunk_area_stops_everyone_in_it() -> None:
    """R-MOVE-1: it may move only if "its area is not sunk (R-ST-SINK)";
    R-ST-SINK: "A sunk area counts as engaged for everyone in it" -- the user
    whose Firecracker Skill Ensnare cancelled, and its ally beside it -- "until
    the start of the user's next action": in turn 2 both walk on."""
    a_plan = [NeverUse(line=1, skill="firecracker", when=from_turn(2)), MoveTo(line=2, square=sq("a8"))]
    rec = run(battle([fighter("A", "c3", "firecracker", "火", plan=a_plan),
                      fighter("W", "c3", plan=[MoveTo(line=1, square=sq("a8"))])],
                     [fighter("E", "e3", "skill-ensnare", "風地", plan=HOLD)], order=["A", "W", "E"]), turns=2)
    assert [(o.turn, o.actor, o.by) for o in of(rec, E.Obstructed)] == [(1, "E", "A")]
    assert [square_name(s.square) for s in of(rec, E.SinkStarted)] == ["c3"]
    assert stays(rec, "A") == [(1, "sunk")] and stays(rec, "W") == [(1, "sunk")]
    assert [(s.turn, s.cause) for s in of(rec, E.SinkEnded)] == [(2, "owner_action")]
    assert moves(rec, "A") == [(2, "c3", "b4")] and moves(rec, "W") == [(2, "c3", "b4")]


def test_r_move_1_a_move_is_one_area_in_one_of_8_directions() -> None:
    """R-MOVE-1: "A move is one area in one of 8 directions" -- a far
    destination is reached one area per action, diagonally or straight."""
    rec = run(battle([fighter("A", "a1", plan=[MoveTo(line=1, square=sq("h8"))]),
                      fighter("C", "e1", plan=[MoveTo(line=1, square=sq("e8"))])],
                     [fighter("B", "h1", plan=HOLD)]), turns=3)
    assert moves(rec, "A") == [(1, "a1", "b2"), (2, "b2", "c3"), (3, "c3", "d4")]
    assert moves(rec, "C") == [(1, "e1", "e2"), (2, "e2", "e3"), (3, "e3", "e4")]


# ---------------------------------------------------------------- R-MOVE-2


def test_r_move_2_movement_comes_after_skills_and_maintenance() -> None:
    """R-MOVE-2: "Movement comes after all of the character's skills and its
    maintenance": the Firecracker and Kusanagi's counter, then the release of
    Sala at the maintenance step, then the step, from the square it used the
    skill on."""
    keep = Maintain(line=1, skill="sala-twin-trees", when=lambda c: c.me.hp_lost == 0)
    rec = run(battle([fighter("A", "c3", "sala-twin-trees firecracker", "剣剣火",
                              plan=[keep, MoveTo(line=2, square=sq("a1"))])],
                     [fighter("K", "d4", "kusanagi", "火剣", plan=HOLD)]))
    used = index_of(rec, lambda e: isinstance(e, E.SkillUsed) and e.skill == "firecracker")
    counter = index_of(rec, lambda e: isinstance(e, E.Damage) and e.target == "A" and e.cause == "counter")
    released = index_of(rec, lambda e: isinstance(e, E.MaintainReleased) and e.actor == "A")
    moved = index_of(rec, lambda e: isinstance(e, E.Moved) and e.actor == "A")
    assert used < counter < released < moved
    assert of(rec, E.MaintainReleased)[0].cause == "clause"
    assert of(rec, E.SkillUsed)[0].square == sq("c3")
    assert moves(rec, "A") == [(1, "c3", "b2")]


def test_r_move_2_an_enemy_in_the_destination_is_fought_next_turn_at_the_earliest() -> None:
    """R-MOVE-2: "an enemy in the destination is fought next turn at the
    earliest": Slash (range 0) has no target before the step into B's area,
    and is used on B only in turn 2."""
    rec = run(battle([fighter("A", "b2", "slash", "剣")], [fighter("B", "c3", body=5, plan=HOLD)]), turns=2)
    assert moves(rec, "A") == [(1, "b2", "c3")]
    assert [(p.turn, p.skill, p.reason) for p in of(rec, E.SkillPassed) if p.actor == "A"] == \
        [(1, "slash", "no_target")]
    assert [(u.turn, u.skill, u.targets) for u in of(rec, E.SkillUsed)] == [(2, "slash", ("B",))]
    assert damage_to(rec, "B") == [(3, "skill", "slash")]


# ---------------------------------------------------------------- R-MOVE-4


def test_r_move_4_bind_on_the_character_stops_clause_movement_until_it_expires() -> None:
    """R-MOVE-4: "Bind on the character stops its own movement" -- a `move
    to` clause too; Flame Bind's 2 actions over, it moves again."""
    a_plan = [NeverUse(line=1, skill="flame-bind", when=from_turn(2)), Hold(line=2)]
    rec = run(battle([fighter("A", "a1", "flame-bind", "火水", plan=a_plan)],
                     [fighter("B", "c3", body=5, plan=[MoveTo(line=1, square=sq("h8"))])]), turns=3)
    assert [(s.target, s.object, s.duration) for s in of(rec, E.StatusApplied)] == [("B", "character", 2)]
    assert [(s.turn, s.reason, s.rule) for s in of(rec, E.Stayed) if s.actor == "B"] == \
        [(1, "bound", "R-MOVE-4"), (2, "bound", "R-MOVE-4")]
    assert [(x.turn, x.target, x.status) for x in of(rec, E.StatusExpired)] == [(2, "B", "bind")]
    assert moves(rec, "B") == [(3, "c3", "d4")]


def test_r_move_4_bind_on_a_skill_does_not_stop_movement() -> None:
    """R-MOVE-4: "Bind on a skill or clause does not" stop movement: B, its
    Aqua Form bound by Ia-Temu Curse and knocked out of A's area by that same
    Aqua Form, walks on by its `move to` clause."""
    rec = run(battle([fighter("A", "c3", "ia-temu-curse", "地剣", plan=HOLD)],
                     [fighter("B", "c3", "aqua-form", "水水", body=5, plan=[MoveTo(line=1, square=sq("h8"))])]),
              script={"chances": [True, True], "knockback": [2]})  # bind, Aqua Form push; E
    assert [(s.target, s.status, s.object, s.index) for s in of(rec, E.StatusApplied)] == \
        [("B", "bind", "skill", 0)]
    assert [(k.target, square_name(k.to_square)) for k in of(rec, E.Knockback)] == [("B", "d3")]
    assert stays(rec, "B") == []
    assert moves(rec, "B") == [(1, "d3", "e4")]


def test_r_move_4_bind_on_a_clause_does_not_stop_movement() -> None:
    """R-MOVE-4: "Bind on a skill or clause does not" stop movement: Heat
    Wave binds B's `hold position`; the clause is ignored (R-ST-BIND) and B
    moves automatically instead of staying."""
    rec = run(battle([fighter("A", "c3", "heat-wave", "火風", plan=HOLD)],
                     [fighter("B", "e5", plan=[Hold(line=1)])]))
    assert [(s.target, s.object, s.index) for s in of(rec, E.StatusApplied)] == [("B", "clause", 1)]
    assert stays(rec, "B") == []
    assert [(m.mode, m.toward) for m in of(rec, E.Moved) if m.actor == "B"] == [("auto", "A")]
    assert moves(rec, "B") == [(1, "e5", "d4")]


# ---------------------------------------------------------------- R-MOVE-5


def test_r_move_5_the_route_is_recomputed_every_turn() -> None:
    """R-MOVE-5: "Recomputed every turn": chasing B up the h-file, A's steps
    follow B's new square (b1, c2, d3), not the turn-1 route along rank 1."""
    rec = run(battle([fighter("A", "a1", plan=[MoveToward(line=1, who=MoveGoal.NAMED, name="B")])],
                     [fighter("B", "h1", plan=[MoveTo(line=1, square=sq("h8"))])]), turns=3)
    assert moves(rec, "B") == [(1, "h1", "h2"), (2, "h2", "h3"), (3, "h3", "h4")]
    assert moves(rec, "A") == [(1, "a1", "b1"), (2, "b1", "c2"), (3, "c2", "d3")]


def test_r_move_5_remaining_ties_on_a_blocked_map_are_drawn() -> None:
    """R-MOVE-5: "Remaining ties (blocked maps): R-RNG-1" -- from c1 to c3
    round a blocked c2, b2 and d2 tie; the `ties` stream picks, in canonical
    order (b2 before d2)."""
    base = ruleset(turn_limit=1)
    blocked = replace(base, map=replace(base.map, blocked=("c2",)))
    setup = battle([fighter("A", "c1", plan=[MoveTo(line=1, square=sq("c3"))])], [fighter("B", "h8", plan=HOLD)])
    first = resolve_battle(setup, blocked, 1, rng=ScriptedRng({"ties": [0]}))
    second = resolve_battle(setup, blocked, 1, rng=ScriptedRng({"ties": [1]}))
    assert moves(first, "A") == [(1, "c1", "b2")]
    assert moves(second, "A") == [(1, "c1", "d2")]


# ---------------------------------------------------------------- R-MOVE-6


def test_r_move_6_among_equally_near_enemies_the_area_with_most_enemies_wins() -> None:
    """R-MOVE-6: "among equally near enemies, toward the one whose area holds
    the most enemies, then R-RNG-1": X (alone on b3) comes first in roster
    order, but Y and Z share f3."""
    rec = run(battle([fighter("A", "d1")],
                     [fighter("X", "b3", plan=HOLD), fighter("Y", "f3", plan=HOLD), fighter("Z", "f3", plan=HOLD)]))
    assert [(m.mode, m.toward) for m in of(rec, E.Moved)] == [("auto", "Y")]
    assert moves(rec, "A") == [(1, "d1", "e2")]


def test_r_move_6_equal_crowds_are_drawn_from_ties() -> None:
    """R-MOVE-6: equally near, equally crowded: "then R-RNG-1" (`ties`,
    roster order)."""
    setup = battle([fighter("A", "d1")], [fighter("X", "b3", plan=HOLD), fighter("Y", "f3", plan=HOLD)])
    assert moves(run(setup, script={"ties": [0]}), "A") == [(1, "d1", "c2")]
    assert moves(run(setup, script={"ties": [1]}), "A") == [(1, "d1", "e2")]


def test_r_move_6_reach_leaves_out_heals_passives_and_maintained_skills() -> None:
    """R-MOVE-6: reach is "the longest range among its entries used actively
    on enemies ... not heals, passives or maintained skills"; "No such entry:
    reach 0 -- it walks until engaged". Rest (2), Avenger and Sala (1) do not
    count; Slash (0) does: A steps into B's area."""
    rec = run(battle([fighter("A", "b2", "rest avenger sala-twin-trees slash", "水地剣剣剣")],
                     [fighter("B", "c3", body=5, plan=HOLD)]))
    assert [m.skill for m in of(rec, E.MaintainStarted)] == ["sala-twin-trees"]
    assert of(rec, E.SkillUsed) == []
    assert moves(rec, "A") == [(1, "b2", "c3")]


def test_r_move_6_reach_leaves_out_costs_only_maintained_panels_could_pay() -> None:
    """R-MOVE-6: an entry counts only if "its active pattern could pay [it]
    with every panel not assigned to a maintained skill unused": Fiery
    Cloak holds the only fire panel, so Firecracker gives no reach; nor does
    an Eruption the pattern cannot pay at all."""
    rec = run(battle([fighter("A", "a1", "fiery-cloak firecracker", "火地")], [fighter("B", "c3", plan=HOLD)]))
    assert [(p.skill, p.reason) for p in of(rec, E.SkillPassed)] == [("firecracker", "cost_unpayable")]
    assert moves(rec, "A") == [(1, "a1", "b2")]
    unpayable = run(battle([fighter("A", "b2", "eruption", "火剣")], [fighter("B", "c3", plan=HOLD)]))
    assert moves(unpayable, "A") == [(1, "b2", "c3")]


def test_r_move_6_freeze_is_ignored_for_reach() -> None:
    """R-MOVE-6: "Freeze is ignored": frozen by Night Shrieker, A uses no
    Firecracker, yet its reach stays 2 and it does not step next to B."""
    rec = run(battle([fighter("A", "c3", "firecracker", "火")],
                     [fighter("B", "d4", "night-shrieker", "風剣", plan=HOLD)], order=["B", "A"]),
              script={"chances": [True]})  # Freeze
    assert [(p.skill, p.reason) for p in of(rec, E.SkillPassed) if p.actor == "A"] == [("firecracker", "frozen")]
    assert stays(rec, "A") == [(1, "in_reach")]
    assert moves(rec, "A") == []


def test_r_move_6_a_bound_entry_gives_no_reach() -> None:
    """R-MOVE-6: reach counts entries "not bound": Ia-Temu Curse binds A's
    Firecracker; knocked out of B's area by its own Aqua Form, A has reach 0
    and walks back into B's area."""
    rec = run(battle([fighter("A", "c3", "firecracker aqua-form", "火水水", body=5)],
                     [fighter("B", "c3", "ia-temu-curse", "地剣", plan=HOLD)], order=["B", "A"]),
              script={"chances": [True, True], "knockback": [0]})  # bind, Aqua Form push; N
    assert [(s.target, s.object, s.index) for s in of(rec, E.StatusApplied)] == [("A", "skill", 0)]
    assert [(k.target, square_name(k.to_square)) for k in of(rec, E.Knockback)] == [("A", "c4")]
    assert [(p.skill, p.reason) for p in of(rec, E.SkillPassed) if p.actor == "A"] == \
        [("firecracker", "bound"), ("aqua-form", "passive")]
    assert moves(rec, "A") == [(1, "c4", "c3")]


# ---------------------------------------------------------------- R-MOVE-7


def test_r_move_7_a_clause_moves_even_after_attacking_with_an_enemy_in_reach() -> None:
    """R-MOVE-7: "the first movement clause of the plan (top-down) whose
    condition holds decides, whether or not the character attacked and
    whether or not an enemy is in reach"; "none holds: R-MOVE-3"."""
    rec = run(battle([fighter("A", "a1", "firecracker", "火",
                              plan=[Hold(line=1, when=hurt), MoveToward(line=2, who=MoveGoal.NAMED, name="B")])],
                     [fighter("B", "c3", body=5, plan=HOLD)]))
    assert [u.skill for u in of(rec, E.SkillUsed)] == ["firecracker"]
    assert [(m.mode, m.line) for m in of(rec, E.Moved)] == [("clause", 2)]
    assert moves(rec, "A") == [(1, "a1", "b2")]
    none = run(battle([fighter("A", "a1", "firecracker", "火", plan=[Hold(line=1, when=hurt)])],
                      [fighter("B", "c3", body=5, plan=HOLD)]))
    assert [(s.reason, s.line) for s in of(none, E.Stayed) if s.actor == "A"] == [("attacked", None)]


# ---------------------------------------------------------------- R-MOVE-8


def test_r_move_8_move_toward_does_not_step_when_c_shares_its_area() -> None:
    """R-MOVE-8: `move toward C` "steps by R-MOVE-5 unless C shares its area"."""
    rec = run(battle([fighter("A", "c3", plan=[MoveToward(line=1, who=MoveGoal.NAMED, name="W")]),
                      fighter("W", "c3", plan=HOLD)],
                     [fighter("B", "h8", plan=HOLD)]))
    assert moves(rec, "A") == []
    assert [(s.reason, s.line) for s in of(rec, E.Stayed) if s.actor == "A"] == [("arrived", 1)]


def test_r_move_8_then_use_stops_when_c_is_within_the_skills_range() -> None:
    """R-MOVE-8: "with `then use S`, unless C is already within S's range":
    `move toward nearest enemy then use eruption` stops at distance 1 (Eruption's
    range); without `then use` the same walk goes on into B's area."""
    setup = battle([fighter("A", "a1", "eruption", "火火", plan=plan("move toward nearest enemy then use eruption\n"))],
                   [fighter("B", "c3", body=5, plan=HOLD)])
    rec = run(setup, turns=2)
    assert moves(rec, "A") == [(1, "a1", "b2")]
    assert [(s.turn, s.reason, s.line) for s in of(rec, E.Stayed) if s.actor == "A"] == [(2, "in_reach", 1)]
    assert [(u.turn, u.skill) for u in of(rec, E.SkillUsed)] == [(2, "eruption")]
    plain = run(battle([fighter("A", "a1", "eruption", "火火", plan=plan("move toward nearest enemy\n"))],
                       [fighter("B", "c3", body=5, plan=HOLD)]), turns=2)
    assert moves(plain, "A") == [(1, "a1", "b2"), (2, "b2", "c3")]


def test_r_move_8_an_order_naming_a_downed_character_does_not_apply() -> None:
    """R-MOVE-8: "An order naming a downed or absent character ... does not
    apply": the next clause (`hold position`) decides."""
    rec = run(battle([fighter("A", "a1", plan=[MoveToward(line=1, who=MoveGoal.NAMED, name="W"), Hold(line=2)]),
                      fighter("W", "c3", hp=1, plan=HOLD), fighter("W2", "a8", plan=HOLD)],
                     [fighter("B", "c3", "slash", "剣", plan=HOLD)], order=["B", "A", "W2"]))
    assert [(d.target, d.turn) for d in of(rec, E.Down)] == [("W", 1)]
    assert moves(rec, "A") == []
    assert [(s.reason, s.line) for s in of(rec, E.Stayed) if s.actor == "A"] == [("hold", 2)]
    absent = run(battle([fighter("A", "a1", plan=[MoveToward(line=1, who=MoveGoal.NAMED, name="Nobody"), Hold(line=2)])],
                        [fighter("B", "h8", plan=HOLD)]))
    assert [(s.reason, s.line) for s in of(absent, E.Stayed) if s.actor == "A"] == [("hold", 2)]


def test_r_move_8_an_order_only_the_mover_matches_does_not_apply() -> None:
    """R-MOVE-8: an order "describing someone no one but the mover matches,
    does not apply" -- `move toward ally with hp lost >= 5` when only the
    mover is hurt."""
    rec = run(battle([fighter("A", "a1", hp=6, plan=plan("move toward ally with hp lost >= 5\nhold position\n")),
                      fighter("W", "c3", plan=HOLD)],
                     [fighter("B", "h8", plan=HOLD)]))
    assert moves(rec, "A") == []
    assert [(s.reason, s.line) for s in of(rec, E.Stayed) if s.actor == "A"] == [("hold", 2)]


def test_r_move_8_several_qualify_nearest_then_ties() -> None:
    """R-MOVE-8: `move toward C`, "several qualify: nearest, then R-RNG-1"."""
    setup = battle([fighter("A", "d1", plan=plan("move toward nearest enemy\n"))],
                   [fighter("X", "b3", plan=HOLD), fighter("Y", "f3", plan=HOLD), fighter("Z", "f5", plan=HOLD)])
    assert [(m.toward, square_name(m.to_square)) for m in of(run(setup, script={"ties": [0]}), E.Moved)] == \
        [("X", "c2")]
    assert [(m.toward, square_name(m.to_square)) for m in of(run(setup, script={"ties": [1]}), E.Moved)] == \
        [("Y", "e2")]


def test_r_move_8_move_to_stops_on_the_square() -> None:
    """R-MOVE-8: "`move to SQ` stops on SQ"."""
    rec = run(battle([fighter("A", "c3", plan=plan("move to d4\n"))], [fighter("B", "h8", plan=HOLD)]), turns=2)
    assert moves(rec, "A") == [(1, "c3", "d4")]
    assert [(s.turn, s.reason, s.line) for s in of(rec, E.Stayed) if s.actor == "A"] == [(2, "arrived", 1)]


def test_r_move_8_keep_away_staying_wins_ties() -> None:
    """R-MOVE-8: `keep away from enemies`: "take the one farthest from the
    nearest enemy ... staying winning ties": from d1, c1 and e1 are as far
    from B on d3 as d1 itself."""
    rec = run(battle([fighter("A", "d1", plan=[KeepAway(line=1)])], [fighter("B", "d3", plan=HOLD)]))
    assert moves(rec, "A") == []
    assert [(s.reason, s.line) for s in of(rec, E.Stayed) if s.actor == "A"] == [("keep_away", 1)]


def test_r_move_8_keep_away_fewest_enemies_at_that_distance_then_ties() -> None:
    """R-MOVE-8: "then with fewest enemies at that distance, staying winning
    ties, then R-RNG-1": on d1 both X and Y are at 2; on c1 or e1 only one."""
    setup = battle([fighter("A", "d1", plan=[KeepAway(line=1)])],
                   [fighter("X", "b3", plan=HOLD), fighter("Y", "f3", plan=HOLD)])
    assert moves(run(setup, script={"ties": [0]}), "A") == [(1, "d1", "c1")]
    assert moves(run(setup, script={"ties": [1]}), "A") == [(1, "d1", "e1")]


def test_r_move_8_keep_away_steps_only_where_every_move_may_step() -> None:
    """R-MOVE-1 / R-MOVE-8: `keep away` takes the same legal steps as every
    other move (the ``movement`` mechanic's), so on a 4-way (``rook``) map it
    never steps diagonally: from d4 with B on e5, c3 would be farthest by
    route (4) but is a diagonal; d3 and c4 (3) tie and the draw takes d3."""
    base = ruleset(turn_limit=1)
    rook = replace(base, mechanics=replace(base.mechanics, movement=StepsSpec("steps", "rook")))
    setup = battle([fighter("A", "d4", plan=[KeepAway(line=1)])], [fighter("B", "e5", plan=HOLD)])
    rec = resolve_battle(setup, rook, 1, rng=ScriptedRng({"ties": [0]}))
    assert moves(rec, "A") == [(1, "d4", "d3")]
    rec = resolve_battle(setup, rook, 1, rng=ScriptedRng({"ties": [1]}))
    assert moves(rec, "A") == [(1, "d4", "c4")]
    king = resolve_battle(setup, base, 1, rng=ScriptedRng())
    assert moves(king, "A") == [(1, "d4", "c3")]


# ---------------------------------------------------------------- R-KNOCK-4


def test_r_knock_4_knockback_moves_an_engaged_character_and_leaving_frees_it() -> None:
    """R-KNOCK-4: "Knockback is not movement: it moves engaged ...
    characters. Leaving an engaged ... area frees it": pushed north out of
    A's area, B walks on; not pushed, it stays engaged."""
    setup = battle([fighter("A", "c3", "pressurize", "風", plan=HOLD)],
                   [fighter("B", "c3", plan=[MoveTo(line=1, square=sq("h8"))])])
    rec = run(setup, script={"chances": [True], "knockback": [0]})  # N
    assert [(k.target, square_name(k.from_square), square_name(k.to_square), k.wall)
            for k in of(rec, E.Knockback)] == [("B", "c3", "c4", False)]
    assert stays(rec, "B") == []
    assert moves(rec, "B") == [(1, "c4", "d5")]
    kept = run(setup, script={"chances": [False]})
    assert of(kept, E.Knockback) == [] and stays(kept, "B") == [(1, "engaged")]


def test_r_knock_4_knockback_moves_a_bound_character_and_bind_stays() -> None:
    """R-KNOCK-4: knockback "moves ... Bound characters ...; Bind stays on
    the person": Flame Bind, then Pressurize's push to e5, where B, alone,
    still may not move."""
    rec = run(battle([fighter("A", "c3", "flame-bind pressurize", "火水風", plan=HOLD)],
                     [fighter("B", "d4", body=5, plan=[MoveTo(line=1, square=sq("h8"))])]),
              script={"chances": [True]})
    assert [(s.target, s.object) for s in of(rec, E.StatusApplied)] == [("B", "character")]
    assert [(k.target, square_name(k.to_square)) for k in of(rec, E.Knockback)] == [("B", "e5")]
    assert [(s.reason, square_name(s.square)) for s in of(rec, E.Stayed) if s.actor == "B"] == [("bound", "e5")]
    assert moves(rec, "B") == []


def test_r_knock_4_knockback_moves_a_character_out_of_a_sunk_area() -> None:
    """R-KNOCK-4: knockback "moves ... sunk ... characters. Leaving an ...
    sunk area frees it": W shares A's area, sunk by Skill Ensnare; E2's
    Pressurize pushes W out and W walks on, while c3 stays sunk."""
    a_plan = [TargetPref(line=1, preference=Preference(kind=PreferenceKind.NAMED, name="E")), Hold(line=2)]
    e2_plan = [TargetPref(line=1, preference=Preference(kind=PreferenceKind.NAMED, name="W")), Hold(line=2)]
    setup = battle([fighter("A", "c3", "firecracker", "火", plan=a_plan),
                    fighter("W", "c3", plan=[MoveTo(line=1, square=sq("a8"))])],
                   [fighter("E", "e5", "skill-ensnare", "風地", plan=HOLD),
                    fighter("E2", "d2", "pressurize", "風", plan=e2_plan)], order=["A", "E2", "W", "E"])
    rec = run(setup, script={"chances": [True]})
    assert [square_name(s.square) for s in of(rec, E.SinkStarted)] == ["c3"]
    assert [(k.target, square_name(k.from_square), square_name(k.to_square))
            for k in of(rec, E.Knockback)] == [("W", "c3", "b4")]
    assert stays(rec, "W") == [] and moves(rec, "W") == [(1, "b4", "a5")]
    assert of(rec, E.SinkEnded) == []
    kept = run(setup, script={"chances": [False]})
    assert stays(kept, "W") == [(1, "sunk")]


def test_r_knock_4_the_sunk_area_stays_sunk_when_its_sinker_is_pushed_out() -> None:
    """R-KNOCK-4: knockback moves sunk characters; R-ST-SINK: the area "stays
    sunk if the user is pushed out": E2 pushes A (whose use sank c3) out, and
    W, still in c3, stays sunk."""
    a_plan = [TargetPref(line=1, preference=Preference(kind=PreferenceKind.NAMED, name="E")), Hold(line=2)]
    e2_plan = [TargetPref(line=1, preference=Preference(kind=PreferenceKind.NAMED, name="A")), Hold(line=2)]
    rec = run(battle([fighter("A", "c3", "firecracker", "火", plan=a_plan),
                      fighter("W", "c3", plan=[MoveTo(line=1, square=sq("a8"))])],
                     [fighter("E", "e5", "skill-ensnare", "風地", plan=HOLD),
                      fighter("E2", "d2", "pressurize", "風", plan=e2_plan)], order=["A", "E2", "W", "E"]),
              script={"chances": [True]})
    assert [(k.target, square_name(k.from_square), square_name(k.to_square))
            for k in of(rec, E.Knockback)] == [("A", "c3", "b4")]
    assert of(rec, E.SinkEnded) == []
    assert stays(rec, "W") == [(1, "sunk")] and moves(rec, "W") == []


# ---------------------------------------------------------------- R-KNOCK-5


def test_r_knock_5_targets_fixed_at_declaration_are_hit_after_the_user_is_pushed() -> None:
    """R-KNOCK-5: "The targets of one use are fixed when it is declared and
    are all affected, whatever has moved since (R-EXT-6)" and "later counter
    hits check range against the new position": X's Kusanagi counter sets off
    A's Aqua Form, pushing A to c4, out of Eruption's range of Y; Y is still
    hit, and Y's own Kusanagi counter misses."""
    a_plan = [Extend(line=1, skill="eruption", count=1), Hold(line=2)]
    rec = run(battle([fighter("A", "d4", "eruption aqua-form", "火火火水水", plan=a_plan)],
                     [fighter("X", "e4", "kusanagi", "火剣", body=5, plan=HOLD),
                      fighter("Y", "e5", "kusanagi", "火剣", body=5, plan=HOLD)]),
              script={"chances": [True]})  # Aqua Form's knockback
    assert of(rec, E.SkillUsed)[0].targets == ("X", "Y")
    push = index_of(rec, lambda e: isinstance(e, E.Knockback))
    y_hit = index_of(rec, lambda e: isinstance(e, E.Damage) and e.target == "Y")
    assert push < y_hit
    assert [(k.target, k.skill, square_name(k.to_square)) for k in of(rec, E.Knockback)] == \
        [("A", "aqua-form", "c4")]
    assert damage_to(rec, "Y") == [(2, "skill", "eruption")]
    assert damage_to(rec, "A") == [(2, "counter", "kusanagi")]
    assert [(m.actor, m.reason) for m in of(rec, E.CounterMissed)] == [("Y", "out_of_range")]


# ---------------------------------------------------------------- R-NARROW-1


def test_r_narrow_1_a_narrowing_after_turn_30_belongs_to_turn_30() -> None:
    """R-NARROW-1: "a narrowing after turn N belongs to turn N (its events
    carry turn N, and a battle it ends reports N turns)"."""
    rec = run(battle([fighter("A", "a1", body=3, hp=3, plan=HOLD)], [fighter("B", "d4", plan=HOLD)]), turns=40)
    assert [(n.turn, n.stage, n.kept) for n in of(rec, E.Narrowing)] == [(30, 1, "b2-g7")]
    assert [(p.turn, p.target) for p in of(rec, E.Pushed)] == [(30, "A")]
    assert [(d.turn, d.cause) for d in of(rec, E.Damage)] == [(30, "narrowing")]
    assert [(d.turn, d.target) for d in of(rec, E.Down)] == [(30, "A")]
    assert max(t.turn for t in of(rec, E.TurnStart)) == 30
    end = of(rec, E.BattleEnd)[0]
    assert end.turn == 30 and rec.result.turns == 30
    assert rec.result.winner == "black" and rec.result.reason == "army_reduced"


def test_r_narrow_1_stages_then_one_square_drawn_from_ties() -> None:
    """R-NARROW-1: "after turn 30, and after turns 35, 40 and 45"; "Stages
    keep b2-g7, then c3-f6, then d4-e5, then one of d4/e4/d5/e5 drawn per
    R-RNG-1 (`ties` stream)" -- index 2 in canonical order is d5."""
    setup = battle([fighter("A", "d4", plan=HOLD)], [fighter("B", "e5", plan=HOLD)])
    rng = ScriptedRng({"ties": [2]})
    rec = resolve_battle(setup, ruleset(turn_limit=45), 1, rng=rng)
    assert [(n.turn, n.stage, n.kept) for n in of(rec, E.Narrowing)] == \
        [(30, 1, "b2-g7"), (35, 2, "c3-f6"), (40, 3, "d4-e5"), (45, 4, "d5-d5")]
    assert rng.log == [("ties", "choice", 2)]
    assert [(p.turn, p.target, square_name(p.from_square), square_name(p.to_square)) for p in of(rec, E.Pushed)] == \
        [(45, "A", "d4", "d5"), (45, "B", "e5", "d5")]
    assert damage_to(rec, "A") == [(3, "narrowing", None)] and damage_to(rec, "B") == [(3, "narrowing", None)]


# ---------------------------------------------------------------- R-NARROW-2


def test_r_narrow_2_all_pushes_first_regardless_of_engagement_sinking_or_bind() -> None:
    """R-NARROW-2: "Everyone in a removed area is pushed ... -- all pushes of
    one narrowing together, regardless of engagement, sinking or Bind --
    then each pushed character takes damage equal to its body ability";
    "Sinkings of removed areas end"."""
    late = before_turn(30)
    w_plan = [NeverUse(line=1, skill="firecracker", when=late), Hold(line=2)]
    f_plan = [NeverUse(line=1, skill="flame-bind", when=late), Hold(line=2)]
    rec = run(battle([fighter("W", "h1", "firecracker", "火", plan=w_plan), fighter("A", "a1", body=2, plan=HOLD)],
                     [fighter("F", "c3", "flame-bind", "火水", plan=f_plan), fighter("B", "a1", body=4, plan=HOLD),
                      fighter("E", "h3", "skill-ensnare", "風地", plan=HOLD)],
                     order=["W", "F", "A", "B", "E"]), turns=30)
    assert [(s.turn, s.target, s.object) for s in of(rec, E.StatusApplied)] == [(30, "A", "character")]
    assert [(s.turn, square_name(s.square)) for s in of(rec, E.SinkStarted)] == [(30, "h1")]
    pushes = [(p.target, square_name(p.from_square), square_name(p.to_square)) for p in of(rec, E.Pushed)]
    assert pushes == [("W", "h1", "g2"), ("A", "a1", "b2"), ("B", "a1", "b2"), ("E", "h3", "g3")]
    narrow_hits = [(d.target, d.amount) for d in of(rec, E.Damage) if d.cause == "narrowing"]
    assert narrow_hits == [("W", 3), ("A", 2), ("B", 4), ("E", 3)]
    last_push = max(i for i, e in enumerate(rec.events) if isinstance(e, E.Pushed))
    first_hit = index_of(rec, lambda e: isinstance(e, E.Damage) and e.cause == "narrowing")
    assert last_push < first_hit
    assert [(s.cause, square_name(s.square)) for s in of(rec, E.SinkEnded)] == [("narrowing", "h1")]


def test_r_narrow_2_one_goal_check_after_everyone_is_hurt() -> None:
    """R-NARROW-2: "then each pushed character takes damage ...; then one
    R-GOAL-1 check": both last fighters fall to the same narrowing, so the
    battle is a draw, not a win for whoever was hurt second."""
    rec = run(battle([fighter("A", "a1", body=3, hp=2, plan=HOLD)],
                     [fighter("B", "h8", body=3, hp=3, plan=HOLD)]), turns=40)
    assert [d.target for d in of(rec, E.Down)] == ["A", "B"]
    assert rec.result.winner == "draw" and rec.result.reason == "army_reduced" and rec.result.turns == 30


def test_r_narrow_2_the_body_ability_is_unchanged() -> None:
    """R-NARROW-2: damage "equal to its body ability (the ability is
    unchanged)": pushed at every stage, A takes its body each time."""
    rec = run(battle([fighter("A", "a1", body=2, plan=HOLD)], [fighter("B", "e5", plan=HOLD)]), turns=40)
    assert [(p.turn, square_name(p.to_square)) for p in of(rec, E.Pushed)] == [(30, "b2"), (35, "c3"), (40, "d4")]
    assert damage_to(rec, "A") == [(2, "narrowing", None)] * 3
    assert hp(rec, "A") == 2


# ---------------------------------------------------------------- R-NARROW-3


def test_r_narrow_3_narrowing_damage_triggers_no_passive() -> None:
    """R-NARROW-3: "Narrowing damage is not a hit and triggers no passive":
    A holds Avenger, Aqua Form and Shield Mist readied and Fiery Cloak
    maintained, and takes exactly its body (3), with no reaction, heal,
    chance or knockback."""
    rec = run(battle([fighter("A", "a1", "fiery-cloak avenger aqua-form shield-mist", "火地地水水水風",
                              plan=HOLD)],
                     [fighter("B", "d4", plan=HOLD)]), turns=30)
    assert [(m.turn, m.skill) for m in of(rec, E.MaintainStarted)] == [(1, "fiery-cloak")]
    (hit,) = [d for d in of(rec, E.Damage) if d.target == "A"]
    assert (hit.amount, hit.cause, hit.reduced, hit.printed) == (3, "narrowing", 0, 3)
    start = index_of(rec, lambda e: isinstance(e, E.Narrowing))
    after = rec.events[start:]
    for kind in (E.Reaction, E.Heal, E.ChanceRoll, E.Knockback, E.MaintainStarted, E.CounterMissed):
        assert [e for e in after if isinstance(e, kind)] == [], kind.__name__
    assert hp(rec, "A") == 9


# ---------------------------------------------------------------- R-NARROW-4


def test_r_narrow_4_a_destination_in_a_removed_area_becomes_its_clamped_kept_area() -> None:
    """R-NARROW-4: "a destination in one becomes its clamped kept area":
    after b2-g7, `move to a1` walks to b2 and stops there."""
    a_plan = [MoveTo(line=1, square=sq("a1"), when=from_turn(31)), Hold(line=2)]
    rec = run(battle([fighter("A", "d4", plan=a_plan)], [fighter("B", "e5", plan=HOLD)]), turns=33)
    assert moves(rec, "A") == [(31, "d4", "c3"), (32, "c3", "b2")]
    assert [m.toward for m in of(rec, E.Moved)] == ["b2", "b2"]
    assert [(s.turn, s.reason) for s in of(rec, E.Stayed) if s.actor == "A" and s.turn > 30] == [(33, "arrived")]


def test_r_narrow_4_keep_away_never_steps_into_a_removed_area() -> None:
    """R-NARROW-4: "Removed areas leave the map: no step ... uses them": on
    the open field A keeps away from d4 into a1; once a1 is removed, b2 is as
    far as it can get."""
    open_field = run(battle([fighter("A", "b2", plan=[KeepAway(line=1)])], [fighter("B", "d4", plan=HOLD)]))
    assert moves(open_field, "A") == [(1, "b2", "a1")]
    a_plan = [KeepAway(line=1, when=from_turn(31)), Hold(line=2)]
    rec = run(battle([fighter("A", "b2", plan=a_plan)], [fighter("B", "d4", plan=HOLD)]), turns=31)
    assert moves(rec, "A") == []
    assert [(s.turn, s.reason) for s in of(rec, E.Stayed) if s.actor == "A" and s.turn > 30] == [(31, "keep_away")]


def test_r_narrow_4_a_push_into_a_removed_area_hits_the_wall() -> None:
    """R-NARROW-4 / R-KNOCK-3: "An area removed by narrowing is off the
    field": Pressurize from c3 would push B on b2 into the removed a1."""
    a_plan = [NeverUse(line=1, skill="pressurize", when=before_turn(31)), Hold(line=2)]
    rec = run(battle([fighter("A", "c3", "pressurize", "風", plan=a_plan)], [fighter("B", "b2", plan=HOLD)]),
              turns=31, script={"chances": [True]})
    assert [(k.turn, square_name(k.from_square), square_name(k.to_square), k.wall) for k in of(rec, E.Knockback)] == \
        [(31, "b2", "b2", True)]
    assert damage_to(rec, "B") == [(1, "wall", "pressurize")]
