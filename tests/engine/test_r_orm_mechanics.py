"""The orm mechanics this version builds (variant-orm.md): the Manhattan
range metric (R-ORM-MAP-1) and ORM's nD6 check roll (R-ORM-ABIL-1,
R-ORM-CHK-1), each against the spec's words and worked examples.

The ``orm`` ruleset itself is not built yet (no ``orm.yaml``), so these run
the metric through a house ruleset that takes tcgt and swaps in
``range: {kind: manhattan}`` (R-VAR-1), and the check roll directly with a
scripted RNG.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from types import SimpleNamespace
from typing import Literal, cast

import pytest
from hypothesis import given
from hypothesis import strategies as st

from referee.board import DIRECTIONS, Square, direction_between, parse_square
from referee.describe import describe_ruleset
from referee.engine import events as E
from referee.engine.battle import BattleRecord, BattleSetup, resolve_battle
from referee.engine.clauses import Hold, MoveGoal, MoveToward
from referee.engine.mechanics.metric import Chebyshev
from referee.engine.clauses import PlanRules
from referee.engine.core import Resolution
from referee.engine.mechanics.registry import build_mechanics
from referee.engine.mechanics.orm import BlockingSteps, CriticalRule, Manhattan, dice_for_ability, roll_nd6_check
from referee.engine.rng import ScriptedRng
from referee.engine.state import BattleState, Fighter
from referee.mapgraph import MapGraph
from referee.mechanicspec import BlockingStepsSpec, StepsSpec
from referee.ruleset import Ruleset, load_ruleset, load_ruleset_file

from .helpers import battle, damage_to, fighter, of, ruleset
from .test_mechanics import movement_contract

HOLD = [Hold(line=9)]
ORM_DICE = (2, 2, 3, 3, 3, 4, 4, 4, 5)  # variant-orm.md: hit.dice_by_ability
squares = st.builds(Square, st.integers(0, 7), st.integers(0, 7))


def manhattan_house(tmp_path: Path) -> Ruleset:
    path = tmp_path / "manhattan.yaml"
    path.write_text("extends: tcgt\nmechanics:\n  range: {kind: manhattan}\n", encoding="utf-8")
    return replace(load_ruleset(path), turn_limit=1)


# ------------------------------------------------------------------ R-ORM-MAP-1


def test_r_orm_map_1_every_straight_distance_is_manhattan() -> None:
    """R-ORM-MAP-1: "Every straight distance is Manhattan, |dx| + |dy| ...
    range 1 is the own area and the 4 next to it ... one area is distance 0"."""
    m = Manhattan()
    c3 = parse_square("c3")
    within_1 = sorted(str(s) for s in (Square(f, r) for f in range(8) for r in range(8)) if m.in_range(c3, s, 1))
    assert within_1 == sorted(["c3", "b3", "d3", "c2", "c4"])
    assert m.distance(c3, c3) == 0
    assert m.distance(parse_square("a1"), parse_square("c4")) == 5
    assert Chebyshev().distance(parse_square("a1"), parse_square("c4")) == 3


@given(squares, squares, squares, st.integers(0, 14))
def test_r_orm_map_1_in_range_agrees_with_distance_and_is_a_metric(a: Square, b: Square, c: Square, r: int) -> None:
    m = Manhattan()
    assert m.in_range(a, b, r) == (m.distance(a, b) <= r)
    assert m.distance(a, b) == m.distance(b, a)
    assert m.distance(a, c) <= m.distance(a, b) + m.distance(b, c)
    assert m.distance(a, b) >= Chebyshev().distance(a, b)


