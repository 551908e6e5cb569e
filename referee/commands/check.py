"""``referee check FILE...``: validate plans, sheets, battles and rulesets.

Every diagnostic of every file is printed (style lesson 11); the exit code is
1 when any is an error, 0 otherwise (warnings do not fail a check). A plan
checked on its own has no sheet: checks that need one (skills on the sheet,
the R-CHAR-4 clause count) are skipped; check the sheet to get them.
"""

from __future__ import annotations

import argparse
import stat
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any, Sequence

from referee.app.tournament import TOURNAMENT_FILE, check_tournament_file
from referee.confine import UnsafePathError, confine, problem_diagnostic, read_untrusted_text
from referee.diagnostics import (
    Diagnostic, diagnostics_to_json, distinct, format_diagnostics, has_errors, with_source_lines,
)

EXAMPLE = """examples:
  referee check plans/*.plan             plans alone (no sheet-dependent checks)
  referee check sheets/kagura.yaml       a sheet and the plan it names
  referee check round3.battle.yaml       a battle, its ruleset, sheets and plans
  referee check house.ruleset.yaml --format json
  referee check cup/tournament.yaml       a tournament's roster, rounds and rules
  referee check rounds/3/                every battle of a round, as batch would resolve them
"""


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "check",
        help="validate plans, character sheets, battle files and rulesets",
        description="Validate files and print every problem found; exit 1 if any is an error.",
        epilog=EXAMPLE,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("files", nargs="+", metavar="FILE",
                        help="*.plan, *.yaml (sheet), *.battle.yaml, *.ruleset.yaml, or a round folder (its battles)")
    parser.add_argument("--format", choices=("text", "json"), default="text", help="output format (default: text)")
    parser.add_argument("--ruleset", default="tcgt", metavar="NAME|PATH",
                        help="ruleset for sheets and plans (default: tcgt)")
    parser.add_argument("--lint", action="store_true",
                        help="also warn about plans that will not do what their author thinks (see docs/lint.md)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    diags = check_files(args.files, args.ruleset)
    if args.lint:
        from referee.app.lint import lint_files

        diags = distinct(diags + lint_files(args.files, args.ruleset))
    if args.format == "json":
        print(diagnostics_to_json(diags))
    elif diags:
        print(format_diagnostics(diags), file=sys.stderr)
    if args.format == "text":
        errors = sum(1 for d in diags if d.is_error)
        warnings = len(diags) - errors
        verdict = "ok" if not errors else "failed"
        print(f"{verdict}: {_checked(args.files)}, {errors} error(s), {warnings} warning(s)",
              file=sys.stderr if errors else sys.stdout)
    return 1 if has_errors(diags) else 0


def _is_folder(name: str) -> bool:
    """Whether ``name`` is a folder; a name the system refuses (too long,
    a NUL byte) is not one -- its own diagnostic says why."""
    try:
        return Path(name).is_dir()
    except (OSError, ValueError):
        return False


def _checked(files: Sequence[str]) -> str:
    """What was checked, for the summary line: files, and the battles of folders."""
    from referee.app.batch import find_battles

    folders = [f for f in files if _is_folder(f)]
    parts = [f"{len(files) - len(folders)} file(s)"] if len(folders) < len(files) else []
    if folders:
        parts.append(f"{sum(len(find_battles(f)) for f in folders)} battle(s) in {len(folders)} folder(s)")
    return ", ".join(parts)


def check_files(files: Sequence[str], ruleset_name: str = "tcgt") -> list[Diagnostic]:
    """Every diagnostic of ``files``, each checked by the kind its name says,
    each once (a plan named beside the sheet that names it is read twice)."""
    out: list[Diagnostic] = []
    ruleset, ruleset_diags = _ruleset(ruleset_name)
    out += ruleset_diags
    for name in files:
        out += check_file(name, ruleset)
    return distinct(out)


def check_file(name: str, ruleset: Any) -> list[Diagnostic]:
    """One file's diagnostics, dispatched on its name."""
    path = Path(name)
    try:
        confine(path, path.absolute().parent, name)  # a symlink may not lead out of its folder
        mode = path.stat().st_mode
    except UnsafePathError as err:
        return [problem_diagnostic(err.problem, name)]
    except FileNotFoundError:
        return [Diagnostic(name, 0, 0, "file-not-found", f"no such file: {name}")]
    except OSError as err:
        return [Diagnostic(name, 0, 0, "unreadable", f"cannot read {name}: {err.strerror or err}")]
    if stat.S_ISDIR(mode):
        return _check_folder(path)
    if not stat.S_ISREG(mode):
        return [Diagnostic(name, 0, 0, "not-a-file", f"{name} is not a regular file (a FIFO or device); it was not read")]
    lower = path.name.lower()
    if lower.endswith(".plan"):
        return check_plan_file(path, ruleset)
    if lower.endswith(".battle.yaml") or lower.endswith(".battle.yml"):
        return _check_battle(path)
    if lower.endswith(".ruleset.yaml") or lower.endswith(".ruleset.yml"):
        return _ruleset(str(path))[1]
    if lower == TOURNAMENT_FILE:
        return check_tournament_file(path)
    if lower.endswith((".yaml", ".yml")):
        return _check_sheet(path, ruleset)
    return [Diagnostic(name, 0, 0, "unknown-file-kind",
                       "cannot tell what this file is; name it *.plan, *.yaml (sheet), *.battle.yaml or *.ruleset.yaml")]


def check_plan_file(path: Path, ruleset: Any) -> list[Diagnostic]:
    """A plan on its own: syntax and names (no sheet: no R-CHAR-4 count)."""
    from referee.plan.check import check_plan
    from referee.plan.parser import parse_plan

    shown = str(path)
    text, problems = read_untrusted_text(path, shown=shown)
    if text is None:
        return problems
    plan, diags = parse_plan(text, shown)
    catalog = ruleset.catalog if ruleset is not None else None
    board = ruleset.map if ruleset is not None else None
    features = ruleset.features if ruleset is not None else None
    diags += check_plan(plan, catalog=catalog, board=board, features=features)
    return with_source_lines(diags, text)


def _ruleset(name: str) -> tuple[Any, list[Diagnostic]]:
    from referee.diagnostics import ReferError
    from referee.ruleset import load_ruleset

    try:
        return load_ruleset(name), []
    except ReferError as err:
        return None, list(err.diagnostics)


def _check_sheet(path: Path, ruleset: Any) -> list[Diagnostic]:
    if ruleset is None:
        return []  # the ruleset's own diagnostics are already reported
    from referee.sheet import load_sheet, never_active_patterns

    from referee.confine import working_root

    sheet, diags = load_sheet(path, ruleset, root=working_root(path))
    return list(diags) + (never_active_patterns(sheet) if sheet is not None else [])


def _check_folder(path: Path) -> list[Diagnostic]:
    """A round folder: every battle file under it, as ``referee batch`` would
    resolve them (each with its sheets and plans); none is an error."""
    from referee.app.batch import find_battles, no_battle_error

    battles = find_battles(path)
    if not battles:
        return list(no_battle_error(path).diagnostics)
    return [d for battle in battles for d in _check_battle(battle)]


def _check_battle(path: Path) -> list[Diagnostic]:
    from referee.battlefile import load_battle
    from referee.sheet import never_active_patterns

    battle, diags = load_battle(path)
    seen = set()
    for entry in battle.entries if battle is not None else ():
        if entry.sheet.file not in seen:  # a sheet listed twice is warned about once
            seen.add(entry.sheet.file)
            diags += never_active_patterns(entry.sheet)
    return list(diags)
