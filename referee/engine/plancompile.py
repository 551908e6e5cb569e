"""Compile plan ASTs (``referee.plan.ast``) into the engine's PlanRules.

Conditions become closures over :class:`CondContext` once per battle, so
the resolver never walks syntax at run time.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, cast

from referee.engine.rules import Condition, PlanRules


def compile_plan(plan: Any, ruleset: Any, allies: Iterable[str] = ()) -> PlanRules:
    """The engine's view of a parsed plan (``allies``: the names of the
    character's army, for ``only target NAME``, R-EXT-9).

    """
    if isinstance(plan, PlanRules):
        return plan
    from referee.engine.astcompile import compile_ast_plan

    return compile_ast_plan(plan, ruleset, allies)


def compile_pattern_condition(pattern: Any, sheet: Any, ruleset: Any) -> Condition | None:
    """R-PAT-2: a pattern's optional condition, compiled; None if it has none.

    A pattern object may carry an already compiled ``when`` (tests), or
    ``condition_text`` (sheets) parsed with the plan language.
    """
    when = getattr(pattern, "when", None)
    if callable(when):
        return cast(Condition, when)
    text = getattr(pattern, "condition_text", None)
    if not text:
        return None
    from referee.engine.astcompile import compile_condition_text

    return compile_condition_text(text, getattr(sheet, "file", "<sheet>"), getattr(pattern, "condition_line", 0),
                                  getattr(pattern, "condition_column", 0), ruleset)
