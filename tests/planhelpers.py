"""Helpers shared by the plan tests: run the whole pipeline, assert diagnostics."""

from __future__ import annotations

from pathlib import Path

from referee.catalog import load_catalog
from referee.diagnostics import Diagnostic
from referee.plan.check import check_plan
from referee.plan.parser import parse_plan

BAD_PLANS = Path(__file__).parent / "bad_plans"


def plan_context(text: str) -> dict[str, object]:
    """Keyword arguments for check_plan from a ``# check: k=v ...`` first line
    (``intellect=1 skills=rest,slash characters=Kagura,Ash``)."""
    first = text.split("\n", 1)[0]
    out: dict[str, object] = {}
    if first.startswith("# check:"):
        for item in first[len("# check:"):].split():
            key, value = item.split("=", 1)
            if key == "intellect":
                out["intellect"] = int(value)
            elif key == "skills":
                out["skills"] = value.split(",")
            elif key == "characters":
                out["known_characters"] = value.split(",")
    return out


def diagnose(text: str, file: str = "t.plan") -> list[Diagnostic]:
    """Every diagnostic the parser and the semantic pass give ``text``."""
    plan, diags = parse_plan(text, file)
    diags = diags + check_plan(plan, catalog=load_catalog(), **plan_context(text))  # type: ignore[arg-type]
    return sorted(diags, key=lambda d: (d.line, d.column, d.code))


def assert_diagnostic(source: str, code: str, line: int, column: int) -> Diagnostic:
    """Exactly one diagnostic, with this code at this place (style lesson 12)."""
    diags = diagnose(source)
    assert [(d.code, d.line, d.column) for d in diags] == [(code, line, column)], diags
    return diags[0]


def expected_of(path: Path) -> list[tuple[str, int, int]]:
    """The ``code line column`` lines of a ``.expected`` file."""
    out = []
    for row in path.read_text(encoding="utf-8").splitlines():
        if row.strip() and not row.startswith("#"):
            code, line, column = row.split()
            out.append((code, int(line), int(column)))
    return out
