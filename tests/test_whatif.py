"""``referee whatif`` and ``referee diff``: the first decision where two
battles part ways, named with its clause (issue 16, item 3)."""

from __future__ import annotations

from pathlib import Path

import pytest

from referee.app.divergence import first_divergence
from referee.app.pipeline import resolve_file
from referee.app.whatif import parse_assignment, run_whatif
from referee.cli import main
from referee.diagnostics import ReferError

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
MELEE = FIXTURES / "melee.battle.yaml"
#: Kagura's plan in fixtures/sheets/kagura.yaml, with one condition made stricter (>= 2 becomes >= 3).
STRICTER = ("use rest first when ally hp lost >= 5\n"
            "use eruption only when enemies in range >= 3\n"
            "stack avenger when hp <= 6\n")


@pytest.fixture
def stricter(tmp_path: Path) -> Path:
    path = tmp_path / "kagura-stricter.plan"
    path.write_text(STRICTER, encoding="utf-8")
    return path


def test_whatif_names_the_planted_clause_and_its_condition(stricter: Path) -> None:
    outcome = run_whatif(MELEE, {"Kagura": str(stricter)}, {})
    assert outcome.original.seed == outcome.changed.seed == 66
    div = first_divergence(outcome.original, outcome.changed)
    assert div is not None and div.kind == "decision" and div.actor == "Kagura"
    assert div.a is not None and div.b is not None
    assert (div.a["type"], div.b["type"]) == ("targets_chosen", "skill_passed")
    assert div.b["reason"] == "condition_false" and div.b["line"] == 2
    # Everything before the divergence is the same: same seed, same streams.
    assert outcome.original.events[:div.index] == outcome.changed.events[:div.index]


def test_whatif_cli_says_why_in_words(stricter: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["whatif", str(MELEE), "--plan", f"Kagura={stricter}"]) == 0
    out = capsys.readouterr().out
    assert "seed 66 for both battles" in out
    assert "- use eruption only when enemies in range >= 2   (only in as filed)" in out
    assert "+ use eruption only when enemies in range >= 3   (only in what if)" in out
    assert "The battles part ways at event 165, turn 1, in Kagura's action (a decision):" in out
    assert ("what if: Kagura passed over Eruption (爆撃): the clause's condition did not hold, decided by "
            'line 2 of Kagura\'s plan: "use eruption only when enemies in range >= 3"') in out
    assert "as filed: Kagura aimed Eruption (爆撃) at" in out
    table = out.split("Outcomes:\n")[1].splitlines()
    assert table[0].split() == ["as", "filed", "what", "if"] and table[1].startswith("winner")


def test_the_same_plan_changes_nothing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    same = tmp_path / "same.plan"
    same.write_text(STRICTER.replace(">= 3", ">= 2"), encoding="utf-8")
    assert main(["whatif", str(MELEE), "--plan", f"Kagura={same}"]) == 0
    out = capsys.readouterr().out
    assert "The inputs are the same." in out and "identical, event for event" in out


def test_a_broken_alternative_plan_is_every_diagnostic(tmp_path: Path) -> None:
    bad = tmp_path / "bad.plan"
    bad.write_text("use eruptoin first\ntarget Nobody\nnever use rest when\n", encoding="utf-8")
    with pytest.raises(ReferError) as err:
        run_whatif(MELEE, {"Kagura": str(bad)}, {})
    found = sorted((d.line, d.code) for d in err.value.diagnostics)
    assert (1, "unknown-skill") in found and (2, "unknown-character") in found and any(line == 3 for line, _ in found)
    assert all(d.file == str(bad) for d in err.value.diagnostics)


def test_unknown_names_and_bad_options(tmp_path: Path, stricter: Path) -> None:
    with pytest.raises(ReferError) as err:
        run_whatif(MELEE, {"Kagrua": str(stricter)}, {})
    assert err.value.diagnostics[0].code == "unknown-character"
    with pytest.raises(ReferError):
        parse_assignment("Kagura", "--plan")
    assert parse_assignment(" Kagura = a.plan", "--plan") == ("Kagura", "a.plan")


def test_an_alternative_sheet_keeps_the_name(tmp_path: Path) -> None:
    text = (FIXTURES / "sheets" / "kagura.yaml").read_text(encoding="utf-8")
    renamed = tmp_path / "renamed.yaml"
    renamed.write_text(text.replace("name: Kagura", "name: Kagra"), encoding="utf-8")
    with pytest.raises(ReferError) as err:
        run_whatif(MELEE, {}, {"Kagura": str(renamed)})
    assert err.value.diagnostics[0].code == "name-changed"
    slower = tmp_path / "slower.yaml"
    slower.write_text(text.replace("skills: [rest, eruption,", "skills: [eruption, rest,"), encoding="utf-8")
    outcome = run_whatif(MELEE, {}, {"Kagura": str(slower)})
    div = first_divergence(outcome.original, outcome.changed)
    assert div is not None and div.actor == "Kagura"


def test_diff_of_two_json_reports(tmp_path: Path, stricter: Path, capsys: pytest.CaptureFixture[str]) -> None:
    a = tmp_path / "a.json"
    b = tmp_path / "b.json"
    assert main(["resolve", str(MELEE), "--format", "json", "-o", str(a)]) == 0
    outcome = run_whatif(MELEE, {"Kagura": str(stricter)}, {})
    from referee.report.record import dumps_report

    b.write_text(dumps_report(outcome.changed), encoding="utf-8")
    assert main(["diff", str(a), str(a)]) == 0
    assert "identical, event for event" in capsys.readouterr().out
    assert main(["diff", str(a), str(b)]) == 1
    out = capsys.readouterr().out
    assert 'line 2 of Kagura\'s plan: "use eruption only when enemies in range >= 3"' in out
    assert "winner" in out and "Kagura" in out.split("Outcomes:")[1]


def test_diff_with_different_seeds_says_so(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from referee.report.record import dumps_report

    a, b = tmp_path / "a.json", tmp_path / "b.json"
    a.write_text(dumps_report(resolve_file(FIXTURES / "duel.battle.yaml", 1)), encoding="utf-8")
    b.write_text(dumps_report(resolve_file(FIXTURES / "duel.battle.yaml", 2)), encoding="utf-8")
    assert main(["diff", str(a), str(b)]) == 1
    out = capsys.readouterr().out
    assert "seed: 1 in" in out and "(a draw)" in out and "the seeds differ (1 and 2)" in out
