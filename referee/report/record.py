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
import typing
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Mapping

from referee.board import square_name
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

    >>> inputs_digest({"title": "Round 3"})
    {'title': 'b260e314b2717b4a'}
    """
    out = {}
    for key, value in inputs.items():
        text = json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
        out[str(key)] = hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:16]
    return out


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


def _line_writer(cls: type[Event]) -> Callable[[Event], str]:
    """One writer per event class, generated once from its fields.

    Why (issue 18): a report holds thousands of events, and building a dict
    per event only to encode it again was most of ``referee batch``'s JSON
    time; a generated function reads every field once and joins constant key
    text with each value's JSON text, with no per-field loop or call where
    the hint is ``str``/``int``/``bool``.  Derived from the dataclass alone, so
    an event class added later gets its writer with no code.  The text is
    byte-identical to ``_dump(event.to_json())`` (a test checks every event of
    every fixture battle and odd values)."""
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


def _writer_of(cls: type[Event]) -> Callable[[Event], str]:
    """The line writer of ``cls``, generated on first use."""
    writer = _LINE_WRITERS.get(cls)
    if writer is None:
        writer = _LINE_WRITERS[cls] = _line_writer(cls)
    return writer


def event_json_line(event: Event) -> str:
    """The event as one compact JSON line of the report."""
    return _writer_of(type(event))(event)


def dumps_report(report: Report) -> str:
    """Deterministic JSON text: two-space indentation for the header and the
    inputs, one event per line (diff-friendly, compact), a final newline."""
    data = report_to_json(report, with_events=False)  # the events are written line by line below
    lines = ["{"]
    keys = list(data)
    for i, key in enumerate(keys):
        comma = "," if i < len(keys) - 1 else ""
        if key == "events":
            events = report.events
            if not events:
                lines.append('  "events": []' + comma)
                continue
            lines.append('  "events": [')
            writers = _LINE_WRITERS
            lines.append("    " + ",\n    ".join([
                (writers.get(type(e)) or _writer_of(type(e)))(e) for e in events]))
            lines.append("  ]" + comma)
        else:
            body = json.dumps(data[key], ensure_ascii=False, indent=2)
            body = body.replace("\n", "\n  ")
            lines.append(f"  {json.dumps(key)}: {body}{comma}")
    lines.append("}")
    return "\n".join(lines) + "\n"