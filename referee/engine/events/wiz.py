"""Gase-Wiz's own events (variant-wiz.md, R-WIZ-EV-1): initiative values
and percentile hits, delayed casts, area uses, and aim.
"""

from __future__ import annotations

from typing import Any, ClassVar, Final

from referee.board import Square, parse_square
from referee.engine.events.base import Decoders, Event


# -------------------------------------------------------- initiative and hits


class InitiativeValue(Event):
    """A character's IN (R-WIZ-IN-1), in turn 0, before any dice."""

    TYPE: ClassVar[str] = "initiative_value"
    FIELDS: ClassVar[tuple[str, ...]] = ("turn", "actor", "value", "reflex", "move", "flexible_bonus", "fixed", "rule")

    def __init__(self, *, turn: int, actor: str, value: int, reflex: int, move: int, flexible_bonus: int, fixed: bool,
                 rule: str = "R-WIZ-IN-1") -> None:
        super().__init__(turn=turn)
        self.actor: Final = actor
        self.value: Final = value
        self.reflex: Final = reflex
        self.move: Final = move
        self.flexible_bonus: Final = flexible_bonus
        self.fixed: Final = fixed
        self.rule: Final = rule


class D100Check(Event):
    """One target's percentile hit roll (R-WIZ-HIT-1/2): the die, the chance
    and its parts.  ``facing`` is None for a missile (R-WIZ-MIS-1)."""

    TYPE: ClassVar[str] = "d100_check"
    FIELDS: ClassVar[tuple[str, ...]] = (
        "turn", "actor", "target", "skill", "die", "chance", "base", "reflex_mod", "facing", "facing_bonus",
        "missile_penalty", "aimed", "hit", "rule")

    def __init__(self, *, turn: int, actor: str, target: str, skill: str, die: int, chance: int, base: int,
                 reflex_mod: int, facing: str | None, facing_bonus: int, missile_penalty: int, aimed: bool, hit: bool,
                 rule: str = "R-WIZ-HIT-1") -> None:
        super().__init__(turn=turn)
        self.actor: Final = actor
        self.target: Final = target
        self.skill: Final = skill
        self.die: Final = die
        self.chance: Final = chance
        self.base: Final = base
        self.reflex_mod: Final = reflex_mod
        self.facing: Final = facing
        self.facing_bonus: Final = facing_bonus
        self.missile_penalty: Final = missile_penalty
        self.aimed: Final = aimed
        self.hit: Final = hit
        self.rule: Final = rule


# ------------------------------------------- casts and area uses (R-WIZ-EV-1)


class Cast(Event):
    """A spell cast with a delay (R-WIZ-CAST-1): its cost is paid now and it
    resolves at value ``resolves_at``; in place of ``targets_chosen`` and
    ``skill_used`` at the caster's slot.  ``extend``: the area payments N."""

    TYPE: ClassVar[str] = "cast"
    FIELDS: ClassVar[tuple[str, ...]] = (
        "turn", "actor", "skill", "entry", "panels", "square", "value", "resolves_at", "extend", "rule")
    DECODE: ClassVar[Decoders] = {"square": parse_square}

    def __init__(self, *, turn: int, actor: str, skill: str, entry: int, panels: tuple[int, ...], square: Square,
                 value: int, resolves_at: int, extend: int, rule: str = "R-WIZ-CAST-1") -> None:
        super().__init__(turn=turn)
        self.actor: Final = actor
        self.skill: Final = skill
        self.entry: Final = entry
        self.panels: Final = panels
        self.square: Final = square
        self.value: Final = value
        self.resolves_at: Final = resolves_at
        self.extend: Final = extend
        self.rule: Final = rule


class CastResolves(Event):
    """A cast goes off at its value (R-WIZ-CAST-2/3), from the caster's square."""

    TYPE: ClassVar[str] = "cast_resolves"
    FIELDS: ClassVar[tuple[str, ...]] = ("turn", "actor", "skill", "entry", "value", "square", "rule")
    DECODE: ClassVar[Decoders] = {"square": parse_square}

    def __init__(self, *, turn: int, actor: str, skill: str, entry: int, value: int, square: Square,
                 rule: str = "R-WIZ-CAST-3") -> None:
        super().__init__(turn=turn)
        self.actor: Final = actor
        self.skill: Final = skill
        self.entry: Final = entry
        self.value: Final = value
        self.square: Final = square
        self.rule: Final = rule


class CastLost(Event):
    """A cast that does nothing (R-WIZ-CAST-3): ``caster_down`` or ``no_candidate``."""

    TYPE: ClassVar[str] = "cast_lost"
    FIELDS: ClassVar[tuple[str, ...]] = ("turn", "actor", "skill", "reason", "rule")

    def __init__(self, *, turn: int, actor: str, skill: str, reason: str, rule: str = "R-WIZ-CAST-3") -> None:
        super().__init__(turn=turn)
        self.actor: Final = actor
        self.skill: Final = skill
        self.reason: Final = reason
        self.rule: Final = rule


