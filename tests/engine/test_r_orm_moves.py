"""Conformance scenarios for readings of ORM movement: a simple-phase move
fixes its clause and goal once, when it takes its first step (R-ORM-ACT-3);
tied steps are drawn in direction order N, E, S, W (R-ORM-MOVE-1); and a last
step -- tcgt's one step after the walk in the ``house-orm-movement`` mix --
never ends in a full area of the mover's side (R-ORM-MOVE-2).  Fixed squares
and order, scripted RNG, assertions on events."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from referee.engine import events as E
from referee.engine.battle import BattleRecord
from referee.engine.clauses import Hold, MoveTo
from referee.engine.rng import ScriptedRng
from referee.engine.battle import resolve_battle
from referee.board import parse_square
from referee.ruleset import Ruleset, load_ruleset

from .helpers import battle, fighter, ruleset
from .ormhelpers import orm_battle, orm_fighter, orm_run

HOUSE = Path(__file__).resolve().parents[2] / "fixtures" / "house-orm-movement.ruleset.yaml"
HOLD_PLAN = "hold position\nnever use normal-attack\n"


def of(record: BattleRecord, cls: type[E.Event], **match: Any) -> list[Any]:
    return [e for e in record.events if isinstance(e, cls) and all(getattr(e, k) == v for k, v in match.items())]


def moved(record: BattleRecord, name: str) -> list[tuple[str, str]]:
    return [(str(e.from_square), str(e.to_square)) for e in of(record, E.Moved, actor=name)]


def simple_moves(record: BattleRecord, name: str) -> list[tuple[str, str, int]]:
    return [(str(e.from_square), str(e.to_square), e.steps)
            for e in of(record, E.SimpleUse) if e.actor == name and e.kind == "move"]


# ------------------------------------------------------------------ R-ORM-ACT-3


def test_r_orm_act_3_the_clause_is_fixed_at_the_move_start_when_its_condition_flips() -> None:
    """R-ORM-ACT-3: "At its start R-MOVE-7 picks, as in tcgt, the clause or
    R-MOVE-6 ... that decides it, and fixes its goal ... Before each step that
    rule's stop test is made from where the mover stands".

    Walker (移動力 2) on a1 plans ``move to e1 when enemies in range = 0``;
    the Foe holds b2.  On a1 no enemy is within 1, so the clause decides the
    move.  After the first step (b1) the Foe is within 1 and the condition is
    false -- but the clause was fixed at the move's start, so the second step
    still goes toward e1 (c1), not R-MOVE-6's ``in_reach`` stop.  The second
    move picks again on c1 (the condition holds there) and reaches e1."""
    walker = orm_fighter("Walker", "a1", plan="move to e1 when enemies in range = 0\n")
    record, _ = orm_run(orm_battle([walker], [orm_fighter("Foe", "b2", plan=HOLD_PLAN)]), strict=True)
    assert moved(record, "Walker") == [("a1", "b1"), ("b1", "c1"), ("c1", "d1"), ("d1", "e1")]
    assert simple_moves(record, "Walker") == [("a1", "c1", 2), ("c1", "e1", 2)]
    assert all(e.line == 1 for e in of(record, E.Moved) if e.actor == "Walker")
    assert not of(record, E.Stayed, actor="Walker")


def test_r_orm_act_3_the_goal_is_drawn_once_per_move() -> None:
    """R-ORM-ACT-3: the move "fixes its goal (a tie drawn on `ties`)".  West
    (a3) and East (e3) are both 4 steps from Walker on c1, so R-MOVE-6 draws
    one on ``ties`` (index 1: East); the first step's two equal candidates,
    in direction order c2 (N) and d1 (E) (R-ORM-MOVE-1), are drawn next
    (index 0: c2).  On c2 the two enemies tie again (3 steps each), but the
    goal was fixed at the move's start: no goal is drawn there (the next
    draw, index 0, would be West) and the second step goes on to d2, toward
    East; that draw is the second move's tied step."""
    walker = orm_fighter("Walker", "c1")
    black = [orm_fighter("West", "a3", plan=HOLD_PLAN), orm_fighter("East", "e3", plan=HOLD_PLAN)]
    record, rng = orm_run(orm_battle([walker], black, ["Walker", "West", "East"]),
                          {"ties": [1, 0, 0], "checks": [1, 2, 3, 3, 3, 3]})
    first = of(record, E.Moved, actor="Walker")[:2]
    assert [(str(e.from_square), str(e.to_square), e.toward) for e in first] == [
        ("c1", "c2", "East"), ("c2", "d2", "East")]
    assert simple_moves(record, "Walker")[0] == ("c1", "d2", 2)
    assert [d for d in rng.log if d[0] == "ties"][:3] == [("ties", "choice", 1)] + [("ties", "choice", 0)] * 2


