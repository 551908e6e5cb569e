"""The events every ruleset writes (rules.md): setup and the action order,
an action's pattern, panels and skill walk, a hit and its responses,
statuses, movement, the narrowing, downs and the battle's end.  The variants
write them too, and their own (the sibling modules).
"""

from __future__ import annotations

from typing import ClassVar, Final

from referee.board import Square, parse_square
from referee.engine.events.base import BattleResult, Decoders, Event


#: ``extend_requested`` of ``extend X max`` (R-EXT-7): more extras than any
#: group can hold, so "as many as the group and the panels allow".
EXTEND_MAX = 99


# -------------------------------------------------------------- setup / order


class BattleStart(Event):
    """The battle begins: seed, ruleset and the rosters in roster order."""

    TYPE: ClassVar[str] = "battle_start"
    FIELDS: ClassVar[tuple[str, ...]] = ("turn", "seed", "ruleset", "white", "black", "rule")

    def __init__(self, *, turn: int, seed: int | str, ruleset: str, white: tuple[str, ...], black: tuple[str, ...],
                 rule: str = "R-GOAL-1") -> None:
        super().__init__(turn=turn)
        self.seed: Final = seed  # as given (a number or a word), like the report's top-level seed
        self.ruleset: Final = ruleset
        self.white: Final = white
        self.black: Final = black
        self.rule: Final = rule


class Placed(Event):
    """A character's starting square and HP: drawn (R-SETUP-1) or fixed (``setup``)."""

    TYPE: ClassVar[str] = "placed"
    FIELDS: ClassVar[tuple[str, ...]] = ("turn", "actor", "team", "square", "hp", "max_hp", "drawn", "rule")
    DECODE: ClassVar[Decoders] = {"square": parse_square}

    def __init__(self, *, turn: int, actor: str, team: str, square: Square, hp: int, max_hp: int, drawn: bool,
                 rule: str = "R-SETUP-1") -> None:
        super().__init__(turn=turn)
        self.actor: Final = actor
        self.team: Final = team
        self.square: Final = square
        self.hp: Final = hp
        self.max_hp: Final = max_hp
        self.drawn: Final = drawn
        self.rule: Final = rule


class InitiativeRoll(Event):
    """A character's initiative dice (R-TURN-1): three d6, plus tie digits."""

    TYPE: ClassVar[str] = "initiative_roll"
    FIELDS: ClassVar[tuple[str, ...]] = ("turn", "actor", "dice", "value", "rule")

    def __init__(self, *, turn: int, actor: str, dice: tuple[int, ...], value: str, rule: str = "R-TURN-1") -> None:
        super().__init__(turn=turn)
        self.actor: Final = actor
        self.dice: Final = dice
        self.value: Final = value
        self.rule: Final = rule


class ActionOrder(Event):
    """The action order for the battle (or, per ruleset, for this turn)."""

    TYPE: ClassVar[str] = "action_order"
    FIELDS: ClassVar[tuple[str, ...]] = ("turn", "order", "fixed", "rule")

    def __init__(self, *, turn: int, order: tuple[str, ...], fixed: bool, rule: str = "R-TURN-1") -> None:
        super().__init__(turn=turn)
        self.order: Final = order
        self.fixed: Final = fixed
        self.rule: Final = rule


class TurnStart(Event):
    """A new turn: every living character acts once in order (R-TURN-1)."""

    TYPE: ClassVar[str] = "turn_start"
    FIELDS: ClassVar[tuple[str, ...]] = ("turn", "rule")

    def __init__(self, *, turn: int, rule: str = "R-TURN-1") -> None:
        super().__init__(turn=turn)
        self.rule: Final = rule


class ActionStart(Event):
    """A character begins its action (R-TURN-2)."""

    TYPE: ClassVar[str] = "action_start"
    FIELDS: ClassVar[tuple[str, ...]] = ("turn", "actor", "square", "hp", "rule")
    DECODE: ClassVar[Decoders] = {"square": parse_square}

    def __init__(self, *, turn: int, actor: str, square: Square, hp: int, rule: str = "R-TURN-2") -> None:
        super().__init__(turn=turn)
        self.actor: Final = actor
        self.square: Final = square
        self.hp: Final = hp
        self.rule: Final = rule


