"""The plan language (interfaces.md "Plan file", rules.md R-PLAN-*).

Stages (style lesson 9): ``grammar/plan.lark`` -> :mod:`.parser` (lark, errors
translated into diagnostics) -> :mod:`.transformer` -> the frozen AST of
:mod:`.ast` -> the semantic pass of :mod:`.check` -> the engine. The public API:

* :func:`parse_plan` ``(text, file, line_offset) -> (Plan, diagnostics)``
* :func:`parse_condition` ``(text, file, line, column) -> (Condition | None, diagnostics)``
* :func:`check_plan` ``(plan, sheet=None, catalog=None, *, skills, intellect, ...) -> diagnostics``
* :func:`resolve_plan` ``(plan, catalog) -> (Plan with skill ids, diagnostics)``
* :func:`format_plan` / :func:`format_condition` -- the pretty-printer.

The language itself is documented in docs/plan-language.md.
"""

from __future__ import annotations

from typing import Any, Sequence

from referee.diagnostics import Diagnostic
from referee.plan import ast
from referee.plan import check as _check
from referee.plan import parser as _parser
from referee.plan.ast import Condition, Plan
from referee.plan.check import resolve_plan
from referee.plan.format import format_clause, format_condition, format_plan
from referee.plan.parser import iter_conditions, parse_condition

def parse_plan(text: str, file: str = "<string>", line_offset: int = 0) -> tuple[Plan | None, list[Diagnostic]]:
    """Parse a plan: see :func:`referee.plan.parser.parse_plan`."""
    return _parser.parse_plan(text, file, line_offset)


def check_plan(
    plan: Plan | None,
    sheet: Any = None,
    catalog: Any = None,
    *,
    skills: Sequence[str] | None = None,
    intellect: int | None = None,
    max_clauses_per_intellect: int = 2,
    known_characters: Sequence[str] | None = None,
    board: Any = None,
    features: Any = None,
) -> list[Diagnostic]:
    """The semantic pass: see :func:`referee.plan.check.check_plan` (no plan: nothing)."""
    if plan is None:
        return []
    return _check.check_plan(plan, sheet, catalog, skills=skills, intellect=intellect,
                             max_clauses_per_intellect=max_clauses_per_intellect,
                             known_characters=known_characters, board=board, features=features)

__all__ = [
    "Condition",
    "Plan",
    "ast",
    "check_plan",
    "format_clause",
    "format_condition",
    "format_plan",
    "iter_conditions",
    "parse_condition",
    "parse_plan",
    "resolve_plan",
]
