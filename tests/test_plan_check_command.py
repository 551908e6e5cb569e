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