class ActionEnd(Event):
    """A character's action is over (after movement and status countdown)."""

    TYPE: ClassVar[str] = "action_end"
    FIELDS: ClassVar[tuple[str, ...]] = ("turn", "actor", "rule")

    def __init__(self, *, turn: int, actor: str, rule: str = "R-TURN-2") -> None:
        super().__init__(turn=turn)
        self.actor: Final = actor
        self.rule: Final = rule


# --------------------------------------------------------- pattern and panels


class PatternSelected(Event):
    """R-PAT-3: the active pattern for this action and why.

    ``reason``: ``condition`` (its condition held), ``default`` (first
    unconditioned), ``first`` (none held, none active yet), ``kept`` (none held,
    the active one stays).  ``switched`` is True when it differs from the
    previous active pattern (every maintained skill is then released).
    """

    TYPE: ClassVar[str] = "pattern_selected"
    FIELDS: ClassVar[tuple[str, ...]] = ("turn", "actor", "pattern", "elements", "reason", "switched", "rule")

    def __init__(self, *, turn: int, actor: str, pattern: int, elements: str, reason: str, switched: bool,
                 rule: str = "R-PAT-3") -> None:
        super().__init__(turn=turn)
        self.actor: Final = actor
        self.pattern: Final = pattern
        self.elements: Final = elements
        self.reason: Final = reason
        self.switched: Final = switched
        self.rule: Final = rule


class PanelsReset(Event):
    """R-PAN-2: the active pattern's panels become unused, except ``kept``
    (indices assigned to maintained skills)."""

    TYPE: ClassVar[str] = "panels_reset"
    FIELDS: ClassVar[tuple[str, ...]] = ("turn", "actor", "kept", "rule")

    def __init__(self, *, turn: int, actor: str, kept: tuple[int, ...], rule: str = "R-PAN-2") -> None:
        super().__init__(turn=turn)
        self.actor: Final = actor
        self.kept: Final = kept
        self.rule: Final = rule


# ----------------------------------------------------------------- skill walk


class SkillOrder(Event):
    """R-PLAN-5: the skill list's order for this action (entry indices into the
    sheet's list and their skill ids), and the lines of the ``use X first``
    clauses that moved entries."""

    TYPE: ClassVar[str] = "skill_order"
    FIELDS: ClassVar[tuple[str, ...]] = ("turn", "actor", "entries", "skills", "moved_by", "rule")

    def __init__(self, *, turn: int, actor: str, entries: tuple[int, ...], skills: tuple[str, ...],
                 moved_by: tuple[int, ...], rule: str = "R-PLAN-5") -> None:
        super().__init__(turn=turn)
        self.actor: Final = actor
        self.entries: Final = entries
        self.skills: Final = skills
        self.moved_by: Final = moved_by
        self.rule: Final = rule


class SkillPassed(Event):
    """A decision: an entry of the walk was passed over, and why.

    ``reason`` is one of: ``passive``, ``already_maintained``, ``bound``,
    ``frozen``, ``condition_false`` (``never use``/``use only``; ``line`` names
    the clause), ``cost_unpayable``, ``no_target``, ``heal_guard`` (R-PLAN-1
    left no candidate), ``held_back`` (a maintain entry's clause holds it back).
    """

    TYPE: ClassVar[str] = "skill_passed"
    FIELDS: ClassVar[tuple[str, ...]] = ("turn", "actor", "skill", "entry", "reason", "line", "detail", "rule")

    def __init__(self, *, turn: int, actor: str, skill: str, entry: int, reason: str, line: int | None = None,
                 detail: str = "", rule: str = "R-PLAN-3") -> None:
        super().__init__(turn=turn)
        self.actor: Final = actor
        self.skill: Final = skill
        self.entry: Final = entry
        self.reason: Final = reason
        self.line: Final = line
        self.detail: Final = detail
        self.rule: Final = rule


