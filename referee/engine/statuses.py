"""Statuses: inflicting, counting down and cleansing (R-ST-*).

Where a status sits is data of the catalogue's effect (``object``:
character, skill, clause, panel); these functions find its exact place by
the rules (first unbound entry, first unbound clause, leftmost panel) and
record it as an event.  Durations count the bearer's actions (R-ST-1).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from referee.catalog import Effect
from referee.elements import Element
from referee.engine import events as E
from referee.engine.core import Resolution, release
from referee.engine.draws import draw_chance
from referee.engine.state import Fighter, Panel


@dataclass(slots=True)
class Infliction:
    """One ``status`` effect landing on one target, and its two possible events."""

    b: Resolution
    user: Fighter
    skill_id: str
    target: Fighter
    effect: Effect

    def applied(self, index: int | None, pattern: int | None, duration: int | None, rule: str) -> None:
        e = self.effect
        self.b.emit(E.StatusApplied(turn=self.b.turn, target=self.target.name, status=e.status or "",
                                    object=e.object or "", index=index, pattern=pattern, duration=duration,
                                    actor=self.user.name, skill=self.skill_id, rule=rule))

    def none(self, reason: str, rule: str) -> None:
        e = self.effect
        self.b.emit(E.StatusNoEffect(turn=self.b.turn, target=self.target.name, status=e.status or "",
                                     object=e.object or "", reason=reason, actor=self.user.name,
                                     skill=self.skill_id, rule=rule))


def _bind_character(x: Infliction) -> None:
    """R-ST-BIND on the character: no move; again keeps the larger count."""
    x.target.bind = max(x.target.bind, x.effect.duration or 0)
    x.applied(None, None, x.target.bind, "R-ST-BIND")


def _freeze(x: Infliction) -> None:
    """R-ST-FREEZE / R-ST-2: Freeze covers only the next action however often inflicted."""
    x.target.freeze = 1
    x.applied(None, None, 1, "R-ST-FREEZE")


def _bind_skill(x: Infliction) -> None:
    """R-ST-BIND on the first unbound entry in sheet order; "again on the same
    object keeps the larger count" cannot arise: a bound entry is skipped.
    A maintained entry bound is released.  Only sheet entries are bound:
    the innate skills the action mechanic appends after them (ORM's normal
    attack) are "never taken by Skill Bind" (R-ORM-ACT-5); tcgt has none."""
    target, dur = x.target, x.effect.duration
    entries = len(target.skills) - len(x.b.mechanics.action.innate_skills())
    for i in range(entries):
        if not target.entry_bound(i):
            target.skill_binds[i] = dur or 0
            x.applied(i, None, dur, "R-ST-BIND")
            if i in target.maintained:
                x.b.emit(E.MaintainReleased(turn=x.b.turn, actor=target.name, skill=target.skills[i].id,
                                            entry=i, cause="bound", rule="R-ST-BIND"))
                release(target, i)
            return
    x.none("every entry is bound" if entries else "no skills", "R-ST-BIND")


def _bind_clause(x: Infliction) -> None:
    """R-ST-BIND on the first unbound plan clause (by line)."""
    target = x.target
    for c in target.plan.clauses:
        if target.clause_active(c.line):
            target.clause_binds[c.line] = x.effect.duration or 0
            x.applied(c.line, None, x.effect.duration, "R-ST-BIND")
            return
    x.none("no unbound clause" if target.plan.clauses else "no plan", "R-ST-BIND")


def _on_leftmost_panel(x: Infliction, rule: str, eligible: Callable[[Panel], bool],
                       mark: Callable[[Panel], None], duration: int | None, when_none: str) -> None:
    """The leftmost ``eligible`` panel of the active pattern takes the status."""
    target = x.target
    if target.active is None:
        x.none("no active pattern", rule)
        return
    for i, p in enumerate(target.panels[target.active]):
        if eligible(p):
            mark(p)
            x.applied(i, target.active, duration, rule)
            return
    x.none(when_none, "R-ST-2")


def _poison(x: Infliction) -> None:
    """R-ST-POISON on the leftmost unpoisoned panel of the active pattern."""
    def poison(p: Panel) -> None:
        p.poisoned = True
    _on_leftmost_panel(x, "R-ST-POISON", lambda p: not p.poisoned, poison, None, "every panel is poisoned")


def _change(x: Infliction) -> None:
    """R-ST-CHANGE on the leftmost panel of the active pattern not reading wind."""
    turns = x.effect.duration or 0

    def change(p: Panel) -> None:
        p.changed = turns
    _on_leftmost_panel(x, "R-ST-CHANGE", lambda p: p.element is not Element.WIND, change,
                       x.effect.duration, "every panel is wind")


#: (status, object) -> how it lands: exactly the pairs the catalogue accepts
#: (``referee.catalog.STATUS_OBJECTS``; a test keeps the two in step).
INFLICTIONS: dict[tuple[str, str], Callable[[Infliction], None]] = {
    ("bind", "character"): _bind_character,
    ("bind", "skill"): _bind_skill,
    ("bind", "clause"): _bind_clause,
    ("freeze", "character"): _freeze,
    ("poison", "panel"): _poison,
    ("change", "panel"): _change,
}


def inflict(b: Resolution, user: Fighter, skill_id: str, target: Fighter, effect: Effect) -> None:
    """Apply one ``status`` effect to ``target`` (R-ST-1, R-ST-2, R-ST-BIND,
    R-ST-POISON, R-ST-FREEZE, R-ST-CHANGE)."""
    INFLICTIONS[(effect.status or "", effect.object or "")](Infliction(b, user, skill_id, target, effect))


def tick(b: Resolution, f: Fighter) -> None:
    """R-ST-1: count down every status of ``f`` at the end of its action."""
    if f.bind > 0:
        f.bind -= 1
        if f.bind == 0:
            _expired(b, f, "bind", "character", None, None, "R-ST-BIND")
    if f.freeze > 0:
        f.freeze -= 1
        if f.freeze == 0:
            _expired(b, f, "freeze", "character", None, None, "R-ST-FREEZE")
    if f.skill_binds:
        _count_down_binds(b, f, f.skill_binds, "skill")
    if f.clause_binds:
        _count_down_binds(b, f, f.clause_binds, "clause")
    for pi, panels in enumerate(f.panels):
        for p in panels:
            if p.changed > 0:
                break
        else:
            continue  # no changed panel in this pattern
        for i, p in enumerate(panels):
            if p.changed > 0:
                p.changed -= 1
                if p.changed == 0:
                    _expired(b, f, "change", "panel", i, pi, "R-ST-CHANGE")


def _expired(b: Resolution, f: Fighter, status: str, obj: str, index: int | None, pattern: int | None,
             rule: str) -> None:
    b.emit(E.StatusExpired(turn=b.turn, target=f.name, status=status, object=obj, index=index, pattern=pattern,
                           rule=rule))


def cleanse(b: Resolution, user: Fighter, skill_id: str, target: Fighter, effect: Effect) -> None:
    """R-ST-CLEANSE: remove the first status found (``scope: one``) or every
    status (``scope: all``) among the objects, statuses and patterns the
    catalogue names.  Statuses on the character itself are never touched."""
    found: list[tuple[str, str, int | None, int | None]] = []
    statuses = set(effect.statuses)
    for obj in effect.objects:
        if obj == "skill" and "bind" in statuses:
            found += [("bind", "skill", i, None) for i in sorted(target.skill_binds)]
        elif obj == "clause" and "bind" in statuses:
            found += [("bind", "clause", line, None) for line in sorted(target.clause_binds)]
        elif obj == "panel":
            pats = range(len(target.panels)) if effect.patterns == "all" else (
                [target.active] if target.active is not None else [])
            for pi in pats:
                for i, p in enumerate(target.panels[pi]):
                    if p.poisoned and "poison" in statuses:
                        found.append(("poison", "panel", i, pi))
                    if p.changed > 0 and "change" in statuses:
                        found.append(("change", "panel", i, pi))
    if effect.scope == "one":
        found = found[:1]
    if not found:
        return
    if effect.scope == "one" and not draw_chance(b, user.name, skill_id, target.name, "cleanse", effect.chance,
                                                 rule="R-ST-CLEANSE"):
        return
    for status, where, index, pattern in found:
        if where == "skill" and index is not None:
            target.skill_binds.pop(index, None)
        elif where == "clause" and index is not None:
            target.clause_binds.pop(index, None)
        elif where == "panel" and index is not None and pattern is not None:
            p = target.panels[pattern][index]
            if status == "poison":
                p.poisoned = False
            else:
                p.changed = 0
        b.emit(E.StatusCleansed(turn=b.turn, target=target.name, status=status, object=where, index=index,
                                pattern=pattern, actor=user.name, skill=skill_id))


def _count_down_binds(b: Resolution, f: Fighter, binds: dict[int, int], obj: str) -> None:
    """R-ST-BIND's countdown of the binds on ``f``'s skills or clauses
    (``obj``), in index order; each that ends is reported."""
    for index in sorted(binds):
        binds[index] -= 1
        if binds[index] <= 0:
            del binds[index]
            _expired(b, f, "bind", obj, index, None, "R-ST-BIND")