class AreaRoll(Event):
    """An area use's AdB (R-WIZ-AREA-2): every face, the total R and the cap A·B."""

    TYPE: ClassVar[str] = "area_roll"
    FIELDS: ClassVar[tuple[str, ...]] = ("turn", "actor", "skill", "area", "dice", "total", "cap", "rule")

    def __init__(self, *, turn: int, actor: str, skill: str, area: str, dice: tuple[int, ...], total: int, cap: int,
                 rule: str = "R-WIZ-AREA-2") -> None:
        super().__init__(turn=turn)
        self.actor: Final = actor
        self.skill: Final = skill
        self.area: Final = area
        self.dice: Final = dice
        self.total: Final = total
        self.cap: Final = cap
        self.rule: Final = rule


class AreaGroups(Event):
    """The candidates in groups (R-WIZ-AREA-3/4): each ``{label, members}``,
    each member ``{name, number, square, distance, role}``."""

    TYPE: ClassVar[str] = "area_groups"
    FIELDS: ClassVar[tuple[str, ...]] = ("turn", "actor", "skill", "groups", "rule")

    def __init__(self, *, turn: int, actor: str, skill: str, groups: tuple[dict[str, Any], ...],
                 rule: str = "R-WIZ-AREA-3") -> None:
        super().__init__(turn=turn)
        self.actor: Final = actor
        self.skill: Final = skill
        self.groups: Final = groups
        self.rule: Final = rule


class AreaSelection(Event):
    """The selection taken (R-WIZ-AREA-5..7) with the seed's running tally:
    steps ``{kind, group, amount, excluded, max, total}``; ``partial`` is
    ``{label, from, to}`` or None; ``targets`` in taking order."""

    TYPE: ClassVar[str] = "area_selection"
    FIELDS: ClassVar[tuple[str, ...]] = (
        "turn", "actor", "skill", "whole", "partial", "excluded", "change", "amplify", "penalty", "count", "slots",
        "levels", "targets", "tally", "fizzled", "rule")

    def __init__(self, *, turn: int, actor: str, skill: str, whole: tuple[str, ...], partial: dict[str, Any] | None,
                 excluded: tuple[str, ...], change: int, amplify: int, penalty: int, count: int, slots: int,
                 levels: int, targets: tuple[str, ...], tally: tuple[dict[str, Any], ...], fizzled: bool,
                 rule: str = "R-WIZ-AREA-7") -> None:
        super().__init__(turn=turn)
        self.actor: Final = actor
        self.skill: Final = skill
        self.whole: Final = whole
        self.partial: Final = partial
        self.excluded: Final = excluded
        self.change: Final = change
        self.amplify: Final = amplify
        self.penalty: Final = penalty
        self.count: Final = count
        self.slots: Final = slots
        self.levels: Final = levels
        self.targets: Final = targets
        self.tally: Final = tally
        self.fizzled: Final = fizzled
        self.rule: Final = rule


# ---------------------------------------------------------- aim (R-WIZ-AIM-1)


class Aimed(Event):
    """``actor`` spent its walk and movement taking aim at ``target``
    (R-WIZ-AIM-1): its missile uses on ``target`` take no penalty.  ``line``
    is the ``take aim at`` clause's."""

    TYPE: ClassVar[str] = "aimed"
    FIELDS: ClassVar[tuple[str, ...]] = ("turn", "actor", "target", "line", "rule")

    def __init__(self, *, turn: int, actor: str, target: str, line: int, rule: str = "R-WIZ-AIM-1") -> None:
        super().__init__(turn=turn)
        self.actor: Final = actor
        self.target: Final = target
        self.line: Final = line
        self.rule: Final = rule


class AimLost(Event):
    """``actor``'s aim on ``target`` ended (R-WIZ-AIM-1): ``reason`` is
    ``moved``, ``pushed``, ``other_target`` (a missile use on anyone else) or
    ``new_aim`` (it took aim at someone else)."""

    TYPE: ClassVar[str] = "aim_lost"
    FIELDS: ClassVar[tuple[str, ...]] = ("turn", "actor", "target", "reason", "rule")

    def __init__(self, *, turn: int, actor: str, target: str, reason: str, rule: str = "R-WIZ-AIM-1") -> None:
        super().__init__(turn=turn)
        self.actor: Final = actor
        self.target: Final = target
        self.reason: Final = reason
        self.rule: Final = rule


#: This module's event classes (``EVENT_TYPES`` joins every family's).
EVENTS: tuple[type[Event], ...] = (
    InitiativeValue, D100Check, Cast, CastResolves, CastLost, AreaRoll, AreaGroups, AreaSelection, Aimed, AimLost,
)
