"""Statuses: inflicting, counting down and cleansing (R-ST-*).

Where a status sits is data of the catalogue's effect (``object``:
character, skill, clause, panel); these functions find its exact place by
the rules (first unbound entry, first unbound clause, leftmost panel) and
record it as an event.  Durations count the bearer's actions (R-ST-1).
"""

from __future__ import annotations

from referee.catalog import Effect
from referee.engine import events as E
from referee.engine.core import Resolution, release
from referee.engine.draws import draw_chance
from referee.engine.state import Fighter


def inflict(b: Resolution, user: Fighter, skill_id: str, target: Fighter, effect: Effect) -> None:
    """Apply one ``status`` effect to ``target`` (R-ST-1, R-ST-2, R-ST-BIND,
    R-ST-POISON, R-ST-FREEZE, R-ST-CHANGE)."""
    status, obj, dur = effect.status or "", effect.object or "", effect.duration
    turn = b.turn

    def applied(index: int | None, pattern: int | None, duration: int | None, rule: str) -> None:
        b.emit(E.StatusApplied(turn=turn, target=target.name, status=status, object=obj, index=index,
                               pattern=pattern, duration=duration, actor=user.name, skill=skill_id, rule=rule))

    def none(reason: str, rule: str) -> None:
        b.emit(E.StatusNoEffect(turn=turn, target=target.name, status=status, object=obj, reason=reason,
                                actor=user.name, skill=skill_id, rule=rule))

    if status == "bind" and obj == "character":
        target.bind = max(target.bind, dur or 0)
        applied(None, None, target.bind, "R-ST-BIND")
    elif status == "freeze":
        # R-ST-2: Freeze covers only the next action however often inflicted.
        target.freeze = 1
        applied(None, None, 1, "R-ST-FREEZE")
    elif status == "bind" and obj == "skill":
        # The first unbound entry in sheet order; "again on the same object
        # keeps the larger count" cannot arise: a bound entry is skipped.
        for i in range(len(target.skills)):
            if not target.entry_bound(i):
                target.skill_binds[i] = dur or 0
                applied(i, None, dur, "R-ST-BIND")
                if i in target.maintained:
                    b.emit(E.MaintainReleased(turn=turn, actor=target.name, skill=target.skills[i].id,
                                              entry=i, cause="bound", rule="R-ST-BIND"))
                    release(target, i)
                return
        none("every entry is bound" if target.skills else "no skills", "R-ST-BIND")
    elif status == "bind" and obj == "clause":
        for c in target.plan.clauses:
            if target.clause_active(c.line):
                target.clause_binds[c.line] = dur or 0
                applied(c.line, None, dur, "R-ST-BIND")
                return
        none("no unbound clause" if target.plan.clauses else "no plan", "R-ST-BIND")
    elif status == "poison":
        if target.active is None:
            none("no active pattern", "R-ST-POISON")
            return
        for i, p in enumerate(target.panels[target.active]):
            if not p.poisoned:
                p.poisoned = True
                applied(i, target.active, None, "R-ST-POISON")
                return
        none("every panel is poisoned", "R-ST-2")
    elif status == "change":
        if target.active is None:
            none("no active pattern", "R-ST-CHANGE")
            return
        for i, p in enumerate(target.panels[target.active]):
            if p.element.value != "wind":
                p.changed = dur or 0
                applied(i, target.active, dur, "R-ST-CHANGE")
                return
        none("every panel is wind", "R-ST-2")
    else:  # pragma: no cover - the schema admits nothing else
        none(f"unknown status {status}/{obj}", "R-ST-1")


def tick(b: Resolution, f: Fighter) -> None:
    """R-ST-1: count down every status of ``f`` at the end of its action."""
    turn = b.turn

    def expired(status: str, obj: str, index: int | None, pattern: int | None, rule: str) -> None:
        b.emit(E.StatusExpired(turn=turn, target=f.name, status=status, object=obj, index=index,
                               pattern=pattern, rule=rule))

    if f.bind > 0:
        f.bind -= 1
        if f.bind == 0:
            expired("bind", "character", None, None, "R-ST-BIND")
    if f.freeze > 0:
        f.freeze -= 1
        if f.freeze == 0:
            expired("freeze", "character", None, None, "R-ST-FREEZE")
    for entry in sorted(f.skill_binds):
        f.skill_binds[entry] -= 1
        if f.skill_binds[entry] <= 0:
            del f.skill_binds[entry]
            expired("bind", "skill", entry, None, "R-ST-BIND")
    for line in sorted(f.clause_binds):
        f.clause_binds[line] -= 1
        if f.clause_binds[line] <= 0:
            del f.clause_binds[line]
            expired("bind", "clause", line, None, "R-ST-BIND")
    for pi, panels in enumerate(f.panels):
        for i, p in enumerate(panels):
            if p.changed > 0:
                p.changed -= 1
                if p.changed == 0:
                    expired("change", "panel", i, pi, "R-ST-CHANGE")


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
