"""ORM's own events (variant-orm.md, R-ORM-EV-1): initiative scores and
ties, the simple and main phases, nd6 checks and their opposed results,
damage and heal rolls, and follow-ups.
"""

from __future__ import annotations

from typing import ClassVar, Final

from referee.board import Square, parse_square
from referee.engine.events.base import Decoders, Event


class InitiativeScore(Event):
    """R-ORM-INIT-1: 先制値 = 行動値 (``base``) + ``die``."""

    TYPE: ClassVar[str] = "initiative_score"
    FIELDS: ClassVar[tuple[str, ...]] = ("turn", "actor", "base", "die", "value", "rule")

    def __init__(self, *, turn: int, actor: str, base: int, die: int, value: int, rule: str = "R-ORM-INIT-1") -> None:
        super().__init__(turn=turn)
        self.actor: Final = actor
        self.base: Final = base
        self.die: Final = die
        self.value: Final = value
        self.rule: Final = rule


class InitiativeTie(Event):
    """R-ORM-INIT-2: one 先制値 shared: ``tied`` in roster order, ``order`` as
    settled, ``draws`` the choices drawn (empty when pcs or reflex settled it)."""

    TYPE: ClassVar[str] = "initiative_tie"
    FIELDS: ClassVar[tuple[str, ...]] = ("turn", "value", "tied", "order", "draws", "rule")

    def __init__(self, *, turn: int, value: int, tied: tuple[str, ...], order: tuple[str, ...], draws: tuple[int, ...],
                 rule: str = "R-ORM-INIT-2") -> None:
        super().__init__(turn=turn)
        self.value: Final = value
        self.tied: Final = tied
        self.order: Final = order
        self.draws: Final = draws
        self.rule: Final = rule


class PhaseStart(Event):
    """R-ORM-ACT-1: the ``simple`` or ``main`` phase opens with ``uses``."""

    TYPE: ClassVar[str] = "phase_start"
    FIELDS: ClassVar[tuple[str, ...]] = ("turn", "actor", "phase", "uses", "rule")

    def __init__(self, *, turn: int, actor: str, phase: str, uses: int, rule: str = "R-ORM-ACT-1") -> None:
        super().__init__(turn=turn)
        self.actor: Final = actor
        self.phase: Final = phase
        self.uses: Final = uses
        self.rule: Final = rule


class SimpleUse(Event):
    """R-ORM-ACT-2/3: simple use ``n``: a ``switch``, ``maintain`` or ``move``."""

    TYPE: ClassVar[str] = "simple_use"
    FIELDS: ClassVar[tuple[str, ...]] = (
        "turn", "actor", "n", "kind", "skill", "from_square", "to_square", "steps", "rule")
    DECODE: ClassVar[Decoders] = {"from_square": parse_square, "to_square": parse_square}

    def __init__(self, *, turn: int, actor: str, n: int, kind: str, skill: str | None, from_square: Square,
                 to_square: Square, steps: int, rule: str = "R-ORM-ACT-2") -> None:
        super().__init__(turn=turn)
        self.actor: Final = actor
        self.n: Final = n
        self.kind: Final = kind
        self.skill: Final = skill
        self.from_square: Final = from_square
        self.to_square: Final = to_square
        self.steps: Final = steps
        self.rule: Final = rule


class Nd6Check(Event):
    """R-ORM-CHK-1: one check, every face in order."""

    TYPE: ClassVar[str] = "nd6_check"
    FIELDS: ClassVar[tuple[str, ...]] = (
        "turn", "actor", "role", "skill", "against", "ability", "ability_value", "dice", "support", "supporter",
        "critical", "fumble", "value", "rule")

    def __init__(self, *, turn: int, actor: str, role: str, skill: str, against: str | None, ability: str,
                 ability_value: int, dice: tuple[int, ...], support: int, supporter: str | None, critical: bool,
                 fumble: bool, value: int, rule: str = "R-ORM-CHK-1") -> None:
        super().__init__(turn=turn)
        self.actor: Final = actor
        self.role: Final = role
        self.skill: Final = skill
        self.against: Final = against
        self.ability: Final = ability
        self.ability_value: Final = ability_value
        self.dice: Final = dice
        self.support: Final = support
        self.supporter: Final = supporter
        self.critical: Final = critical
        self.fumble: Final = fumble
        self.value: Final = value
        self.rule: Final = rule


