"""Typed battle events: the single record every report is rendered from.

Each event is a plain class with a snake_case ``TYPE``: its fields are the
keyword-only arguments of its ``__init__``, stored once as ``Final``
attributes and listed in order in ``FIELDS``; the event list of a battle is
append-only (nothing is edited after the fact).  ``to_json`` gives the
stable field names of interfaces.md: ``type``, ``turn``, and where they
apply ``actor``, ``skill`` (id), ``targets`` (names), squares as ``"c3"``,
``amount``, ``hp_after``, ``rule`` and ``cause``.  Every HP loss is one
:class:`Damage` naming one ``target``; every move or push is one event with
``from`` and ``to``.  ``event_from_json`` inverts ``to_json`` exactly.

Plain classes rather than dataclasses: mypyc compiles an explicit
``__init__`` into a native constructor and enforces ``Final`` at run time,
where a dataclass's generated constructor stays interpreted.  Equality,
hashing, ``repr``, pickling and the JSON codec come from :class:`Event`,
reading ``FIELDS``.

docs/events.md documents every type; a test checks that the two agree.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Final

from referee.board import Square, parse_square, square_name

__all__ = [
    "Event",
    "BattleStart",
    "Placed",
    "InitiativeRoll",
    "ActionOrder",
    "TurnStart",
    "ActionStart",
    "PatternSelected",
    "PanelsReset",
    "SkillOrder",
    "SkillPassed",
    "TargetsChosen",
    "SkillUsed",
    "MaintainStarted",
    "MaintainReleased",
    "ChanceRoll",
    "Obstructed",
    "Reaction",
    "CounterMissed",
    "Damage",
    "Heal",
    "PanelUsed",
    "StatusApplied",
    "StatusNoEffect",
    "StatusExpired",
    "StatusCleansed",
    "Knockback",
    "SinkStarted",
    "SinkEnded",
    "Moved",
    "Stayed",
    "Narrowing",
    "Pushed",
    "Down",
    "ActionEnd",
    "FinalCharacter",
    "BattleResult",
    "TurnRoll", "TurnSelected", "D20Check", "HitTest", "Margin", "Support", "MoveEnd", "Ridden", "Revived",
    "BattleEnd",
    "EVENT_TYPES",
    "DECISION_TYPES",
    "is_decision",
    "EXTEND_MAX",
    "event_from_json",
]

#: How fields are read back from JSON, by field name (:attr:`Event.DECODE`).
Decoders = Mapping[str, Callable[[Any], object]]

#: Python field name -> JSON name where they differ.
JSON_NAMES: Final = {"from_square": "from", "to_square": "to"}


class Event:
    """Base of every event.  ``turn`` is the turn in progress (0 = setup).

    A subclass sets ``TYPE`` (its JSON name), ``FIELDS`` (every field in
    ``__init__``'s order, ``turn`` first: the order of its JSON) and, for
    fields JSON cannot hold as they are, ``DECODE`` (field -> the function
    reading it back, such as :func:`parse_square`); a JSON list is read back
    as a tuple."""

    TYPE: ClassVar[str] = "event"
    FIELDS: ClassVar[tuple[str, ...]] = ("turn",)
    DECODE: ClassVar[Decoders] = {}

    def __init__(self, *, turn: int) -> None:
        self.turn: Final = turn

    def field_values(self) -> tuple[Any, ...]:
        """The values of :attr:`FIELDS`, in order."""
        return tuple([getattr(self, name) for name in self.FIELDS])

    def __eq__(self, other: object) -> bool:
        if other.__class__ is self.__class__ and isinstance(other, Event):
            return self.field_values() == other.field_values()
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self.field_values())

    def __repr__(self) -> str:
        fields = ", ".join([f"{name}={value!r}" for name, value in zip(self.FIELDS, self.field_values())])
        return f"{self.__class__.__name__}({fields})"

    def __reduce__(self) -> tuple[Callable[[type[Event], tuple[Any, ...]], Event], tuple[type[Event], tuple[Any, ...]]]:
        # copy and pickle (batch workers send reports across processes)
        # rebuild an event by its constructor: compiled, an event refuses the
        # attribute stores of the default protocol
        return (_rebuilt, (self.__class__, self.field_values()))

    def to_json(self) -> dict[str, Any]:
        """The event as JSON-ready data with the stable field names, ``type`` first."""
        out: dict[str, Any] = {"type": self.TYPE}
        for name in self.FIELDS:
            out[JSON_NAMES.get(name, name)] = json_value(getattr(self, name))
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Event:
        """The event :meth:`to_json` wrote (a field left out takes its default).

        :raises TypeError: on a missing field without a default."""
        kwargs: dict[str, Any] = {}
        for name in cls.FIELDS:
            key = JSON_NAMES.get(name, name)
            if key in data:
                value = data[key]
                decode = cls.DECODE.get(name)
                if decode is not None:
                    value = decode(value)
                elif isinstance(value, list):
                    value = tuple(value)
                kwargs[name] = value
        return cls(**kwargs)


def _rebuilt(cls: type[Event], values: tuple[Any, ...]) -> Event:
    """The event of class ``cls`` with field values ``values`` (:meth:`Event.__reduce__`)."""
    return cls(**dict(zip(cls.FIELDS, values)))


def json_value(value: object) -> object:
    """A field's value as JSON data: a square as its name, a tuple as a
    list, the battle's result as its object; anything else as it is."""
    if isinstance(value, Square):
        return square_name(value)
    if isinstance(value, tuple):
        return [json_value(v) for v in value]
    if isinstance(value, BattleResult):
        return value.to_json()
    return value


def parse_squares(names: list[str]) -> tuple[Square, ...]:
    """Squares written as names (``["c3", "d4"]``)."""
    return tuple([parse_square(name) for name in names])


#: ``extend_requested`` of ``extend X max`` (R-EXT-7): more extras than any
#: group can hold, so "as many as the group and the panels allow".
EXTEND_MAX = 99


# --------------------------------------------------------------- setup / order


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


# ---------------------------------------------------------- pattern and panels


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


# ------------------------------------------------------------------ skill walk


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


# ------------------------------------------------------------------- responses


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


# -------------------------------------------------------------------- movement


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


# ------------------------------------------------------------------- narrowing


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


# ------------------------------------------------------------------- KO and end


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


@dataclass(frozen=True, slots=True)
class FinalCharacter:
    """One character at the end: ``{"team", "hp", "square", "down"}`` (+ name)."""

    name: str
    team: str
    hp: int
    square: Square
    down: bool

    def __reduce__(self) -> tuple[type[FinalCharacter], tuple[str, str, int, Square, bool]]:
        # copy and pickle through the constructor (as Event.__reduce__)
        return (FinalCharacter, (self.name, self.team, self.hp, self.square, self.down))

    def to_json(self) -> dict[str, Any]:
        return {"team": self.team, "hp": self.hp, "square": square_name(self.square), "down": self.down}


@dataclass(frozen=True, slots=True)
class BattleResult:
    """``winner`` white/black/draw, ``reason``, ``turns`` (the turn in progress
    when it ended), ``final`` per character in roster order, and standing counts."""

    winner: str
    reason: str
    turns: int
    final: tuple[FinalCharacter, ...]
    rule: str

    def __reduce__(self) -> tuple[type[BattleResult], tuple[str, str, int, tuple[FinalCharacter, ...], str]]:
        # copy and pickle through the constructor (as Event.__reduce__)
        return (BattleResult, (self.winner, self.reason, self.turns, self.final, self.rule))

    def to_json(self) -> dict[str, Any]:
        return {
            "winner": self.winner,
            "reason": self.reason,
            "rule": self.rule,
            "turns": self.turns,
            "final": {c.name: c.to_json() for c in self.final},
        }

    @staticmethod
    def from_json(data: dict[str, Any]) -> BattleResult:
        final = tuple(
            FinalCharacter(name, v["team"], v["hp"], parse_square(v["square"]), v["down"])
            for name, v in data["final"].items()
        )
        return BattleResult(data["winner"], data["reason"], data["turns"], final, data["rule"])


class BattleEnd(Event):
    """The battle is over (R-GOAL-1/2, R-TURN-9)."""

    TYPE: ClassVar[str] = "battle_end"
    FIELDS: ClassVar[tuple[str, ...]] = ("turn", "result", "rule")
    DECODE: ClassVar[Decoders] = {"result": BattleResult.from_json}

    def __init__(self, *, turn: int, result: BattleResult, rule: str = "R-GOAL-1") -> None:
        super().__init__(turn=turn)
        self.result: Final = result
        self.rule: Final = rule


# --- d20pool (variant-d20.md) ---
# Emitted only by the d20pool mechanics (referee/engine/mechanics/d20pool.py).


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


# --- soulwired (variant-soulwired.md) ---


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



# --- wiz (variant-wiz.md) ---------------------------------------------------


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



# --- orm (variant-orm.md) ---------------------------------------------------
# Emitted only by the orm mechanics (referee/engine/mechanics/orm_*.py), R-ORM-EV-1.


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



# --- wiz: casts and area uses (variant-wiz.md R-WIZ-EV-1) -------------------


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


# --- soulwired (variant-soulwired.md): terrain, stances, moves, armour, objects ---


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




# --- wiz: the aim module (variant-wiz.md R-WIZ-AIM-1, R-WIZ-EV-1) ---


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


# --------------------------------------------------------------- serialisation

#: Every event class by its ``TYPE``.
EVENT_TYPES: dict[str, type[Event]] = {
    cls.TYPE: cls
    for cls in (
        BattleStart, Placed, InitiativeRoll, ActionOrder, TurnStart, ActionStart,
        PatternSelected, PanelsReset, SkillOrder, SkillPassed, TargetsChosen,
        SkillUsed, MaintainStarted, MaintainReleased, ChanceRoll, Obstructed,
        Reaction, CounterMissed, Damage, Heal, PanelUsed, StatusApplied,
        StatusNoEffect, StatusExpired, StatusCleansed, Knockback, SinkStarted,
        SinkEnded, Moved, Stayed, Narrowing, Pushed, Down, ActionEnd, BattleEnd,
        # d20pool
        TurnRoll, TurnSelected, D20Check, HitTest, Margin, Support, MoveEnd, Ridden, Revived,
        # soulwired
        InitiativeRanked, D6Check, Evasion, EvasionDice, TurnStalled, HardMode,
        Terrain, Stance, MovePhase, Armour, ObjectHit, ObjectDestroyed,
        # wiz
        InitiativeValue, D100Check, Cast, CastResolves, CastLost, AreaRoll, AreaGroups, AreaSelection,
        Aimed, AimLost,
        # orm
        InitiativeScore, InitiativeTie, PhaseStart, SimpleUse, Nd6Check, OpposedResult, DamageRoll, HealRoll,
        FollowUp,
    )
}


def event_from_json(data: Mapping[str, Any]) -> Event:
    """Rebuild an event from :meth:`Event.to_json` output.

    :raises KeyError: on an unknown ``type``; TypeError: on a missing field.
    """
    return EVENT_TYPES[data["type"]].from_json(data)





# ------------------------------------------------------------ decision events

#: The decision events (docs/events.md "a decision"): why the engine chose
#: what it did -- the walk's order and every entry passed over, the targets
#: chosen among the candidates, a stay, the pattern kept and the panels reset;
#: and the variants' own: d20pool's turn selection, support and end of a shift,
#: soulwired's end of a move, ORM's phase starts and simple uses.
#: Only ``--explain`` writes them and only a json report that keeps them
#: stores them, so a resolution that no report reads them from skips building
#: them (``Resolution.decisions``, issue 18).  A ``pattern_selected`` that
#: switched patterns is not one of them: the written report always says so.
DECISION_TYPES: frozenset[str] = frozenset({
    SkillOrder.TYPE, SkillPassed.TYPE, TargetsChosen.TYPE, Stayed.TYPE, PatternSelected.TYPE, PanelsReset.TYPE,
    TurnSelected.TYPE, Support.TYPE, MoveEnd.TYPE, PhaseStart.TYPE, SimpleUse.TYPE,
})


def is_decision(event: Event) -> bool:
    """Whether a lean resolution (``decisions=False``) leaves ``event`` out.

    >>> is_decision(PanelsReset(turn=1, actor="Goro", kept=()))
    True
    """
    if isinstance(event, PatternSelected):
        return not event.switched
    return event.TYPE in DECISION_TYPES
