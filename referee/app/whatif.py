"""What if: the same battle and seed with another plan or sheet for someone.

``referee whatif BATTLE --plan Kagura=alt.plan`` answers "would my other plan
have done better?" without luck muddying the answer: both battles are
resolved from the same seed, so they draw from the same streams (R-RNG-1)
and part ways only where the change makes a decision come out differently
(:mod:`referee.app.divergence` says where and why).

The alternative plan or sheet is checked like any other (syntax, skills on
the sheet, R-CHAR-4, names of the battle); every problem is reported at once.
An alternative sheet keeps the character's name, so ``setup`` and ``order``
still mean the same.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from pathlib import Path

from referee.app.inputs import battle_inputs, resolve_inputs
from referee.app.pipeline import choose_seed
from referee.battlefile import Battle, BattleEntry, load_battle, parse_plan_of
from referee.diagnostics import Diagnostic, ReferError, has_errors
from referee.plan.parser import parse_plan
from referee.plan.check import check_plan
from referee.report.record import Report
from referee.sheet import CharacterSheet, load_sheet

__all__ = ["WhatIf", "parse_assignment", "alternative_battle", "run_whatif"]


@dataclasses.dataclass(frozen=True)
class WhatIf:
    """The battle as filed and as changed, resolved from one seed."""

    original: Report
    changed: Report


def parse_assignment(text: str, option: str) -> tuple[str, str]:
    """``NAME=PATH`` of ``--plan`` / ``--sheet``.

    :raises ReferError: without ``=`` or with an empty side.
    """
    name, sep, path = text.partition("=")
    if not sep or not name.strip() or not path.strip():
        raise ReferError([Diagnostic(option, 0, 0, "bad-option", f"{option} {text!r}: expected NAME=PATH",
                                     hint=f"for example {option} Kagura=kagura-alt.plan")])
    return name.strip(), path.strip()


def _entry_named(battle: Battle, name: str, option: str) -> BattleEntry:
    for entry in battle.entries:
        if entry.name == name:
            return entry
    raise ReferError([Diagnostic(option, 0, 0, "unknown-character", f"no character called '{name}' in this battle",
                                 hint="names: " + ", ".join(e.name for e in battle.entries))])


def _with_plan(battle: Battle, entry: BattleEntry, path: Path) -> tuple[BattleEntry, list[Diagnostic]]:
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as err:
        return entry, [Diagnostic(str(path), 0, 0, "file-not-found", f"cannot read {path}: {err}")]
    plan, diags = parse_plan(text, str(path))
    diags += check_plan(plan, catalog=battle.ruleset.catalog, skills=entry.sheet.skills,
                        intellect=entry.sheet.intellect,
                        max_clauses_per_intellect=battle.ruleset.max_clauses_per_intellect,
                        known_characters=[e.name for e in battle.entries],
                        features=battle.ruleset.features)
    sheet = dataclasses.replace(entry.sheet, plan_text=text, plan_file=str(path),
                                plan_line_offset=0, plan_column_offset=0)
    return _entry_for(entry, sheet), diags


def _entry_for(entry: BattleEntry, sheet: CharacterSheet) -> BattleEntry:
    plan, _ = parse_plan_of(sheet)
    return dataclasses.replace(entry, sheet=sheet, plan=plan)


def _with_sheet(battle: Battle, entry: BattleEntry, path: Path) -> tuple[BattleEntry, list[Diagnostic]]:
    sheet, diags = load_sheet(path, battle.ruleset)
    if sheet is None or has_errors(diags):
        return entry, diags
    if sheet.name != entry.name:
        return entry, [Diagnostic(str(path), 0, 0, "name-changed",
                                  f"the alternative sheet is called '{sheet.name}', not '{entry.name}'",
                                  hint="keep the name, so the battle's setup and order still mean the same")]
    return dataclasses.replace(_entry_for(entry, sheet), path=str(path)), diags


def alternative_battle(battle: Battle, plans: Mapping[str, str], sheets: Mapping[str, str]) -> Battle:
    """``battle`` with the given characters' sheets, then plans, replaced.

    :raises ReferError: every problem of every alternative file at once.
    """
    problems: list[Diagnostic] = []
    entries = {e.name: e for e in battle.entries}
    for name, path in sheets.items():
        entry, diags = _with_sheet(battle, _entry_named(battle, name, "--sheet"), Path(path))
        entries[name] = entry
        problems += diags
    for name, path in plans.items():
        _entry_named(battle, name, "--plan")
        entry, diags = _with_plan(battle, entries[name], Path(path))
        entries[name] = entry
        problems += diags
    if has_errors(problems):
        raise ReferError(problems)
    return dataclasses.replace(battle, entries=tuple(entries[e.name] for e in battle.entries))


def run_whatif(path: str | Path, plans: Mapping[str, str], sheets: Mapping[str, str],
               seed: int | str | None = None) -> WhatIf:
    """Resolve the battle as filed and as changed, from one seed (``seed``,
    else the file's, else one drawn and used for both).

    :raises ReferError: the battle or an alternative file is invalid.
    """
    battle, diags = load_battle(path)
    if battle is None or has_errors(diags):
        raise ReferError(diags)
    changed = alternative_battle(battle, plans, sheets)
    used, source = choose_seed(seed, battle.seed)
    return WhatIf(resolve_inputs(battle_inputs(battle), battle.ruleset, used, source),
                  resolve_inputs(battle_inputs(changed), changed.ruleset, used, source))