class OpposedResult(Event):
    """R-ORM-CHK-3: the action value against one reaction; ``reason``
    ``higher``, ``lower``, ``tie``, ``action_fumble`` or ``reaction_fumble``."""

    TYPE: ClassVar[str] = "opposed_result"
    FIELDS: ClassVar[tuple[str, ...]] = (
        "turn", "actor", "target", "skill", "action_value", "reaction_value", "hit", "reason", "rule")

    def __init__(self, *, turn: int, actor: str, target: str, skill: str, action_value: int, reaction_value: int | None,
                 hit: bool, reason: str, rule: str = "R-ORM-CHK-3") -> None:
        super().__init__(turn=turn)
        self.actor: Final = actor
        self.target: Final = target
        self.skill: Final = skill
        self.action_value: Final = action_value
        self.reaction_value: Final = reaction_value
        self.hit: Final = hit
        self.reason: Final = reason
        self.rule: Final = rule


class DamageRoll(Event):
    """R-ORM-DMG-1: power + dice + critical bonus - element defence."""

    TYPE: ClassVar[str] = "damage_roll"
    FIELDS: ClassVar[tuple[str, ...]] = (
        "turn", "actor", "target", "skill", "cause", "element", "power", "dice", "critical_bonus", "defence", "total",
        "rule")

    def __init__(self, *, turn: int, actor: str, target: str, skill: str, cause: str, element: str, power: int,
                 dice: tuple[int, ...], critical_bonus: int, defence: int, total: int,
                 rule: str = "R-ORM-DMG-1") -> None:
        super().__init__(turn=turn)
        self.actor: Final = actor
        self.target: Final = target
        self.skill: Final = skill
        self.cause: Final = cause
        self.element: Final = element
        self.power: Final = power
        self.dice: Final = dice
        self.critical_bonus: Final = critical_bonus
        self.defence: Final = defence
        self.total: Final = total
        self.rule: Final = rule


class HealRoll(Event):
    """R-ORM-DMG-2: heal + dice, before the cap."""

    TYPE: ClassVar[str] = "heal_roll"
    FIELDS: ClassVar[tuple[str, ...]] = ("turn", "actor", "target", "skill", "base", "dice", "total", "rule")

    def __init__(self, *, turn: int, actor: str, target: str, skill: str, base: int, dice: tuple[int, ...], total: int,
                 rule: str = "R-ORM-DMG-2") -> None:
        super().__init__(turn=turn)
        self.actor: Final = actor
        self.target: Final = target
        self.skill: Final = skill
        self.base: Final = base
        self.dice: Final = dice
        self.total: Final = total
        self.rule: Final = rule


class FollowUp(Event):
    """R-ORM-SUP-2: ``actor`` follows ``supporting``'s use with a normal attack on ``target``."""

    TYPE: ClassVar[str] = "follow_up"
    FIELDS: ClassVar[tuple[str, ...]] = ("turn", "actor", "supporting", "target", "rule")

    def __init__(self, *, turn: int, actor: str, supporting: str, target: str, rule: str = "R-ORM-SUP-2") -> None:
        super().__init__(turn=turn)
        self.actor: Final = actor
        self.supporting: Final = supporting
        self.target: Final = target
        self.rule: Final = rule


#: This module's event classes (``EVENT_TYPES`` joins every family's).
EVENTS: tuple[type[Event], ...] = (
    InitiativeScore, InitiativeTie, PhaseStart, SimpleUse, Nd6Check, OpposedResult, DamageRoll, HealRoll, FollowUp,
)
