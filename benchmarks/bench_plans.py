"""Parse and check 1,000 plans; print the time (goal: well under 2 s).

Run: python benchmarks/bench_plans.py [N]. The plans are the examples in
plans/ cycled (the grammar is built once before timing; its build time is
printed separately). Not a timed test: a figure to watch.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

from referee.catalog import load_catalog
from referee.plan.check import check_plan
from referee.plan.parser import parse_plan, plan_parser

ROOT = Path(__file__).resolve().parent.parent


def main(n: int = 1000) -> None:
    from lark import Lark

    from referee.plan.parser import PARSER_OPTIONS, _grammar_text

    t0 = time.perf_counter()
    Lark(_grammar_text(), **PARSER_OPTIONS)
    build = time.perf_counter() - t0
    t0 = time.perf_counter()
    plan_parser()
    catalog = load_catalog()
    ready = time.perf_counter() - t0
    texts = [p.read_text(encoding="utf-8") for p in sorted((ROOT / "plans").glob("*.plan"))]
    bad = (ROOT / "tests" / "bad_plans" / "several_errors.plan").read_text(encoding="utf-8")
    batch = [texts[i % len(texts)] for i in range(n)]
    clauses = 0
    t0 = time.perf_counter()
    for i, text in enumerate(batch):
        plan, diags = parse_plan(text, f"p{i}.plan")
        diags += check_plan(plan, catalog=catalog, intellect=3, skills=("rest", "eruption"))
        clauses += len(plan.clauses)
    good = time.perf_counter() - t0
    t0 = time.perf_counter()
    for i in range(n):
        plan, diags = parse_plan(bad, f"b{i}.plan")
        diags += check_plan(plan, catalog=catalog)
    broken = time.perf_counter() - t0
    print(f"grammar build: {build:.3f} s; parser and catalogue ready from the per-user cache: {ready:.3f} s "
          "(once per process)")
    print(f"{n} valid plans ({clauses} clauses) parsed + checked: {good:.3f} s ({good / n * 1e3:.2f} ms/plan)")
    print(f"{n} plans with 5 errors each (line-by-line recovery): {broken:.3f} s")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 1000)
