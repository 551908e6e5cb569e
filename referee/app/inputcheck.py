"""Checking the inputs a JSON report embeds before ``referee replay`` trusts them.

A report is a file like any other: anyone may edit it before posting it
(issue 17, points 11 and 13).  Re-resolving and comparing events proves that
the events follow from the inputs -- not that the inputs are a legal battle.
So, before the engine runs, every embedded input is checked as strictly as
the files it came from:

- each character passes the ruleset's creation rules (R-CHAR-1..4, R-PAT-1):
  it is rebuilt as a character sheet and validated by the sheet loader itself,
  plan included; a forged ``max_hp`` or a ``parsed`` plan that is not what
  the plan text says is named;
- names are unique and printable, ``setup`` and ``order`` name the battle's
  characters, squares are on the map, starting HP is 1..max HP;
- the house-rules summary and the skill names match the ruleset;
- :func:`referee.report.record.inputs_digest` covers the fields nothing can
  re-derive (the title, the battle's file name): an edit by hand shows as
  "inputs.title was edited".  It is tamper evidence, not a signature: whoever
  runs the referee can write a new digest (``docs/security.md``).
"""

from __future__ import annotations

import json
import re
from typing import Any, Mapping

from referee.app.inputs import parsed_clauses, ruleset_summary, skill_names
from referee.battlefile import TEAMS, parse_plan_of, square_on_map
from referee.diagnostics import Diagnostic
from referee.mechanicspec import terrain_fields
from referee.report.record import inputs_digest
from referee.ruleset import Ruleset
from referee.sheet import parse_sheet
from referee.textcheck import name_problem

__all__ = ["check_report_inputs"]

_CHARACTER_FIELDS: dict[str, type | tuple[type, ...]] = {
    "name": str, "team": str, "sheet": str, "body": int, "reflex": int, "intellect": int, "max_hp": int,
    "patterns": list, "skills": list, "skill_lines": list, "plan": (dict, type(None)),
}
_PATTERN_FIELDS: dict[str, type | tuple[type, ...]] = {
    "elements": str, "condition": (str, type(None)), "line": int, "column": int,
    "condition_line": int, "condition_column": int,
}
_PLAN_FIELDS: dict[str, type | tuple[type, ...]] = {
    "file": str, "inline": bool, "line_offset": int, "column_offset": int, "text": str, "parsed": list,
}