class TargetsChosen(Event):
    """A decision: the candidates considered (in preference order) and the
    targets taken, with how many extras were requested and taken (R-EXT-7).
    ``extend_requested`` is :data:`EXTEND_MAX` for ``extend X max``."""

    TYPE: ClassVar[str] = "targets_chosen"
    FIELDS: ClassVar[tuple[str, ...]] = (
        "turn", "actor", "skill", "candidates", "targets", "preference", "extend_requested", "extended", "rule")

    def __init__(self, *, turn: int, actor: str, skill: str, candidates: tuple[str, ...], targets: tuple[str, ...],
                 preference: str, extend_requested: int, extended: int, rule: str = "R-PLAN-4") -> None:
        super().__init__(turn=turn)
        self.actor: Final = actor
        self.skill: Final = skill
        self.candidates: Final = candidates
        self.targets: Final = targets
        self.preference: Final = preference
        self.extend_requested: Final = extend_requested
        self.extended: Final = extended
        self.rule: Final = rule


class SkillUsed(Event):
    """An entry is used actively on ``targets`` (primary first), paying
    ``panels`` (active-pattern indices, base cost then extension, R-PAN-3)."""

    TYPE: ClassVar[str] = "skill_used"
    FIELDS: ClassVar[tuple[str, ...]] = ("turn", "actor", "skill", "entry", "targets", "panels", "square", "rule")
    DECODE: ClassVar[Decoders] = {"square": parse_square}

    def __init__(self, *, turn: int, actor: str, skill: str, entry: int, targets: tuple[str, ...],
                 panels: tuple[int, ...], square: Square, rule: str = "R-SK-1") -> None:
        super().__init__(turn=turn)
        self.actor: Final = actor
        self.skill: Final = skill
        self.entry: Final = entry
        self.targets: Final = targets
        self.panels: Final = panels
        self.square: Final = square
        self.rule: Final = rule


class MaintainStarted(Event):
    """A maintain skill starts (actively, or by firing for passive ones, R-SK-2);
    its ``panels`` stay assigned."""

    TYPE: ClassVar[str] = "maintain_started"
    FIELDS: ClassVar[tuple[str, ...]] = ("turn", "actor", "skill", "entry", "panels", "rule")

    def __init__(self, *, turn: int, actor: str, skill: str, entry: int, panels: tuple[int, ...],
                 rule: str = "R-SK-2") -> None:
        super().__init__(turn=turn)
        self.actor: Final = actor
        self.skill: Final = skill
        self.entry: Final = entry
        self.panels: Final = panels
        self.rule: Final = rule


class MaintainReleased(Event):
    """A maintained skill ends.  ``cause``: ``clause`` (``line`` given),
    ``bound``, ``pattern_switch``, ``down``."""

    TYPE: ClassVar[str] = "maintain_released"
    FIELDS: ClassVar[tuple[str, ...]] = ("turn", "actor", "skill", "entry", "cause", "line", "rule")

    def __init__(self, *, turn: int, actor: str, skill: str, entry: int, cause: str, line: int | None = None,
                 rule: str = "R-TURN-4") -> None:
        super().__init__(turn=turn)
        self.actor: Final = actor
        self.skill: Final = skill
        self.entry: Final = entry
        self.cause: Final = cause
        self.line: Final = line
        self.rule: Final = rule


class ChanceRoll(Event):
    """A draw that changed the outcome: ``effect`` (status, knockback, cleanse,
    ...) of ``skill`` by ``actor`` on ``target`` succeeded or not."""

    TYPE: ClassVar[str] = "chance_roll"
    FIELDS: ClassVar[tuple[str, ...]] = (
        "turn", "actor", "skill", "target", "effect", "numerator", "denominator", "success", "rule")

    def __init__(self, *, turn: int, actor: str, skill: str, target: str, effect: str, numerator: int, denominator: int,
                 success: bool, rule: str = "R-RNG-1") -> None:
        super().__init__(turn=turn)
        self.actor: Final = actor
        self.skill: Final = skill
        self.target: Final = target
        self.effect: Final = effect
        self.numerator: Final = numerator
        self.denominator: Final = denominator
        self.success: Final = success
        self.rule: Final = rule


