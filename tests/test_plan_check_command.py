"""``referee check``: every diagnostic, exit codes, JSON."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from referee.cli import main

ROOT = Path(__file__).resolve().parent.parent


def test_check_example_plans_exit_0(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", *map(str, sorted((ROOT / "plans").glob("*.plan")))]) == 0
    assert "0 error(s)" in capsys.readouterr().out


def test_check_bad_plan_prints_every_error_with_caret_and_exits_1(capsys: pytest.CaptureFixture[str]) -> None:
    bad = ROOT / "tests" / "bad_plans" / "several_errors.plan"
    assert main(["check", str(bad)]) == 1
    err = capsys.readouterr().err
    assert err.count("error[") == 5
    assert "several_errors.plan:2:5: error[unknown-skill]: unknown skill 'fireball'" in err
    assert "        ^" in err and "hint: did you mean 'firecracker' (炸撃)?" in err


def test_check_json_format(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    plan = tmp_path / "p.plan"
    plan.write_text("extend avenger\ncounter allies\n", encoding="utf-8")
    assert main(["check", "--format", "json", str(plan)]) == 1
    data = json.loads(capsys.readouterr().out)
    assert [(d["code"], d["line"], d["column"]) for d in data] == [("not-extendable", 1, 8)]


def test_check_sheet_and_battle(capsys: pytest.CaptureFixture[str]) -> None:
    demo = ROOT / "referee" / "demo"
    assert main(["check", str(demo / "sheets" / "kagura.yaml"), str(demo / "demo.battle.yaml")]) == 0


def test_check_missing_and_unknown_files(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    other = tmp_path / "notes.txt"
    other.write_text("hello", encoding="utf-8")
    assert main(["check", str(tmp_path / "nope.plan"), str(other)]) == 1
    err = capsys.readouterr().err
    assert "error[file-not-found]" in err and "error[unknown-file-kind]" in err


def test_check_non_utf8_plan(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    plan = tmp_path / "sjis.plan"
    plan.write_bytes("use 安らぎ first\n".encode("shift_jis"))
    assert main(["check", str(plan)]) == 1
    err = capsys.readouterr().err
    assert "error[encoding]" in err and "Shift_JIS" in err and "save the file as UTF-8" in err


def test_a_sheet_checked_alone_may_use_a_plan_elsewhere_in_the_working_folder(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """``referee check sheets/a.yaml`` with ``plan: ../plans/a.plan``: the plan is
    inside the folder the player works in, so it is read (a battle file keeps
    its own tree, tested in test_battlefile.py); a plan outside it is refused."""
    (tmp_path / "team" / "sheets").mkdir(parents=True)
    (tmp_path / "team" / "plans").mkdir()
    (tmp_path / "team" / "plans" / "a.plan").write_text("use rest first when ally hp lost >= 5\n", "utf-8")
    (tmp_path / "elsewhere.plan").write_text("hold position\n", "utf-8")
    sheet = ("name: A\nabilities: {body: 3, reflex: 3, intellect: 3}\npatterns: [火火水]\n"
             "skills: [rest, firecracker]\nplan: ../plans/a.plan\n")
    (tmp_path / "team" / "sheets" / "a.yaml").write_text(sheet, "utf-8")
    (tmp_path / "team" / "sheets" / "b.yaml").write_text(sheet.replace("../plans/a.plan", "../../elsewhere.plan"),
                                                         "utf-8")
    monkeypatch.chdir(tmp_path / "team")
    assert main(["check", "sheets/a.yaml"]) == 0
    assert main(["check", "sheets/b.yaml"]) == 1
    assert "error[plan-outside]" in capsys.readouterr().err


@pytest.mark.parametrize("fmt", ["text", "json"])
def test_check_a_sheet_and_its_plan_named_together_report_each_error_once(
        fmt: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """``referee check SHEET.yaml PLAN.plan`` where the sheet names that plan
    and the plan has errors: "All errors in a file are reported"
    (interfaces.md) -- each once, with its source line and caret, and no
    traceback (the plan is read twice: through the sheet and on its own)."""
    (tmp_path / "k.plan").write_text("use rest first when hp <= 4\nuse fireball first\nuse rest frist\n", "utf-8")
    (tmp_path / "k.yaml").write_text("name: Kagura\nabilities: {body: 3, reflex: 3, intellect: 3}\n"
                                     "patterns: [火火水]\nskills: [rest, eruption]\nplan: k.plan\n", "utf-8")
    monkeypatch.chdir(tmp_path)
    assert main(["check", "--format", fmt, "k.yaml", "k.plan"]) == 1
    out = capsys.readouterr()
    if fmt == "json":
        data = json.loads(out.out)
        assert [(d["file"], d["line"], d["code"]) for d in data] == [("k.plan", 2, "unknown-skill"),
                                                                      ("k.plan", 3, "unexpected-end")]
        return
    assert out.err.count("error[") == 2 and "failed: 2 file(s), 2 error(s)" in out.err
    assert "k.plan:2:5: error[unknown-skill]: unknown skill 'fireball'\n    use fireball first\n        ^\n" in out.err


def test_diagnostics_that_differ_only_in_hint_or_source_line_sort_without_error() -> None:
    """The diagnostics' order is file, line, column, code, message: fields that
    are never None, so any two diagnostics compare."""
    from referee.diagnostics import Diagnostic, diagnostics_to_json, format_diagnostics

    plain = Diagnostic("a.plan", 2, 5, "unknown-skill", "unknown skill 'fireball'")
    shown = Diagnostic("a.plan", 2, 5, "unknown-skill", "unknown skill 'fireball'", hint="did you mean?",
                       source_line="use fireball first")
    first = Diagnostic("a.plan", 1, 1, "x", "y")
    assert format_diagnostics([plain, shown, first]).startswith("a.plan:1:1: error[x]: y")
    assert [d["line"] for d in json.loads(diagnostics_to_json([shown, plain, first]))] == [1, 2, 2]
