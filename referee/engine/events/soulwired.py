"""soulwired's own events (variant-soulwired.md): the ability order, d6
checks, evasion and its dice, stalled turns and hard mode; the terrain,
stances, moves, armour and objects.
"""

from __future__ import annotations

from typing import ClassVar, Final

from referee.board import Square, parse_square
from referee.engine.events.base import Decoders, Event, parse_squares


# ------------------------------------- initiative, checks, evasion, hard mode


class InitiativeRanked(Event):
    """A character's place in the ability order (R-SOUL-INIT-1): its ability
    score and its tie dice in draw order (empty when no one shares its score)."""

    TYPE: ClassVar[str] = "initiative_ranked"
    FIELDS: ClassVar[tuple[str, ...]] = ("turn", "actor", "ability", "score", "tie_rolls", "rule")

    def __init__(self, *, turn: int, actor: str, ability: str, score: int, tie_rolls: tuple[int, ...],
                 rule: str) -> None:
        super().__init__(turn=turn)
        self.actor: Final = actor
        self.ability: Final = ability
        self.score: Final = score
        self.tie_rolls: Final = tie_rolls
        self.rule: Final = rule  # given by the mechanic that emits it (the variant's rule ID)


class D6Check(Event):
    """A pool of d6 against a difficulty face (R-SOUL-CHECK-1/2): a
    manoeuvre check or a use's attack check (R-SOUL-HIT-1)."""

    TYPE: ClassVar[str] = "d6_check"
    FIELDS: ClassVar[tuple[str, ...]] = (
        "turn", "actor", "check", "skill", "targets", "ability", "dice", "difficulty", "steps", "successes", "success",
        "rule")

    def __init__(self, *, turn: int, actor: str, check: str, skill: str | None, targets: tuple[str, ...], ability: str,
                 dice: tuple[int, ...], difficulty: int, steps: tuple[dict[str, object], ...], successes: int,
                 success: bool, rule: str) -> None:
        super().__init__(turn=turn)
        self.actor: Final = actor
        self.check: Final = check
        self.skill: Final = skill
        self.targets: Final = targets
        self.ability: Final = ability
        self.dice: Final = dice
        self.difficulty: Final = difficulty
        self.steps: Final = steps
        self.successes: Final = successes
        self.success: Final = success
        self.rule: Final = rule


class Evasion(Event):
    """One target's evasion of a successful attack check (R-SOUL-HIT-3..5)."""

    TYPE: ClassVar[str] = "evasion"
    FIELDS: ClassVar[tuple[str, ...]] = (
        "turn", "actor", "attacker", "skill", "melee", "level", "difficulty", "dice_before", "committed", "reason",
        "line", "dice", "successes", "evaded", "dice_left", "rule")

    def __init__(self, *, turn: int, actor: str, attacker: str, skill: str, melee: bool, level: int, difficulty: int,
                 dice_before: int, committed: int, reason: str, line: int | None, dice: tuple[int, ...], successes: int,
                 evaded: bool, dice_left: int, rule: str) -> None:
        super().__init__(turn=turn)
        self.actor: Final = actor
        self.attacker: Final = attacker
        self.skill: Final = skill
        self.melee: Final = melee
        self.level: Final = level
        self.difficulty: Final = difficulty
        self.dice_before: Final = dice_before
        self.committed: Final = committed
        self.reason: Final = reason
        self.line: Final = line
        self.dice: Final = dice
        self.successes: Final = successes
        self.evaded: Final = evaded
        self.dice_left: Final = dice_left
        self.rule: Final = rule


class EvasionDice(Event):
    """A character's evasion dice now (R-SOUL-HIT-2, R-SOUL-STANCE-2)."""

    TYPE: ClassVar[str] = "evasion_dice"
    FIELDS: ClassVar[tuple[str, ...]] = ("turn", "actor", "dice", "cause", "rule")

    def __init__(self, *, turn: int, actor: str, dice: int, cause: str, rule: str) -> None:
        super().__init__(turn=turn)
        self.actor: Final = actor
        self.dice: Final = dice
        self.cause: Final = cause
        self.rule: Final = rule


class TurnStalled(Event):
    """A stalled turn (R-SOUL-HARD-1): the total so far, the level-1 run, and
    the level in force during the turn."""

    TYPE: ClassVar[str] = "turn_stalled"
    FIELDS: ClassVar[tuple[str, ...]] = ("turn", "stalled", "run", "level", "rule")

    def __init__(self, *, turn: int, stalled: int, run: int, level: int, rule: str) -> None:
        super().__init__(turn=turn)
        self.stalled: Final = stalled
        self.run: Final = run
        self.level: Final = level
        self.rule: Final = rule


class HardMode(Event):
    """The hard-mode level rose from this turn on (R-SOUL-HARD-2/3)."""

    TYPE: ClassVar[str] = "hard_mode"
    FIELDS: ClassVar[tuple[str, ...]] = ("turn", "level", "melee_evasion_difficulty", "rule")

    def __init__(self, *, turn: int, level: int, melee_evasion_difficulty: int, rule: str) -> None:
        super().__init__(turn=turn)
        self.level: Final = level
        self.melee_evasion_difficulty: Final = melee_evasion_difficulty
        self.rule: Final = rule


