"""Gase-Wiz's turn by value with delayed spells (variant-wiz.md R-WIZ-CAST-1..3).

A spell used actively is *cast* at its user's value v and *resolves* at
v − d, d = max(0, level − <魔法詠唱>) (「使用する呪文レベル…と同じだけ、低下した
INの行動順番で呪文が発動」).  A turn therefore runs by value, highest first:
at one value the actions (in R-WIZ-IN-2 order) come before the resolutions
(in their casters' places), and values go below 1 until every cast of the
turn has resolved.

What a battle remembers (each character's value this turn, its pending
cast) lives on ``Fighter.mechanic_state`` as a :class:`WizFighter`; the
mechanics stay stateless.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from referee.catalog import Skill
from referee.engine import events as E
from referee.engine.action import use_skill, walk_order
from referee.engine.core import Resolution
from referee.engine.panels import mark_used
from referee.engine.state import Fighter
from referee.engine.targeting import candidates, pick, preference_for
from referee.engine.uses import Choice
from referee.engine.mechanics.wiz_targets import is_weapon_skill, level

__all__ = ["PendingCast", "WizFighter", "wiz_of", "try_cast", "resolve_cast", "play_by_value"]


@dataclass(frozen=True, slots=True)
class PendingCast:
    """A cast waiting for its value (R-WIZ-CAST-1)."""

    skill: Skill
    entry: int
    panels: tuple[int, ...]
    extend: int
    resolves_at: int


@dataclass(slots=True)
class WizFighter:
    """What the wiz mechanics remember of one character in one battle."""

    #: Its value in the turn under way (None outside a turn by value).
    value: int | None = None
    cast: PendingCast | None = None
    #: Whom it has aim on (R-WIZ-AIM-1, the aim module), or None.
    aim: str | None = None


def wiz_of(f: Fighter) -> WizFighter:
    state = f.mechanic_state
    if not isinstance(state, WizFighter):
        state = f.mechanic_state = WizFighter()
    return state


#: (resolution, user, skill, pool, base) -> (N, panels paid, N requested):
#: the area mechanic's payments for an area use (R-WIZ-AREA-1).
Extension = Callable[[Resolution, Fighter, Skill, list[Fighter], tuple[int, ...]], tuple[int, tuple[int, ...], int]]
#: (resolution, user, skill, pool, N) -> the targets of an area use, or None
#: when the use has a single target (R-WIZ-AREA-1).
AreaUse = Callable[[Resolution, Fighter, Skill, list[Fighter], int], "list[Fighter] | None"]


def try_cast(b: Resolution, f: Fighter, entry: int, skill: Skill, pool: list[Fighter], base: tuple[int, ...],
             extension: Extension | None) -> bool:
    """R-WIZ-CAST-1: cast ``skill`` when it is a spell with a delay d ≥ 1 and
    ``f`` acts at a value: pay its cost (extension payments included), tell
    ``cast``, and keep it for value v − d.  False: used at once, as in tcgt."""
    w = wiz_of(f)
    if w.value is None or is_weapon_skill(skill):
        return False
    delay = max(0, skill.level - level(f, "chant"))
    if delay < 1:
        return False
    n, panels = 0, base
    if extension is not None:
        n, panels, _ = extension(b, f, skill, pool, base)
    poisoned = mark_used(f, panels)
    b.emit(E.Cast(turn=b.turn, actor=f.name, skill=skill.id, entry=entry, panels=panels, square=f.square,
                  value=w.value, resolves_at=w.value - delay, extend=n))
    w.cast = PendingCast(skill, entry, panels, n, w.value - delay)
    for _ in range(poisoned):
        b.lose_hp(f, 1, "poison", actor=f.name, skill=skill.id, rule="R-ST-POISON")
    b.settle_downs("poison")
    return True


def resolve_cast(b: Resolution, f: Fighter, area_use: AreaUse | None,
                 announce: Callable[[Resolution, Fighter, Skill, list[Fighter], Choice], None]) -> None:
    """R-WIZ-CAST-3: targets afresh from the caster's current square; lost
    when the caster is down or nothing is left to take.  :raises BattleOver:"""
    w = wiz_of(f)
    cast = w.cast
    assert cast is not None
    w.cast = None
    skill = cast.skill
    if f.down:
        b.emit(E.CastLost(turn=b.turn, actor=f.name, skill=skill.id, reason="caster_down"))
        return
    b.emit(E.CastResolves(turn=b.turn, actor=f.name, skill=skill.id, entry=cast.entry, value=cast.resolves_at,
                          square=f.square))
    filters = walk_order(b, f)[2]
    pool = candidates(b, f, skill, filters.get(skill.id, ())).pool
    if not pool:
        b.emit(E.CastLost(turn=b.turn, actor=f.name, skill=skill.id, reason="no_candidate"))
        return
    area = area_use(b, f, skill, pool, cast.extend) if area_use is not None else None
    if area is not None:
        targets = area
    else:
        targets = pick(b, f, preference_for(b, f, skill), pool, 1, skill)
        announce(b, f, skill, pool, Choice(targets, cast.panels, 0, 0))
    use_skill(b, f, cast.entry, skill, targets, cast.panels, paid=True)
    b.check_end()


def play_by_value(b: Resolution, values: Mapping[str, int], area_use: AreaUse | None,
                  announce: Callable[[Resolution, Fighter, Skill, list[Fighter], Choice], None]) -> None:
    """R-WIZ-CAST-2: the turn by value, highest first; at one value actions
    (``b.state.order``) before resolutions (casters' places)."""
    state = b.state
    order = list(state.order)
    place = {f.name: i for i, f in enumerate(order)}
    act = b.mechanics.action.act
    i = 0
    while True:
        pending = [f for f in order if isinstance(f.mechanic_state, WizFighter) and f.mechanic_state.cast]
        next_act = values[order[i].name] if i < len(order) else None
        next_res = max((wiz_of(f).cast.resolves_at for f in pending), default=None)  # type: ignore[union-attr]
        if next_act is None and next_res is None:
            break
        if next_res is None or (next_act is not None and next_act >= next_res):
            f = order[i]
            i += 1
            if not f.down:  # R-TURN-1: down before its place: skipped
                wiz_of(f).value = values[f.name]
                act(b, f)
            continue
        for f in sorted((g for g in pending if wiz_of(g).cast.resolves_at == next_res),  # type: ignore[union-attr]
                        key=lambda g: place[g.name]):
            resolve_cast(b, f, area_use, announce)
    for f in order:
        if isinstance(f.mechanic_state, WizFighter):
            f.mechanic_state.value = None
