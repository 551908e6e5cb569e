"""Chance draws that change an outcome, and their record (R-RNG-1).

Every effect, knockback, defence and cleansing chance goes through
:func:`draw_chance`: no draw for a certain chance, else one draw on the
``chances`` stream and one ``chance_roll`` event, so the report can say why.
"""

from __future__ import annotations

from referee.catalog import Chance
from referee.engine import events as E
from referee.engine.core import Resolution

__all__ = ["draw_chance"]


def draw_chance(b: Resolution, actor: str, skill: str, target: str, effect: str, chance: Chance,
                rule: str = "R-RNG-1") -> bool:
    """Whether ``chance`` succeeds: certain without a draw, else drawn and recorded."""
    if chance.is_certain:
        return True
    ok = b.rng.chance("chances", chance.probability)
    b.emit(E.ChanceRoll(turn=b.turn, actor=actor, skill=skill, target=target, effect=effect,
                        numerator=chance.numerator, denominator=chance.denominator, success=ok, rule=rule))
    return ok