# ------------------------------------------------------------------ responses


class Obstructed(Event):
    """R-TURN-3 (1): ``actor``'s obstruct passive ``skill`` cancels ``by``'s use
    of ``against_skill`` against ``actor`` only."""

    TYPE: ClassVar[str] = "obstructed"
    FIELDS: ClassVar[tuple[str, ...]] = ("turn", "actor", "skill", "by", "against_skill", "panels", "rule")

    def __init__(self, *, turn: int, actor: str, skill: str, by: str, against_skill: str, panels: tuple[int, ...],
                 rule: str = "R-TURN-3") -> None:
        super().__init__(turn=turn)
        self.actor: Final = actor
        self.skill: Final = skill
        self.by: Final = by
        self.against_skill: Final = against_skill
        self.panels: Final = panels
        self.rule: Final = rule


class Reaction(Event):
    """A passive/maintained defence or counter fires for ``actor`` against
    ``attacker``.  ``kind``: ``defence`` (``reduce`` given) or ``counter``;
    ``panels`` paid (empty when maintained or already paid this hit)."""

    TYPE: ClassVar[str] = "reaction"
    FIELDS: ClassVar[tuple[str, ...]] = (
        "turn", "actor", "skill", "entry", "kind", "attacker", "panels", "reduce", "maintained", "rule")

    def __init__(self, *, turn: int, actor: str, skill: str, entry: int, kind: str, attacker: str,
                 panels: tuple[int, ...], reduce: int = 0, maintained: bool = False, rule: str = "R-SK-1a") -> None:
        super().__init__(turn=turn)
        self.actor: Final = actor
        self.skill: Final = skill
        self.entry: Final = entry
        self.kind: Final = kind
        self.attacker: Final = attacker
        self.panels: Final = panels
        self.reduce: Final = reduce
        self.maintained: Final = maintained
        self.rule: Final = rule


class CounterMissed(Event):
    """A counter hit that did not land: ``reason`` ``out_of_range`` (R-RANGE-3,
    R-KNOCK-5) or ``attacker_down``."""

    TYPE: ClassVar[str] = "counter_missed"
    FIELDS: ClassVar[tuple[str, ...]] = ("turn", "actor", "skill", "target", "reason", "rule")

    def __init__(self, *, turn: int, actor: str, skill: str, target: str, reason: str, rule: str = "R-RANGE-3") -> None:
        super().__init__(turn=turn)
        self.actor: Final = actor
        self.skill: Final = skill
        self.target: Final = target
        self.reason: Final = reason
        self.rule: Final = rule


class Damage(Event):
    """One loss of HP.  ``cause``: ``skill`` (a hit of an active use),
    ``counter``, ``wall``, ``poison``, ``narrowing``.  ``actor``/``skill`` name
    the source when there is one; ``element`` is empty for typeless damage.
    ``printed`` is the damage before reductions, ``reduced`` the sum removed.
    """

    TYPE: ClassVar[str] = "damage"
    FIELDS: ClassVar[tuple[str, ...]] = (
        "turn", "target", "amount", "hp_after", "cause", "actor", "skill", "element", "printed", "reduced", "rule")

    def __init__(self, *, turn: int, target: str, amount: int, hp_after: int, cause: str, actor: str | None = None,
                 skill: str | None = None, element: str = "", printed: int = 0, reduced: int = 0,
                 rule: str = "R-SK-3") -> None:
        super().__init__(turn=turn)
        self.target: Final = target
        self.amount: Final = amount
        self.hp_after: Final = hp_after
        self.cause: Final = cause
        self.actor: Final = actor
        self.skill: Final = skill
        self.element: Final = element
        self.printed: Final = printed
        self.reduced: Final = reduced
        self.rule: Final = rule


