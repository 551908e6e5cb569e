"""The battle record: normalised inputs + events + result, and its JSON form.

Style lesson 8, "the input record *is* the replay": a :class:`Report` holds
the referee version, the ruleset's name and digest, the seed, the normalised
inputs (sheets, plans as their text, setup, order, and the few ruleset facts a
reader needs: house rules and skill names) and the engine's event list.  The
JSON rendering of a report is enough to resolve the battle again exactly:
:func:`referee.app.inputs.setup_from_inputs` rebuilds the engine's
``BattleSetup`` from the inputs alone, and ``referee resolve`` itself goes
through it, so a resolve and a replay cannot differ in what they feed the
engine.

Renderers read only a :class:`Report` (events + inputs), never the engine,
the ruleset object or the files.
"""

from __future__ import annotations

import hashlib
import json
import operator
import typing
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Mapping

from referee.board import MAX_SIDE, Square, square_name
from referee.engine.events import Event, event_fields

__all__ = [
    "Report",
    "report_to_json",
    "report_from_json",
    "inputs_digest",
    "dumps_report",
]

#: Version of the JSON report layout (bumped when a field changes meaning).
REPORT_FORMAT = 1


@dataclass(frozen=True)
class Report:
    """One resolved battle, everything a renderer may read.

    :param referee: the referee version that resolved it.
    :param ruleset: ``{"name", "digest"}``.
    :param seed: the seed used (from the file, the command line, or drawn).
    :param seed_source: ``file``, ``option`` or ``drawn`` (os.urandom).
    :param inputs: the normalised inputs (see :func:`referee.app.inputs.battle_inputs`).
    :param events: the engine's events (``referee.engine.events``).
    :param result: the engine's ``BattleResult``.
    :param commitment: ``{"commitment", "scheme"}`` when the seed came from a
        round's committed secret (``referee.app.seeds``), else ``None``.
    """

    referee: str
    ruleset: Mapping[str, str]
    seed: int | str
    seed_source: str
    inputs: Mapping[str, Any]
    events: tuple[Any, ...]
    result: Any
    commitment: Mapping[str, str] | None = None
    #: Whether ``events`` holds the decision events (``events.DECISION_TYPES``);
    #: a lean report (``False``, a round's default json) says so in its json
    #: as ``"decisions": false`` so ``replay`` resolves it the same way.
    decisions: bool = True

    @property
    def title(self) -> str:
        return str(self.inputs.get("title", ""))

    def characters(self) -> list[Mapping[str, Any]]:
        """Normalised characters in roster order (White, then Black)."""
        return list(self.inputs["characters"])


# ----------------------------------------------------------------------- JSON


def report_to_json(report: Report, *, with_events: bool = True) -> dict[str, Any]:
    """The JSON report of interfaces.md, keys in a fixed order.

    :param with_events: ``False`` leaves ``events`` as ``None`` (its place
        kept) for :func:`dumps_report`, which writes them itself."""
    return {
        "referee": report.referee,
        "format": REPORT_FORMAT,
        "ruleset": {"name": report.ruleset["name"], "digest": report.ruleset["digest"]},
        "seed": report.seed,
        "seed_source": report.seed_source,
        # Only rounds with a seed commitment carry the key (older reports unchanged).
        **({"seed_commitment": dict(report.commitment)} if report.commitment else {}),
        # Only lean reports carry the key (every complete report is unchanged).
        **({"decisions": False} if not report.decisions else {}),
        "inputs": report.inputs,
        "inputs_digest": inputs_digest(report.inputs),
        "events": [e.to_json() for e in report.events] if with_events else None,
        "result": report.result.to_json(),
    }


