"""Conformance scenarios for the clarified R-TURN-4: one keep/release decision,
taken both when a maintain entry is tried (R-PLAN-3) and at the maintenance
step.

    "For each maintained X one decision, read top-down over the clauses naming
    X (R-PLAN-5): the first that *applies* decides -- ``release X when C``
    applies only while C holds (release); ``maintain X when C`` always applies
    (keep while C holds, release otherwise). No clause applies: kept. The same
    decision, taken when a maintain entry is tried, holds the start back
    (R-PLAN-3) when it says release."

Sala Twin Trees (沙羅双樹, cost 剣剣, maintain + counter) is the maintained
skill; S holds position so nothing else happens.
"""

from __future__ import annotations

from referee.engine import events as E
from referee.engine.battle import BattleRecord
from referee.engine.clauses import Condition, Hold, Maintain, Release

from .helpers import battle, fighter, of, run

SALA = "sala-twin-trees"


def true(_: object) -> bool:
    return True


def false(_: object) -> bool:
    return False


def from_turn(n: int) -> Condition:
    return lambda ctx: ctx.state.turn >= n  # type: ignore[no-any-return]


def resolve(*clauses: Maintain | Release, turns: int = 2) -> BattleRecord:
    plan = [*clauses, Hold(line=9)]
    return run(battle([fighter("S", "c3", SALA, "剣剣", plan=plan)],
                      [fighter("B", "h8", "", plan=[Hold(line=9)])]), turns=turns)


def started(rec: BattleRecord) -> list[int]:
    return [e.turn for e in of(rec, E.MaintainStarted)]


def released(rec: BattleRecord) -> list[tuple[int, str, int | None]]:
    return [(e.turn, e.cause, e.line) for e in of(rec, E.MaintainReleased)]


def held_back(rec: BattleRecord) -> list[tuple[int, int | None]]:
    return [(e.turn, e.line) for e in of(rec, E.SkillPassed) if e.reason == "held_back"]


def test_r_turn_4_no_clause_applies_the_skill_is_kept() -> None:
    rec = resolve(Release(line=1, skill=SALA, when=false, conditional=True))
    assert started(rec) == [1] and released(rec) == []


def test_r_turn_4_a_later_release_applies_after_a_release_that_does_not() -> None:
    """A ``release`` whose condition fails does not apply, so the next clause
    naming X decides: its true ``release`` releases at the maintenance step
    (before the fix, the first clause ended the reading and X was kept)."""
    rec = resolve(Release(line=1, skill=SALA, when=from_turn(5), conditional=True),
                  Release(line=2, skill=SALA, when=from_turn(2), conditional=True))
    assert started(rec) == [1]
    assert released(rec) == [(2, "clause", 2)]


def test_r_turn_4_a_later_release_after_a_false_maintain_the_maintain_decides() -> None:
    """``maintain X when C`` always applies: with C false it releases, and it
    is the clause that decides (its line is reported), whatever follows."""
    rec = resolve(Maintain(line=1, skill=SALA, when=lambda c: c.state.turn < 2, conditional=True),
                  Release(line=2, skill=SALA, when=true, conditional=True))
    assert started(rec) == [1]  # turn 1: maintain's C holds, it decides: keep
    assert released(rec) == [(2, "clause", 1)]


def test_r_turn_4_an_earlier_true_maintain_beats_a_later_true_release() -> None:
    """The first applying clause decides: a true ``maintain`` keeps X even
    though a later ``release`` holds too -- at the maintenance step and when
    the entry is tried (before the fix the start was held back by line 2)."""
    rec = resolve(Maintain(line=1, skill=SALA, when=true, conditional=True),
                  Release(line=2, skill=SALA, when=true, conditional=True))
    assert held_back(rec) == []
    assert started(rec) == [1] and released(rec) == []


def test_r_turn_4_the_same_decision_holds_a_start_back() -> None:
    """"The same decision, taken when a maintain entry is tried, holds the
    start back (R-PLAN-3) when it says release": a non-applying release then
    an applying one hold the start back, reported at the deciding line."""
    rec = resolve(Release(line=1, skill=SALA, when=false, conditional=True),
                  Release(line=2, skill=SALA, when=true, conditional=True), turns=1)
    assert started(rec) == [] and held_back(rec) == [(1, 2)]
    rec = resolve(Maintain(line=1, skill=SALA, when=false, conditional=True),
                  Release(line=2, skill=SALA, when=false, conditional=True), turns=1)
    assert started(rec) == [] and held_back(rec) == [(1, 1)]
