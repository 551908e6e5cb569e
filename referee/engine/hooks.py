"""Named hooks: the effect kinds of the catalogue, one function each.

The resolver never tests a skill id; a skill's ``effects`` list names kinds
(``status``, ``use_panel``, ``cleanse``, ``drain``) and :data:`EFFECTS` maps
each kind to its function (style lesson 3).  A new special behaviour is a new
entry here and a new kind in the schema.
"""

from __future__ import annotations

from collections.abc import Callable

from referee.catalog import Effect
from referee.engine import events as E
from referee.engine.core import Resolution
from referee.engine.draws import draw_chance
from referee.engine.state import Fighter
from referee.engine.statuses import cleanse, inflict
from referee.engine.uses import Use

EffectHook = Callable[[Resolution, Use, Fighter, Effect, int], None]


def _status(b: Resolution, use: Use, target: Fighter, effect: Effect, dealt: int) -> None:
    """A status with its chance, one draw per target (R-RNG-1, R-TURN-3a)."""
    if target.down:
        return
    if draw_chance(b, use.user.name, use.skill.id, target.name, f"status:{effect.status}", effect.chance):
        inflict(b, use.user, use.skill.id, target, effect)


def _use_panel(b: Resolution, use: Use, target: Fighter, effect: Effect, dealt: int) -> None:
    """Pressurize: the target's leftmost unused panel becomes used (R-TURN-3a)."""
    index = None
    if target.active is not None:
        for i, p in enumerate(target.panels[target.active]):
            if not p.used and p.assigned is None:
                p.used = True
                index = i
                break
    b.emit(E.PanelUsed(turn=b.turn, target=target.name, panel=index, actor=use.user.name, skill=use.skill.id))


def _drain(b: Resolution, use: Use, target: Fighter, effect: Effect, dealt: int) -> None:
    """Drain Life: the user heals what this hit dealt, not if it is down."""
    user = use.user
    if dealt > 0 and not user.down and user.hp > 0:
        b.gain_hp(user, dealt, user.name, use.skill.id, cause="drain")


def _cleanse(b: Resolution, use: Use, target: Fighter, effect: Effect, dealt: int) -> None:
    if not target.down:
        cleanse(b, use.user, use.skill.id, target, effect)


EFFECTS: dict[str, EffectHook] = {
    "status": _status,
    "use_panel": _use_panel,
    "drain": _drain,
    "cleanse": _cleanse,
}