def test_r_orm_act_3_a_move_that_stops_at_once_draws_no_goal() -> None:
    """R-ORM-ACT-3: a move "fixes its goal (a tie drawn on `ties`) [clarified:
    only when the first step is taken; a move whose stop test holds at its
    start draws no goal and nothing on `ties`]".  Walker plans ``move toward
    nearest enemy`` and shares c3 with Ann and Bo, equally near (0): the
    stop test (R-MOVE-8: goal reached) holds for either, so Walker stays
    ``arrived`` and no goal is drawn."""
    walker = orm_fighter("Walker", "c3", plan="move toward nearest enemy\nnever use normal-attack\n")
    black = [orm_fighter(n, "c3", plan=HOLD_PLAN) for n in ("Ann", "Bo")]
    record, rng = orm_run(orm_battle([walker], black))
    assert [e.reason for e in of(record, E.Stayed, actor="Walker")] == ["arrived"]
    assert not moved(record, "Walker")
    assert [d for d in rng.log if d[0] == "ties"] == []


def test_r_orm_act_3_the_goal_of_a_move_toward_clause_is_drawn_at_its_first_step() -> None:
    """R-ORM-ACT-3: when the move does step, its goal is drawn then, before
    the step's own tie: Ann (a3) and Bo (e3) are both 4 steps from Walker on
    c1; ``ties`` 1 takes Bo, then the tied first step toward e3 (c2 N, d1 E)
    takes index 0: c2, and the goal stays Bo for the move."""
    walker = orm_fighter("Walker", "c1", plan="move toward nearest enemy\nnever use normal-attack\n")
    black = [orm_fighter("Ann", "a3", plan=HOLD_PLAN), orm_fighter("Bo", "e3", plan=HOLD_PLAN)]
    record, rng = orm_run(orm_battle([walker], black), {"ties": [1, 0]})
    first = of(record, E.Moved, actor="Walker")[:2]
    assert [(str(e.from_square), str(e.to_square), e.toward) for e in first] == [("c1", "c2", "Bo"), ("c2", "d2", "Bo")]
    assert [d for d in rng.log if d[0] == "ties"][:2] == [("ties", "choice", 1), ("ties", "choice", 0)]


# ------------------------------------------------------------------ R-ORM-MOVE-1


@pytest.mark.parametrize("goal, path", [
    ("e5", ["c4", "d4", "e4", "e5"]),  # NE: N, then E
    ("a5", ["c4", "b4", "a4", "a5"]),  # NW: N, then W
    ("e1", ["d3", "d2", "d1", "e1"]),  # SE: E, then S
    ("a1", ["c2", "b2", "a2", "a1"]),  # SW: S, then W (the same as square order)
])
def test_r_orm_move_1_tied_steps_are_drawn_in_direction_order(goal: str, path: list[str]) -> None:
    """R-ORM-MOVE-1: "when |dx| = |dy| the two steps tie and R-RNG-1 draws on
    `ties` (candidates in direction order N, E, S, W)".  Walker (移動力 2)
    goes from c3 to a square two files and two ranks away: each of its two
    moves starts on a diagonal and draws; ``ties`` 0 then 1 take the first,
    then the second tied step in direction order.  Square order (rank by
    rank) would differ on the NE, NW and SE approaches."""
    walker = orm_fighter("Walker", "c3", plan=f"move to {goal}\nnever use normal-attack\n")
    record, rng = orm_run(orm_battle([walker], [orm_fighter("Foe", "h8", plan=HOLD_PLAN)]), {"ties": [0, 1]},
                          strict=True)
    assert [to for _, to in moved(record, "Walker")] == path
    assert rng.remaining() == {}


