"""Events: every type is a plain value -- built by keyword, equal and hashed
by its fields, unchangeable, copied and pickled (batch workers send reports
across processes), read back from its JSON -- and docs/events.md documents
every type and field."""

from __future__ import annotations

import ast
import copy
import inspect
import json
import pickle
import re
import sys
import typing
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.board import Square, parse_square
from referee.engine import events as E
from referee.engine.events import JSON_NAMES

DOC = Path(__file__).resolve().parents[2] / "docs" / "events.md"


def doc_entries(text: str) -> dict[str, str]:
    """docs/events.md's entries: ``- **`type`** ...`` up to the next entry or
    heading, by type (``**`a`** / **`b`**`` documents both)."""
    entries: dict[str, str] = {}
    for block in re.split(r"\n(?=- \*\*|#)", text):
        names = re.findall(r"\*\*`([a-z0-9_]+)`\*\*", block.split("\n")[0])
        for name in names:
            entries[name] = block
    return entries


def test_every_event_type_and_field_is_documented() -> None:
    """Each type has an entry naming every field it writes (``type``,
    ``turn`` and ``rule`` are the common fields), so the page cannot fall
    behind the classes."""
    entries = doc_entries(DOC.read_text(encoding="utf-8"))
    missing = {}
    for name, cls in E.EVENT_TYPES.items():
        entry = entries.get(name, "")
        fields = [JSON_NAMES.get(f, f) for f in cls.FIELDS if f not in ("turn", "rule")]
        absent = [f for f in fields if f"`{f}`" not in entry]
        if not entry or absent:
            missing[name] = absent or ["(no entry)"]
    assert missing == {}


def test_the_doc_check_sees_a_missing_field() -> None:
    entries = doc_entries("## X\n\n- **`down`** `target`, `square`.\n- **`pushed`** `target`.\n")
    assert "`cause`" not in entries["down"] and "pushed" in entries


def test_event_types_are_snake_case_and_unique() -> None:
    for name, cls in E.EVENT_TYPES.items():
        assert name == cls.TYPE and name.islower() and " " not in name


@pytest.mark.parametrize("cls", E.EVENT_TYPES.values(), ids=list(E.EVENT_TYPES))
def test_fields_are_the_keyword_only_arguments_in_order(cls: type[E.Event]) -> None:
    """``FIELDS`` (what equality, the codec and pickling read) lists exactly
    the constructor's arguments, ``turn`` first, every one keyword-only."""
    params = list(inspect.signature(cls).parameters.values())
    assert tuple(p.name for p in params) == cls.FIELDS
    assert cls.FIELDS[0] == "turn"
    assert all(p.kind is inspect.Parameter.KEYWORD_ONLY for p in params)


def test_an_event_is_built_by_keyword_with_its_defaults() -> None:
    event = E.ActionEnd(turn=1, actor="a")
    assert (event.turn, event.actor, event.rule) == (1, "a", "R-TURN-2")
    assert event == E.ActionEnd(turn=1, actor="a") and hash(event) == hash(E.ActionEnd(turn=1, actor="a"))
    assert event != E.ActionEnd(turn=2, actor="a")
    assert event != E.TurnStart(turn=1) and E.TurnStart(turn=1) != E.Narrowing(turn=1, stage=1, kept="a1-h8")
    assert repr(event) == "ActionEnd(turn=1, actor='a', rule='R-TURN-2')"
    with pytest.raises(TypeError):
        E.ActionEnd(1, "a")  # type: ignore[misc]
    with pytest.raises(TypeError):
        E.ActionEnd(turn=1)  # type: ignore[call-arg]


def test_knockback_round_trip_uses_from_and_to() -> None:
    ev = E.Knockback(turn=3, target="A", from_square=parse_square("c3"),
                     to_square=parse_square("d4"), direction="NE", wall=False,
                     actor="B", skill="pressurize")
    data = ev.to_json()
    assert list(data) == ["type", "turn", "target", "from", "to", "direction", "wall", "actor", "skill", "rule"]
    assert data["type"] == "knockback" and data["from"] == "c3" and data["to"] == "d4"
    assert E.event_from_json(data) == ev


def test_battle_end_round_trip() -> None:
    final = (E.FinalCharacter("A", "white", 3, parse_square("a1"), False),)
    ev = E.BattleEnd(turn=4, result=E.BattleResult("white", "army_reduced", 4, final, "R-GOAL-1"))
    data = ev.to_json()
    assert data["result"]["final"] == {"A": {"team": "white", "hp": 3, "square": "a1", "down": False}}
    assert E.event_from_json(data) == ev


