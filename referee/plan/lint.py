"""Plan lint: plans and sheets that will not do what their author thinks.

``referee check --lint`` adds these *warnings* to the errors of
:mod:`referee.plan.check`.  Each names a rule ID and says in plain words what
will happen instead.  A warning must never be false (players stop reading
warnings that cry wolf), so every test here is sound and incomplete: the
conditions' logic is :mod:`referee.plan.truth`'s, which answers "cannot tell"
rather than guess.

Warnings (code -- rule):

* ``shadowed-clause`` -- R-PLAN-5 / R-MOVE-7 / R-TURN-4: an earlier clause
  deciding the same thing applies whenever this one would, so this one never
  decides anything (``maintain X`` always applies, so nothing after it about
  maintaining X ever does).
* ``condition-never-holds`` / ``condition-always-holds`` -- the numbers this
  character (and, in a battle, the armies) can have make the condition
  constant: the clause never applies, or ``when`` adds nothing.
* ``cost-unpayable`` -- R-PAN-3: no pattern of the sheet holds the skill's
  cost, so it is never used (a passive is never readied, R-PAN-4).
* ``cost-held-by-maintained`` -- R-PAN-2: every pattern that could pay the
  skill can pay it only with panels a maintained skill keeps.
* ``extend-unpayable`` -- R-EXT-1: no pattern holds the base cost plus one
  extra target's panels.
* ``pattern-never-active`` -- R-PAT-3.
* ``heal-never-fires`` -- R-PLAN-1, R-MOVE-8: ``heal even when unhurt``
  without Rest or Restore; ``move toward`` an ally in an army of one.
* ``counter-allies-without-counter`` -- R-PLAN-2: nothing on the sheet
  answers a hit.
* ``clause-without-effect`` -- ``use X first`` on a passive (skipped by the
  walk, R-PLAN-3); a target clause for a skill that never chooses a target
  (passives answer the attacker, maintained skills start without one,
  R-PLAN-3, R-TURN-3); ``stack X`` with X listed once (R-SK-1a); any clause
  about X beside an unconditional ``never use X`` (R-PLAN-5).

``extend`` on a skill not classed 拡大 is already an error of ``check``
(``not-extendable``, R-EXT-1); lint does not repeat it.

Positions are the plan's own (line/column in the plan text); the caller moves
them into the sheet for an inline plan.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from referee.diagnostics import Diagnostic
from referee.plan import ast as A
from referee.plan.format import format_clause, format_condition
from referee.plan.truth import Bounds, implies, truth

__all__ = ["LintSkill", "LintPattern", "LintSheet", "lint_plan", "lint_sheet"]


@dataclass(frozen=True)
class LintSkill:
    """What lint needs of a catalogue skill."""

    id: str
    label: str
    cost: tuple[str, ...]
    level: int
    classes: frozenset[str]
    targets: str


@dataclass(frozen=True)
class LintPattern:
    """A sheet's pattern: its elements, its parsed condition and where it is."""

    elements: tuple[str, ...]
    condition: A.Condition | None
    line: int
    column: int
    condition_line: int = 0
    condition_column: int = 0


@dataclass(frozen=True)
class LintSheet:
    """The character a plan belongs to.

    :param skills: the sheet's entries, in sheet order (repeats kept).
    :param skill_lines: the sheet line of each entry.
    :param army_size: the character's army, itself included (``None``: no battle).
    :param panel_changes: whether a panel change (R-ST-CHANGE: a panel turned
        to wind) can reach this character -- someone in the battle has such a
        skill, or the battle is not known.
    """

    file: str
    name: str
    skills: tuple[LintSkill, ...]
    skill_lines: tuple[int, ...]
    patterns: tuple[LintPattern, ...]
    army_size: int | None = None
    panel_changes: bool = True


def _warn(file: str, line: int, column: int, code: str, message: str, hint: str | None = None) -> Diagnostic:
    return Diagnostic(file, line, column, code, message, hint=hint, severity="warning")


# --------------------------------------------------------------- shadowing


def _slot(clause: A.Clause) -> tuple[object, ...] | None:
    """Clauses with the same slot compete; the first that applies decides."""
    skill = getattr(getattr(clause, "skill", None), "id", None) or getattr(getattr(clause, "skill", None), "text", None)
    if isinstance(clause, A.UseFirst):
        return ("use-first", skill)
    if isinstance(clause, A.TargetPreference):
        return ("target", skill)
    if isinstance(clause, A.Extend):
        return ("extend", skill)
    if isinstance(clause, A.MOVEMENT_CLAUSES):
        return ("move",)
    if isinstance(clause, (A.Maintain, A.Release)):
        return ("maintain", skill)
    if isinstance(clause, (A.FriendlyFire, A.CounterAllies, A.HealEvenWhenUnhurt, A.Stack, A.NeverUse)):
        return (type(clause).__name__, skill)
    # d20pool (R-D20-CHECK-3/4, -TURN-2/3): the first of a kind that holds decides
    if isinstance(clause, (A.DropDice, A.Boost)):
        return (type(clause).__name__, clause.check)
    if isinstance(clause, (A.Push, A.Grapple)):
        return ("ride",)
    if isinstance(clause, A.Recover):
        return ("recover",)
    return None