class Heal(Event):
    """HP restored (never above max, R-CHAR-2)."""

    TYPE: ClassVar[str] = "heal"
    FIELDS: ClassVar[tuple[str, ...]] = ("turn", "target", "amount", "hp_after", "actor", "skill", "cause", "rule")

    def __init__(self, *, turn: int, target: str, amount: int, hp_after: int, actor: str, skill: str,
                 cause: str = "skill", rule: str = "R-SK-2") -> None:
        super().__init__(turn=turn)
        self.target: Final = target
        self.amount: Final = amount
        self.hp_after: Final = hp_after
        self.actor: Final = actor
        self.skill: Final = skill
        self.cause: Final = cause
        self.rule: Final = rule


class PanelUsed(Event):
    """An obstruct effect turns ``target``'s leftmost unused panel used
    (``panel`` None: it had none, R-TURN-3a)."""

    TYPE: ClassVar[str] = "panel_used"
    FIELDS: ClassVar[tuple[str, ...]] = ("turn", "target", "panel", "actor", "skill", "rule")

    def __init__(self, *, turn: int, target: str, panel: int | None, actor: str, skill: str,
                 rule: str = "R-TURN-3a") -> None:
        super().__init__(turn=turn)
        self.target: Final = target
        self.panel: Final = panel
        self.actor: Final = actor
        self.skill: Final = skill
        self.rule: Final = rule


class StatusApplied(Event):
    """A status lands.  ``status``: bind, poison, freeze, change.  ``object``:
    character, skill (``index`` = entry), clause (``index`` = clause line),
    panel (``index`` = panel of ``pattern``)."""

    TYPE: ClassVar[str] = "status_applied"
    FIELDS: ClassVar[tuple[str, ...]] = (
        "turn", "target", "status", "object", "index", "pattern", "duration", "actor", "skill", "rule")

    def __init__(self, *, turn: int, target: str, status: str, object: str, index: int | None, pattern: int | None,
                 duration: int | None, actor: str, skill: str, rule: str = "R-ST-1") -> None:
        super().__init__(turn=turn)
        self.target: Final = target
        self.status: Final = status
        self.object: Final = object
        self.index: Final = index
        self.pattern: Final = pattern
        self.duration: Final = duration
        self.actor: Final = actor
        self.skill: Final = skill
        self.rule: Final = rule


class StatusNoEffect(Event):
    """A status had nothing to land on (R-ST-2, R-ST-BIND): ``reason`` says why."""

    TYPE: ClassVar[str] = "status_no_effect"
    FIELDS: ClassVar[tuple[str, ...]] = ("turn", "target", "status", "object", "reason", "actor", "skill", "rule")

    def __init__(self, *, turn: int, target: str, status: str, object: str, reason: str, actor: str, skill: str,
                 rule: str = "R-ST-2") -> None:
        super().__init__(turn=turn)
        self.target: Final = target
        self.status: Final = status
        self.object: Final = object
        self.reason: Final = reason
        self.actor: Final = actor
        self.skill: Final = skill
        self.rule: Final = rule


class StatusExpired(Event):
    """A status ran out at the end of its bearer's action (R-ST-1)."""

    TYPE: ClassVar[str] = "status_expired"
    FIELDS: ClassVar[tuple[str, ...]] = ("turn", "target", "status", "object", "index", "pattern", "rule")

    def __init__(self, *, turn: int, target: str, status: str, object: str, index: int | None, pattern: int | None,
                 rule: str = "R-ST-1") -> None:
        super().__init__(turn=turn)
        self.target: Final = target
        self.status: Final = status
        self.object: Final = object
        self.index: Final = index
        self.pattern: Final = pattern
        self.rule: Final = rule