# ----------------------------------- terrain, stances, moves, armour, objects


class Terrain(Event):
    """The battle's terrain, after ``battle_start`` (R-SOUL-TERR-1):
    blocked and barrier areas, and each object as ``{square, strength,
    armour}`` (the square written as a name)."""

    TYPE: ClassVar[str] = "terrain"
    FIELDS: ClassVar[tuple[str, ...]] = ("turn", "blocked", "barriers", "objects", "rule")
    DECODE: ClassVar[Decoders] = {"blocked": parse_squares, "barriers": parse_squares}

    def __init__(self, *, turn: int, blocked: tuple[Square, ...], barriers: tuple[Square, ...],
                 objects: tuple[dict[str, object], ...], rule: str = "R-SOUL-TERR-1") -> None:
        super().__init__(turn=turn)
        self.blocked: Final = blocked
        self.barriers: Final = barriers
        self.objects: Final = objects
        self.rule: Final = rule


class Stance(Event):
    """The action's stance (R-SOUL-STANCE-1..3): ``focus``, ``maneuver`` or
    ``none``, from a plan clause (``line``) or the default."""

    TYPE: ClassVar[str] = "stance"
    FIELDS: ClassVar[tuple[str, ...]] = ("turn", "actor", "stance", "reason", "line", "rule")

    def __init__(self, *, turn: int, actor: str, stance: str, reason: str, line: int | None = None,
                 rule: str = "R-SOUL-STANCE-3") -> None:
        super().__init__(turn=turn)
        self.actor: Final = actor
        self.stance: Final = stance
        self.reason: Final = reason
        self.line: Final = line
        self.rule: Final = rule


class MovePhase(Event):
    """A move starts (R-SOUL-ACT-1 steps 3 and 6) with ``points`` to spend."""

    TYPE: ClassVar[str] = "move_phase"
    FIELDS: ClassVar[tuple[str, ...]] = ("turn", "actor", "phase", "points", "rule")

    def __init__(self, *, turn: int, actor: str, phase: str, points: int, rule: str = "R-SOUL-MOVE-1") -> None:
        super().__init__(turn=turn)
        self.actor: Final = actor
        self.phase: Final = phase
        self.points: Final = points
        self.rule: Final = rule


class Armour(Event):
    """Armour took ``armour`` off a physical hit (R-SOUL-DMG-1); the
    ``damage`` event's ``reduced`` includes it."""

    TYPE: ClassVar[str] = "armour"
    FIELDS: ClassVar[tuple[str, ...]] = ("turn", "target", "armour", "skill", "rule")

    def __init__(self, *, turn: int, target: str, armour: int, skill: str, rule: str = "R-SOUL-DMG-1") -> None:
        super().__init__(turn=turn)
        self.target: Final = target
        self.armour: Final = armour
        self.skill: Final = skill
        self.rule: Final = rule


class ObjectHit(Event):
    """A successful attack check on an object (R-SOUL-TERR-2)."""

    TYPE: ClassVar[str] = "object_hit"
    FIELDS: ClassVar[tuple[str, ...]] = (
        "turn", "actor", "skill", "square", "printed", "armour", "amount", "strength_after", "rule")
    DECODE: ClassVar[Decoders] = {"square": parse_square}

    def __init__(self, *, turn: int, actor: str, skill: str, square: Square, printed: int, armour: int, amount: int,
                 strength_after: int, rule: str = "R-SOUL-TERR-2") -> None:
        super().__init__(turn=turn)
        self.actor: Final = actor
        self.skill: Final = skill
        self.square: Final = square
        self.printed: Final = printed
        self.armour: Final = armour
        self.amount: Final = amount
        self.strength_after: Final = strength_after
        self.rule: Final = rule


class ObjectDestroyed(Event):
    """An object at strength 0 is removed and its area freed (R-SOUL-TERR-2)."""

    TYPE: ClassVar[str] = "object_destroyed"
    FIELDS: ClassVar[tuple[str, ...]] = ("turn", "square", "actor", "skill", "rule")
    DECODE: ClassVar[Decoders] = {"square": parse_square}

    def __init__(self, *, turn: int, square: Square, actor: str, skill: str, rule: str = "R-SOUL-TERR-2") -> None:
        super().__init__(turn=turn)
        self.square: Final = square
        self.actor: Final = actor
        self.skill: Final = skill
        self.rule: Final = rule


#: This module's event classes (``EVENT_TYPES`` joins every family's).
EVENTS: tuple[type[Event], ...] = (
    InitiativeRanked, D6Check, Evasion, EvasionDice, TurnStalled, HardMode, Terrain, Stance, MovePhase, Armour,
    ObjectHit, ObjectDestroyed,
)
