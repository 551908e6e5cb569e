"""``referee check --lint``: load plans, sheets and battles for the plan linter.

:mod:`referee.plan.lint` judges; this module feeds it.  A plan file alone is
linted for what holds for any character; a sheet adds its skills, patterns
and HP; a battle adds the armies (their sizes and HP), so ``ally hp lost >= 20``
in an army whose largest HP is 16 is known never to hold.  A file that does
not load gets no lint warnings: ``check`` has already reported its errors.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from pathlib import Path

from referee.battlefile import Battle, load_battle, parse_plan_of
from referee.confine import working_root
from referee.diagnostics import Diagnostic
from referee.plan.check import resolve_plan
from referee.plan.lint import LintPattern, LintSheet, LintSkill, lint_plan, lint_sheet
from referee.plan.parser import parse_condition, parse_plan
from referee.plan.truth import Bounds, Range
from referee.ruleset import Ruleset, load_ruleset
from referee.diagnostics import ReferError
from referee.sheet import CharacterSheet, load_sheet

__all__ = ["lint_files", "lint_file", "lint_sheet_plan", "lint_battle"]


def lint_files(files: Sequence[str], ruleset_name: str = "tcgt") -> list[Diagnostic]:
    """The lint warnings of every file (none for a ruleset that does not load)."""
    try:
        ruleset = load_ruleset(ruleset_name)
    except ReferError:
        return []
    out: dict[tuple[object, ...], Diagnostic] = {}
    for name in files:
        for d in lint_file(Path(name), ruleset):
            # A sheet named on its own and through a battle is linted twice; say it once.
            out.setdefault((d.file, d.line, d.column, d.code, d.message), d)
    return list(out.values())


def lint_file(path: Path, ruleset: Ruleset) -> list[Diagnostic]:
    """One file's warnings, by the kind its name says (as ``check`` dispatches)."""
    lower = path.name.lower()
    if not path.is_file() or lower.endswith((".ruleset.yaml", ".ruleset.yml")):
        return []
    if lower.endswith(".plan"):
        return _with_sources(_lint_plan_file(path, ruleset))
    if lower.endswith((".battle.yaml", ".battle.yml")):
        battle, _ = load_battle(path)
        return _with_sources(lint_battle(battle)) if battle is not None else []
    if lower.endswith((".yaml", ".yml")):
        sheet, _ = load_sheet(path, ruleset, root=working_root(path))
        return _with_sources(_lint_character(sheet, ruleset, None)) if sheet is not None else []
    return []


def _base_bounds(ruleset: Ruleset) -> Bounds:
    return Bounds(turn=Range(1, ruleset.turn_limit))


def _lint_plan_file(path: Path, ruleset: Ruleset) -> list[Diagnostic]:
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return []
    plan, _ = parse_plan(text, str(path))
    plan, _ = resolve_plan(plan, ruleset.catalog)
    return lint_plan(plan, _base_bounds(ruleset), catalog=_lint_catalog(ruleset))


def _lint_skill(ruleset: Ruleset, skill_id: str) -> LintSkill:
    s = ruleset.catalog.get(skill_id)
    return LintSkill(s.id, s.label(), tuple(e.kanji for e in s.cost), s.level,
                     frozenset(str(c) for c in s.classes), str(s.targets))


def _lint_catalog(ruleset: Ruleset) -> dict[str, LintSkill]:
    return {s.id: _lint_skill(ruleset, s.id) for s in ruleset.catalog.skills}


def _lint_skills(sheet: CharacterSheet, ruleset: Ruleset) -> tuple[LintSkill, ...]:
    return tuple(_lint_skill(ruleset, skill_id) for skill_id in sheet.skills)


def _lint_patterns(sheet: CharacterSheet) -> tuple[LintPattern, ...]:
    out = []
    for p in sheet.patterns:
        cond = None
        if p.condition_text is not None:
            cond, _ = parse_condition(p.condition_text, sheet.file, p.condition_line, p.condition_column)
        out.append(LintPattern(tuple(e.kanji for e in p.elements), cond, p.line, p.column))
    return tuple(out)