class _Checker:
    def __init__(self, shown: str, ruleset: Ruleset) -> None:
        self.shown = shown
        self.ruleset = ruleset
        self.diags: list[Diagnostic] = []

    def error(self, code: str, where: str, message: str) -> None:
        self.diags.append(Diagnostic(self.shown, 0, 0, code, f"{where}: {message}"))

    def shape(self, value: Any, fields: Mapping[str, type | tuple[type, ...]], where: str) -> bool:
        """``value`` is a mapping with every field of the right type (a bool is not a number)."""
        if not isinstance(value, dict):
            self.error("bad-input", where, "is not a mapping")
            return False
        ok = True
        for key, kind in fields.items():
            item = value.get(key)
            kinds = kind if isinstance(kind, tuple) else (kind,)
            if key not in value or not isinstance(item, kinds) or (isinstance(item, bool) and bool not in kinds):
                self.error("bad-input", f"{where}.{key}", "is missing or of the wrong kind")
                ok = False
        return ok

    def character(self, index: int, c: Any) -> str | None:
        """Check one character; its name when its shape is sound."""
        where = f"inputs.characters[{index}]"
        if not self.shape(c, _CHARACTER_FIELDS, where):
            return None
        problem = name_problem(c["name"], "a character's name")
        if problem is not None:
            self.error("bad-name", f"{where}.name", problem)
            return None
        where = f"{where} ({c['name']})"
        if c["team"] not in TEAMS:
            self.error("bad-input", f"{where}.team", f"must be white or black, not {c['team']!r}")
        if not all(self.shape(p, _PATTERN_FIELDS, f"{where}.patterns[{i}]") for i, p in enumerate(c["patterns"])):
            return None
        if c["plan"] is not None and not self.shape(c["plan"], _PLAN_FIELDS, f"{where}.plan"):
            return None
        if not all(isinstance(s, str) for s in c["skills"]):
            self.error("bad-input", f"{where}.skills", "must list skill ids")
            return None
        self.creation_rules(where, c)
        return str(c["name"])

    def creation_rules(self, where: str, c: Mapping[str, Any]) -> None:
        """The character rebuilt as a sheet and checked by the sheet loader
        (R-CHAR-1..4, R-PAT-1, the plan); derived fields compared."""
        data: dict[str, Any] = {
            "name": c["name"],
            "abilities": {"body": c["body"], "reflex": c["reflex"], "intellect": c["intellect"]},
            "patterns": [p["elements"] if p["condition"] is None else {p["elements"]: p["condition"]}
                         for p in c["patterns"]],
            "skills": list(c["skills"]),
        }
        if c["plan"] is not None:
            data["plan"] = {"text": c["plan"]["text"]}
        if "wiz" in c:  # variant-wiz.md R-WIZ-SHEET-1: the levels are checked like the sheet's
            data["wiz"] = c["wiz"]
        sheet, problems = parse_sheet(json.dumps(data, ensure_ascii=False), where, self.ruleset)
        for d in problems:
            if d.is_error:
                self.error("invalid-character", where, f"{d.message} [{d.code}]")
        if sheet is None:
            return
        if c["max_hp"] != sheet.max_hp:
            self.error("invalid-character", f"{where}.max_hp",
                       f"is {c['max_hp']}, but body {sheet.body} gives {sheet.max_hp} under this ruleset (R-CHAR-2)")
        if c["plan"] is not None:
            plan, _ = parse_plan_of(sheet)
            if c["plan"]["parsed"] != parsed_clauses(plan):
                self.error("report-edited", f"{where}.plan.parsed", "is not what the plan's text says")

    def battle(self, inputs: Mapping[str, Any], names: list[str], max_hp: dict[str, int]) -> None:
        """Names unique, ``setup`` and ``order`` about this battle's characters."""
        for team in TEAMS:
            if not any(c.get("team") == team for c in inputs["characters"] if isinstance(c, dict)):
                self.error("bad-input", "inputs.characters", f"the {team} army has nobody")
        seen: set[str] = set()
        for name in names:
            if name in seen:
                self.error("duplicate-name", "inputs.characters", f"two characters are named {name!r}")
            seen.add(name)
        setup = inputs.get("setup")
        if not isinstance(setup, dict):
            self.error("bad-input", "inputs.setup", "is not a mapping")
            setup = {}
        width, height = self.ruleset.map.width, self.ruleset.map.height
        for name, spec in setup.items():
            where = f"inputs.setup.{name}"
            if name not in seen:
                self.error("unknown-character", where, "names nobody in this battle")
                continue
            if not isinstance(spec, dict) or set(spec) - {"square", "hp", "size"}:
                self.error("bad-input", where, "is not {square, hp, size}")
                continue
            if spec.get("size") not in (None, "T", "S", "M", "L", "H"):
                self.error("out-of-range", f"{where}.size", f"must be T, S, M, L or H, not {spec.get('size')!r}")
            square, hp = spec.get("square"), spec.get("hp")
            if square is not None and (not isinstance(square, str) or not square_on_map(square, width, height)
                                       or square in self.ruleset.map.blocked):
                self.error("off-map", f"{where}.square", f"{square!r} is not a free square of the {width}x{height} map")
            if hp is not None and (type(hp) is not int or not 1 <= hp <= max_hp.get(name, 0)):
                self.error("out-of-range", f"{where}.hp", f"must be 1..{max_hp.get(name, 0)}, not {hp!r}")
        order = inputs.get("order")
        if order is not None and (not isinstance(order, list) or sorted(map(str, order)) != sorted(seen)
                                  or len(order) != len(names)):
            self.error("order-incomplete", "inputs.order", "must list every character exactly once")

    # --- soulwired, issue 12: the terrain and the sheet blocks (R-SOUL-FILE-1/2) ---

    def soulwired(self, inputs: Mapping[str, Any]) -> None:
        """``terrain`` and each character's ``soulwired`` block have the
        shapes the referee writes, so replay can rebuild them."""
        width, height = self.ruleset.map.width, self.ruleset.map.height

        def square_ok(value: Any) -> bool:
            return isinstance(value, str) and square_on_map(value, width, height)

        terrain = inputs.get("terrain")
        # The battle-file loader's question (R-ORM-BATTLE-1, R-SOUL-FILE-2):
        # a report carries only the terrain its battle file could have.
        fields = terrain_fields(self.ruleset.mechanics)
        if terrain is not None:
            ok = isinstance(terrain, dict) and not set(terrain) - set(fields)
            if ok:
                for key in ("blocked", "barriers"):
                    value = terrain.get(key, [])
                    ok = ok and isinstance(value, list) and all(square_ok(v) for v in value)
                objects = terrain.get("objects", [])
                ok = ok and isinstance(objects, list) and all(
                    isinstance(o, dict) and not set(o) - {"square", "strength", "armour"} and square_ok(o.get("square"))
                    and type(o.get("strength")) is int and o["strength"] >= 1
                    and type(o.get("armour", 0)) is int and o.get("armour", 0) >= 0 for o in objects)
            if not ok:
                self.error("bad-input", "inputs.terrain", f"is not {{{', '.join(fields)}}} on this map" if fields
                           else f"ruleset '{self.ruleset.name}' takes no terrain")
        for index, c in enumerate(inputs["characters"]):
            block = c.get("soulwired") if isinstance(c, dict) else None
            if block is None:
                continue
            if not isinstance(block, dict) or set(block) - {"garb", "evasion_type"} or \
                    block.get("garb", "evasive") not in ("evasive", "armoured") or \
                    block.get("evasion_type", "normal") not in ("normal", "none"):
                self.error("bad-input", f"inputs.characters[{index}].soulwired", "is not {garb, evasion_type}")

    def records(self, inputs: Mapping[str, Any], names: list[str]) -> None:
        """``sources`` (each file's sha256) and ``nmr`` (the round's
        missing-plan rulings) have the shapes the referee writes."""
        sources = inputs.get("sources", {})
        if not isinstance(sources, dict) or not all(
                isinstance(k, str) and isinstance(v, str) and re.fullmatch(r"[0-9a-f]{64}", v)
                for k, v in sources.items()):
            self.error("bad-input", "inputs.sources", "is not a mapping of file names to sha256 digests")
        nmr = inputs.get("nmr", [])
        if not isinstance(nmr, list) or not all(
                isinstance(e, dict) and set(e) == {"player", "policy", "detail", "characters"}
                and e["policy"] in ("reuse-last", "default-plan") and isinstance(e["player"], str)
                and isinstance(e["detail"], str) and isinstance(e["characters"], list)
                and all(c in names for c in e["characters"]) for e in nmr):
            self.error("bad-input", "inputs.nmr", "is not a list of missing-plan rulings about this battle's characters")

    def ruleset_facts(self, inputs: Mapping[str, Any]) -> None:
        chars = [c for c in inputs["characters"] if isinstance(c, dict) and isinstance(c.get("skills"), list)]
        wanted = [s for c in chars for s in c["skills"] if isinstance(s, str)]
        if inputs.get("skill_names") != skill_names(self.ruleset, wanted):
            self.error("report-edited", "inputs.skill_names", "are not the ruleset's names of these skills")
        if inputs.get("rules") != ruleset_summary(self.ruleset):
            self.error("report-edited", "inputs.rules", "the house-rules summary is not this ruleset's")


