"""``referee check FILE...``: validate plans, sheets, battles and rulesets.

Every diagnostic of every file is printed (style lesson 11); the exit code is
1 when any is an error, 0 otherwise (warnings do not fail a check). A plan
checked on its own has no sheet: checks that need one (skills on the sheet,
the R-CHAR-4 clause count) are skipped; check the sheet to get them.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any, Sequence

from referee.diagnostics import Diagnostic, diagnostics_to_json, format_diagnostics, has_errors

EXAMPLE = """examples:
  referee check plans/*.plan             plans alone (no sheet-dependent checks)
  referee check sheets/kagura.yaml       a sheet and the plan it names
  referee check round3.battle.yaml       a battle, its ruleset, sheets and plans
  referee check house.ruleset.yaml --format json
"""


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "check",
        help="validate plans, character sheets, battle files and rulesets",
        description="Validate files and print every problem found; exit 1 if any is an error.",
        epilog=EXAMPLE,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("files", nargs="+", metavar="FILE", help="*.plan, *.yaml (sheet), *.battle.yaml, *.ruleset.yaml")
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

        diags += lint_files(args.files, args.ruleset)
    if args.format == "json":
        print(diagnostics_to_json(diags))
    elif diags:
        print(format_diagnostics(diags), file=sys.stderr)
    if args.format == "text":
        errors = sum(1 for d in diags if d.is_error)
        warnings = len(diags) - errors
        verdict = "ok" if not errors else "failed"
        print(f"{verdict}: {len(args.files)} file(s), {errors} error(s), {warnings} warning(s)",
              file=sys.stderr if errors else sys.stdout)
    return 1 if has_errors(diags) else 0


def check_files(files: Sequence[str], ruleset_name: str = "tcgt") -> list[Diagnostic]:
    """Every diagnostic of ``files``, each checked by the kind its name says."""
    out: list[Diagnostic] = []
    ruleset, ruleset_diags = _ruleset(ruleset_name)
    out += ruleset_diags
    for name in files:
        out += check_file(name, ruleset)
    return out


def check_file(name: str, ruleset: Any) -> list[Diagnostic]:
    """One file's diagnostics, dispatched on its name."""
    path = Path(name)
    if not path.is_file():
        return [Diagnostic(name, 0, 0, "file-not-found", f"no such file: {name}")]
    lower = path.name.lower()
    if lower.endswith(".plan"):
        return check_plan_file(path, ruleset)
    if lower.endswith(".battle.yaml") or lower.endswith(".battle.yml"):
        return _check_battle(path)
    if lower.endswith(".ruleset.yaml") or lower.endswith(".ruleset.yml"):
        return _ruleset(str(path))[1]
    if lower.endswith((".yaml", ".yml")):
        return _check_sheet(path, ruleset)
    return [Diagnostic(name, 0, 0, "unknown-file-kind",
                       "cannot tell what this file is; name it *.plan, *.yaml (sheet), *.battle.yaml or *.ruleset.yaml")]


def check_plan_file(path: Path, ruleset: Any) -> list[Diagnostic]:
    """A plan on its own: syntax and names (no sheet: no R-CHAR-4 count)."""
    from referee.plan.check import check_plan
    from referee.plan.parser import parse_plan

    shown = str(path)
    try:
        text = path.read_bytes().decode("utf-8")
    except UnicodeDecodeError as err:
        return [Diagnostic(shown, 0, 0, "not-utf8", f"the file is not UTF-8 text ({err.reason} at byte {err.start})")]
    except OSError as err:
        return [Diagnostic(shown, 0, 0, "unreadable", f"cannot read the file: {err.strerror}")]
    plan, diags = parse_plan(text, shown)
    catalog = ruleset.catalog if ruleset is not None else None
    diags += check_plan(plan, catalog=catalog)
    return _with_sources(diags, text)


def _with_sources(diags: list[Diagnostic], text: str) -> list[Diagnostic]:
    """Fill in the source line of diagnostics that lack it (for the caret)."""
    lines = text.lstrip("\ufeff").replace("\r\n", "\n").split("\n")
    out = []
    for d in diags:
        if d.source_line is None and 0 < d.line <= len(lines):
            d = Diagnostic(d.file, d.line, d.column, d.code, d.message, d.hint, d.severity, lines[d.line - 1])
        out.append(d)
    return out


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
    from referee.sheet import load_sheet

    # Checked on its own, a sheet's plan may be anywhere under the folder the
    # player works in (``sheets/a.yaml`` with ``plan: ../plans/a.plan``); a
    # battle file still keeps every path inside its own folder tree.
    here = Path.cwd().resolve()
    try:
        root = here if path.resolve().is_relative_to(here) else None
    except OSError:
        root = None
    _, diags = load_sheet(path, ruleset, root=root)
    return list(diags)


def _check_battle(path: Path) -> list[Diagnostic]:
    from referee.battlefile import check_battle_file

    return list(check_battle_file(path))