class StatusCleansed(Event):
    """A status removed by Rest/Restore (R-ST-CLEANSE)."""

    TYPE: ClassVar[str] = "status_cleansed"
    FIELDS: ClassVar[tuple[str, ...]] = (
        "turn", "target", "status", "object", "index", "pattern", "actor", "skill", "rule")

    def __init__(self, *, turn: int, target: str, status: str, object: str, index: int | None, pattern: int | None,
                 actor: str, skill: str, rule: str = "R-ST-CLEANSE") -> None:
        super().__init__(turn=turn)
        self.target: Final = target
        self.status: Final = status
        self.object: Final = object
        self.index: Final = index
        self.pattern: Final = pattern
        self.actor: Final = actor
        self.skill: Final = skill
        self.rule: Final = rule


class Knockback(Event):
    """R-KNOCK-1..3: ``target`` pushed away from ``actor``.  ``wall`` True: the
    push was off the field, ``to`` == ``from`` and a wall Damage follows."""

    TYPE: ClassVar[str] = "knockback"
    FIELDS: ClassVar[tuple[str, ...]] = (
        "turn", "target", "from_square", "to_square", "direction", "wall", "actor", "skill", "rule")
    DECODE: ClassVar[Decoders] = {"from_square": parse_square, "to_square": parse_square}

    def __init__(self, *, turn: int, target: str, from_square: Square, to_square: Square, direction: str, wall: bool,
                 actor: str, skill: str, rule: str = "R-KNOCK-1") -> None:
        super().__init__(turn=turn)
        self.target: Final = target
        self.from_square: Final = from_square
        self.to_square: Final = to_square
        self.direction: Final = direction
        self.wall: Final = wall
        self.actor: Final = actor
        self.skill: Final = skill
        self.rule: Final = rule


class SinkStarted(Event):
    """R-ST-SINK: ``square`` is sunk by ``actor``'s ``skill``."""

    TYPE: ClassVar[str] = "sink_started"
    FIELDS: ClassVar[tuple[str, ...]] = ("turn", "actor", "skill", "square", "rule")
    DECODE: ClassVar[Decoders] = {"square": parse_square}

    def __init__(self, *, turn: int, actor: str, skill: str, square: Square, rule: str = "R-ST-SINK") -> None:
        super().__init__(turn=turn)
        self.actor: Final = actor
        self.skill: Final = skill
        self.square: Final = square
        self.rule: Final = rule


class SinkEnded(Event):
    """A sinking ends: ``cause`` ``owner_action``, ``owner_down``, ``narrowing``."""

    TYPE: ClassVar[str] = "sink_ended"
    FIELDS: ClassVar[tuple[str, ...]] = ("turn", "actor", "square", "cause", "rule")
    DECODE: ClassVar[Decoders] = {"square": parse_square}

    def __init__(self, *, turn: int, actor: str, square: Square, cause: str, rule: str = "R-ST-SINK") -> None:
        super().__init__(turn=turn)
        self.actor: Final = actor
        self.square: Final = square
        self.cause: Final = cause
        self.rule: Final = rule


# ------------------------------------------------------------------- movement


class Moved(Event):
    """A one-area move (R-MOVE-1).  ``mode``: ``auto`` (R-MOVE-3/6) or
    ``clause`` (R-MOVE-7/8, ``line`` given); ``toward`` describes the goal."""

    TYPE: ClassVar[str] = "moved"
    FIELDS: ClassVar[tuple[str, ...]] = ("turn", "actor", "from_square", "to_square", "mode", "toward", "line", "rule")
    DECODE: ClassVar[Decoders] = {"from_square": parse_square, "to_square": parse_square}

    def __init__(self, *, turn: int, actor: str, from_square: Square, to_square: Square, mode: str, toward: str,
                 line: int | None = None, rule: str = "R-MOVE-5") -> None:
        super().__init__(turn=turn)
        self.actor: Final = actor
        self.from_square: Final = from_square
        self.to_square: Final = to_square
        self.mode: Final = mode
        self.toward: Final = toward
        self.line: Final = line
        self.rule: Final = rule


