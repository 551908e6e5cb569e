"""The base of every battle event and its JSON codec (docs/events.md).

An event is a plain class with a snake_case ``TYPE``: its fields are the
keyword-only arguments of its ``__init__``, stored once as ``Final``
attributes and listed in order in ``FIELDS`` (the event list of a battle is
append-only: nothing is edited after the fact).  Equality, hashing,
``repr``, pickling and the JSON codec come from :class:`Event`, reading
``FIELDS``.  Plain classes rather than dataclasses: mypyc compiles an
explicit ``__init__`` into a native constructor and enforces ``Final`` at
run time, where a dataclass's generated constructor stays interpreted.

Also here: the battle's result, which ``battle_end`` carries.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Final

from referee.board import Square, parse_square, square_name

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