def test_r_orm_map_1_a_house_ruleset_with_manhattan_range_keeps_diagonals_out_of_range_1(tmp_path: Path) -> None:
    """R-VAR-1 with R-ORM-MAP-1: under tcgt (Chebyshev) Eruption (range 1)
    reaches a diagonal neighbour; under ``range: manhattan`` it does not,
    while an orthogonal neighbour is reached under both."""
    house = manhattan_house(tmp_path)
    for square, tcgt_hits, house_hits in (("d4", True, False), ("c4", True, True)):
        setup = battle([fighter("Pyra", "c3", "eruption", "火火火", plan=HOLD)],
                       [fighter("Mo", square, "", "水水水", plan=HOLD)])
        tcgt_rec = resolve_battle(setup, ruleset(turn_limit=1), 1, rng=ScriptedRng())
        house_rec = resolve_battle(setup, house, 1, rng=ScriptedRng())
        assert bool(damage_to(tcgt_rec, "Mo")) is tcgt_hits, square
        assert bool(damage_to(house_rec, "Mo")) is house_hits, square
        if not house_hits:
            assert of(house_rec, E.SkillUsed) == []


def test_r_orm_map_1_the_house_ruleset_reports_its_range_mechanic(tmp_path: Path) -> None:
    house = manhattan_house(tmp_path)
    assert house.mechanics.range.kind == "manhattan"
    assert house.mechanics.movement == ruleset().mechanics.movement


# ------------------------------------------------------------------ R-ORM-ABIL-1


