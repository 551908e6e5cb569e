"""The battle record: normalised inputs + events + result, and its JSON form.

Style lesson 8, "the input record *is* the replay": a :class:`Report` holds
the referee version, the ruleset's name and digest, the seed, the normalised
inputs (sheets, plans as their text, setup, order, and the few ruleset facts a
reader needs: house rules and skill names) and the engine's event list.  The
JSON rendering of a report is enough to resolve the battle again exactly:
:func:`setup_from_inputs` rebuilds the engine's ``BattleSetup`` from the
inputs alone, and ``referee resolve`` itself goes through it, so a resolve and
a replay cannot differ in what they feed the engine.

Renderers read only a :class:`Report` (events + inputs), never the engine,
the ruleset object or the files.
"""

from __future__ import annotations

import json
import operator
import os
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Mapping

from referee import __version__
from referee.battlefile import Battle
from referee.board import square_name
from referee.engine.events import Event, event_fields
from referee.plan.format import format_clause
from referee.ruleset import Ruleset, embedded_ruleset, is_builtin_name
from referee.sheet import CharacterSheet, Pattern

__all__ = [
    "Report",
    "battle_inputs",
    "setup_from_inputs",
    "resolve_inputs",
    "report_to_json",
    "report_from_json",
    "dumps_report",
    "skill_names",
    "ruleset_summary",
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
    :param inputs: the normalised inputs (see :func:`battle_inputs`).
    :param events: the engine's events (``referee.engine.events``).
    :param result: the engine's ``BattleResult``.
    """

    referee: str
    ruleset: Mapping[str, str]
    seed: int | str
    seed_source: str
    inputs: Mapping[str, Any]
    events: tuple[Any, ...]
    result: Any

    @property
    def title(self) -> str:
        return str(self.inputs.get("title", ""))

    def characters(self) -> list[Mapping[str, Any]]:
        """Normalised characters in roster order (White, then Black)."""
        return list(self.inputs["characters"])


# --------------------------------------------------------------------- inputs


def skill_names(ruleset: Ruleset, ids: list[str]) -> dict[str, dict[str, str]]:
    """``{id: {"en", "ja"}}`` for the given skill ids, in catalogue order."""
    wanted = set(ids)
    return {s.id: {"en": s.name_en, "ja": s.name_ja} for s in ruleset.catalog.skills if s.id in wanted}


def ruleset_summary(ruleset: Ruleset) -> dict[str, Any]:
    """The house rules a report prints: map, turn limit, narrowing, initiative, variants."""
    return {
        "description": ruleset.description,
        "map": {"width": ruleset.map.width, "height": ruleset.map.height,
                "adjacency": ruleset.map.adjacency, "blocked": list(ruleset.map.blocked)},
        "turn_limit": ruleset.turn_limit,
        "narrowing": [{"after_turn": n.after_turn, "keep": n.keep, "keep_one_of": n.keep_one_of}
                      for n in ruleset.narrowing],
        "initiative": {"dice": ruleset.initiative.dice, "sides": ruleset.initiative.sides,
                       "reroll": ruleset.initiative.reroll},
        "goal": [ruleset.goal.numerator, ruleset.goal.denominator],
        "variants": [name for name in ("orm", "soul", "d20", "wiz") if getattr(ruleset.variants, name, False)],
    }


def _rel(path: str, folder: str) -> str:
    rel = os.path.relpath(path, folder) if folder else path
    return rel.replace(os.sep, "/")


def parsed_clauses(plan: Any) -> list[dict[str, Any]]:
    """The parsed plan as canonical text, one clause per entry with its line
    (``referee.plan.format``); empty without a plan."""
    clauses = getattr(plan, "clauses", None)
    if not clauses:
        return []
    return [{"line": int(getattr(c, "line", 0)), "clause": format_clause(c)} for c in clauses]


def _sheet_inputs(sheet: CharacterSheet, team: str, rel_path: str, battle_folder: str,
                  plan_ast: Any = None) -> dict[str, Any]:
    plan: dict[str, Any] | None = None
    if sheet.plan_text is not None:
        inline = sheet.plan_file == sheet.file or sheet.plan_file is None
        plan = {
            "file": rel_path if inline else _rel(sheet.plan_file or "", battle_folder),
            "inline": inline,
            "line_offset": sheet.plan_line_offset,
            "column_offset": sheet.plan_column_offset,
            "text": sheet.plan_text,
            "parsed": parsed_clauses(plan_ast),
        }
    return {
        "name": sheet.name,
        "team": team,
        "sheet": rel_path,
        "body": sheet.body,
        "reflex": sheet.reflex,
        "intellect": sheet.intellect,
        "max_hp": sheet.max_hp,
        "patterns": [
            {"elements": p.text, "condition": p.condition_text, "line": p.line, "column": p.column,
             "condition_line": p.condition_line, "condition_column": p.condition_column}
            for p in sheet.patterns
        ],
        "skills": list(sheet.skills),
        "skill_lines": list(sheet.skill_lines),
        "plan": plan,
    }


def battle_inputs(battle: Battle) -> dict[str, Any]:
    """The normalised inputs of a loaded battle, in a fixed key order.

    Paths are relative to the battle file so the record does not depend on
    the directory the referee was run from.
    """
    folder = os.path.dirname(battle.file)
    characters = [_sheet_inputs(e.sheet, e.team, e.path, folder, e.plan) for e in battle.entries]
    setup = {e.name: {k: v for k, v in (("square", e.square), ("hp", e.hp)) if v is not None}
             for e in battle.entries if e.square is not None or e.hp is not None}
    all_skills = [s for e in battle.entries for s in e.sheet.skills]
    return {
        "title": battle.title,
        "battle": os.path.basename(battle.file),
        "ruleset": battle.ruleset_ref,
        "rules": ruleset_summary(battle.ruleset),
        # A ruleset from a file travels with the report, so replay needs no file
        # (built-ins are known by name; the digest proves either is the same).
        **({} if is_builtin_name(battle.ruleset_ref) else {"ruleset_embedded": embedded_ruleset(battle.ruleset)}),
        "characters": characters,
        "setup": setup,
        "order": list(battle.order) if battle.order is not None else None,
        "skill_names": skill_names(battle.ruleset, all_skills),
    }


def _sheet_from_inputs(c: Mapping[str, Any]) -> CharacterSheet:
    from referee.elements import parse_pattern

    plan = c.get("plan")
    return CharacterSheet(
        file=c["sheet"],
        name=c["name"],
        body=c["body"],
        reflex=c["reflex"],
        intellect=c["intellect"],
        max_hp=c["max_hp"],
        patterns=tuple(
            Pattern(parse_pattern(p["elements"]), p["condition"], p["line"], p["column"],
                    p["condition_line"], p["condition_column"])
            for p in c["patterns"]
        ),
        skills=tuple(c["skills"]),
        skill_lines=tuple(c["skill_lines"]),
        plan_text=plan["text"] if plan else None,
        plan_file=(c["sheet"] if plan["inline"] else plan["file"]) if plan else None,
        plan_line_offset=plan["line_offset"] if plan else 0,
        plan_column_offset=plan["column_offset"] if plan else 0,
    )


def setup_from_inputs(inputs: Mapping[str, Any]) -> Any:
    """The engine's ``BattleSetup`` rebuilt from normalised inputs alone.

    Both ``resolve`` and ``replay`` feed the engine through this function.
    """
    from referee.battlefile import parse_plan_of
    from referee.board import parse_square
    from referee.engine.battle import BattleSetup, Combatant

    setup = inputs.get("setup") or {}
    combatants = []
    for c in inputs["characters"]:
        sheet = _sheet_from_inputs(c)
        plan, _ = parse_plan_of(sheet)
        fixed = setup.get(c["name"], {})
        square = fixed.get("square")
        combatants.append(Combatant(sheet=sheet, plan=plan, team=c["team"],
                                    square=parse_square(square) if square else None, hp=fixed.get("hp")))
    order = inputs.get("order")
    return BattleSetup(combatants=tuple(combatants), order=tuple(order) if order is not None else None)


def resolve_inputs(inputs: Mapping[str, Any], ruleset: Ruleset, seed: int | str, seed_source: str) -> Report:
    """Resolve normalised inputs with the engine and wrap the record as a report."""
    from referee.engine.battle import resolve_battle

    record = resolve_battle(setup_from_inputs(inputs), ruleset, seed)
    return Report(
        referee=__version__,
        ruleset={"name": ruleset.name, "digest": ruleset.digest},
        seed=seed,
        seed_source=seed_source,
        inputs=inputs,
        events=tuple(record.events),
        result=record.result,
    )


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
        "inputs": report.inputs,
        "events": [e.to_json() for e in report.events] if with_events else None,
        "result": report.result.to_json(),
    }


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
    )


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


def _line_writer(cls: type[Event]) -> Callable[[Event], str]:
    """One writer per event class, built once from its fields.

    Why: a report holds thousands of events, and building a dict per event
    only to encode it again was most of ``referee batch``'s JSON time.  The
    text is byte-identical to ``_dump(event.to_json())`` (a test checks every
    event of every fixture battle)."""
    fields = event_fields(cls)
    read = operator.attrgetter(*(name for name, _, _ in fields))
    parts = tuple((", " + _quote(json_name) + ": ", _CONVERT[kind]) for _, json_name, kind in fields)
    head = '{"type": ' + _quote(cls.TYPE)
    single = len(fields) == 1

    def write(event: Event) -> str:
        values = read(event)
        if single:
            values = (values,)
        return head + "".join([key + convert(v) for (key, convert), v in zip(parts, values)]) + "}"

    return write


def event_json_line(event: Event) -> str:
    """The event as one compact JSON line of the report."""
    writer = _LINE_WRITERS.get(type(event))
    if writer is None:
        writer = _LINE_WRITERS[type(event)] = _line_writer(type(event))
    return writer(event)


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
            lines.extend(["    " + event_json_line(e) + "," for e in events])
            lines[-1] = lines[-1][:-1]
            lines.append("  ]" + comma)
        else:
            body = json.dumps(data[key], ensure_ascii=False, indent=2)
            body = body.replace("\n", "\n  ")
            lines.append(f"  {json.dumps(key)}: {body}{comma}")
    lines.append("}")
    return "\n".join(lines) + "\n"