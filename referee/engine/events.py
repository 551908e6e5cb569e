"""Typed battle events: the single record every report is rendered from.

Each event is a frozen dataclass with a snake_case ``TYPE``; the event list
of a battle is append-only (nothing is edited after the fact).  ``to_json``
gives the stable field names of interfaces.md: ``type``, ``turn``, and where
they apply ``actor``, ``skill`` (id), ``targets`` (names), squares as
``"c3"``, ``amount``, ``hp_after``, ``rule`` and ``cause``.  Every HP loss is
one :class:`Damage` naming one ``target``; every move or push is one event
with ``from`` and ``to``.  ``event_from_json`` inverts ``to_json`` exactly.

docs/events.md documents every type; a test checks that the two agree.
"""

from __future__ import annotations

import dataclasses
import typing
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, ClassVar, TypeVar

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
    "event_fields",
    "event_to_json",
    "EXTEND_MAX",
    "positional_maker",
    "field_default",
    "make_skill_used",
    "make_targets_chosen",
    "make_damage",
    "make_heal",
    "make_status_applied",
    "make_status_expired",
    "make_knockback",
    "make_obstructed",
    "make_sink_started",
    "make_sink_ended",
    "event_from_json",
]


@dataclass(frozen=True, slots=True, kw_only=True)
class Event:
    """Base of every event.  ``turn`` is the turn in progress (0 = setup)."""

    TYPE: ClassVar[str] = "event"
    turn: int

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """Give every event class (a later variant's too) the cheap constructor
        of :func:`_fast_init` once ``@dataclass(slots=True)`` has built it (issue 18)."""
        # no zero-argument super(): slots=True rebuilds Event, and the
        # __class__ cell would still name the class it replaced
        _fast_init(cls)

    def to_json(self) -> dict[str, Any]:
        """The event as JSON-ready data with the stable field names."""
        return event_to_json(self)