def _applies_when(clause: A.Clause) -> A.Condition | None:
    """When the clause *applies* (R-TURN-4: ``maintain X when C`` always applies)."""
    if isinstance(clause, A.Maintain):
        return None
    return getattr(clause, "condition", None)


def _may_not_apply(clause: A.Clause) -> bool:
    """A clause that can fail to apply although its condition holds: ``move
    toward`` someone who may be down or absent (R-MOVE-8)."""
    if isinstance(clause, (A.Push, A.Grapple)):
        return True  # R-D20-TURN-2: it applies only when it has a target
    return isinstance(clause, A.MoveToward) and not isinstance(clause.destination, A.NearestEnemy)


def _shadowed(plan: A.Plan, bounds: Bounds) -> list[Diagnostic]:
    out = []
    for i, later in enumerate(plan.clauses):
        slot = _slot(later)
        if slot is None:
            continue
        for earlier in plan.clauses[:i]:
            if _slot(earlier) != slot or _may_not_apply(earlier):
                continue
            first = _applies_when(earlier)
            always = first is None or truth(first, bounds) is True
            if always or implies(_applies_when(later), first):
                rule = {"move": "R-MOVE-7", "maintain": "R-TURN-4"}.get(str(slot[0]), "R-PLAN-5")
                out.append(_warn(plan.file, later.line, later.column, "shadowed-clause",
                                 f"this clause never decides anything: line {earlier.line} "
                                 f"('{format_clause(earlier)}') comes first and applies whenever this one would "
                                 f"({rule}: the first clause that applies decides; only a Bind on line "
                                 f"{earlier.line}, R-ST-BIND, would let this one decide)",
                                 hint="move it above, or make its condition one the earlier clause does not cover"))
                break
    return out


# -------------------------------------------------------------- conditions


def _constant_conditions(plan: A.Plan, bounds: Bounds, who: str) -> list[Diagnostic]:
    out = []
    for clause in plan.clauses:
        cond = getattr(clause, "condition", None)
        if cond is None:
            continue
        verdict = truth(cond, bounds)
        text = f"'{format_condition(cond)}'"
        gate = isinstance(clause, A.UseOnlyWhen)
        skill = clause.skill.text if isinstance(clause, A.UseOnlyWhen) else ""
        if verdict is False:
            outcome = f"so {skill} is never used (R-PLAN-5)" if gate else "so this clause never applies"
            out.append(_warn(plan.file, cond.line, cond.column, "condition-never-holds",
                             f"{text} can never hold for {who}, {outcome}",
                             hint="check the number against the character's HP, the armies' sizes or the turn limit"))
        elif verdict is True:
            outcome = "this clause changes nothing" if gate else "the clause applies unconditionally"
            out.append(_warn(plan.file, cond.line, cond.column, "condition-always-holds",
                             f"{text} always holds for {who}: {outcome}",
                             hint="drop the condition, or fix its number"))
    return out


# ------------------------------------------------------------- the sheet


WIND = "風"


def can_pay(cost: Iterable[str], panels: Iterable[str], changes: bool = False) -> bool:
    """Whether ``panels`` hold the multiset ``cost`` (R-PAN-3).

    :param changes: panels may have been turned to wind (R-ST-CHANGE): any
        panel not needed for another element may then pay a wind.
    """
    need, have = Counter(cost), Counter(panels)
    if changes:
        plain = {e: n for e, n in need.items() if e != WIND}
        return all(have[e] >= n for e, n in plain.items()) and sum(need.values()) <= sum(have.values())
    return all(have[e] >= n for e, n in need.items())


def _minus(panels: Sequence[str], cost: Iterable[str]) -> list[str]:
    left = list(panels)
    for element in cost:
        left.remove(element)
    return left


def _maintained(sheet: LintSheet) -> list[LintSkill]:
    seen: dict[str, LintSkill] = {}
    for s in sheet.skills:
        if "maintain" in s.classes:
            seen.setdefault(s.id, s)
    return list(seen.values())


