"""The normalised inputs of a battle, and the engine driver fed from them.

Style lesson 8, "the input record *is* the replay": :func:`battle_inputs`
normalises a loaded battle (sheets, plans as their text, setup, order, and the
few ruleset facts a reader needs: house rules and skill names);
:func:`setup_from_inputs` rebuilds the engine's ``BattleSetup`` from those
inputs alone, and ``referee resolve`` itself goes through it, so a resolve and
a replay cannot differ in what they feed the engine. This is an application
service: renderers (``referee.report``) only read the :class:`Report` it makes.
"""

from __future__ import annotations

import hashlib
import os
from typing import Any, Mapping

from referee import __version__
from referee.battlefile import Battle, parse_plan_of
from referee.board import parse_square, square_name
from referee.elements import parse_pattern
from referee.mechanicspec import ArmyReducedSpec, DecimalDiceSpec, NarrowingSpec, StepsSpec
from referee.engine.battle import BattleSetup, Combatant, resolve_battle
from referee.engine.mechanics.registry import build_mechanics
from referee.plan.format import format_clause
from referee.report.record import Report
from referee.ruleset import Ruleset, embedded_ruleset, is_builtin_name
from referee.sheet import CharacterSheet, Pattern
from referee.terrain import Terrain, TerrainObject

__all__ = [
    "battle_inputs",
    "setup_from_inputs",
    "resolve_inputs",
    "skill_names",
    "ruleset_summary",
    "parsed_clauses",
    "source_digests",
]



def skill_names(ruleset: Ruleset, ids: list[str]) -> dict[str, dict[str, str]]:
    """``{id: {"en", "ja"}}`` for the given skill ids, in catalogue order."""
    wanted = set(ids)
    names = {s.id: {"en": s.name_en, "ja": s.name_ja} for s in ruleset.catalog.skills if s.id in wanted}
    return {**names, **innate_skill_names(ruleset)}  # orm's normal attack (R-ORM-ACT-5); tcgt: none


def ruleset_summary(ruleset: Ruleset) -> dict[str, Any]:
    """The house rules a report prints: map, turn limit, and the mechanics
    (R-VAR-1) read from ``ruleset.mechanics`` -- the very block the engine
    builds its implementations from, so the report cannot name rules the
    battle did not run; the parameters of tcgt's kinds are spelt out."""
    mech = ruleset.mechanics
    summary: dict[str, Any] = {
        "description": ruleset.description,
        "map": {"width": ruleset.map.width, "height": ruleset.map.height,
                "adjacency": mech.movement.adjacency if isinstance(mech.movement, StepsSpec) else None,
                "blocked": list(ruleset.map.blocked)},
        "turn_limit": ruleset.turn_limit,
        "narrowing": [{"after_turn": n.after_turn, "keep": n.keep, "keep_one_of": n.keep_one_of}
                      for n in (mech.stall.schedule if isinstance(mech.stall, NarrowingSpec) else ())],
    }
    if isinstance(mech.initiative, DecimalDiceSpec):
        summary["initiative"] = {"dice": mech.initiative.dice, "sides": mech.initiative.sides,
                                 "reroll": mech.initiative.reroll}
    if isinstance(mech.end, ArmyReducedSpec):
        summary["goal"] = [mech.end.goal.numerator, mech.end.goal.denominator]
    summary["mechanics"] = {slot: spec.kind for slot, spec in mech.slots()}
    return summary


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
        **({"defence": dict(sheet.defence)} if sheet.defence else {}),  # orm (R-ORM-SHEET-1)
        # variant-wiz.md R-WIZ-SHEET-1: the levels, only when the sheet has them.
        **({"wiz": dict(sheet.wiz)} if sheet.wiz else {}),
        # soulwired (R-SOUL-FILE-1): only when the sheet has the block, so
        # every other report's inputs (and digest) stay as they were.
        **({"soulwired": {k: v for k, v in (("garb", sheet.garb), ("evasion_type", sheet.evasion_type))
                          if v is not None}}
           if sheet.garb is not None or sheet.evasion_type is not None else {}),
    }