def inputs_digest(inputs: Mapping[str, Any]) -> dict[str, str]:
    """A short sha256 of each embedded input, key by key, so ``replay`` can
    name an input edited by hand (``inputs.title``) -- the title and file
    names change no event, so re-resolving cannot see them (issue 17, point 13).

    The files the battle read (``inputs.sources``) are listed each under
    ``source:PATH`` with its full sha256 -- the digest the round's receipt
    gave the player (``docs/intake.md``) -- so a report proves which version
    of a player's file it used.

    >>> inputs_digest({"title": "Round 3"})
    {'title': 'b260e314b2717b4a'}
    >>> inputs_digest({"sources": {"a.yaml": "ab" * 32}})["source:a.yaml"] == "ab" * 32
    True
    """
    out = {}
    for key, value in inputs.items():
        if key == "sources" and isinstance(value, Mapping):
            out.update({f"source:{path}": str(sha) for path, sha in value.items()})
            continue
        text = _digest_dump(value)
        out[str(key)] = hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:16]
    return out


def _make_digest_dump() -> Callable[[Any], str]:
    """``json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":"))``
    with its C encoder built once: ``json.dumps`` builds an encoder object
    and a C encoder per call, and a report digests each input (issue 18)."""
    c_make_encoder = getattr(json.encoder, "c_make_encoder", None)
    encoder = json.JSONEncoder(ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    if c_make_encoder is None:  # pragma: no cover - pure-Python json
        return encoder.encode
    c_encode = c_make_encoder(None, encoder.default, json.encoder.encode_basestring, None, ":", ",",
                              True, False, True)

    def dump(value: Any) -> str:
        return "".join(c_encode(value, 0))

    return dump


def report_from_json(data: Mapping[str, Any]) -> Report:
    """Rebuild a :class:`Report` from :func:`report_to_json` output.

    :raises KeyError, TypeError, ValueError: on a malformed document (the
        caller turns these into a diagnostic).
    """
    from referee.engine.events import BattleResult, event_from_json

    return Report(
        referee=str(data["referee"]),
        ruleset={"name": str(data["ruleset"]["name"]), "digest": str(data["ruleset"]["digest"])},
        seed=data["seed"],
        seed_source=str(data.get("seed_source", "file")),
        inputs=data["inputs"],
        events=tuple(event_from_json(e) for e in data["events"]),
        result=BattleResult.from_json(data["result"]),
        commitment=data.get("seed_commitment"),
        decisions=_decisions_flag(data.get("decisions", True)),
    )


def _decisions_flag(value: Any) -> bool:
    """The report's ``decisions`` key: absent (true) or a JSON boolean.

    :raises TypeError: on anything else (a hand-edited report)."""
    if not isinstance(value, bool):
        raise TypeError(f"'decisions' must be true or false, not {value!r}")
    return value


def _no_default(value: Any) -> Any:
    raise TypeError(f"not JSON-serialisable: {type(value).__name__}")


def _make_dump() -> Any:
    """One reusable compact encoder (``", "``/``": "`` separators, UTF-8 kept).

    ``json.dumps`` builds a new C encoder on every call; a report encodes
    thousands of events, so the C encoder is built once here when available.
    The output is identical to ``json.dumps(value, ensure_ascii=False,
    separators=(", ", ": "))`` (a test checks it).
    """
    c_make_encoder = getattr(json.encoder, "c_make_encoder", None)
    if c_make_encoder is None:  # pragma: no cover - pure-Python json
        encoder = json.JSONEncoder(ensure_ascii=False, separators=(", ", ": "))
        return encoder.encode
    c_encode = c_make_encoder(None, _no_default, json.encoder.encode_basestring, None, ": ", ", ",
                              False, False, True)

    def dump(value: Any) -> str:
        return "".join(c_encode(value, 0))

    return dump


_dump = _make_dump()
_digest_dump = _make_digest_dump()
_quote = json.encoder.encode_basestring  # C; non-ASCII kept as in ensure_ascii=False


def _value(value: Any) -> str:
    """JSON text of a plain event value, exactly as :data:`_dump` writes it."""
    kind = type(value)
    if kind is str:
        return _quote(value)
    if kind is int:
        return str(value)
    if value is None:
        return "null"
    if kind is bool:
        return "true" if value else "false"
    if kind is tuple or kind is list:
        return "[" + ", ".join([_value(v) for v in value]) + "]"
    return _dump(value)  # type: ignore[no-any-return]


def _square(value: Any) -> str:
    return _quote(square_name(value))


def _square_or_null(value: Any) -> str:
    return "null" if value is None else _square(value)


def _squares(value: Any) -> str:
    return "[" + ", ".join([_square(v) for v in value]) + "]"


def _result(value: Any) -> str:
    return _dump(value.to_json())  # type: ignore[no-any-return]


_CONVERT = {"plain": _value, "tuple": _value, "square": _square, "square?": _square_or_null,
            "squares": _squares, "result": _result}
_LINE_WRITERS: dict[type[Event], Callable[[Event], str]] = {}


def _strs(value: Any) -> str:
    """A tuple of names: quoted and joined in C, else the general writer."""
    try:
        return "[" + ", ".join(map(_quote, value)) + "]"
    except TypeError:  # not all text: write it as _dump would
        return _value(value)


def _ints(value: Any) -> str:
    """A tuple of whole numbers, joined in C when every item is exactly an int."""
    if set(map(type, value)) <= _INT_ONLY:
        return "[" + ", ".join(map(str, value)) + "]"
    return _value(value)


_INT_ONLY = frozenset({int})


#: A field's JSON text for the common case of its hint, guarded by the value's
#: exact class (``{v}`` stands for the local holding the value); any other
#: value falls back to the general converter of its kind, so the output never
#: depends on a hint being honoured (a bool in an ``int`` field stays ``true``).
_FAST: dict[Any, tuple[Any, str]] = {
    str: (str, "_quote({v})"),
    int: (int, "str({v})"),
    bool: (bool, "('true' if {v} else 'false')"),
}


def _general_writer(cls: type[Event]) -> Callable[[Event], str]:
    """The exact writer of ``cls``, what :func:`_line_writer`'s fast writer
    falls back to for any value off its fast path (so the two cannot differ).

    Issue 18's first writer: a generated function reads every field once and
    joins constant key text with each value's JSON text, every value guarded
    by its exact class, so the output never depends on a hint being honoured.
    The text is byte-identical to ``_dump(event.to_json())`` (a test checks
    every event of every fixture battle and odd values)."""
    fields = event_fields(cls)
    hints = typing.get_type_hints(cls)
    env: dict[str, Any] = {"_value": _value, "_quote": _quote, "_strs": _strs, "_ints": _ints}
    reads, parts = [], [repr('{"type": ' + _quote(cls.TYPE))]
    for i, (name, json_name, kind) in enumerate(fields):
        local = f"v{i}"
        reads.append(f"    {local} = event.{name}\n")
        parts.append(repr(", " + _quote(json_name) + ": "))
        hint = hints[name]
        general = f"_c{i}"
        env[general] = _CONVERT[kind]
        args = typing.get_args(hint)
        optional = kind == "plain" and len(args) == 2 and type(None) in args
        if optional:
            hint = args[0] if args[1] is type(None) else args[1]
        if kind in ("plain", "tuple") and hint in _FAST:
            exact, fast = _FAST[hint]
            env[f"_t{i}"] = exact
            expr = f"{fast.format(v=local)} if {local}.__class__ is _t{i} else {general}({local})"
            parts.append(f"('null' if {local} is None else {expr})" if optional else f"({expr})")
        elif kind == "tuple" and typing.get_args(hint) == (str, Ellipsis):
            parts.append(f"_strs({local})")
        elif kind == "tuple" and typing.get_args(hint) == (int, Ellipsis):
            parts.append(f"_ints({local})")
        else:
            parts.append(f"{general}({local})")
    parts.append("'}'")
    source = ("def write(event):\n" + "".join(reads)
              + "    return ''.join((" + ", ".join(parts) + "))\n")
    namespace: dict[str, Any] = {}
    exec(source, env, namespace)  # noqa: S102 - source built from the class's own field names
    writer: Callable[[Event], str] = namespace["write"]
    return writer


#: The fast writers' caches of JSON text: names, skill ids, reasons and
#: rule ids recur thousands of times in a report, and a plain dict lookup
#: (specialised by the interpreter) is far cheaper than quoting again.  What
#: goes in is chosen so that no lookup can hit a key of another JSON text:
#: ``_TEXT`` holds exact ``str`` keys and ``None`` (only a str, a str
#: subclass -- quoted the same -- or None equals one); ``_DIGITS`` exact
#: ints, looked up only after the writer checked the value (or every item
#: of a tuple) is exactly an int (``True == 1``); ``_NAMES`` and
#: ``_NUMBERS`` the texts of tuples of exact strs and exact ints (the latter
#: again looked up only after every item was checked).  ``_TEXT`` and
#: ``_DIGITS`` are filled from each report's roster before its events
#: (:func:`_learn_names`) and from any event that missed them
#: (:func:`_learn`); the tuples' as they come, without an exception.
_TEXT: dict[Any, str] = {}
_DIGITS: dict[int, str] = {}
_NAMES: dict[tuple[str, ...], str] = {}
_NUMBERS: dict[tuple[int, ...], str] = {}
#: Entries the caches may hold before they start again (a batch worker's
#: reports each bring their own names; memory stays bounded).
_CACHE_LIMIT = 50_000
_ONLY_INTS = frozenset({int}).issuperset
_ONLY_STRS = frozenset({str}).issuperset
#: ``{file: {rank: '"c3"'}}`` for every square of the largest map; a square
#: off it misses (KeyError) and the exact writer raises what square_name raises.
_SQUARE_TEXT: dict[int, dict[int, str]] = {
    f: {r: _quote(square_name(Square(f, r))) for r in range(MAX_SIDE)} for f in range(MAX_SIDE)}


def _clear_caches() -> None:
    for cache in (_TEXT, _DIGITS, _NAMES, _NUMBERS):
        cache.clear()
    _TEXT[None] = "null"
    _DIGITS.update((n, str(n)) for n in range(-1, 256))


_clear_caches()


def _learn(event: Event) -> None:
    """Put the texts of ``event``'s exact values into the caches (the event
    missed them); other values are left to the exact writer every time."""
    if len(_TEXT) + len(_DIGITS) >= _CACHE_LIMIT:
        _clear_caches()
    for name, _json_name, _kind in event_fields(type(event)):
        value = getattr(event, name)
        cls = value.__class__
        if cls is str:
            _TEXT[value] = _quote(value)
        elif cls is int:
            _DIGITS[value] = str(value)


def _names_text(value: Any) -> str:
    """A tuple of names missing from ``_NAMES``: stored when every item is
    exactly a ``str``; anything else as the general writer writes it, and
    what is not a tuple at all is left to the exact writer (TypeError)."""
    if value.__class__ is not tuple:
        raise TypeError("not a tuple")
    if not _ONLY_STRS(map(type, value)):
        return _value(value)
    if len(_NAMES) >= _CACHE_LIMIT:
        _NAMES.clear()
    text = _NAMES[value] = "[" + ", ".join(map(_quote, value)) + "]"
    return text


def _numbers_text(value: Any) -> str:
    """A tuple (or list) of exact ints missing from ``_NUMBERS`` (the writer
    checked the items); tuples are stored."""
    text = "[" + ", ".join(map(str, value)) + "]"
    if value.__class__ is tuple:
        if len(_NUMBERS) >= _CACHE_LIMIT:
            _NUMBERS.clear()
        _NUMBERS[value] = text
    return text


def _learn_names(inputs: Mapping[str, Any]) -> None:
    """The roster's names and pattern elements, before a report's events:
    every event names a character, and a miss costs an exception.  Reads
    the inputs warily (a report read back from a file may hold anything)."""
    if len(_TEXT) + len(_DIGITS) >= _CACHE_LIMIT // 2:
        _clear_caches()
    characters = inputs.get("characters") if isinstance(inputs, Mapping) else None
    for c in characters if isinstance(characters, (list, tuple)) else ():
        if not isinstance(c, Mapping):
            continue
        patterns = c.get("patterns")
        texts = [c.get("name"), *(p.get("elements") for p in (patterns if isinstance(patterns, (list, tuple)) else ())
                                  if isinstance(p, Mapping))]
        for text in texts:
            if text.__class__ is str:
                _TEXT[text] = _quote(text)


def _literal(text: str) -> str:
    """``text`` as the constant part of a single-quoted f-string."""
    return text.replace("\\", "\\\\").replace("'", "\\'").replace("{", "{{").replace("}", "}}")


def _line_writer(cls: type[Event]) -> Callable[[Event], str]:
    """One writer per event class, generated once from its fields.

    Why (issue 18): a report holds thousands of events, and building a dict
    per event only to encode it again was most of ``referee batch``'s JSON
    time.  The generated function is one f-string: constant key text
    (``, "actor": ``) between the fields' JSON texts, each read from a plain
    dict of texts already written (names, numbers, tuples of them) or, for
    squares, a table.  A value that misses (the first time a name is seen,
    or a value the field's hint does not promise: a bool in an ``int``
    field, a list for a tuple, a square off every map) raises inside the
    f-string; the event is then learnt (:func:`_learn`) and written by the
    exact writer (:func:`_general_writer`), which writes it as before or
    raises as before.  So the text is byte-identical to
    ``_dump(event.to_json())`` (a test checks every event of every fixture
    battle, and odd values in every field against the exact writer).
    Derived from the dataclass alone: an event class added later gets its
    writer with no code."""
    fields = event_fields(cls)
    hints = typing.get_type_hints(cls)
    exact = _general_writer(cls)

    def missed(event: Event) -> str:
        _learn(event)
        return exact(event)

    env: dict[str, Any] = {"_T": _TEXT, "_D": _DIGITS, "_Ng": _NAMES.get, "_names": _names_text,
                           "_Ug": _NUMBERS.get, "_numbers": _numbers_text, "_int": int, "_ints": _ONLY_INTS,
                           "_E": (), "_SQ": _SQUARE_TEXT, "_Square": Square, "_missed": missed}
    parts = [_literal('{"type": ' + _quote(cls.TYPE))]
    for i, (name, json_name, kind) in enumerate(fields):
        v = f"event.{name}"
        general = f"_c{i}"
        env[general] = _CONVERT[kind]
        hint = hints[name]
        args = typing.get_args(hint)
        optional = len(args) == 2 and type(None) in args
        base = (args[0] if args[1] is type(None) else args[1]) if optional else hint
        if kind == "plain" and base is str:  # None is in the cache too
            expr = f"_T[{v}]"
        elif kind == "plain" and base is int and optional:
            expr = f'"null" if (x := {v}) is None else _D[x] if x.__class__ is _int else {general}(x)'
        elif kind == "plain" and base is int:
            expr = f"_D[x] if (x := {v}).__class__ is _int else {general}(x)"
        elif kind == "plain" and base is bool:
            expr = f'"true" if (x := {v}) is True else "false" if x is False else {general}(x)'
        elif kind == "tuple" and typing.get_args(hint) == (str, Ellipsis):
            expr = f'"[]" if (x := {v}) is _E else _Ng(x) or _names(x)'
        elif kind == "tuple" and typing.get_args(hint) == (int, Ellipsis):
            expr = f'"[]" if (x := {v}) is _E else (_Ug(x) or _numbers(x)) if _ints(map(type, x)) else {general}(x)'
        elif kind in ("square", "square?"):
            expr = f"_SQ[x.file][x.rank] if (x := {v}).__class__ is _Square else {general}(x)"
        else:
            expr = f"{general}({v})"
        parts.append(_literal(", " + _quote(json_name) + ": ") + "{" + expr + "}")
    parts.append(_literal("}"))
    source = ("def write(event):\n    try:\n        return f'" + "".join(parts) + "'\n"
              "    except Exception:  # a value seen for the first time, or off the fast path\n"
              "        return _missed(event)\n")
    namespace: dict[str, Any] = {}
    exec(source, env, namespace)  # noqa: S102 - source built from the class's own field names
    writer: Callable[[Event], str] = namespace["write"]
    return writer


def _writer_of(cls: type[Event]) -> Callable[[Event], str]:
    """The line writer of ``cls``, generated on first use."""
    writer = _LINE_WRITERS.get(cls)
    if writer is None:
        writer = _LINE_WRITERS[cls] = _line_writer(cls)
    return writer


def event_json_line(event: Event) -> str:
    """The event as one compact JSON line of the report."""
    return _writer_of(type(event))(event)


def _null(value: Any) -> str:
    return "null"


def _bool(value: Any) -> str:
    return "true" if value else "false"


def _float(value: Any) -> str:
    return str(_dump(value))


#: The JSON text of a scalar by its exact class (as json.dumps writes it;
#: floats through the C encoder, which writes NaN and Infinity as json does).
_SCALAR_TEXT: dict[type, Callable[[Any], str]] = {
    str: _quote, int: int.__repr__, bool: _bool, type(None): _null, float: _float}


def _indented(value: Any, pad: str) -> str:
    """``json.dumps(value, ensure_ascii=False, indent=2)`` with every line
    after the first indented by ``pad`` more, for the plain data of a report's
    header (dicts with text keys, lists, text, numbers, booleans, None).

    Why (issue 18): with ``indent`` the standard library falls back to its
    pure-Python encoder, which cost a battle's report more than its header is
    worth; this walks the data once, scalars written without a call of
    their own.  Anything else (a non-text key, another type) is handed to
    ``json.dumps`` itself, so the text cannot differ."""
    scalar = _SCALAR_TEXT.get(value.__class__)
    if scalar is not None:
        return scalar(value)
    kind = value.__class__
    inner = pad + "  "
    items: list[str] = []
    if kind is dict:
        if not value:
            return "{}"
        for key, item in value.items():
            if key.__class__ is not str:
                return json.dumps(value, ensure_ascii=False, indent=2).replace("\n", "\n" + pad)
            scalar = _SCALAR_TEXT.get(item.__class__)
            items.append(_quote(key) + ": " + (scalar(item) if scalar is not None else _indented(item, inner)))
        return "{\n" + inner + (",\n" + inner).join(items) + "\n" + pad + "}"
    if kind is list or kind is tuple:
        if not value:
            return "[]"
        for item in value:
            scalar = _SCALAR_TEXT.get(item.__class__)
            items.append(scalar(item) if scalar is not None else _indented(item, inner))
        return "[\n" + inner + (",\n" + inner).join(items) + "\n" + pad + "]"
    return json.dumps(value, ensure_ascii=False, indent=2).replace("\n", "\n" + pad)


def dumps_report(report: Report) -> str:
    """Deterministic JSON text: two-space indentation for the header and the
    inputs, one event per line (diff-friendly, compact), a final newline.

    The event lines are joined once with the header in front of the first
    and the rest behind the last: a report is most of a megabyte, and every
    extra concatenation of it was a fresh copy (issue 18)."""
    data = report_to_json(report, with_events=False)  # the events are written line by line below
    _learn_names(report.inputs)
    head: list[str] = []
    tail: list[str] = []
    lines = ["{"]
    events = report.events
    keys = list(data)
    for i, key in enumerate(keys):
        comma = "," if i < len(keys) - 1 else ""
        if key == "events":
            if not events:
                lines.append('  "events": []' + comma)
                continue
            lines.append('  "events": [')
            head, lines = lines, ["  ]" + comma]
        else:
            lines.append(f"  {_quote(key)}: {_indented(data[key], '  ')}{comma}")
    lines.append("}")
    if not head:
        return "\n".join(lines) + "\n"
    tail = lines
    writers = _LINE_WRITERS
    for cls in set(map(type, events)).difference(writers):
        _writer_of(cls)
    # each event through its class's writer, the loop in C (operator.call, 3.11)
    body = list(map(operator.call, map(writers.__getitem__, map(type, events)), events))
    body[0] = "\n".join(head) + "\n    " + body[0]
    body[-1] = body[-1] + "\n" + "\n".join(tail) + "\n"
    return ",\n    ".join(body)
