"""Evaluation context and primitives of plan conditions (R-PAT-2, R-PLAN-5).

A compiled condition is a closure over a :class:`CondContext`.  The
primitives here are what the plan's subjects mean (interfaces.md): bare
``hp``/``hp lost``/``engaged``/``bound`` are the character's own; ``target``
is the candidate being considered; ``ally`` holds if some member of the army,
itself included, satisfies it (within the skill's range when a skill is
considered, anywhere otherwise); ``enemies in range`` counts living enemies
within the skill's range, or within distance 1 with no skill.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from referee.board import chebyshev
from referee.catalog import Skill
from referee.engine.state import BattleState, Fighter

__all__ = ["CondContext", "enemies_in_range", "allies_for", "readies", "acting_first"]


@dataclass(slots=True)
class CondContext:
    """Who is asking (``me``), about which ``skill`` and ``target``."""

    state: BattleState
    me: Fighter
    skill: Skill | None = None
    target: Fighter | None = None

    def with_target(self, target: Fighter | None) -> "CondContext":
        return CondContext(self.state, self.me, self.skill, target)

    def subject(self, who: str) -> Fighter | None:
        """``self`` -> me, ``target`` -> target (None if no candidate)."""
        return self.me if who == "self" else self.target


def enemies_in_range(ctx: CondContext) -> int:
    """Living enemies within the skill's range (distance 1 with no skill)."""
    r = ctx.skill.range if ctx.skill is not None else 1
    return sum(1 for e in ctx.state.enemies_of(ctx.me) if chebyshev(e.square, ctx.me.square) <= r)


def allies_for(ctx: CondContext) -> list[Fighter]:
    """The ``ally`` subject's domain: army incl. self, within range if a skill."""
    allies = ctx.state.allies_of(ctx.me)
    if ctx.skill is None:
        return allies
    r = ctx.skill.range
    return [a for a in allies if chebyshev(a.square, ctx.me.square) <= r]


def any_ally(ctx: CondContext, test: Callable[[Fighter], bool]) -> bool:
    return any(test(a) for a in allies_for(ctx))


def readies(state: BattleState, f: Fighter, skill_id: str) -> bool:
    """R-PAN-4: ``f`` holds ``skill_id`` readied (cost payable now, or maintained)."""
    from referee.engine.panels import can_pay

    for i, s in enumerate(f.skills):
        if s.id != skill_id or f.entry_bound(i):
            continue
        if i in f.maintained or can_pay(f, s.cost):
            return True
    return False


def acting_first(ctx: CondContext) -> bool:
    """No living enemy has acted yet this turn."""
    return not any(e.acted for e in ctx.state.enemies_of(ctx.me))