def check_report_inputs(inputs: Any, ruleset: Ruleset, shown: str,
                        digest: Any = None) -> list[Diagnostic]:
    """Every problem of a report's embedded inputs under ``ruleset`` (empty:
    sound).  ``digest``: the report's ``inputs_digest`` (``None`` for a report
    written before it existed: the fields it alone protects go unchecked)."""
    checker = _Checker(shown, ruleset)
    if not isinstance(inputs, dict) or not isinstance(inputs.get("characters"), list):
        checker.error("bad-input", "inputs", "has no list of characters")
        return checker.diags
    title = inputs.get("title")
    problem = name_problem(title, "a title") if isinstance(title, str) else "a title must be text"
    if problem is not None:
        checker.error("bad-title", "inputs.title", problem)
    names: list[str] = []
    max_hp: dict[str, int] = {}
    for index, c in enumerate(inputs["characters"]):
        name = checker.character(index, c)
        if name is not None:
            names.append(name)
            max_hp[name] = ruleset.max_hp(c["body"])
    checker.battle(inputs, names, max_hp)
    checker.soulwired(inputs)
    checker.records(inputs, names)
    checker.ruleset_facts(inputs)
    if digest is not None:
        again = inputs_digest(inputs)
        if not isinstance(digest, dict):
            checker.error("report-edited", "inputs_digest", "is not the digest the referee writes")
        else:
            for key in sorted(set(again) | set(digest)):
                if digest.get(key) != again.get(key):
                    checker.error("report-edited", f"inputs.{key}", "was edited after the report was written")
    return checker.diags
