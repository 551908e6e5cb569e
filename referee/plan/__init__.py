"""The plan language (interfaces.md "Plan file"): AST, parser, semantic checks.

INTERIM (first commit): only the AST (:mod:`referee.plan.ast`) is final. The
parser lands in the next commits; until then the public functions behave as if
the plan module were absent (no plan = the rules' defaults, no diagnostics), so
the sheet loader and the engine keep working. Public API (final):
``parse_plan``, ``parse_condition``, ``check_plan``, ``resolve_plan``,
``format_plan``.
"""

from __future__ import annotations

from typing import Any

from referee.diagnostics import Diagnostic


def parse_plan(text: str, file: str = "<string>", line_offset: int = 0) -> tuple[Any, list[Diagnostic]]:
    """INTERIM: not parsed yet (returns no plan)."""
    return None, []


def parse_condition(text: str, file: str = "<string>", line: int = 1, column: int = 1) -> tuple[Any, list[Diagnostic]]:
    """INTERIM: not parsed yet (returns no condition)."""
    return None, []


def check_plan(plan: Any, *args: Any, **kwargs: Any) -> list[Diagnostic]:
    """INTERIM: no checks yet."""
    return []
