"""``referee check --lint`` (issue 16, item 1): the corpus of linted plans,
no lint warning on the bundled plans, and every warning on the bundled
sheets and battles confirmed by the engine (a warning must never be false)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from referee.app.inputs import battle_inputs, resolve_inputs
from referee.app.lint import lint_files
from referee.battlefile import load_battle
from referee.cli import main
from referee.plan import ast as A
from referee.plan.truth import Bounds, Range, implies, op_holds, truth

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "tests" / "lint_corpus"
CASES = sorted(p for p in CORPUS.iterdir() if p.suffix in (".yaml", ".plan") and p.is_file())
LINT_CODES = {"shadowed-clause", "condition-never-holds", "condition-always-holds", "cost-unpayable",
              "cost-held-by-maintained", "extend-unpayable", "pattern-never-active", "heal-never-fires",
              "counter-allies-without-counter", "clause-without-effect"}


def expected_for(case: Path) -> list[tuple[str, int, int]]:
    stem = case.name.removesuffix(".battle.yaml").removesuffix(".yaml").removesuffix(".plan")
    rows = (CORPUS / f"{stem}.expected").read_text(encoding="utf-8").split("\n")
    return sorted((code, int(line), int(col)) for code, line, col in (r.split() for r in rows if r.strip()))


@pytest.mark.parametrize("case", CASES, ids=lambda p: p.name)
def test_lint_corpus(case: Path) -> None:
    warnings = lint_files([str(case)])
    assert all(w.severity == "warning" and w.code in LINT_CODES for w in warnings)
    assert all(re.search(r"R-[A-Z]+-\d", w.message) or w.code.startswith("condition-") for w in warnings), warnings
    assert sorted((w.code, w.line, w.column) for w in warnings) == expected_for(case)


def test_every_corpus_case_has_its_expectations() -> None:
    assert {p.stem for p in CORPUS.glob("*.expected")} == {
        p.name.removesuffix(".battle.yaml").removesuffix(".yaml").removesuffix(".plan") for p in CASES}


def test_the_bundled_plans_get_no_false_lint_warning() -> None:
    """One warning, and it is true: plans/conditions.plan moves a passive to
    the top of the walk, and its own comment says that only reorders."""
    plans = sorted(str(p) for p in (ROOT / "plans").glob("*.plan"))
    found = [(Path(w.file).name, w.line, w.code) for w in lint_files(plans)]
    assert found == [("conditions.plan", 7, "clause-without-effect")]
    assert "passive: never used actively" in (ROOT / "plans" / "conditions.plan").read_text(encoding="utf-8")


def _battles() -> list[Path]:
    return sorted((ROOT / "fixtures").glob("*.battle.yaml")) + [ROOT / "referee" / "demo" / "demo.battle.yaml",
                                                                CORPUS / "solo.battle.yaml"]


def _skill_id(message: str) -> str:
    found = re.search(r"'([a-z-]+)' \(", message)
    assert found, message
    return found.group(1)


@pytest.mark.parametrize("path", _battles(), ids=lambda p: p.name)
def test_warnings_on_bundled_battles_are_true_in_the_engine(path: Path) -> None:
    """Each warning the lint gives a bundled battle is a claim about every
    battle; check it on the events of a few seeds (the fixtures' sheets have
    real findings: second default patterns, skills no active pattern pays)."""
    battle, _ = load_battle(path)
    assert battle is not None
    warnings = lint_files([str(path)])
    by_file = {e.sheet.file: e.sheet.name for e in battle.entries}
    inputs = battle_inputs(battle)
    events = [e.to_json() for seed in range(6)
              for e in resolve_inputs(inputs, battle.ruleset, f"lint-{seed}", "option").events]
    checked = 0
    for w in warnings:
        name = by_file.get(w.file)
        if w.code == "pattern-never-active":
            index = int(re.search(r"pattern (\d+)", w.message).group(1)) - 1  # type: ignore[union-attr]
            assert not any(e["type"] == "pattern_selected" and e["actor"] == name and e["pattern"] == index
                           for e in events), w
        elif w.code == "cost-unpayable":
            skill = _skill_id(w.message)
            assert not any(e.get("actor") == name and e.get("skill") == skill and e["type"] in
                           ("skill_used", "reaction", "obstructed", "maintain_started") for e in events), w
        elif w.code == "cost-held-by-maintained":
            skill, holder = _skill_id(w.message), re.findall(r"'([a-z-]+)' \(", w.message)[1]
            held = False
            for e in events:
                if e["type"] == "battle_start":
                    held = False  # the next seed's battle
                if e.get("actor") != name:
                    continue
                if e["type"] == "maintain_started" and e["skill"] == holder:
                    held = True
                elif e["type"] == "maintain_released" and e["skill"] == holder:
                    held = False
                elif e["type"] in ("skill_used", "reaction") and e["skill"] == skill:
                    assert not held, w
        elif "is passive: the skill walk skips it" in w.message:
            name = next(e.sheet.name for e in battle.entries if e.sheet.plan_file == w.file or e.sheet.file == w.file)
            skill = _skill_id(w.message)
            assert not any(e["type"] == "skill_used" and e["actor"] == name and e["skill"] == skill for e in events)
        elif w.code in ("shadowed-clause", "heal-never-fires", "condition-never-holds", "clause-without-effect"):
            entry = next(e for e in battle.entries if w.file in (e.sheet.file, e.sheet.plan_file))
            name = entry.sheet.name
            line = w.line - (entry.sheet.plan_line_offset if w.file == entry.sheet.file else 0)
            assert not any(e.get("actor") == name and (e.get("line") == line or line in e.get("moved_by", ()))
                           for e in events), w
        checked += 1
    assert checked == len(warnings)


def test_check_lint_on_the_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    case = str(CORPUS / "shadowed.yaml")
    assert main(["check", case]) == 0
    assert "shadowed-clause" not in capsys.readouterr().err
    assert main(["check", "--lint", case]) == 0  # warnings do not fail a check
    captured = capsys.readouterr()
    assert f"{case}:9:3: warning[shadowed-clause]: this clause never decides anything: line 1" in captured.err
    assert "R-PLAN-5" in captured.err and "ok: 1 file(s), 0 error(s), 5 warning(s)" in captured.out


# ------------------------------------------------------------ the logic


NUMERIC = st.builds(lambda q, op, n: A.Compare("self", q, op, n), st.sampled_from(["hp", "hp_lost", "max_hp"]),
                    st.sampled_from(A.OPS), st.integers(0, 40))


def conditions(depth: int = 2) -> st.SearchStrategy[A.Condition]:
    if depth == 0:
        return NUMERIC
    inner = conditions(depth - 1)
    return st.one_of(NUMERIC, st.builds(A.Not, inner),
                     st.builds(lambda a, b: A.And((a, b)), inner, inner),
                     st.builds(lambda a, b: A.Or((a, b)), inner, inner))


def holds(c: A.Condition, hp: int, max_hp: int) -> bool:
    if isinstance(c, A.Compare):
        x = {"hp": hp, "hp_lost": max_hp - hp, "max_hp": max_hp}[c.quantity]
        return op_holds(x, c.op, c.value)
    if isinstance(c, A.Not):
        return not holds(c.operand, hp, max_hp)
    if isinstance(c, A.And):
        return all(holds(p, hp, max_hp) for p in c.parts)
    assert isinstance(c, A.Or)
    return any(holds(p, hp, max_hp) for p in c.parts)


@given(conditions(), st.integers(4, 24))
def test_truth_is_never_wrong(cond: A.Condition, max_hp: int) -> None:
    bounds = Bounds(self_hp=Range(0, max_hp), self_max_hp=Range(max_hp, max_hp))
    verdict = truth(cond, bounds)
    if verdict is not None:
        assert all(holds(cond, hp, max_hp) == verdict for hp in range(0, max_hp + 1))


@given(conditions(), conditions(), st.integers(4, 24))
def test_implies_is_never_wrong(a: A.Condition, b: A.Condition, max_hp: int) -> None:
    if implies(a, b):
        assert all(holds(b, hp, max_hp) for hp in range(0, max_hp + 1) if holds(a, hp, max_hp))


def test_implies_examples() -> None:
    ge5, ge3 = A.Compare("ally", "hp_lost", ">=", 5), A.Compare("ally", "hp_lost", ">=", 3)
    assert implies(ge5, ge3) and not implies(ge3, ge5)
    assert implies(A.And((ge5, A.Engaged())), ge3) and implies(ge5, A.Or((A.Engaged(), ge3)))
    assert not implies(A.Compare("self", "hp_lost", ">=", 5), ge3)  # another subject


def test_lint_never_raises_on_any_plan() -> None:
    """Style lesson 15: arbitrary plans (the grammar-shaped strategy of
    test_plan_properties) give warnings, never an exception."""
    from hypothesis import settings

    from referee.plan.lint import lint_plan
    from test_plan_properties import plans

    @settings(max_examples=150)
    @given(plans)
    def check(plan: A.Plan) -> None:
        for w in lint_plan(plan, Bounds()):
            assert w.severity == "warning" and w.code in LINT_CODES

    check()
