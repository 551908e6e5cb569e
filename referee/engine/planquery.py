"""Questions the resolver asks of a character's plan (R-PLAN-*, R-SK-1a).

Every answer ignores clauses under Bind (R-ST-BIND) and evaluates
conditions at the moment of asking.
"""

from __future__ import annotations

from referee.catalog import Skill
from referee.engine.conditions import CondContext
from referee.engine.clauses import Clause, Maintain, NeverUse, PlanFlag, UseOnly
from referee.engine.state import BattleState, Fighter


def has_flag(state: BattleState, f: Fighter, flag: PlanFlag) -> bool:
    """Whether an active clause switching ``flag`` on holds now."""
    flags = f.plan.flags
    if not flags:
        return False
    for c in flags:
        if c.flag == flag and f.clause_active(c.line) and c.when(CondContext(state, f)):
            return True
    return False


def is_stacked(state: BattleState, f: Fighter, skill: Skill) -> bool:
    """R-SK-1a: ``stack X [when C]`` orders every usable entry of X to fire.
    The clause names X, so C's ``enemies in range`` / ``ally`` use X's range
    (interfaces.md)."""
    stacks = f.plan.stacks
    if not stacks:
        return False
    for c in stacks:
        if c.skill == skill.id and f.clause_active(c.line) and c.when(CondContext(state, f, skill)):
            return True
    return False


def gate_blocking(
    state: BattleState, f: Fighter, skill: Skill, target: Fighter | None = None,
    *, ignore_target_conditions: bool = False,
) -> Clause | None:
    """R-PLAN-5: the first ``never use X when C`` whose C holds or ``use X only
    when C`` whose C fails, or None.  ``target`` is the candidate/attacker the
    condition may speak of; target conditions are skipped when asked (the
    walk filters candidates with them instead)."""
    gates = f.plan.gates
    if not gates:
        return None
    ctx = CondContext(state, f, skill, target)
    for c in gates:
        if c.skill != skill.id or not f.clause_active(c.line):
            continue
        if ignore_target_conditions and c.targets_condition:
            continue
        holds = c.when(ctx)
        if isinstance(c, NeverUse) and holds:
            return c
        if isinstance(c, UseOnly) and not holds:
            return c
    return None


def release_clause(state: BattleState, f: Fighter, skill: Skill) -> Clause | None:
    """R-TURN-4's one keep/release decision for maintained ``skill``: read
    top-down over the active clauses naming it, the first that *applies*
    decides -- ``release X when C`` applies only while C holds (release);
    ``maintain X when C`` always applies (keep while C holds, else release).
    No clause applies: kept.  Returns the clause that says release, or None.

    The same decision serves the maintenance step and a maintain entry tried
    in the walk (R-PLAN-3: a start it would release at once is held back), so
    the two can never disagree."""
    keeps = f.plan.keeps
    if not keeps:
        return None
    ctx = CondContext(state, f, skill)
    for c in keeps:
        if c.skill != skill.id or not f.clause_active(c.line):
            continue
        holds = c.when(ctx)
        if isinstance(c, Maintain):
            return None if holds else c
        if holds:
            return c
    return None