def _cost_warnings(sheet: LintSheet, reachable: Sequence[LintPattern]) -> list[Diagnostic]:
    """R-PAN-3 / R-PAN-2 over the patterns that can be active (R-PAT-3)."""
    out = []
    seen: set[str] = set()
    maintained = _maintained(sheet)
    for skill, line in zip(sheet.skills, sheet.skill_lines):
        if skill.id in seen:
            continue
        seen.add(skill.id)
        payers = [p.elements for p in reachable if can_pay(skill.cost, p.elements, sheet.panel_changes)]
        passive = "passive" in skill.classes
        what = "never readied, so it never fires" if passive else "never used"
        rules = "R-PAN-3, R-PAN-4" if passive else "R-PAN-3"
        if not payers:
            changed = " (not even with panels turned to wind, R-ST-CHANGE)" if sheet.panel_changes and WIND in skill.cost else ""
            out.append(_warn(sheet.file, line, 0, "cost-unpayable",
                             f"no pattern of this sheet that can be active holds {''.join(skill.cost)}{changed}, "
                             f"the cost of {skill.label}: it is {what} ({rules})",
                             hint="add a pattern with those panels, or drop the skill"))
            continue
        holders = []
        for panels in payers:
            blocking = [m for m in maintained if m.id != skill.id and can_pay(m.cost, panels)
                        and not can_pay(skill.cost, _minus(panels, m.cost), sheet.panel_changes)]
            if not blocking:
                break
            holders.append(blocking[0])
        else:
            names = ", ".join(dict.fromkeys(m.label for m in holders))
            out.append(_warn(sheet.file, line, 0, "cost-held-by-maintained",
                             f"{skill.label} can be paid only with panels that {names} keeps while maintained: "
                             f"it is {what} while that is maintained (R-PAN-2{', R-PAN-4' if passive else ''})",
                             hint="add a pattern that pays both, or release the maintained skill by a clause"))
    return out


def _pattern_warnings(sheet: LintSheet, bounds: Bounds) -> tuple[list[Diagnostic], list[LintPattern]]:
    """R-PAT-3: conditioned patterns are tried first, in order; the first
    unconditioned one is the default; a later one is never reached.

    :returns: the warnings and the patterns that can be active."""
    out = []
    reachable = []
    earlier_conditions: list[A.Condition] = []
    always_before = False
    default_seen = False
    for i, p in enumerate(sheet.patterns):
        label = f"pattern {i + 1} ({''.join(p.elements)})"
        reason = None
        if p.condition is None:
            if default_seen:
                reason = "an earlier pattern without a condition is already the default (R-PAT-3)"
            elif always_before:
                reason = "an earlier pattern's condition always holds (R-PAT-3)"
            default_seen = True
        else:
            if truth(p.condition, bounds) is False:
                reason = f"its condition '{format_condition(p.condition)}' can never hold (R-PAT-3)"
            elif always_before:
                reason = "an earlier pattern's condition always holds (R-PAT-3)"
            elif any(implies(p.condition, c) for c in earlier_conditions):
                reason = "an earlier pattern's condition holds whenever this one's does (R-PAT-3)"
            earlier_conditions.append(p.condition)
            if truth(p.condition, bounds) is True:
                always_before = True
        if reason:
            out.append(_warn(sheet.file, p.line, p.column, "pattern-never-active",
                             f"{label} can never be active: {reason}",
                             hint="reorder the patterns or change the conditions"))
        else:
            reachable.append(p)
    return out, reachable


def lint_sheet(sheet: LintSheet, bounds: Bounds) -> list[Diagnostic]:
    """The sheet's own warnings (sheet coordinates): costs and patterns."""
    patterns, reachable = _pattern_warnings(sheet, bounds)
    return patterns + _cost_warnings(sheet, reachable)


# ------------------------------------------------------- plan vs the sheet


