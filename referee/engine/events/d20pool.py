"""d20pool's own events (variant-d20.md): the turn order's tie rolls and
selections, pool checks, hit tests and margins, the support and a shift's
end (soulwired's moves end with ``move_end`` too), pushes ridden and
revivals.  Their rule IDs are given by the mechanics that write them.
"""

from __future__ import annotations

from typing import ClassVar, Final

from referee.board import Square, parse_square
from referee.engine.events.base import Decoders, Event


class TurnRoll(Event):
    """R-D20-ORDER-3: one 1D20 of a tie: ``key`` is its rolls this round."""

    TYPE: ClassVar[str] = "turn_roll"
    FIELDS: ClassVar[tuple[str, ...]] = ("turn", "actor", "number", "roll", "key", "rule")

    def __init__(self, *, turn: int, actor: str, number: int, roll: int, key: tuple[int, ...], rule: str) -> None:
        super().__init__(turn=turn)
        self.actor: Final = actor
        self.number: Final = number
        self.roll: Final = roll
        self.key: Final = key
        self.rule: Final = rule


class TurnSelected(Event):
    """R-D20-ORDER-1/4: ``actor`` takes the next turn from ``square``
    (number ``number``); ``contenders``: those on that number, best first."""

    TYPE: ClassVar[str] = "turn_selected"
    FIELDS: ClassVar[tuple[str, ...]] = ("turn", "actor", "square", "number", "contenders", "rule")
    DECODE: ClassVar[Decoders] = {"square": parse_square}

    def __init__(self, *, turn: int, actor: str, square: Square, number: int, contenders: tuple[str, ...],
                 rule: str) -> None:
        super().__init__(turn=turn)
        self.actor: Final = actor
        self.square: Final = square
        self.number: Final = number
        self.contenders: Final = contenders
        self.rule: Final = rule


class D20Check(Event):
    """R-D20-CHECK-1..4: one keep-highest check.  ``check``: ``attack``,
    ``defence``, ``push`` or ``grapple``; ``modifiers``: ``printed``,
    ``drop``, ``boost``, ``critical``."""

    TYPE: ClassVar[str] = "d20_check"
    FIELDS: ClassVar[tuple[str, ...]] = (
        "turn", "actor", "check", "skill", "targets", "ability", "pool", "dropped", "dice", "highest", "modifiers",
        "achievement", "critical", "fumble", "rule")

    def __init__(self, *, turn: int, actor: str, check: str, skill: str | None, targets: tuple[str, ...], ability: str,
                 pool: int, dropped: int, dice: tuple[int, ...], highest: int, modifiers: dict[str, int],
                 achievement: int, critical: bool, fumble: bool, rule: str) -> None:
        super().__init__(turn=turn)
        self.actor: Final = actor
        self.check: Final = check
        self.skill: Final = skill
        self.targets: Final = targets
        self.ability: Final = ability
        self.pool: Final = pool
        self.dropped: Final = dropped
        self.dice: Final = dice
        self.highest: Final = highest
        self.modifiers: Final = modifiers
        self.achievement: Final = achievement
        self.critical: Final = critical
        self.fumble: Final = fumble
        self.rule: Final = rule


class HitTest(Event):
    """R-D20-HIT-1: an attack (push, grapple) check against ``target``'s 感応力."""

    TYPE: ClassVar[str] = "hit_test"
    FIELDS: ClassVar[tuple[str, ...]] = ("turn", "actor", "target", "achievement", "sensitivity", "hit", "rule")

    def __init__(self, *, turn: int, actor: str, target: str, achievement: int, sensitivity: int, hit: bool,
                 rule: str) -> None:
        super().__init__(turn=turn)
        self.actor: Final = actor
        self.target: Final = target
        self.achievement: Final = achievement
        self.sensitivity: Final = sensitivity
        self.hit: Final = hit
        self.rule: Final = rule