class Stayed(Event):
    """A decision: the character did not move, and why.  ``reason``: ``engaged``,
    ``sunk``, ``bound``, ``attacked``, ``in_reach``, ``hold`` (clause), ``arrived``,
    ``keep_away`` (staying was best), ``no_route``, ``no_enemy``."""

    TYPE: ClassVar[str] = "stayed"
    FIELDS: ClassVar[tuple[str, ...]] = ("turn", "actor", "square", "reason", "line", "rule")
    DECODE: ClassVar[Decoders] = {"square": parse_square}

    def __init__(self, *, turn: int, actor: str, square: Square, reason: str, line: int | None = None,
                 rule: str = "R-MOVE-1") -> None:
        super().__init__(turn=turn)
        self.actor: Final = actor
        self.square: Final = square
        self.reason: Final = reason
        self.line: Final = line
        self.rule: Final = rule


# ------------------------------------------------------------------ narrowing


class Narrowing(Event):
    """R-NARROW-1: stage ``stage`` (1-based) keeps ``kept`` (e.g. "b2-g7")."""

    TYPE: ClassVar[str] = "narrowing"
    FIELDS: ClassVar[tuple[str, ...]] = ("turn", "stage", "kept", "rule")

    def __init__(self, *, turn: int, stage: int, kept: str, rule: str = "R-NARROW-1") -> None:
        super().__init__(turn=turn)
        self.stage: Final = stage
        self.kept: Final = kept
        self.rule: Final = rule


class Pushed(Event):
    """R-NARROW-2: ``target`` pushed from a removed area into the kept field."""

    TYPE: ClassVar[str] = "pushed"
    FIELDS: ClassVar[tuple[str, ...]] = ("turn", "target", "from_square", "to_square", "rule")
    DECODE: ClassVar[Decoders] = {"from_square": parse_square, "to_square": parse_square}

    def __init__(self, *, turn: int, target: str, from_square: Square, to_square: Square,
                 rule: str = "R-NARROW-2") -> None:
        super().__init__(turn=turn)
        self.target: Final = target
        self.from_square: Final = from_square
        self.to_square: Final = to_square
        self.rule: Final = rule


# ----------------------------------------------------------------- KO and end


class Down(Event):
    """R-CHAR-2: ``target`` is at 0 HP and leaves the field."""

    TYPE: ClassVar[str] = "down"
    FIELDS: ClassVar[tuple[str, ...]] = ("turn", "target", "square", "cause", "rule")
    DECODE: ClassVar[Decoders] = {"square": parse_square}

    def __init__(self, *, turn: int, target: str, square: Square, cause: str, rule: str = "R-CHAR-2") -> None:
        super().__init__(turn=turn)
        self.target: Final = target
        self.square: Final = square
        self.cause: Final = cause
        self.rule: Final = rule


class BattleEnd(Event):
    """The battle is over (R-GOAL-1/2, R-TURN-9)."""

    TYPE: ClassVar[str] = "battle_end"
    FIELDS: ClassVar[tuple[str, ...]] = ("turn", "result", "rule")
    DECODE: ClassVar[Decoders] = {"result": BattleResult.from_json}

    def __init__(self, *, turn: int, result: BattleResult, rule: str = "R-GOAL-1") -> None:
        super().__init__(turn=turn)
        self.result: Final = result
        self.rule: Final = rule


#: This module's event classes (``EVENT_TYPES`` joins every family's).
EVENTS: tuple[type[Event], ...] = (
    BattleStart, Placed, InitiativeRoll, ActionOrder, TurnStart, ActionStart, ActionEnd, PatternSelected,
    PanelsReset, SkillOrder, SkillPassed, TargetsChosen, SkillUsed, MaintainStarted, MaintainReleased, ChanceRoll,
    Obstructed, Reaction, CounterMissed, Damage, Heal, PanelUsed, StatusApplied, StatusNoEffect, StatusExpired,
    StatusCleansed, Knockback, SinkStarted, SinkEnded, Moved, Stayed, Narrowing, Pushed, Down, BattleEnd,
)