def _army_range(hps: Sequence[int]) -> tuple[Range, Range, Range]:
    """HP, max HP and head count of a group (see :class:`Bounds` for why 0)."""
    return Range(0, max(hps)), Range(min(hps), max(hps)), Range(0, len(hps))


def _bounds_for(sheet: CharacterSheet, skills: tuple[LintSkill, ...], ruleset: Ruleset,
                battle: Battle | None) -> Bounds:
    bounds = dataclasses.replace(
        _base_bounds(ruleset), self_hp=Range(0, sheet.max_hp), self_max_hp=Range(sheet.max_hp, sheet.max_hp),
        own_classes=frozenset(c for s in skills for c in s.classes))
    if battle is None:
        return bounds
    team = next(e.team for e in battle.entries if e.sheet is sheet)
    own = [e.sheet.max_hp for e in battle.entries if e.team == team]
    foes = [e.sheet.max_hp for e in battle.entries if e.team != team]
    everyone = own + foes
    ally_hp, ally_max, allies = _army_range(own)
    target_hp, target_max, _ = _army_range(everyone)
    enemies = _army_range(foes)[2] if foes else Range(0, 0)
    return dataclasses.replace(bounds, ally_hp=ally_hp, ally_max_hp=ally_max, target_hp=target_hp,
                               target_max_hp=target_max, allies=allies, enemies=enemies)


def _lint_character(sheet: CharacterSheet, ruleset: Ruleset, battle: Battle | None) -> list[Diagnostic]:
    skills = _lint_skills(sheet, ruleset)
    army = None if battle is None else sum(1 for e in battle.entries
                                           if e.team == next(x.team for x in battle.entries if x.sheet is sheet))
    lint = LintSheet(sheet.file, sheet.name, skills, tuple(sheet.skill_lines), _lint_patterns(sheet), army,
                     panel_changes=battle is None or _panel_changes_in(battle))
    bounds = _bounds_for(sheet, skills, ruleset, battle)
    out = lint_sheet(lint, bounds)
    plan, _ = parse_plan_of(sheet)
    if plan is not None:
        plan, _ = resolve_plan(plan, ruleset.catalog)
        inline = sheet.plan_file in (None, sheet.file)
        for d in lint_plan(plan, bounds, lint, _lint_catalog(ruleset)):
            if inline and d.line:
                d = dataclasses.replace(d, file=sheet.file, line=d.line + sheet.plan_line_offset,
                                        column=d.column + (sheet.plan_column_offset if d.column else 0))
            out.append(d)
    return out


def lint_sheet_plan(sheet: CharacterSheet, ruleset: Ruleset) -> list[Diagnostic]:
    """The lint warnings of a loaded sheet and its plan, on their own (no
    battle): what ``referee check --lint SHEET`` says of it."""
    return _lint_character(sheet, ruleset, None)


def _panel_changes_in(battle: Battle) -> bool:
    """Whether anyone in the battle has a skill that turns panels to wind (R-ST-CHANGE)."""
    for entry in battle.entries:
        for skill_id in entry.sheet.skills:
            for effect in battle.ruleset.catalog.get(skill_id).effects:
                if effect.kind == "status" and effect.status == "change" and effect.object == "panel":
                    return True
    return False


def lint_battle(battle: Battle) -> list[Diagnostic]:
    """The lint warnings of every character of a loaded battle, knowing the
    armies (their sizes and HP)."""
    out: list[Diagnostic] = []
    for entry in battle.entries:
        out += _lint_character(entry.sheet, battle.ruleset, battle)
    return out


def _with_sources(diags: list[Diagnostic]) -> list[Diagnostic]:
    """The source line under each warning, for the caret display."""
    cache: dict[str, list[str]] = {}
    out = []
    for d in diags:
        if d.line and d.source_line is None:
            if d.file not in cache:
                try:
                    cache[d.file] = Path(d.file).read_text(encoding="utf-8").lstrip("\ufeff").splitlines()
                except (OSError, UnicodeDecodeError):
                    cache[d.file] = []
            lines = cache[d.file]
            if d.line <= len(lines):
                d = dataclasses.replace(d, source_line=lines[d.line - 1])
        out.append(d)
    return out
