"""``referee template SHEET`` (issue 33): a plan skeleton that is a valid
plan as written, whose every offered clause is valid and lint-clean for its
sheet when uncommented, and whose variant clauses follow the ruleset."""

from __future__ import annotations

from pathlib import Path

import pytest

from referee.app.lint import lint_sheet_plan
from referee.app.template import render_template, template_lines
from referee.cli import main
from referee.diagnostics import display_width
from referee.plan.parser import parse_plan
from referee.ruleset import builtin_rulesets, load_ruleset
from referee.sheet import CharacterSheet, load_sheet, parse_sheet

ROOT = Path(__file__).resolve().parents[1]
GAUNTLETS = ROOT / "referee" / "data" / "gauntlets"
DEMO = ROOT / "referee" / "demo" / "sheets"


def _sheets(ruleset: str) -> list[Path]:
    return sorted((GAUNTLETS / ruleset).glob("*/*.yaml"))


def _with_plan(sheet: CharacterSheet, path: Path, plan: str, ruleset_name: str) -> tuple[CharacterSheet | None, list]:  # type: ignore[type-arg]
    """The sheet file again with ``plan`` as its inline plan, checked by the sheet loader."""
    text = path.read_text(encoding="utf-8")
    head = text.split("\nplan:", 1)[0].rstrip("\n")
    body = "\n".join(f"  {line}" for line in plan.splitlines())
    return parse_sheet(f"{head}\nplan: |\n{body}\n", str(path), load_ruleset(ruleset_name), path.parent)


@pytest.mark.parametrize("ruleset", builtin_rulesets())
def test_the_skeleton_is_a_valid_plan_and_every_offer_is_sound(ruleset: str) -> None:
    rules = load_ruleset(ruleset)
    for path in _sheets(ruleset)[::3]:  # one sheet of each army (their sheets are alike)
        sheet, diags = load_sheet(path, rules)
        assert sheet is not None, diags
        for lang in ("en", "ja"):
            lines = template_lines(sheet, rules, lang)
            text = render_template(lines)
            plan, problems = parse_plan(text, "skeleton.plan")
            assert problems == [] and plan is not None and plan.clauses == ()
            checked, found = _with_plan(sheet, path, text, ruleset)
            assert checked is not None and [d for d in found if d.is_error] == []
        offered = [line.clause for line in lines if line.clause is not None]
        assert offered, path
        for clause in offered:
            assert f"\n# {clause}\n" in text
            alone, found = _with_plan(sheet, path, clause, ruleset)
            assert alone is not None and found == [], (path, clause, found)
            assert lint_sheet_plan(alone, rules) == [], (path, clause)


def test_every_skill_is_described_with_cost_range_classes_and_default() -> None:
    rules = load_ruleset("tcgt")
    sheet, _ = load_sheet(DEMO / "ren.yaml", rules)
    assert sheet is not None
    lines = template_lines(sheet, rules)
    notes = [line.text for line in lines if line.clause is None]
    assert "1. Restore (修復〔レストア〕) [restore]: cost 水地, level 2, range 1, heal 回復, extend 拡大; targets allies" in notes
    defaults = [n for n in notes if n.startswith("   by default: ")]
    assert len(defaults) == len(sheet.skills)
    assert "never on an unhurt one (R-PLAN-1, R-PLAN-4)" in defaults[0]
    assert "3. Shield Mist (霧の防壁〔シールドミスト〕) [shield-mist]: cost 水風, level 2, range 0, passive 受動, defence 防御, maintain 維持; targets enemies" in notes
    assert defaults[2].endswith("fires when you are hit while its cost is unused, then stays maintained (R-SK-2)")
    assert "This sheet already has a plan (3 clause(s)); this skeleton does not repeat it." in notes
    text = render_template(lines)
    assert all(display_width(line) <= 100 for line in text.splitlines())
    assert "#    by default: used on the nearest ally in range who has lost HP (you included), never on an\n#      unhurt" in text


def test_variant_clauses_come_with_their_ruleset_only() -> None:
    """The same sheet under tcgt and under each variant: a variant's clause
    is offered exactly where the ruleset's mechanics give it (R-VAR-3)."""
    path = DEMO / "tomoe.yaml"
    offers, variant = {}, {}
    for name in builtin_rulesets():
        rules = load_ruleset(name)
        sheet, _ = load_sheet(path, rules)
        assert sheet is not None
        offers[name] = {line.clause for line in template_lines(sheet, rules) if line.clause}
        quarter = sheet.max_hp // 4
        variant[name] = {"focus when engaged", f"recover when hp <= {quarter}", "spare allies",
                         f"never follow up when hp <= {quarter}"}
    assert "focus when engaged" in offers["soulwired"]
    assert "recover when hp <= 4" in offers["d20pool"] and "grapple when not target grappled" in offers["d20pool"]
    assert "spare allies" in offers["wiz"]
    assert "never follow up when hp <= 10" in offers["orm"]
    for name, clauses in offers.items():
        assert len(clauses & variant[name]) == (0 if name == "tcgt" else 1), name


def test_orm_lists_the_innate_normal_attack() -> None:
    rules = load_ruleset("orm")
    sheet, _ = load_sheet(DEMO / "orm-kai.yaml", rules)
    assert sheet is not None
    lines = template_lines(sheet, rules)
    text = render_template(lines)
    assert "[normal-attack], every character's:" in text
    assert any(line.clause == "use normal-attack first when target hp <= 2" for line in lines)


def test_a_skill_whose_extension_cannot_be_paid_is_not_offered_extend() -> None:
    """Kagura's one water panel pays Rest but never an extra target: lint's
    extend-unpayable, so the skeleton does not offer `extend rest max`."""
    rules = load_ruleset("tcgt")
    sheet, _ = load_sheet(DEMO / "kagura.yaml", rules)
    assert sheet is not None
    offered = {line.clause for line in template_lines(sheet, rules) if line.clause}
    assert "use rest first when ally hp lost >= 3" in offered and "extend rest max" not in offered


def test_cli_writes_a_file_and_never_replaces_one_unasked(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "ren.plan"
    assert main(["template", str(DEMO / "ren.yaml"), "-o", str(out)]) == 0
    first = out.read_text(encoding="utf-8")
    assert first.startswith("# Plan skeleton for Ren")
    out.write_text("use rest first\n", encoding="utf-8")
    assert main(["template", str(DEMO / "ren.yaml"), "-o", str(out)]) == 1
    assert "error[output-exists]" in capsys.readouterr().err
    assert out.read_text(encoding="utf-8") == "use rest first\n"
    assert main(["template", str(DEMO / "ren.yaml"), "-o", str(out), "--force", "--lang", "ja"]) == 0
    assert out.read_text(encoding="utf-8").startswith("# Ren (")


def test_cli_on_a_broken_sheet_prints_its_diagnostics(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("name: Bad\nabilities: {body: 9, reflex: 9, intellect: 9}\npatterns: [火]\nskills: [rest]\n",
                   encoding="utf-8")
    assert main(["template", str(bad)]) == 1
    assert "error[ability-budget]" in capsys.readouterr().err
