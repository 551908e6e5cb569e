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

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from referee.catalog import Skill
from referee.engine.panels import can_pay
from referee.engine.state import BattleState, Fighter

__all__ = ["CondContext", "targets_where", "readies", "readies_class", "acting_first"]


@dataclass(slots=True)
class CondContext:
    """Who is asking (``me``), about which ``skill`` and ``target``."""

    state: BattleState
    me: Fighter
    skill: Skill | None = None
    target: Fighter | None = None
    #: soulwired (R-SOUL-PLAN-2): the use an evasion clause is deciding on.
    incoming: Skill | None = None


def targets_where(cond: Callable[[CondContext], bool], state: BattleState, me: Fighter, skill: Skill | None,
                  pool: Iterable[Fighter], keep: bool = True, first: bool = False) -> list[Fighter]:
    """The candidates of ``pool`` for which ``cond``, read with each as
    ``target``, is ``keep`` (``first``: at most the first such), in pool order."""
    out = []
    for t in pool:
        if cond(CondContext(state, me, skill, t)) == keep:
            out.append(t)
            if first:
                break
    return out


def readies(state: BattleState, f: Fighter, skill_id: str) -> bool:
    """R-PAN-4: ``f`` holds ``skill_id`` readied (cost payable now, or
    maintained)."""
    for i, s in enumerate(f.skills):
        if s.id == skill_id and not f.entry_bound(i) and (i in f.maintained or can_pay(f, s.cost)):
            return True
    return False


def readies_class(f: Fighter, skill_class: str) -> bool:
    """R-PAN-4: ``f`` holds some skill of ``skill_class`` readied."""
    for i, s in enumerate(f.skills):
        if skill_class in s.classes and not f.entry_bound(i) and (i in f.maintained or can_pay(f, s.cost)):
            return True
    return False


def acting_first(ctx: CondContext) -> bool:
    """No living enemy has acted yet this turn."""
    return not any(e.acted for e in ctx.state.enemies_of(ctx.me))