# ------------------------------------------------------------------ R-ORM-MOVE-2 in the house mix


def house(turn_limit: int = 1) -> Ruleset:
    return replace(load_ruleset(HOUSE), turn_limit=turn_limit)


def test_r_orm_move_2_tcgts_last_step_never_ends_in_a_full_area() -> None:
    """R-ORM-MOVE-2: "A mover may pass a full area of its side but not stop
    there."  In the house mix (tcgt with ORM's movement, capacity 2), tcgt's
    one step after the walk (R-TURN-5) is the move's last: toward a2, which
    holds two of its side, the Runner stays (``full``, R-ORM-MOVE-2); under
    tcgt it steps in."""
    runner = fighter("Runner", "a1", plan=[MoveTo(line=1, square=parse_square("a2"))])
    pair = [fighter(n, "a2", plan=[Hold(line=1)]) for n in ("P1", "P2")]
    setup = battle([runner, *pair], [fighter("Foe", "h8", plan=[Hold(line=1)])])
    record = resolve_battle(setup, house(), 1, rng=ScriptedRng(strict=True))
    assert moved(record, "Runner") == []
    assert [(e.reason, e.rule) for e in of(record, E.Stayed, actor="Runner")] == [("full", "R-ORM-MOVE-2")]
    tcgt = resolve_battle(setup, ruleset(turn_limit=1), 1, rng=ScriptedRng(strict=True))
    assert moved(tcgt, "Runner") == [("a1", "a2")]


def test_r_orm_move_2_tcgts_last_step_draws_only_among_areas_where_it_may_stop() -> None:
    """R-ORM-MOVE-2 with R-MOVE-5: toward b2 from a1 the steps a2 and b1 tie
    (|dx| = |dy|); a2 is full, so the step is b1 with no draw on ``ties``
    (the strict scripted RNG has no outcome to give)."""
    runner = fighter("Runner", "a1", plan=[MoveTo(line=1, square=parse_square("b2"))])
    pair = [fighter(n, "a2", plan=[Hold(line=1)]) for n in ("P1", "P2")]
    setup = battle([runner, *pair], [fighter("Foe", "h8", plan=[Hold(line=1)])])
    record = resolve_battle(setup, house(), 1, rng=ScriptedRng(strict=True))
    assert moved(record, "Runner") == [("a1", "b1")]


# ------------------------------------------------------------------ R-ORM-ACT-5 and Skill Bind


def test_r_orm_act_5_the_normal_attack_is_never_taken_by_skill_bind() -> None:
    """R-ORM-ACT-5: the normal attack "is never extended, never listed on a
    sheet, and never taken by Skill Bind."  Ia-Temu Curse hits Tgt, whose
    sheet lists no skill (its only entry is the innate normal attack), and
    its Bind on a skill finds nothing to take: ``status_no_effect`` (no
    skills); Tgt's normal attack stays unbound.  With one sheet entry
    (Rest), that entry is bound."""
    def curse(skills: str) -> BattleRecord:
        cur = orm_fighter("Curser", "c3", patterns="地剣剣", skills="ia-temu-curse", plan="target Tgt\n")
        tgt = orm_fighter("Tgt", "c3", patterns="水水水", skills=skills, plan="hold position\n")
        record, _ = orm_run(orm_battle([cur], [tgt]),
                            {"checks": [6, 5, 5, 1, 1, 2, 1, 1, 2, 6, 6, 6], "chances": [True], "damage": [1, 1]})
        return record

    bare = curse("")
    assert [(e.status, e.reason) for e in of(bare, E.StatusNoEffect, target="Tgt")] == [("bind", "no skills")]
    assert [e.skill for e in of(bare, E.SkillUsed, actor="Tgt")] == ["normal-attack"]
    rest = curse("rest")
    assert [(e.status, e.object, e.index) for e in of(rest, E.StatusApplied, target="Tgt")] == [("bind", "skill", 0)]