def test_a_field_left_out_of_the_json_takes_its_default() -> None:
    data = E.Damage(turn=1, target="x", amount=2, hp_after=3, cause="wall").to_json()
    del data["rule"], data["printed"]
    assert E.event_from_json(data) == E.Damage(turn=1, target="x", amount=2, hp_after=3, cause="wall")
    del data["amount"]
    with pytest.raises(TypeError):
        E.event_from_json(data)
    with pytest.raises(KeyError):
        E.event_from_json({"type": "no_such_event", "turn": 1})


def _compiled() -> bool:
    """Whether the events run compiled (mypyc): their methods are then not
    Python functions."""
    return not inspect.isfunction(E.Event.__init__)


@pytest.mark.skipif(not _compiled(), reason="interpreted, ``Final`` is checked by mypy --strict, not at run time")
def test_a_compiled_event_cannot_be_changed() -> None:
    ev = E.Damage(turn=1, target="x", amount=2, hp_after=3, cause="wall")
    with pytest.raises(AttributeError):
        ev.amount = 5  # type: ignore[misc]
    with pytest.raises(AttributeError):
        ev.extra = 5  # type: ignore[attr-defined]
    assert ev.amount == 2


# ------------------------------------------------------- every type, any value


def field_types(cls: type[E.Event]) -> dict[str, Any]:
    """Each field's annotated type, from the constructor's annotations; a
    compiled class keeps none, so then from its module's source."""
    hints = typing.get_type_hints(cls.__init__)
    if hints:
        return {name: hints[name] for name in cls.FIELDS}
    module = sys.modules[cls.__module__]
    source = Path(module.__file__ or "").parent / f"{cls.__module__.rpartition('.')[2]}.py"
    tree = ast.parse(source.read_text(encoding="utf-8"))
    init = next(node for c in tree.body if isinstance(c, ast.ClassDef) and c.name == cls.__name__
                for node in c.body if isinstance(node, ast.FunctionDef) and node.name == "__init__")
    return {arg.arg: eval(ast.unparse(arg.annotation), vars(module))  # noqa: S307 - the project's own source
            for arg in init.args.kwonlyargs if arg.annotation is not None}


NAMES = st.text(max_size=8)
SQUARES = st.builds(Square, st.integers(0, 25), st.integers(0, 30))
JSON_SCALARS = st.one_of(st.none(), st.booleans(), st.integers(), NAMES)
FINAL = st.lists(st.builds(E.FinalCharacter, NAMES, NAMES, st.integers(0, 99), SQUARES, st.booleans()),
                 max_size=4, unique_by=lambda c: c.name).map(tuple)
RESULTS = st.builds(E.BattleResult, NAMES, NAMES, st.integers(0, 99), FINAL, NAMES)


def values_of(hint: Any) -> st.SearchStrategy[Any]:
    """Values of an event field's type that JSON can hold."""
    simple: dict[Any, st.SearchStrategy[Any]] = {
        int: st.integers(), str: st.text(), bool: st.booleans(), type(None): st.none(), Square: SQUARES,
        E.BattleResult: RESULTS, object: JSON_SCALARS, Any: JSON_SCALARS,
    }
    if hint in simple:
        return simple[hint]
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin is tuple:
        return st.lists(values_of(args[0]), max_size=4).map(tuple)
    if origin is dict:
        return st.dictionaries(NAMES, values_of(args[1]), max_size=3)
    return st.one_of(*(values_of(arg) for arg in args))  # a union


def events_of(cls: type[E.Event]) -> st.SearchStrategy[E.Event]:
    types = field_types(cls)
    return st.fixed_dictionaries({name: values_of(types[name]) for name in cls.FIELDS}).map(lambda kw: cls(**kw))


EVENTS = st.sampled_from(list(E.EVENT_TYPES.values())).flatmap(events_of)


@settings(max_examples=300)
@given(EVENTS)
def test_every_event_round_trips_through_json_pickle_and_copy(event: E.Event) -> None:
    data = event.to_json()
    assert list(data) == ["type", *(JSON_NAMES.get(f, f) for f in event.FIELDS)]
    assert data["type"] == event.TYPE
    text = json.dumps(data, ensure_ascii=False)
    assert E.event_from_json(json.loads(text)) == event
    assert json.dumps(E.event_from_json(json.loads(text)).to_json(), ensure_ascii=False) == text
    again = pickle.loads(pickle.dumps(event))
    assert type(again) is type(event) and again == event
    assert copy.copy(event) == event and copy.deepcopy(event) == event
    assert repr(event).startswith(f"{type(event).__name__}(turn={event.turn!r}")


@given(EVENTS)
def test_equal_events_hash_alike_and_a_changed_field_is_unequal(event: E.Event) -> None:
    twin = pickle.loads(pickle.dumps(event))
    try:
        assert hash(twin) == hash(event)
    except TypeError:
        pass  # a field holding a dict (d20_check's modifiers): such an event does not hash
    later = type(event)(**{**{f: getattr(event, f) for f in event.FIELDS}, "turn": event.turn + 1})
    assert later != event and not later == event
