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

from dataclasses import dataclass

from referee.catalog import Skill
from referee.engine.panels import can_pay
from referee.engine.state import BattleState, Fighter

__all__ = ["CondContext", "readies", "readies_class", "acting_first"]


@dataclass(slots=True)
class CondContext:
    """Who is asking (``me``), about which ``skill`` and ``target``."""

    state: BattleState
    me: Fighter
    skill: Skill | None = None
    target: Fighter | None = None
    #: soulwired (R-SOUL-PLAN-2): the use an evasion clause is deciding on.
    incoming: Skill | None = None


def readies(state: BattleState, f: Fighter, skill_id: str) -> bool:
    """R-PAN-4: ``f`` holds ``skill_id`` readied (cost payable now, or maintained)."""
    for i, s in enumerate(f.skills):
        if s.id != skill_id or f.entry_bound(i):
            continue
        if i in f.maintained or can_pay(f, s.cost):
            return True
    return False


def readies_class(f: Fighter, skill_class: str) -> bool:
    """R-PAN-4: ``f`` holds some skill of ``skill_class`` readied."""
    for i, s in enumerate(f.skills):
        if skill_class in s.classes and not f.entry_bound(i) and (i in f.maintained or can_pay(f, s.cost)):
            return True
    return False


def acting_first(ctx: CondContext) -> bool:
    """No living enemy has acted yet this turn (the kept head counts: no
    copy of the enemy list, issue 18)."""
    st, team = ctx.state, ctx.me.team
    for side, standing in st.standing_by_team.items():
        if side != team:
            for e in standing:
                if e.acted:
                    return False
    return True