class Margin(Event):
    """R-D20-HIT-2: attack less defence, at least 0: the damage before reductions."""

    TYPE: ClassVar[str] = "margin"
    FIELDS: ClassVar[tuple[str, ...]] = ("turn", "actor", "target", "attack", "defence", "margin", "rule")

    def __init__(self, *, turn: int, actor: str, target: str, attack: int, defence: int, margin: int,
                 rule: str) -> None:
        super().__init__(turn=turn)
        self.actor: Final = actor
        self.target: Final = target
        self.attack: Final = attack
        self.defence: Final = defence
        self.margin: Final = margin
        self.rule: Final = rule


class Support(Event):
    """R-D20-TURN-3: the support decided: ``kind`` ``shift``, ``recover`` or
    ``none``; ``first``: before the action; ``stuck``: ``grappled``,
    ``bound``, ``sunk`` when a step was wanted and could not be taken."""

    TYPE: ClassVar[str] = "support"
    FIELDS: ClassVar[tuple[str, ...]] = ("turn", "actor", "kind", "first", "line", "stuck", "rule")

    def __init__(self, *, turn: int, actor: str, kind: str, first: bool, line: int | None = None,
                 stuck: str | None = None, rule: str) -> None:
        super().__init__(turn=turn)
        self.actor: Final = actor
        self.kind: Final = kind
        self.first: Final = first
        self.line: Final = line
        self.stuck: Final = stuck
        self.rule: Final = rule


class MoveEnd(Event):
    """R-D20-MOVE-1: a shift ended after ``steps``; ``reason``: why it stopped
    (a ``stayed`` reason, or ``no_points``)."""

    TYPE: ClassVar[str] = "move_end"
    FIELDS: ClassVar[tuple[str, ...]] = ("turn", "actor", "phase", "steps", "points_left", "reason", "line", "rule")

    def __init__(self, *, turn: int, actor: str, phase: str, steps: int, points_left: int, reason: str,
                 line: int | None = None, rule: str) -> None:
        super().__init__(turn=turn)
        self.actor: Final = actor
        self.phase: Final = phase
        self.steps: Final = steps
        self.points_left: Final = points_left
        self.reason: Final = reason
        self.line: Final = line
        self.rule: Final = rule


class Ridden(Event):
    """R-D20-PUSH-1: a successful push; ``blocked``: it stayed (edge or a
    removed area), without damage."""

    TYPE: ClassVar[str] = "ridden"
    FIELDS: ClassVar[tuple[str, ...]] = (
        "turn", "actor", "target", "from_square", "to_square", "direction", "blocked", "rule")
    DECODE: ClassVar[Decoders] = {"from_square": parse_square, "to_square": parse_square}

    def __init__(self, *, turn: int, actor: str, target: str, from_square: Square, to_square: Square, direction: str,
                 blocked: bool, rule: str) -> None:
        super().__init__(turn=turn)
        self.actor: Final = actor
        self.target: Final = target
        self.from_square: Final = from_square
        self.to_square: Final = to_square
        self.direction: Final = direction
        self.blocked: Final = blocked
        self.rule: Final = rule


class Revived(Event):
    """R-D20-KO-2 / R-D20-END-2: a KO ends; ``cause`` ``heal`` or ``victory``."""

    TYPE: ClassVar[str] = "revived"
    FIELDS: ClassVar[tuple[str, ...]] = ("turn", "target", "square", "hp", "cause", "rule")
    DECODE: ClassVar[Decoders] = {"square": parse_square}

    def __init__(self, *, turn: int, target: str, square: Square, hp: int, cause: str, rule: str) -> None:
        super().__init__(turn=turn)
        self.target: Final = target
        self.square: Final = square
        self.hp: Final = hp
        self.cause: Final = cause
        self.rule: Final = rule


#: This module's event classes (``EVENT_TYPES`` joins every family's).
EVENTS: tuple[type[Event], ...] = (
    TurnRoll, TurnSelected, D20Check, HitTest, Margin, Support, MoveEnd, Ridden, Revived,
)