def _fast_init(cls: type) -> None:
    """Replace a frozen slotted event dataclass's ``__init__`` by one that
    stores each field as a plain slot store on the open twin of the class
    (:func:`_open_twin`), then gives the event its class back.

    Why (issue 18): a battle builds thousands of events, and the dataclass
    ``__init__`` of a frozen class goes through ``object.__setattr__`` looked
    up per field; storing through each slot descriptor's ``__set__`` halved
    that, but is still a method-wrapper call packing a tuple per field, where
    the twin's store is one specialised instruction (callgrind: a ``damage``
    by positional maker 9.8 k instructions through the descriptors, 3.5 k on
    the twin).  An instance of a subclass (none in the engine) is stored
    through the descriptors, since its layout may differ.  The
    signature (keyword-only, the same defaults) and immutability to callers
    (the dataclass's ``__setattr__`` still refuses) are unchanged; a test
    compares both constructors on every event class.  Applied only to the
    class ``@dataclass(slots=True)`` makes (the one holding ``__slots__`` and
    its own fields), and only to plain fields (no factories, no
    ``__post_init__``) -- any other class keeps the dataclass's constructor."""
    own = cls.__dict__
    if "__slots__" not in own or "__dataclass_fields__" not in own or hasattr(cls, "__post_init__"):
        return
    params = getattr(cls, "__dataclass_params__", None)
    if params is None or not params.init:
        return
    fields = [f for f in dataclasses.fields(cls) if f.init]
    if any(f.default_factory is not dataclasses.MISSING for f in fields):
        return
    if len(fields) != len(dataclasses.fields(cls)):
        return
    env: dict[str, Any] = {"_cls": cls, "_opened": _open_twin(cls), "_object_setattr": object.__setattr__}
    positional: list[str] = []
    keyword: list[str] = []
    stores: list[str] = []
    sets: list[str] = []
    for f in fields:
        env[f"_set_{f.name}"] = getattr(cls, f.name).__set__
        param = f.name
        if f.default is not dataclasses.MISSING:
            env[f"_default_{f.name}"] = f.default
            param += f"=_default_{f.name}"
        (keyword if f.kw_only else positional).append(param)
        stores.append(f"        self.{f.name} = {f.name}\n")
        sets.append(f"        _set_{f.name}(self, {f.name})\n")
    signature = ", ".join(["self", *positional, *(["*", *keyword] if keyword else [])])
    source = (f"def __init__({signature}):\n"
              "    if self.__class__ is _cls:\n        _object_setattr(self, '__class__', _opened)\n" + "".join(stores)
              + "        self.__class__ = _cls\n    else:\n" + "".join(sets or ["        pass\n"]))
    namespace: dict[str, Any] = {}
    exec(source, env, namespace)  # noqa: S102 - source built from the class's own field names
    init = namespace["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    init.__doc__ = own["__init__"].__doc__
    init.__fast__ = True
    setattr(cls, "__init__", init)


def _open_twin(cls: type) -> type:
    """A subclass of event class ``cls`` adding no slot (the same layout, so
    an object may change between the two by ``__class__`` assignment) whose
    ``__setattr__`` and ``__delattr__`` are ``object``'s and ``__init__`` is
    ``object``'s: on it a field is a plain slot store the interpreter
    specialises, where the frozen class refuses it.  Only :func:`_fast_init`
    and :func:`positional_maker` hold one, while they fill an event; no event
    keeps it (tests/engine/test_d20pool_events.py, test_events*.py).  Calling
    it (``opened()``) makes a bare object in C, cheaper than
    ``object.__new__(opened)``, which parses and slices its arguments."""
    return type(f"_Open{cls.__name__}", (cls,), {
        "__slots__": (), "__setattr__": object.__setattr__, "__delattr__": object.__delattr__,
        "__init__": object.__init__, "__module__": __name__})


def field_default(cls: type, name: str) -> Any:
    """The default of field ``name`` of event class ``cls``, for a call site
    that builds the event positionally (:func:`positional_maker`: every
    field named) and should not hold a second copy of the default -- most
    often its ``rule``."""
    default = cls.__dataclass_fields__[name].default  # type: ignore[attr-defined]
    if default is dataclasses.MISSING:
        raise ValueError(f"{cls.__name__}.{name} has no default")
    return default


_E = TypeVar("_E", bound=Event)


def positional_maker(cls: type[_E]) -> Callable[..., _E]:
    """A function taking every field of ``cls`` positionally, in
    ``dataclasses.fields`` order (no defaults: every call site names all of
    them), returning the event the class call would build.

    Why: the class call goes through ``type.__call__``, matches each keyword
    to its parameter and calls the keyword-only ``__init__`` of
    :func:`_fast_init` (a keyword ``damage`` 10.8 k instructions, by this
    maker 3.5 k); the events written most often (a use's, d20pool's own,
    issues 13 and 18) are built through these.  A maker makes the bare object
    as an instance of the open twin of ``cls`` (:func:`_open_twin`), stores
    each field as a plain slot store, then gives it its class (``__class__``
    assignment: the same slots, the same layout).  Same class, same field
    values, equal and immutable from then on
    (tests/engine/test_d20pool_events.py, test_use_event_makers.py)."""
    fields = dataclasses.fields(cls)
    names = [f.name for f in fields]
    env: dict[str, Any] = {"_cls": cls, "_opened": _open_twin(cls)}
    source = (f"def make({', '.join(names)}):\n    self = _opened()\n"
              + "".join(f"    self.{name} = {name}\n" for name in names)
              + "    self.__class__ = _cls\n    return self\n")
    namespace: dict[str, Any] = {}
    exec(source, env, namespace)  # noqa: S102 - source built from the class's own field names
    make: Callable[..., _E] = namespace["make"]
    make.__qualname__ = make.__name__ = f"make_{cls.TYPE}"
    return make


#: ``extend_requested`` of ``extend X max`` (R-EXT-7): more extras than any
#: group can hold, so "as many as the group and the panels allow".
EXTEND_MAX = 99


# --------------------------------------------------------------- setup / order


@dataclass(frozen=True, slots=True, kw_only=True)
class BattleStart(Event):
    """The battle begins: seed, ruleset and the rosters in roster order."""

    TYPE: ClassVar[str] = "battle_start"
    seed: int | str  # as given (a number or a word), like the report's top-level seed
    ruleset: str
    white: tuple[str, ...]
    black: tuple[str, ...]
    rule: str = "R-GOAL-1"


@dataclass(frozen=True, slots=True, kw_only=True)
class Placed(Event):
    """A character's starting square and HP: drawn (R-SETUP-1) or fixed (``setup``)."""

    TYPE: ClassVar[str] = "placed"
    actor: str
    team: str
    square: Square
    hp: int
    max_hp: int
    drawn: bool
    rule: str = "R-SETUP-1"


@dataclass(frozen=True, slots=True, kw_only=True)
class InitiativeRoll(Event):
    """A character's initiative dice (R-TURN-1): three d6, plus tie digits."""

    TYPE: ClassVar[str] = "initiative_roll"
    actor: str
    dice: tuple[int, ...]
    value: str
    rule: str = "R-TURN-1"


@dataclass(frozen=True, slots=True, kw_only=True)
class ActionOrder(Event):
    """The action order for the battle (or, per ruleset, for this turn)."""

    TYPE: ClassVar[str] = "action_order"
    order: tuple[str, ...]
    fixed: bool
    rule: str = "R-TURN-1"


@dataclass(frozen=True, slots=True, kw_only=True)
class TurnStart(Event):
    """A new turn: every living character acts once in order (R-TURN-1)."""

    TYPE: ClassVar[str] = "turn_start"
    rule: str = "R-TURN-1"


@dataclass(frozen=True, slots=True, kw_only=True)
class ActionStart(Event):
    """A character begins its action (R-TURN-2)."""

    TYPE: ClassVar[str] = "action_start"
    actor: str
    square: Square
    hp: int
    rule: str = "R-TURN-2"


@dataclass(frozen=True, slots=True, kw_only=True)
class ActionEnd(Event):
    """A character's action is over (after movement and status countdown)."""

    TYPE: ClassVar[str] = "action_end"
    actor: str
    rule: str = "R-TURN-2"


# ---------------------------------------------------------- pattern and panels


@dataclass(frozen=True, slots=True, kw_only=True)
class PatternSelected(Event):
    """R-PAT-3: the active pattern for this action and why.

    ``reason``: ``condition`` (its condition held), ``default`` (first
    unconditioned), ``first`` (none held, none active yet), ``kept`` (none held,
    the active one stays).  ``switched`` is True when it differs from the
    previous active pattern (every maintained skill is then released).
    """

    TYPE: ClassVar[str] = "pattern_selected"
    actor: str
    pattern: int
    elements: str
    reason: str
    switched: bool
    rule: str = "R-PAT-3"


@dataclass(frozen=True, slots=True, kw_only=True)
class PanelsReset(Event):
    """R-PAN-2: the active pattern's panels become unused, except ``kept``
    (indices assigned to maintained skills)."""

    TYPE: ClassVar[str] = "panels_reset"
    actor: str
    kept: tuple[int, ...]
    rule: str = "R-PAN-2"


# ------------------------------------------------------------------ skill walk


@dataclass(frozen=True, slots=True, kw_only=True)
class SkillOrder(Event):
    """R-PLAN-5: the skill list's order for this action (entry indices into the
    sheet's list and their skill ids), and the lines of the ``use X first``
    clauses that moved entries."""

    TYPE: ClassVar[str] = "skill_order"
    actor: str
    entries: tuple[int, ...]
    skills: tuple[str, ...]
    moved_by: tuple[int, ...]
    rule: str = "R-PLAN-5"


@dataclass(frozen=True, slots=True, kw_only=True)
class SkillPassed(Event):
    """A decision: an entry of the walk was passed over, and why.

    ``reason`` is one of: ``passive``, ``already_maintained``, ``bound``,
    ``frozen``, ``condition_false`` (``never use``/``use only``; ``line`` names
    the clause), ``cost_unpayable``, ``no_target``, ``heal_guard`` (R-PLAN-1
    left no candidate), ``held_back`` (a maintain entry's clause holds it back).
    """

    TYPE: ClassVar[str] = "skill_passed"
    actor: str
    skill: str
    entry: int
    reason: str
    line: int | None = None
    detail: str = ""
    rule: str = "R-PLAN-3"


@dataclass(frozen=True, slots=True, kw_only=True)
class TargetsChosen(Event):
    """A decision: the candidates considered (in preference order) and the
    targets taken, with how many extras were requested and taken (R-EXT-7).
    ``extend_requested`` is :data:`EXTEND_MAX` for ``extend X max``."""

    TYPE: ClassVar[str] = "targets_chosen"
    actor: str
    skill: str
    candidates: tuple[str, ...]
    targets: tuple[str, ...]
    preference: str
    extend_requested: int
    extended: int
    rule: str = "R-PLAN-4"


@dataclass(frozen=True, slots=True, kw_only=True)
class SkillUsed(Event):
    """An entry is used actively on ``targets`` (primary first), paying
    ``panels`` (active-pattern indices, base cost then extension, R-PAN-3)."""

    TYPE: ClassVar[str] = "skill_used"
    actor: str
    skill: str
    entry: int
    targets: tuple[str, ...]
    panels: tuple[int, ...]
    square: Square
    rule: str = "R-SK-1"


@dataclass(frozen=True, slots=True, kw_only=True)
class MaintainStarted(Event):
    """A maintain skill starts (actively, or by firing for passive ones, R-SK-2);
    its ``panels`` stay assigned."""

    TYPE: ClassVar[str] = "maintain_started"
    actor: str
    skill: str
    entry: int
    panels: tuple[int, ...]
    rule: str = "R-SK-2"


@dataclass(frozen=True, slots=True, kw_only=True)
class MaintainReleased(Event):
    """A maintained skill ends.  ``cause``: ``clause`` (``line`` given),
    ``bound``, ``pattern_switch``, ``down``."""

    TYPE: ClassVar[str] = "maintain_released"
    actor: str
    skill: str
    entry: int
    cause: str
    line: int | None = None
    rule: str = "R-TURN-4"


@dataclass(frozen=True, slots=True, kw_only=True)
class ChanceRoll(Event):
    """A draw that changed the outcome: ``effect`` (status, knockback, cleanse,
    ...) of ``skill`` by ``actor`` on ``target`` succeeded or not."""

    TYPE: ClassVar[str] = "chance_roll"
    actor: str
    skill: str
    target: str
    effect: str
    numerator: int
    denominator: int
    success: bool
    rule: str = "R-RNG-1"


# ------------------------------------------------------------------- responses


@dataclass(frozen=True, slots=True, kw_only=True)
class Obstructed(Event):
    """R-TURN-3 (1): ``actor``'s obstruct passive ``skill`` cancels ``by``'s use
    of ``against_skill`` against ``actor`` only."""

    TYPE: ClassVar[str] = "obstructed"
    actor: str
    skill: str
    by: str
    against_skill: str
    panels: tuple[int, ...]
    rule: str = "R-TURN-3"


@dataclass(frozen=True, slots=True, kw_only=True)
class Reaction(Event):
    """A passive/maintained defence or counter fires for ``actor`` against
    ``attacker``.  ``kind``: ``defence`` (``reduce`` given) or ``counter``;
    ``panels`` paid (empty when maintained or already paid this hit)."""

    TYPE: ClassVar[str] = "reaction"
    actor: str
    skill: str
    entry: int
    kind: str
    attacker: str
    panels: tuple[int, ...]
    reduce: int = 0
    maintained: bool = False
    rule: str = "R-SK-1a"


@dataclass(frozen=True, slots=True, kw_only=True)
class CounterMissed(Event):
    """A counter hit that did not land: ``reason`` ``out_of_range`` (R-RANGE-3,
    R-KNOCK-5) or ``attacker_down``."""

    TYPE: ClassVar[str] = "counter_missed"
    actor: str
    skill: str
    target: str
    reason: str
    rule: str = "R-RANGE-3"


@dataclass(frozen=True, slots=True, kw_only=True)
class Damage(Event):
    """One loss of HP.  ``cause``: ``skill`` (a hit of an active use),
    ``counter``, ``wall``, ``poison``, ``narrowing``.  ``actor``/``skill`` name
    the source when there is one; ``element`` is empty for typeless damage.
    ``printed`` is the damage before reductions, ``reduced`` the sum removed.
    """

    TYPE: ClassVar[str] = "damage"
    target: str
    amount: int
    hp_after: int
    cause: str
    actor: str | None = None
    skill: str | None = None
    element: str = ""
    printed: int = 0
    reduced: int = 0
    rule: str = "R-SK-3"


@dataclass(frozen=True, slots=True, kw_only=True)
class Heal(Event):
    """HP restored (never above max, R-CHAR-2)."""

    TYPE: ClassVar[str] = "heal"
    target: str
    amount: int
    hp_after: int
    actor: str
    skill: str
    cause: str = "skill"
    rule: str = "R-SK-2"


@dataclass(frozen=True, slots=True, kw_only=True)
class PanelUsed(Event):
    """An obstruct effect turns ``target``'s leftmost unused panel used
    (``panel`` None: it had none, R-TURN-3a)."""

    TYPE: ClassVar[str] = "panel_used"
    target: str
    panel: int | None
    actor: str
    skill: str
    rule: str = "R-TURN-3a"


@dataclass(frozen=True, slots=True, kw_only=True)
class StatusApplied(Event):
    """A status lands.  ``status``: bind, poison, freeze, change.  ``object``:
    character, skill (``index`` = entry), clause (``index`` = clause line),
    panel (``index`` = panel of ``pattern``)."""

    TYPE: ClassVar[str] = "status_applied"
    target: str
    status: str
    object: str
    index: int | None
    pattern: int | None
    duration: int | None
    actor: str
    skill: str
    rule: str = "R-ST-1"


@dataclass(frozen=True, slots=True, kw_only=True)
class StatusNoEffect(Event):
    """A status had nothing to land on (R-ST-2, R-ST-BIND): ``reason`` says why."""

    TYPE: ClassVar[str] = "status_no_effect"
    target: str
    status: str
    object: str
    reason: str
    actor: str
    skill: str
    rule: str = "R-ST-2"


@dataclass(frozen=True, slots=True, kw_only=True)
class StatusExpired(Event):
    """A status ran out at the end of its bearer's action (R-ST-1)."""

    TYPE: ClassVar[str] = "status_expired"
    target: str
    status: str
    object: str
    index: int | None
    pattern: int | None
    rule: str = "R-ST-1"


@dataclass(frozen=True, slots=True, kw_only=True)
class StatusCleansed(Event):
    """A status removed by Rest/Restore (R-ST-CLEANSE)."""

    TYPE: ClassVar[str] = "status_cleansed"
    target: str
    status: str
    object: str
    index: int | None
    pattern: int | None
    actor: str
    skill: str
    rule: str = "R-ST-CLEANSE"


@dataclass(frozen=True, slots=True, kw_only=True)
class Knockback(Event):
    """R-KNOCK-1..3: ``target`` pushed away from ``actor``.  ``wall`` True: the
    push was off the field, ``to`` == ``from`` and a wall Damage follows."""

    TYPE: ClassVar[str] = "knockback"
    target: str
    from_square: Square
    to_square: Square
    direction: str
    wall: bool
    actor: str
    skill: str
    rule: str = "R-KNOCK-1"


@dataclass(frozen=True, slots=True, kw_only=True)
class SinkStarted(Event):
    """R-ST-SINK: ``square`` is sunk by ``actor``'s ``skill``."""

    TYPE: ClassVar[str] = "sink_started"
    actor: str
    skill: str
    square: Square
    rule: str = "R-ST-SINK"


@dataclass(frozen=True, slots=True, kw_only=True)
class SinkEnded(Event):
    """A sinking ends: ``cause`` ``owner_action``, ``owner_down``, ``narrowing``."""

    TYPE: ClassVar[str] = "sink_ended"
    actor: str
    square: Square
    cause: str
    rule: str = "R-ST-SINK"


# -------------------------------------------------------------------- movement


@dataclass(frozen=True, slots=True, kw_only=True)
class Moved(Event):
    """A one-area move (R-MOVE-1).  ``mode``: ``auto`` (R-MOVE-3/6) or
    ``clause`` (R-MOVE-7/8, ``line`` given); ``toward`` describes the goal."""

    TYPE: ClassVar[str] = "moved"
    actor: str
    from_square: Square
    to_square: Square
    mode: str
    toward: str
    line: int | None = None
    rule: str = "R-MOVE-5"


@dataclass(frozen=True, slots=True, kw_only=True)
class Stayed(Event):
    """A decision: the character did not move, and why.  ``reason``: ``engaged``,
    ``sunk``, ``bound``, ``attacked``, ``in_reach``, ``hold`` (clause), ``arrived``,
    ``keep_away`` (staying was best), ``no_route``, ``no_enemy``."""

    TYPE: ClassVar[str] = "stayed"
    actor: str
    square: Square
    reason: str
    line: int | None = None
    rule: str = "R-MOVE-1"


# ------------------------------------------------------------------- narrowing


@dataclass(frozen=True, slots=True, kw_only=True)
class Narrowing(Event):
    """R-NARROW-1: stage ``stage`` (1-based) keeps ``kept`` (e.g. "b2-g7")."""

    TYPE: ClassVar[str] = "narrowing"
    stage: int
    kept: str
    rule: str = "R-NARROW-1"


@dataclass(frozen=True, slots=True, kw_only=True)
class Pushed(Event):
    """R-NARROW-2: ``target`` pushed from a removed area into the kept field."""

    TYPE: ClassVar[str] = "pushed"
    target: str
    from_square: Square
    to_square: Square
    rule: str = "R-NARROW-2"


# ------------------------------------------------------------------- KO and end


@dataclass(frozen=True, slots=True, kw_only=True)
class Down(Event):
    """R-CHAR-2: ``target`` is at 0 HP and leaves the field."""

    TYPE: ClassVar[str] = "down"
    target: str
    square: Square
    cause: str
    rule: str = "R-CHAR-2"


@dataclass(frozen=True, slots=True)
class FinalCharacter:
    """One character at the end: ``{"team", "hp", "square", "down"}`` (+ name)."""

    name: str
    team: str
    hp: int
    square: Square
    down: bool

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


@dataclass(frozen=True, slots=True, kw_only=True)
class BattleEnd(Event):
    """The battle is over (R-GOAL-1/2, R-TURN-9)."""

    TYPE: ClassVar[str] = "battle_end"
    result: BattleResult
    rule: str = "R-GOAL-1"


# --- d20pool (variant-d20.md) ---
# Emitted only by the d20pool mechanics (referee/engine/mechanics/d20pool.py).


@dataclass(frozen=True, slots=True, kw_only=True)
class TurnRoll(Event):
    """R-D20-ORDER-3: one 1D20 of a tie: ``key`` is its rolls this round."""

    TYPE: ClassVar[str] = "turn_roll"
    actor: str
    number: int
    roll: int
    key: tuple[int, ...]
    rule: str


@dataclass(frozen=True, slots=True, kw_only=True)
class TurnSelected(Event):
    """R-D20-ORDER-1/4: ``actor`` takes the next turn from ``square``
    (number ``number``); ``contenders``: those on that number, best first."""

    TYPE: ClassVar[str] = "turn_selected"
    actor: str
    square: Square
    number: int
    contenders: tuple[str, ...]
    rule: str


@dataclass(frozen=True, slots=True, kw_only=True)
class D20Check(Event):
    """R-D20-CHECK-1..4: one keep-highest check.  ``check``: ``attack``,
    ``defence``, ``push`` or ``grapple``; ``modifiers``: ``printed``,
    ``drop``, ``boost``, ``critical``."""

    TYPE: ClassVar[str] = "d20_check"
    actor: str
    check: str
    skill: str | None
    targets: tuple[str, ...]
    ability: str
    pool: int
    dropped: int
    dice: tuple[int, ...]
    highest: int
    modifiers: dict[str, int]
    achievement: int
    critical: bool
    fumble: bool
    rule: str


@dataclass(frozen=True, slots=True, kw_only=True)
class HitTest(Event):
    """R-D20-HIT-1: an attack (push, grapple) check against ``target``'s 感応力."""

    TYPE: ClassVar[str] = "hit_test"
    actor: str
    target: str
    achievement: int
    sensitivity: int
    hit: bool
    rule: str


@dataclass(frozen=True, slots=True, kw_only=True)
class Margin(Event):
    """R-D20-HIT-2: attack less defence, at least 0: the damage before reductions."""

    TYPE: ClassVar[str] = "margin"
    actor: str
    target: str
    attack: int
    defence: int
    margin: int
    rule: str


@dataclass(frozen=True, slots=True, kw_only=True)
class Support(Event):
    """R-D20-TURN-3: the support decided: ``kind`` ``shift``, ``recover`` or
    ``none``; ``first``: before the action; ``stuck``: ``grappled``,
    ``bound``, ``sunk`` when a step was wanted and could not be taken."""

    TYPE: ClassVar[str] = "support"
    actor: str
    kind: str
    first: bool
    line: int | None = None
    stuck: str | None = None
    rule: str


@dataclass(frozen=True, slots=True, kw_only=True)
class MoveEnd(Event):
    """R-D20-MOVE-1: a shift ended after ``steps``; ``reason``: why it stopped
    (a ``stayed`` reason, or ``no_points``)."""

    TYPE: ClassVar[str] = "move_end"
    actor: str
    phase: str
    steps: int
    points_left: int
    reason: str
    line: int | None = None
    rule: str


@dataclass(frozen=True, slots=True, kw_only=True)
class Ridden(Event):
    """R-D20-PUSH-1: a successful push; ``blocked``: it stayed (edge or a
    removed area), without damage."""

    TYPE: ClassVar[str] = "ridden"
    actor: str
    target: str
    from_square: Square
    to_square: Square
    direction: str
    blocked: bool
    rule: str


@dataclass(frozen=True, slots=True, kw_only=True)
class Revived(Event):
    """R-D20-KO-2 / R-D20-END-2: a KO ends; ``cause`` ``heal`` or ``victory``."""

    TYPE: ClassVar[str] = "revived"
    target: str
    square: Square
    hp: int
    cause: str
    rule: str


_D20POOL_EVENTS: tuple[type[Event], ...] = (
    TurnRoll, TurnSelected, D20Check, HitTest, Margin, Support, MoveEnd, Ridden, Revived,
)


# --------------------------------------------------------------- serialisation

EVENT_TYPES: dict[str, type[Event]] = {
    cls.TYPE: cls
    for cls in (
        BattleStart, Placed, InitiativeRoll, ActionOrder, TurnStart, ActionStart,
        PatternSelected, PanelsReset, SkillOrder, SkillPassed, TargetsChosen,
        SkillUsed, MaintainStarted, MaintainReleased, ChanceRoll, Obstructed,
        Reaction, CounterMissed, Damage, Heal, PanelUsed, StatusApplied,
        StatusNoEffect, StatusExpired, StatusCleansed, Knockback, SinkStarted,
        SinkEnded, Moved, Stayed, Narrowing, Pushed, Down, ActionEnd, BattleEnd,
    )
}
# --- d20pool (variant-d20.md) ---
EVENT_TYPES.update({cls.TYPE: cls for cls in _D20POOL_EVENTS})

#: Python field name -> stable JSON name where they differ.
_JSON_NAMES = {"from_square": "from", "to_square": "to"}
_PY_NAMES = {v: k for k, v in _JSON_NAMES.items()}

# Per class: (field name, json name, kind) with kind in plain/square/squares/result
_Codec = tuple[tuple[str, str, str], ...]
_CODECS: dict[type[Event], _Codec] = {}


def _kind(hint: Any) -> str:
    if hint is Square:
        return "square"
    if hint is BattleResult:
        return "result"
    args = typing.get_args(hint)
    if Square in args:
        return "squares" if typing.get_origin(hint) is tuple else "square?"
    if typing.get_origin(hint) is tuple:
        return "tuple"
    return "plain"


def _codec(cls: type[Event]) -> _Codec:
    codec = _CODECS.get(cls)
    if codec is None:
        hints = typing.get_type_hints(cls)
        codec = tuple(
            (f.name, _JSON_NAMES.get(f.name, f.name), _kind(hints[f.name]))
            for f in dataclasses.fields(cls)
        )
        _CODECS[cls] = codec
    return codec


def event_fields(cls: type[Event]) -> _Codec:
    """Per field of ``cls``, in declaration order: (Python name, JSON name,
    kind), kind one of ``plain``, ``tuple``, ``square``, ``square?``,
    ``squares``, ``result`` -- what a JSON writer must convert."""
    return _codec(cls)


def event_to_json(event: Event) -> dict[str, Any]:
    """``{"type": ..., "turn": ..., ...}`` with squares as names and tuples as lists."""
    out: dict[str, Any] = {"type": event.TYPE}
    for name, json_name, kind in _codec(type(event)):
        value = getattr(event, name)
        if kind == "square" or (kind == "square?" and value is not None):
            value = square_name(value)
        elif kind == "squares":
            value = [square_name(s) for s in value]
        elif kind == "tuple":
            value = list(value)
        elif kind == "result":
            value = value.to_json()
        out[json_name] = value
    return out


def event_from_json(data: dict[str, Any]) -> Event:
    """Rebuild an event from :func:`event_to_json` output.

    :raises KeyError: on an unknown ``type`` or a missing field.
    """
    cls = EVENT_TYPES[data["type"]]
    kwargs: dict[str, Any] = {}
    for name, json_name, kind in _codec(cls):
        if json_name not in data:
            continue  # a defaulted field
        value = data[json_name]
        if kind == "square" or (kind == "square?" and value is not None):
            value = parse_square(value)
        elif kind == "squares":
            value = tuple(parse_square(s) for s in value)
        elif kind == "tuple":
            value = tuple(value)
        elif kind == "result":
            value = BattleResult.from_json(value)
        kwargs[name] = value
    return cls(**kwargs)


# --- soulwired (variant-soulwired.md) ---


@dataclass(frozen=True, slots=True, kw_only=True)
class InitiativeRanked(Event):
    """A character's place in the ability order (R-SOUL-INIT-1): its ability
    score and its tie dice in draw order (empty when no one shares its score)."""

    TYPE: ClassVar[str] = "initiative_ranked"
    actor: str
    ability: str
    score: int
    tie_rolls: tuple[int, ...]
    rule: str  # given by the mechanic that emits it (the variant's rule ID)




@dataclass(frozen=True, slots=True, kw_only=True)
class D6Check(Event):
    """A pool of d6 against a difficulty face (R-SOUL-CHECK-1/2): a
    manoeuvre check or a use's attack check (R-SOUL-HIT-1)."""

    TYPE: ClassVar[str] = "d6_check"
    actor: str
    check: str
    skill: str | None
    targets: tuple[str, ...]
    ability: str
    dice: tuple[int, ...]
    difficulty: int
    steps: tuple[dict[str, object], ...]
    successes: int
    success: bool
    rule: str


@dataclass(frozen=True, slots=True, kw_only=True)
class Evasion(Event):
    """One target's evasion of a successful attack check (R-SOUL-HIT-3..5)."""

    TYPE: ClassVar[str] = "evasion"
    actor: str
    attacker: str
    skill: str
    melee: bool
    level: int
    difficulty: int
    dice_before: int
    committed: int
    reason: str
    line: int | None
    dice: tuple[int, ...]
    successes: int
    evaded: bool
    dice_left: int
    rule: str


@dataclass(frozen=True, slots=True, kw_only=True)
class EvasionDice(Event):
    """A character's evasion dice now (R-SOUL-HIT-2, R-SOUL-STANCE-2)."""

    TYPE: ClassVar[str] = "evasion_dice"
    actor: str
    dice: int
    cause: str
    rule: str


@dataclass(frozen=True, slots=True, kw_only=True)
class TurnStalled(Event):
    """A stalled turn (R-SOUL-HARD-1): the total so far, the level-1 run, and
    the level in force during the turn."""

    TYPE: ClassVar[str] = "turn_stalled"
    stalled: int
    run: int
    level: int
    rule: str


@dataclass(frozen=True, slots=True, kw_only=True)
class HardMode(Event):
    """The hard-mode level rose from this turn on (R-SOUL-HARD-2/3)."""

    TYPE: ClassVar[str] = "hard_mode"
    level: int
    melee_evasion_difficulty: int
    rule: str


for _cls in (InitiativeRanked, D6Check, Evasion, EvasionDice, TurnStalled, HardMode):
    EVENT_TYPES[_cls.TYPE] = _cls

# --- wiz (variant-wiz.md) ---------------------------------------------------


@dataclass(frozen=True, slots=True, kw_only=True)
class InitiativeValue(Event):
    """A character's IN (R-WIZ-IN-1), in turn 0, before any dice."""

    TYPE: ClassVar[str] = "initiative_value"
    actor: str
    value: int
    reflex: int
    move: int
    flexible_bonus: int
    fixed: bool
    rule: str = "R-WIZ-IN-1"


@dataclass(frozen=True, slots=True, kw_only=True)
class D100Check(Event):
    """One target's percentile hit roll (R-WIZ-HIT-1/2): the die, the chance
    and its parts.  ``facing`` is None for a missile (R-WIZ-MIS-1)."""

    TYPE: ClassVar[str] = "d100_check"
    actor: str
    target: str
    skill: str
    die: int
    chance: int
    base: int
    reflex_mod: int
    facing: str | None
    facing_bonus: int
    missile_penalty: int
    aimed: bool
    hit: bool
    rule: str = "R-WIZ-HIT-1"


EVENT_TYPES.update({cls.TYPE: cls for cls in (InitiativeValue, D100Check)})

# --- orm (variant-orm.md) ---------------------------------------------------
# Emitted only by the orm mechanics (referee/engine/mechanics/orm_*.py), R-ORM-EV-1.


@dataclass(frozen=True, slots=True, kw_only=True)
class InitiativeScore(Event):
    """R-ORM-INIT-1: 先制値 = 行動値 (``base``) + ``die``."""

    TYPE: ClassVar[str] = "initiative_score"
    actor: str
    base: int
    die: int
    value: int
    rule: str = "R-ORM-INIT-1"


@dataclass(frozen=True, slots=True, kw_only=True)
class InitiativeTie(Event):
    """R-ORM-INIT-2: one 先制値 shared: ``tied`` in roster order, ``order`` as
    settled, ``draws`` the choices drawn (empty when pcs or reflex settled it)."""

    TYPE: ClassVar[str] = "initiative_tie"
    value: int
    tied: tuple[str, ...]
    order: tuple[str, ...]
    draws: tuple[int, ...]
    rule: str = "R-ORM-INIT-2"


@dataclass(frozen=True, slots=True, kw_only=True)
class PhaseStart(Event):
    """R-ORM-ACT-1: the ``simple`` or ``main`` phase opens with ``uses``."""

    TYPE: ClassVar[str] = "phase_start"
    actor: str
    phase: str
    uses: int
    rule: str = "R-ORM-ACT-1"


@dataclass(frozen=True, slots=True, kw_only=True)
class SimpleUse(Event):
    """R-ORM-ACT-2/3: simple use ``n``: a ``switch``, ``maintain`` or ``move``."""

    TYPE: ClassVar[str] = "simple_use"
    actor: str
    n: int
    kind: str
    skill: str | None
    from_square: Square
    to_square: Square
    steps: int
    rule: str = "R-ORM-ACT-2"


@dataclass(frozen=True, slots=True, kw_only=True)
class Nd6Check(Event):
    """R-ORM-CHK-1: one check, every face in order."""

    TYPE: ClassVar[str] = "nd6_check"
    actor: str
    role: str
    skill: str
    against: str | None
    ability: str
    ability_value: int
    dice: tuple[int, ...]
    support: int
    supporter: str | None
    critical: bool
    fumble: bool
    value: int
    rule: str = "R-ORM-CHK-1"


@dataclass(frozen=True, slots=True, kw_only=True)
class OpposedResult(Event):
    """R-ORM-CHK-3: the action value against one reaction; ``reason``
    ``higher``, ``lower``, ``tie``, ``action_fumble`` or ``reaction_fumble``."""

    TYPE: ClassVar[str] = "opposed_result"
    actor: str
    target: str
    skill: str
    action_value: int
    reaction_value: int | None
    hit: bool
    reason: str
    rule: str = "R-ORM-CHK-3"


@dataclass(frozen=True, slots=True, kw_only=True)
class DamageRoll(Event):
    """R-ORM-DMG-1: power + dice + critical bonus - element defence."""

    TYPE: ClassVar[str] = "damage_roll"
    actor: str
    target: str
    skill: str
    cause: str
    element: str
    power: int
    dice: tuple[int, ...]
    critical_bonus: int
    defence: int
    total: int
    rule: str = "R-ORM-DMG-1"


@dataclass(frozen=True, slots=True, kw_only=True)
class HealRoll(Event):
    """R-ORM-DMG-2: heal + dice, before the cap."""

    TYPE: ClassVar[str] = "heal_roll"
    actor: str
    target: str
    skill: str
    base: int
    dice: tuple[int, ...]
    total: int
    rule: str = "R-ORM-DMG-2"


@dataclass(frozen=True, slots=True, kw_only=True)
class FollowUp(Event):
    """R-ORM-SUP-2: ``actor`` follows ``supporting``'s use with a normal attack on ``target``."""

    TYPE: ClassVar[str] = "follow_up"
    actor: str
    supporting: str
    target: str
    rule: str = "R-ORM-SUP-2"


EVENT_TYPES.update({cls.TYPE: cls for cls in (InitiativeScore, InitiativeTie, PhaseStart, SimpleUse, Nd6Check,
                                              OpposedResult, DamageRoll, HealRoll, FollowUp)})

# --- wiz: casts and area uses (variant-wiz.md R-WIZ-EV-1) -------------------


@dataclass(frozen=True, slots=True, kw_only=True)
class Cast(Event):
    """A spell cast with a delay (R-WIZ-CAST-1): its cost is paid now and it
    resolves at value ``resolves_at``; in place of ``targets_chosen`` and
    ``skill_used`` at the caster's slot.  ``extend``: the area payments N."""

    TYPE: ClassVar[str] = "cast"
    actor: str
    skill: str
    entry: int
    panels: tuple[int, ...]
    square: Square
    value: int
    resolves_at: int
    extend: int
    rule: str = "R-WIZ-CAST-1"


@dataclass(frozen=True, slots=True, kw_only=True)
class CastResolves(Event):
    """A cast goes off at its value (R-WIZ-CAST-2/3), from the caster's square."""

    TYPE: ClassVar[str] = "cast_resolves"
    actor: str
    skill: str
    entry: int
    value: int
    square: Square
    rule: str = "R-WIZ-CAST-3"


@dataclass(frozen=True, slots=True, kw_only=True)
class CastLost(Event):
    """A cast that does nothing (R-WIZ-CAST-3): ``caster_down`` or ``no_candidate``."""

    TYPE: ClassVar[str] = "cast_lost"
    actor: str
    skill: str
    reason: str
    rule: str = "R-WIZ-CAST-3"


@dataclass(frozen=True, slots=True, kw_only=True)
class AreaRoll(Event):
    """An area use's AdB (R-WIZ-AREA-2): every face, the total R and the cap A·B."""

    TYPE: ClassVar[str] = "area_roll"
    actor: str
    skill: str
    area: str
    dice: tuple[int, ...]
    total: int
    cap: int
    rule: str = "R-WIZ-AREA-2"


@dataclass(frozen=True, slots=True, kw_only=True)
class AreaGroups(Event):
    """The candidates in groups (R-WIZ-AREA-3/4): each ``{label, members}``,
    each member ``{name, number, square, distance, role}``."""

    TYPE: ClassVar[str] = "area_groups"
    actor: str
    skill: str
    groups: tuple[dict[str, Any], ...]
    rule: str = "R-WIZ-AREA-3"


@dataclass(frozen=True, slots=True, kw_only=True)
class AreaSelection(Event):
    """The selection taken (R-WIZ-AREA-5..7) with the seed's running tally:
    steps ``{kind, group, amount, excluded, max, total}``; ``partial`` is
    ``{label, from, to}`` or None; ``targets`` in taking order."""

    TYPE: ClassVar[str] = "area_selection"
    actor: str
    skill: str
    whole: tuple[str, ...]
    partial: dict[str, Any] | None
    excluded: tuple[str, ...]
    change: int
    amplify: int
    penalty: int
    count: int
    slots: int
    levels: int
    targets: tuple[str, ...]
    tally: tuple[dict[str, Any], ...]
    fizzled: bool
    rule: str = "R-WIZ-AREA-7"


EVENT_TYPES.update({cls.TYPE: cls for cls in (Cast, CastResolves, CastLost, AreaRoll, AreaGroups, AreaSelection)})
# --- soulwired, issue 12 (variant-soulwired.md): terrain, stances, moves, armour, objects ---


@dataclass(frozen=True, slots=True, kw_only=True)
class Terrain(Event):
    """The battle's terrain, after ``battle_start`` (R-SOUL-TERR-1):
    blocked and barrier areas, and each object as ``{square, strength,
    armour}`` (the square written as a name)."""

    TYPE: ClassVar[str] = "terrain"
    blocked: tuple[Square, ...]
    barriers: tuple[Square, ...]
    objects: tuple[dict[str, object], ...]
    rule: str = "R-SOUL-TERR-1"


@dataclass(frozen=True, slots=True, kw_only=True)
class Stance(Event):
    """The action's stance (R-SOUL-STANCE-1..3): ``focus``, ``maneuver`` or
    ``none``, from a plan clause (``line``) or the default."""

    TYPE: ClassVar[str] = "stance"
    actor: str
    stance: str
    reason: str
    line: int | None = None
    rule: str = "R-SOUL-STANCE-3"


@dataclass(frozen=True, slots=True, kw_only=True)
class MovePhase(Event):
    """A move starts (R-SOUL-ACT-1 steps 3 and 6) with ``points`` to spend."""

    TYPE: ClassVar[str] = "move_phase"
    actor: str
    phase: str
    points: int
    rule: str = "R-SOUL-MOVE-1"


@dataclass(frozen=True, slots=True, kw_only=True)
class Armour(Event):
    """Armour took ``armour`` off a physical hit (R-SOUL-DMG-1); the
    ``damage`` event's ``reduced`` includes it."""

    TYPE: ClassVar[str] = "armour"
    target: str
    armour: int
    skill: str
    rule: str = "R-SOUL-DMG-1"


@dataclass(frozen=True, slots=True, kw_only=True)
class ObjectHit(Event):
    """A successful attack check on an object (R-SOUL-TERR-2)."""

    TYPE: ClassVar[str] = "object_hit"
    actor: str
    skill: str
    square: Square
    printed: int
    armour: int
    amount: int
    strength_after: int
    rule: str = "R-SOUL-TERR-2"


@dataclass(frozen=True, slots=True, kw_only=True)
class ObjectDestroyed(Event):
    """An object at strength 0 is removed and its area freed (R-SOUL-TERR-2)."""

    TYPE: ClassVar[str] = "object_destroyed"
    square: Square
    actor: str
    skill: str
    rule: str = "R-SOUL-TERR-2"


EVENT_TYPES.update({cls.TYPE: cls for cls in (Terrain, Stance, MovePhase, Armour, ObjectHit, ObjectDestroyed)})


# --- wiz: the aim module (variant-wiz.md R-WIZ-AIM-1, R-WIZ-EV-1) ---


@dataclass(frozen=True, slots=True, kw_only=True)
class Aimed(Event):
    """``actor`` spent its walk and movement taking aim at ``target``
    (R-WIZ-AIM-1): its missile uses on ``target`` take no penalty.  ``line``
    is the ``take aim at`` clause's."""

    TYPE: ClassVar[str] = "aimed"
    actor: str
    target: str
    line: int
    rule: str = "R-WIZ-AIM-1"


@dataclass(frozen=True, slots=True, kw_only=True)
class AimLost(Event):
    """``actor``'s aim on ``target`` ended (R-WIZ-AIM-1): ``reason`` is
    ``moved``, ``pushed``, ``other_target`` (a missile use on anyone else) or
    ``new_aim`` (it took aim at someone else)."""

    TYPE: ClassVar[str] = "aim_lost"
    actor: str
    target: str
    reason: str
    rule: str = "R-WIZ-AIM-1"


EVENT_TYPES.update({cls.TYPE: cls for cls in (Aimed, AimLost)})


# ------------------------------------------------------- the events of a use

# Positional makers (:func:`positional_maker`) of the events every use writes:
# a use's ``skill_used`` and ``targets_chosen``, a hit's ``damage``, a heal.
# Why (issue 18): a keyword class call matches each keyword to its parameter
# and goes through ``type.__call__`` -- about 5 k instructions of a 14 k
# ``Damage`` (callgrind) -- and a crowd makes twice the uses per
# character-turn that 4v4 does, so these are the events whose number grows
# with the army.  The same class and fields, equal and immutable.
make_skill_used: Callable[[int, str, str, int, tuple[str, ...], tuple[int, ...], Square, str], SkillUsed] = \
    positional_maker(SkillUsed)
make_targets_chosen: Callable[[int, str, str, tuple[str, ...], tuple[str, ...], str, int, int, str],
                              TargetsChosen] = positional_maker(TargetsChosen)
make_damage: Callable[[int, str, int, int, str, str | None, str | None, str, int, int, str], Damage] = \
    positional_maker(Damage)
make_heal: Callable[[int, str, int, int, str, str, str, str], Heal] = positional_maker(Heal)
# A use's effects (a status landing, one running out, a knockback): per
# character-turn 0.10 of them at 4v4, 0.18 at 32v32 (the sample's battles) --
# they follow the uses, so they too are built positionally.  The events
# whose number does not grow with the army keep the class call.
make_status_applied: Callable[[int, str, str, str, int | None, int | None, int | None, str, str, str],
                              StatusApplied] = positional_maker(StatusApplied)
make_status_expired: Callable[[int, str, str, str, int | None, int | None, str], StatusExpired] = \
    positional_maker(StatusExpired)
make_knockback: Callable[[int, str, Square, Square, str, bool, str, str, str], Knockback] = \
    positional_maker(Knockback)
# An obstruct's cancel and sinking, and a sinking's end at its owner's next
# action: 0.004 a character-turn each at 4v4, 0.018 at 32v32 (more obstructs
# answer more uses in a crowd).
make_obstructed: Callable[[int, str, str, str, str, tuple[int, ...], str], Obstructed] = \
    positional_maker(Obstructed)
make_sink_started: Callable[[int, str, str, Square, str], SinkStarted] = positional_maker(SinkStarted)
make_sink_ended: Callable[[int, str, Square, str, str], SinkEnded] = positional_maker(SinkEnded)


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