def _sheet_plan_warnings(plan: A.Plan, sheet: LintSheet) -> list[Diagnostic]:
    out = []
    healers = [s for s in sheet.skills if "heal" in s.classes and s.targets == "allies"]
    answers = [s for s in sheet.skills if "counter" in s.classes or {"obstruct", "passive"} <= s.classes]
    by_id = {s.id: s for s in sheet.skills}
    for clause in plan.clauses:
        if isinstance(clause, A.HealEvenWhenUnhurt) and not healers:
            out.append(_warn(plan.file, clause.line, clause.column, "heal-never-fires",
                             "'heal even when unhurt' changes nothing: no skill on the sheet heals allies "
                             "(Rest, Restore) (R-PLAN-1)"))
        if isinstance(clause, A.CounterAllies) and not answers:
            out.append(_warn(plan.file, clause.line, clause.column, "counter-allies-without-counter",
                             "'counter allies' changes nothing: no skill on the sheet counters or obstructs "
                             "(R-PLAN-2)"))
        if (isinstance(clause, A.MoveToward) and isinstance(clause.destination, (A.AllyWith, A.NearestAlly))
                and sheet.army_size == 1):
            out.append(_warn(plan.file, clause.line, clause.column, "heal-never-fires",
                             f"{sheet.name} has no ally in this battle, and 'move toward' never heads for the mover "
                             "itself (R-MOVE-8): this clause never applies"))
        if isinstance(clause, A.Extend):
            skill = by_id.get(getattr(clause.skill, "id", None) or "")
            if skill is not None and "extend" in skill.classes and sheet.patterns and clause.count != 0:
                extra = math.ceil(skill.level / 2)
                def room(panels: tuple[str, ...], s: LintSkill = skill) -> int:
                    return sum(1 for e in _minus(panels, s.cost) if e in s.cost)
                if not any(can_pay(skill.cost, p.elements) and room(p.elements) >= extra for p in sheet.patterns):
                    out.append(_warn(plan.file, clause.line, clause.column, "extend-unpayable",
                                     f"no pattern can pay {skill.label} and one extra target ({extra} more "
                                     f"panel(s) of {''.join(dict.fromkeys(skill.cost))}): it is never extended (R-EXT-1)"))
    return out


_ABOUT_USING = (A.UseFirst, A.UseOnlyWhen, A.TargetPreference, A.NeverTarget, A.OnlyTarget, A.Extend, A.Stack,
                A.Maintain, A.Release)


def _skill_of(clause: A.Clause) -> str | None:
    ref = getattr(clause, "skill", None)
    return ref.id if isinstance(ref, A.SkillRef) else None


def _without_effect(plan: A.Plan, bounds: Bounds, catalog: dict[str, LintSkill],
                    sheet: LintSheet | None) -> list[Diagnostic]:
    out = []
    never: dict[str, A.NeverUse] = {}
    for clause in plan.clauses:
        skill_id = _skill_of(clause)
        if isinstance(clause, A.NeverUse) and skill_id and truth(clause.condition, bounds) is True:
            never.setdefault(skill_id, clause)
    for clause in plan.clauses:
        skill_id = _skill_of(clause)
        skill = catalog.get(skill_id or "")
        if skill is None:
            continue
        reason = None
        if skill_id in never and isinstance(clause, _ABOUT_USING):
            ban = never[skill_id]
            reason = (f"{skill.label} is never used (line {ban.line}: '{format_clause(ban)}'), so this clause "
                      f"never matters (R-PLAN-5; only a Bind on line {ban.line}, R-ST-BIND, would change that)")
        elif isinstance(clause, A.UseFirst) and "passive" in skill.classes:
            reason = (f"{skill.label} is passive: the skill walk skips it and it fires only when triggered, "
                      "in sheet order, so 'use first' changes nothing but the walk order the report prints "
                      "(R-PLAN-3, R-SK-1a)")
        elif (isinstance(clause, (A.TargetPreference, A.NeverTarget, A.OnlyTarget))
              and ({"passive", "maintain"} & skill.classes)):
            reason = (f"{skill.label} never chooses a target: a passive answers the attacker and a maintained "
                      "skill starts without one (R-PLAN-3, R-TURN-3), so this target clause changes nothing")
        elif isinstance(clause, A.Stack) and sheet is not None and sum(s.id == skill.id for s in sheet.skills) == 1:
            reason = (f"{skill.label} is listed once on this sheet; 'stack' only matters for a skill listed "
                      "several times (R-SK-1a)")
        if reason:
            out.append(_warn(plan.file, clause.line, clause.column, "clause-without-effect", reason))
    return out


def lint_plan(plan: A.Plan, bounds: Bounds, sheet: LintSheet | None = None,
              catalog: dict[str, LintSkill] | None = None) -> list[Diagnostic]:
    """Every lint warning of a resolved plan (plan coordinates), sorted.

    :param sheet: the character the plan belongs to; ``None`` for a plan
        linted on its own (only what holds for any character is checked).
    :param catalog: every skill of the ruleset by id (classes for the
        checks that need no sheet).
    """
    who = sheet.name if sheet is not None else "any character"
    out = _shadowed(plan, bounds) + _constant_conditions(plan, bounds, who)
    out += _without_effect(plan, bounds, dict(catalog or {}), sheet)
    if sheet is not None:
        out += _sheet_plan_warnings(plan, sheet)
    return sorted(out, key=lambda d: (d.line, d.column, d.code))
