"""Gase-Wiz's area use in a battle (variant-wiz.md R-WIZ-AREA-1..8): who the
candidates are and what role each has, the AdB roll, and the events that
retell the selection; the selection itself is ``engine/mechanics/wiz_area.py``.

Levels (<魔法変化>, <魔法増幅>, <魔法詠唱>, ...) are read from the fighter's
``abilities`` under their English keys (the ``wiz:`` sheet block,
R-WIZ-SHEET-1); absent means 0.
"""

from __future__ import annotations

from referee.board import square_name
from referee.catalog import Skill
from referee.elements import Element
from referee.engine import events as E
from referee.engine.clauses import PlanFlag
from referee.engine.conditions import CondContext
from referee.engine.core import Resolution
from referee.engine.panels import plan_extension
from referee.engine.planquery import has_flag
from referee.engine.state import Fighter
from referee.engine.targeting import preference_for, preference_key, requested_extras
from referee.engine.mechanics.wiz_area import AreaParams, Candidate, Role, Selection, area_groups, select

__all__ = ["is_weapon_skill", "area_of", "level", "roles", "area_extension", "area_use", "spared_by_plan"]

#: The keys of the ``wiz:`` block (R-WIZ-SHEET-1).
LEVEL_KEYS = ("magic_change", "magic_amplify", "move", "flexible", "chant", "wide_view", "sense")


def is_weapon_skill(skill: Skill) -> bool:
    """R-WIZ-KIND-1: a skill with 剣 in its cost is a weapon skill; any other
    is a spell; the catalogue's ``kind`` overrides this."""
    if skill.kind is not None:
        return skill.kind == "weapon"
    return Element.SWORD in skill.cost


def level(f: Fighter, key: str) -> int:
    """One of ``f``'s wiz levels (R-WIZ-SHEET-1: absent = 0)."""
    return f.abilities.get(key, 0)


def spared_by_plan(ctx: Resolution, user: Fighter, skill: Skill, c: Fighter) -> bool:
    """R-WIZ-AREA-4: the user's ``never target`` (and ``spare``) clauses that
    name or describe ``c`` make it spared."""
    st = ctx.state
    for r in user.plan.restricts:
        if not r.exclude or not user.clause_active(r.line) or (r.skill is not None and r.skill != skill.id):
            continue
        if r.when(CondContext(st, user, skill)) and r.test(CondContext(st, user, skill, c)):
            return True
    return False


def roles(ctx: Resolution, user: Fighter, skill: Skill, pool: list[Fighter]) -> list[Candidate]:
    """R-WIZ-AREA-3/4: the living characters within the skill's range (the
    user itself only for a skill that targets allies), each with its role.
    ``pool`` is R-PLAN-4's candidate list (plan filters applied): for a skill
    on enemies an enemy in it is wanted, one left out neutral; allies are
    spared, or risked under ``friendly fire``.  For a skill on allies, allies
    in it are wanted, others neutral, enemies spared."""
    st = ctx.state
    heals = skill.targets_allies
    wanted = {c.name for c in pool}
    risked = not heals and has_flag(st, user, PlanFlag.FRIENDLY_FIRE)
    pref = preference_for(ctx, user, skill)
    in_range = st.metric.in_range
    out: list[Candidate] = []
    for c in st.fighters:
        if c.down or not in_range(user.square, c.square, skill.range) or (c is user and not heals):
            continue
        ally = c.team == user.team
        role: Role
        if ally != heals:
            role = "risked" if risked else "spared"
        else:
            role = "wanted" if c.name in wanted else "neutral"
        if role != "spared" and c is not user and spared_by_plan(ctx, user, skill, c):
            role = "spared"
        out.append(Candidate(c.name, c.square, c.index, role, preference_key(user, pref, c, st, skill)))
    return out


def area_extension(ctx: Resolution, user: Fighter, skill: Skill, pool: list[Fighter],
                   base: tuple[int, ...]) -> tuple[int, tuple[int, ...], int]:
    """R-WIZ-AREA-1: (N, every panel paid, N requested) for a 拡大 skill: N is
    what the plan asks (R-EXT-7), limited by the panels and by the wanted
    candidates less one; N = 0 is a single-target use."""
    want = requested_extras(ctx, user, skill)
    requested = E.EXTEND_MAX if want is None else want
    if requested <= 0 or not skill.can_extend or user.active is None:
        return 0, base, requested
    panels = user.panels[user.active]
    per = skill.extension_cost
    affordable = len(plan_extension(panels, skill.cost, per, 99, base)) // per if per else 0
    wanted = sum(1 for c in roles(ctx, user, skill, pool) if c.role == "wanted")
    n = min(requested, affordable, wanted - 1)
    if n <= 0:
        return 0, base, requested
    return n, base + plan_extension(panels, skill.cost, per, n, base), requested


def area_of(skill: Skill, n: int) -> tuple[int, int] | None:
    """R-WIZ-AREA-1: the catalogue's A×B, else (1 + N)×(range + 1) for N ≥ 1
    payments; None for a single-target use."""
    if skill.area is not None:
        return skill.area
    return (1 + n, skill.range + 1) if n >= 1 else None


def area_use(ctx: Resolution, user: Fighter, skill: Skill, pool: list[Fighter], dims: tuple[int, int],
             penalty: int, exclusion_cost: int) -> list[Fighter]:
    """R-WIZ-AREA-2..8 for an area A×B: the roll on ``area``, the groups,
    the selection and its tally (events), and the targets."""
    a, b = dims
    dice = tuple(ctx.rng.die("area", b) for _ in range(a))
    total = sum(dice)
    ctx.emit(E.AreaRoll(turn=ctx.turn, actor=user.name, skill=skill.id, area=f"{a}x{b}", dice=dice,
                        total=total, cap=a * b))
    st = ctx.state
    groups = area_groups(user.square, roles(ctx, user, skill, pool), st.metric.distance)
    ctx.emit(E.AreaGroups(turn=ctx.turn, actor=user.name, skill=skill.id, groups=tuple(
        {"label": g.label, "members": [
            {"name": m.name, "number": m.number, "square": square_name(m.square), "distance": m.distance,
             "role": m.role} for m in g.members]}
        for g in groups)))
    sel = select(groups, AreaParams(roll=total, cap=a * b, change_levels=level(user, "magic_change"),
                                    amplify_levels=level(user, "magic_amplify"), group_penalty=penalty,
                                    exclusion_cost=exclusion_cost))
    ctx.emit(selection_event(ctx, user, skill, sel))
    return [st.by_name[name] for name in sel.targets]


def selection_event(ctx: Resolution, user: Fighter, skill: Skill, sel: Selection) -> E.AreaSelection:
    partial = None if sel.partial is None else {"label": sel.partial[0], "from": sel.partial[1], "to": sel.partial[2]}
    return E.AreaSelection(
        turn=ctx.turn, actor=user.name, skill=skill.id, whole=sel.whole, partial=partial, excluded=sel.excluded,
        change=sel.change, amplify=sel.amplify, penalty=sel.penalty, count=sel.count, slots=sel.slots,
        levels=sel.levels, targets=sel.targets, fizzled=sel.fizzled,
        tally=tuple({"kind": s.kind, "group": s.group, "amount": s.amount, "excluded": list(s.excluded),
                     "max": s.max, "total": s.total} for s in sel.tally))
