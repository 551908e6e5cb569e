"""Positional constructors of the events only the d20pool mechanics write
(R-D20-ORDER-3, R-D20-ORDER-1, R-D20-TURN-3, R-D20-CHECK-1, R-D20-HIT-1/2,
R-D20-MOVE-1) and of its turn's ``action_end``.

Why (issue 13): a d20pool turn writes about five of these events besides
the ones every ruleset writes, and the class call -- ``type.__call__``,
keyword matching, then the keyword-only ``__init__`` frame of
``events._fast_init`` -- costs about three times what a positional maker
does (events.positional_maker: one frame storing every field on the class's
open twin, in the field order of ``dataclasses.fields``).  The objects are
the same: same class, same field values, equal and hashing as the class
call's (tests/engine/test_d20pool_events.py compares them on every maker).
Other rulesets do not use these.
"""

from __future__ import annotations

from collections.abc import Callable

from referee.board import Square
from referee.engine import events as E
from referee.engine.events import positional_maker

__all__ = ["positional_maker", "turn_roll", "turn_selected", "support", "d20_check", "hit_test", "margin_event",
           "move_end", "action_end"]

#: (turn, actor, number, roll, key, rule)
turn_roll: Callable[[int, str, int, int, tuple[int, ...], str], E.TurnRoll] = positional_maker(E.TurnRoll)
#: (turn, actor, square, number, contenders, rule)
turn_selected: Callable[[int, str, Square, int, tuple[str, ...], str], E.TurnSelected] = positional_maker(
    E.TurnSelected)
#: (turn, actor, kind, first, line, stuck, rule)
support: Callable[[int, str, str, bool, int | None, str | None, str], E.Support] = positional_maker(E.Support)
#: (turn, actor, check, skill, targets, ability, pool, dropped, dice, highest,
#: modifiers, achievement, critical, fumble, rule)
d20_check: Callable[[int, str, str, str | None, tuple[str, ...], str, int, int, tuple[int, ...], int,
                     dict[str, int], int, bool, bool, str], E.D20Check] = positional_maker(E.D20Check)
#: (turn, actor, target, achievement, sensitivity, hit, rule)
hit_test: Callable[[int, str, str, int, int, bool, str], E.HitTest] = positional_maker(E.HitTest)
#: (turn, actor, target, attack, defence, margin, rule)
margin_event: Callable[[int, str, str, int, int, int, str], E.Margin] = positional_maker(E.Margin)
#: (turn, actor, phase, steps, points_left, reason, line, rule)
move_end: Callable[[int, str, str, int, int, str, int | None, str], E.MoveEnd] = positional_maker(E.MoveEnd)
#: (turn, actor, rule)
action_end: Callable[[int, str, str], E.ActionEnd] = positional_maker(E.ActionEnd)