def test_r_orm_abil_1_the_dice_count_follows_the_ability_level() -> None:
    """R-ORM-ABIL-1: "A check with ability x rolls dice_by_ability[x-1]
    six-sided dice (the last entry for x >= 9; that is min(5, 2 + floor(x/3)))"."""
    for x in range(1, 13):
        assert dice_for_ability(x, ORM_DICE) == min(5, 2 + x // 3), x
    rng = ScriptedRng({"checks": [1, 2, 3]}, strict=True)
    check = roll_nd6_check(rng, 3, ORM_DICE)
    assert check.dice == (1, 2, 3) and check.value == 6 + 3  # "A 3/3/3 character rolls 3d6+3"
    with pytest.raises(ValueError):
        dice_for_ability(3, ())


# ------------------------------------------------------------------ R-ORM-CHK-1


def test_r_orm_chk_1_worked_example_o1_values_with_support() -> None:
    """R-ORM-CHK-1, example O1: Pyra 5+4+2+3 = 14; Mo 2+2+3+3 +2 (Lu) = 12;
    Lu, intellect 6, rolls 4d6: 1+1+2+2+6 +2 (Mo) = 14 -- not a fumble, since
    not every face shows 1."""
    rng = ScriptedRng({"checks": [5, 4, 2, 2, 2, 3, 1, 1, 2, 2]}, strict=True)
    pyra = roll_nd6_check(rng, 3, ORM_DICE)
    mo = roll_nd6_check(rng, 3, ORM_DICE, support=2)
    lu = roll_nd6_check(rng, 6, ORM_DICE, support=2)
    assert (pyra.value, mo.value, lu.value) == (14, 12, 14)
    assert lu.dice == (1, 1, 2, 2) and not lu.fumble and not lu.critical
    assert rng.remaining() == {}


def test_r_orm_chk_1_two_sixes_are_a_critical_worth_ten() -> None:
    """R-ORM-CHK-1, example O2: Rin's 6+6+2+3 = 17 is critical, so 27
    (「「6」の出目が2個以上出た場合、その判定はクリティカル」)."""
    rin = roll_nd6_check(ScriptedRng({"checks": [6, 6, 2]}, strict=True), 3, ORM_DICE)
    assert rin.critical and rin.value == 27
    one_six = roll_nd6_check(ScriptedRng({"checks": [6, 5, 2]}, strict=True), 3, ORM_DICE)
    assert not one_six.critical and one_six.value == 16
    house = roll_nd6_check(ScriptedRng({"checks": [6, 6, 2]}, strict=True), 3, ORM_DICE,
                           critical=CriticalRule(sixes=3, bonus=5))
    assert not house.critical and house.value == 17


def test_r_orm_chk_1_every_face_a_one_is_a_fumble() -> None:
    """R-ORM-CHK-1: "It is a fumble when every face shows 1"; the value is
    still reported (the opposed rule makes it fail)."""
    check = roll_nd6_check(ScriptedRng({"checks": [1, 1, 1]}, strict=True), 3, ORM_DICE, support=2)
    assert check.fumble and not check.critical and check.value == 3 + 3 + 2


@given(st.integers(1, 12), st.integers(0, 2), st.lists(st.integers(1, 6), min_size=5, max_size=5))
def test_r_orm_chk_1_value_is_faces_plus_ability_plus_support_plus_critical(
        ability: int, support: int, faces: list[int]) -> None:
    n = dice_for_ability(ability, ORM_DICE)
    check = roll_nd6_check(ScriptedRng({"checks": faces[:n]}, strict=True), ability, ORM_DICE, support=support)
    assert check.dice == tuple(faces[:n])
    assert check.critical == (faces[:n].count(6) >= 2)
    assert check.fumble == all(f == 1 for f in faces[:n])
    assert check.value == sum(faces[:n]) + ability + support + (10 if check.critical else 0)


# ------------------------------------------------------------------ R-ORM-MOVE-1


ORM_MOVES = "movement: {kind: steps, adjacency: rook, enemies_block: true, engagement_lock: false}"


def house(tmp_path: Path, movement: str) -> Ruleset:
    path = tmp_path / "house-moves.yaml"
    path.write_text(f"extends: tcgt\nmechanics:\n  {movement}\n", encoding="utf-8")
    return replace(load_ruleset(path), turn_limit=1)


def moves_of(record: BattleRecord, name: str) -> list[tuple[str, str]]:
    return [(str(e.from_square), str(e.to_square)) for e in of(record, E.Moved) if e.actor == name]


def runner_guard_boss(runner_at: str = "a1", guard_at: str = "a2", boss_at: str = "a3") -> BattleSetup:
    return battle([fighter("Runner", runner_at, plan=[MoveToward(line=1, who=MoveGoal.NAMED, name="Boss")])],
                  [fighter("Guard", guard_at, "", "水水水", plan=HOLD), fighter("Boss", boss_at, "", "水水水", plan=HOLD)])


def test_r_orm_move_1_a_route_goes_around_an_enemy_area(tmp_path: Path) -> None:
    """R-ORM-MOVE-1: "An area holding an enemy of the mover is never passed
    through (「通り過ぎることは出来ません…迂回するしか」) ... Every route ...
    is taken on the map without those areas, except the route's own end".
    Toward the Boss on a3 past the Guard on a2, the Runner steps around (b1);
    4-way without blocking it walks into a2, as tcgt does."""
    setup = runner_guard_boss()
    blocking = resolve_battle(setup, house(tmp_path, ORM_MOVES), 1, rng=ScriptedRng(strict=True))
    open_rook = resolve_battle(setup, house(tmp_path, "movement: {kind: steps, adjacency: rook}"), 1,
                               rng=ScriptedRng(strict=True))
    tcgt = resolve_battle(setup, ruleset(turn_limit=1), 1, rng=ScriptedRng(strict=True))
    assert moves_of(blocking, "Runner") == [("a1", "b1")]
    assert moves_of(open_rook, "Runner") == [("a1", "a2")]
    assert moves_of(tcgt, "Runner") == [("a1", "a2")]


def test_r_orm_move_1_an_enemy_area_may_end_a_route(tmp_path: Path) -> None:
    """R-ORM-MOVE-1: the enemy's area "may end a route": toward the Guard
    itself, the Runner steps into its area."""
    setup = battle([fighter("Runner", "a1", plan=[MoveToward(line=1, who=MoveGoal.NAMED, name="Guard")])],
                   [fighter("Guard", "a2", "", "水水水", plan=HOLD)])
    rec = resolve_battle(setup, house(tmp_path, ORM_MOVES), 1, rng=ScriptedRng(strict=True))
    assert moves_of(rec, "Runner") == [("a1", "a2")]


def test_r_orm_move_1_an_enemy_in_the_movers_area_does_not_hold_it(tmp_path: Path) -> None:
    """R-ORM-MOVE-1: "An enemy in the mover's area does not hold it
    [decision: no R-MOVE-1 engagement lock]"; tcgt's R-MOVE-1 keeps it."""
    setup = runner_guard_boss("c3", "c3", "c5")
    rec = resolve_battle(setup, house(tmp_path, ORM_MOVES), 1, rng=ScriptedRng(strict=True))
    tcgt = resolve_battle(setup, ruleset(turn_limit=1), 1, rng=ScriptedRng(strict=True))
    assert moves_of(rec, "Runner") == [("c3", "c4")]
    assert [e.reason for e in of(tcgt, E.Stayed) if e.actor == "Runner"] == ["engaged"]


def test_r_orm_move_1_an_unreachable_goal_is_no_route(tmp_path: Path) -> None:
    """Walled in by enemies on a 4-way map (a1 with enemies on a2 and b1),
    the Boss on c3 cannot be reached: the Runner stays (``no_route``)."""
    setup = battle([fighter("Runner", "a1", plan=[MoveToward(line=1, who=MoveGoal.NAMED, name="Boss")])],
                   [fighter("G1", "a2", "", "水水水", plan=HOLD), fighter("G2", "b1", "", "水水水", plan=HOLD),
                    fighter("Boss", "c3", "", "水水水", plan=HOLD)])
    rec = resolve_battle(setup, house(tmp_path, ORM_MOVES), 1, rng=ScriptedRng(strict=True))
    assert [e.reason for e in of(rec, E.Stayed) if e.actor == "Runner"] == ["no_route"]


def test_r_orm_move_1_tcgt_keeps_its_plain_steps_spec() -> None:
    """The ORM parameters are a subclass of the spec, built only when written,
    so tcgt's movement (and every report listing it) is unchanged."""
    spec = ruleset().mechanics.movement
    assert type(spec) is StepsSpec and not isinstance(spec, BlockingStepsSpec)


def test_r_orm_move_1_parameters_are_checked_where_written(tmp_path: Path) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text("extends: tcgt\nmechanics:\n  movement: {kind: steps, enemies_block: 3, capacity_per_side: 2}\n",
                    encoding="utf-8")
    got, diags = load_ruleset_file(path)
    assert got is None
    assert sorted((d.code, d.line) for d in diags) == [("invalid-value", 3)]


@given(data=st.data())
def test_r_orm_move_1_blocking_steps_keep_the_movement_contract_and_never_pass_an_enemy(data: st.DataObject) -> None:
    """The Movement contract (tests/engine/test_mechanics.py) holds with
    enemies on the map, tied steps in direction order N, E, S, W, and no
    step toward a goal enters an enemy's area unless that area is the goal
    (R-ORM-MOVE-1)."""
    movement = BlockingSteps()
    width, height = data.draw(st.integers(1, 7)), data.draw(st.integers(1, 7))
    graph = MapGraph(width, height, movement.adjacency)
    squares = graph.squares
    me = Fighter("A", "white", 0, 3, 12, 12, data.draw(st.sampled_from(squares)), (), (), PlanRules())
    enemy_squares = data.draw(st.lists(st.sampled_from(squares), max_size=6))
    enemies = [Fighter(f"E{i}", "black", i + 1, 3, 12, 12, sq, (), (), PlanRules())
               for i, sq in enumerate(enemy_squares)]
    state = BattleState([me, *enemies], graph, Manhattan())
    dst = data.draw(st.sampled_from(squares))
    movement_contract(movement, state, me, dst, lambda s: DIRECTIONS.index(direction_between(me.square, s)))
    held = set(enemy_squares) - {dst}
    assert not held & set(movement.toward(state, me, dst))


def test_r_orm_move_1_bind_and_sinking_still_hold_the_mover() -> None:
    """R-ORM-MOVE-1: "Bind and sinking still do [hold it]"; an enemy in the
    area does not, unless the engagement lock is asked for."""
    graph = MapGraph(8, 8, "rook")
    me = Fighter("A", "white", 0, 3, 12, 12, parse_square("c3"), (), (), PlanRules())
    foe = Fighter("B", "black", 1, 3, 12, 12, parse_square("c3"), (), (), PlanRules())
    state = BattleState([me, foe], graph, Manhattan())
    assert BlockingSteps().stuck(state, me) is None
    assert BlockingSteps(engagement_lock=True).stuck(state, me) == "engaged"
    me.bind = 1
    assert BlockingSteps().stuck(state, me) == "bound"


# ------------------------------------------------------------------ R-ORM-KNOCK-1


def push_from(attacker: str, target: str, script: list[int] | None = None,
              knockback: Literal["direct", "axis"] = "axis") -> tuple[str, ScriptedRng]:
    rng = ScriptedRng({"knockback": script or []}, strict=True)
    ctx = cast(Resolution, SimpleNamespace(rng=rng))
    moves = BlockingSteps(knockback=knockback)
    return moves.push_direction(ctx, parse_square(attacker), parse_square(target)).name, rng


def test_r_orm_knock_1_pushes_go_along_one_axis_away_from_the_attacker() -> None:
    """R-ORM-KNOCK-1: "A knockback pushes along one axis away from the
    attacker: x when |dx| > |dy|, y when |dy| > |dx|" (no draw)."""
    assert push_from("c3", "e4")[0] == "E"
    assert push_from("c3", "a2")[0] == "W"
    assert push_from("c3", "d5")[0] == "N"
    assert push_from("c3", "c1")[0] == "S"
    assert push_from("c3", "d4", knockback="direct")[0] == "NE"  # tcgt's R-KNOCK-1


def test_r_orm_knock_1_a_diagonal_or_the_same_area_draws_on_knockback() -> None:
    """R-ORM-KNOCK-1: "When |dx| = |dy| != 0 it draws a choice on `knockback`
    between those two directions (listed N, E, S, W); from the same area it
    draws among N, E, S, W"."""
    direction, rng = push_from("c3", "d4", [0])
    assert direction == "N" and rng.log == [("knockback", "choice", 0)]  # [N, E]
    direction, rng = push_from("c3", "b2", [1])
    assert direction == "W" and rng.log == [("knockback", "choice", 1)]  # [S, W]
    direction, rng = push_from("c3", "c3", [3])
    assert direction == "W" and rng.log == [("knockback", "choice", 3)]  # [N, E, S, W]


def test_r_orm_knock_1_is_a_movement_parameter_checked_where_written(tmp_path: Path) -> None:
    path = tmp_path / "knock.yaml"
    path.write_text("extends: tcgt\nmechanics:\n  movement: {kind: steps, knockback: sideways}\n", encoding="utf-8")
    got, diags = load_ruleset_file(path)
    assert got is None and [(d.code, d.line) for d in diags] == [("invalid-value", 3)]
    path.write_text("extends: tcgt\nmechanics:\n  movement: {kind: steps, adjacency: rook, knockback: axis}\n",
                    encoding="utf-8")
    good, _ = load_ruleset_file(path)
    assert good is not None
    assert build_mechanics(good.mechanics).movement == BlockingSteps("rook", False, True, "axis")


def test_r_orm_move_1_referee_rulesets_lists_the_flags_as_written() -> None:
    """``referee rulesets`` lists a mechanic's parameters from its typed spec;
    the ORM flags read as the file writes them (true/false)."""
    text = describe_ruleset(load_ruleset(Path(__file__).resolve().parents[2] / "fixtures"
                                         / "house-orm-movement.ruleset.yaml"), ruleset())
    assert "steps (adjacency rook, enemies block true, engagement lock false, knockback axis, capacity per side 2)" in text