def battle_inputs(battle: Battle) -> dict[str, Any]:
    """The normalised inputs of a loaded battle, in a fixed key order.

    Paths are relative to the battle file so the record does not depend on
    the directory the referee was run from.
    """
    folder = os.path.dirname(battle.file)
    characters = [_sheet_inputs(e.sheet, e.team, e.path, folder, e.plan) for e in battle.entries]
    setup = {e.name: {k: v for k, v in (("square", e.square), ("hp", e.hp), ("size", e.size)) if v is not None}
             for e in battle.entries if e.square is not None or e.hp is not None or e.size is not None}
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
        **({"terrain": terrain_inputs(battle.terrain)} if battle.terrain is not None else {}),
        "skill_names": skill_names(battle.ruleset, all_skills),
        # orm (R-ORM-BATTLE-1): written only when the battle file has them
        **({"pcs": battle.pcs} if battle.pcs is not None else {}),
        "sources": source_digests(battle),
    }


def source_digests(battle: Battle) -> dict[str, str]:
    """The sha256 of every sheet and plan file the battle read (battle-relative
    paths), the digests the round's receipts gave their players: a player can
    prove from a report which version of their file was used."""
    folder = os.path.dirname(battle.file)
    out: dict[str, str] = {}
    for e in battle.entries:
        out[e.path] = e.sheet.source_sha256
        if e.sheet.plan_file not in (None, e.sheet.file) and e.sheet.plan_text is not None:
            out[_rel(e.sheet.plan_file or "", folder)] = hashlib.sha256(
                e.sheet.plan_text.encode("utf-8", "surrogatepass")).hexdigest()
    return dict(sorted(out.items()))


def innate_skill_names(ruleset: Ruleset) -> dict[str, dict[str, str]]:
    """The names of the skills every character has beyond its sheet's
    (R-ORM-ACT-5's normal attack); none under tcgt."""
    return {s.id: {"en": s.name_en, "ja": s.name_ja}
            for s in build_mechanics(ruleset.mechanics).action.innate_skills()}


def _sheet_from_inputs(c: Mapping[str, Any]) -> CharacterSheet:
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
        defence=c.get("defence", {}),
        wiz=tuple(sorted(c.get("wiz", {}).items())),
        garb=(c.get("soulwired") or {}).get("garb"),
        evasion_type=(c.get("soulwired") or {}).get("evasion_type"),
    )


def setup_from_inputs(inputs: Mapping[str, Any]) -> Any:
    """The engine's ``BattleSetup`` rebuilt from normalised inputs alone.

    Both ``resolve`` and ``replay`` feed the engine through this function.
    """
    setup = inputs.get("setup") or {}
    combatants = []
    for c in inputs["characters"]:
        sheet = _sheet_from_inputs(c)
        plan, _ = parse_plan_of(sheet)
        fixed = setup.get(c["name"], {})
        square = fixed.get("square")
        combatants.append(Combatant(sheet=sheet, plan=plan, team=c["team"],
                                    square=parse_square(square) if square else None, hp=fixed.get("hp"),
                                    size=fixed.get("size")))
    order = inputs.get("order")
    terrain = inputs.get("terrain")
    return BattleSetup(combatants=tuple(combatants), order=tuple(order) if order is not None else None,
                       pcs=inputs.get("pcs"),
                       terrain=terrain_from_inputs(terrain) if terrain is not None else None)


# --- soulwired: the battle file's terrain in the inputs (R-SOUL-FILE-2) ---


def terrain_inputs(terrain: Terrain) -> dict[str, Any]:
    """The terrain as written in the inputs: squares as names, lists in order,
    each list only when it has something (orm's terrain is ``blocked`` alone)."""
    out: dict[str, Any] = {}
    if terrain.blocked:
        out["blocked"] = [square_name(s) for s in terrain.blocked]
    if terrain.barriers:
        out["barriers"] = [square_name(s) for s in terrain.barriers]
    if terrain.objects:
        out["objects"] = [{"square": square_name(o.square), "strength": o.strength, "armour": o.armour}
                          for o in terrain.objects]
    return out


def terrain_from_inputs(data: Mapping[str, Any]) -> Terrain:
    return Terrain(tuple(parse_square(s) for s in data.get("blocked", ())),
                   tuple(parse_square(s) for s in data.get("barriers", ())),
                   tuple(TerrainObject(parse_square(o["square"]), int(o["strength"]), int(o.get("armour", 0)))
                         for o in data.get("objects", ())))


def resolve_inputs(inputs: Mapping[str, Any], ruleset: Ruleset, seed: int | str, seed_source: str) -> Report:
    """Resolve normalised inputs with the engine and wrap the record as a report."""
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
