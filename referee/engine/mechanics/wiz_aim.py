"""Gase-Wiz's aim module (variant-wiz.md R-WIZ-AIM-1), on with the percentile
hit roll's ``aim: true``.

``take aim at NAME [when C]`` applies at the start of the walk if C holds,
NAME is a standing enemy and the character has no aim on NAME: the character
then skips its walk and its movement (「1ラウンドを射撃のために有利な位置への
移動に用いる」) and gains aim on NAME, so its missile uses on NAME take no
penalty (R-WIZ-MIS-1).  Aim ends when the character moves or is pushed, or
makes a missile use on anyone else (「その相手以外を攻撃する場合、再び1ラウンド
移動する必要がある」).

A character holds aim on one character at a time (docs/decisions.md): taking
aim at another ends the first (``new_aim``).  The aim lives on the fighter's
:class:`~referee.engine.mechanics.wiz_turn.WizFighter`; nothing here draws.
"""

from __future__ import annotations

from referee.engine import events as E
from referee.engine.clauses import TakeAim
from referee.engine.conditions import CondContext
from referee.engine.core import Resolution
from referee.engine.mechanics.wiz_turn import WizFighter, wiz_of
from referee.engine.state import Fighter

__all__ = ["take_aim", "aim_of", "lose_aim"]


def aim_of(f: Fighter) -> str | None:
    """Whom ``f`` has aim on (R-WIZ-AIM-1), or None; creates no state."""
    state = f.mechanic_state
    return state.aim if isinstance(state, WizFighter) else None


def lose_aim(ctx: Resolution, f: Fighter, reason: str) -> None:
    """R-WIZ-AIM-1: ``f``'s aim ends (``aim_lost`` with ``reason``), if it has one."""
    target = aim_of(f)
    if target is None:
        return
    wiz_of(f).aim = None
    ctx.emit(E.AimLost(turn=ctx.turn, actor=f.name, target=target, reason=reason))


def take_aim(ctx: Resolution, f: Fighter) -> int | None:
    """R-WIZ-AIM-1 at the start of ``f``'s walk: the first ``take aim at``
    clause (file order) that applies -- active (R-ST-BIND), its condition
    holding, NAME a standing enemy, no aim on NAME yet -- gives ``f`` aim on
    NAME (``aimed``) and its line is returned: the walk and the move are
    skipped.  None: no clause applies and ``f`` walks as usual."""
    clauses = [c for c in f.plan.clauses if isinstance(c, TakeAim)]
    if not clauses:
        return None
    state = ctx.state
    cond = CondContext(state, f)
    for c in clauses:
        if not f.clause_active(c.line) or not c.when(cond):
            continue
        if not any(g.name == c.name for g in state.enemies_of(f)):
            continue  # NAME is not a standing enemy
        if aim_of(f) == c.name:
            continue  # already aiming at NAME: the clause does not apply
        lose_aim(ctx, f, "new_aim")
        wiz_of(f).aim = c.name
        ctx.emit(E.Aimed(turn=ctx.turn, actor=f.name, target=c.name, line=c.line))
        return c.line
    return None
