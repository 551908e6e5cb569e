"""The organiser's commands of issue 14: ``skills``, ``rulesets``, UTF-8 output,
warnings in ``resolve`` and ``batch``."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from referee.catalog import load_catalog
from referee.cli import main
from referee.describe import describe_effect, skill_facts

ROOT = Path(__file__).resolve().parent.parent


def test_skills_lists_every_skill_with_both_names_and_its_numbers(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["skills"]) == 0
    out = capsys.readouterr().out
    catalog = load_catalog()
    assert out.startswith(f"Skills of the tcgt ruleset ({len(catalog.skills)})")
    for skill in catalog.skills:
        assert f"{skill.name_en} ({skill.name_ja}〔{skill.reading}〕)  [{skill.id}]" in out
    assert "cost 火火 · level 2 · attack 攻撃, extend 拡大 · range 1 · targets enemies\n  4 fire damage" in out
    assert "when hit by fire: reduce the damage by 2, counter fire damage equal to the attack's" in out


def test_skills_in_japanese_and_as_a_markdown_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["skills", "--lang", "ja"]) == 0
    ja = capsys.readouterr().out
    assert ja.startswith("ルールセット tcgt のスキル（20 種）")
    assert "爆撃〔イラプション〕 (Eruption)  [eruption]\n  コスト 火火 ・ レベル 2 ・ 攻撃、拡大 ・ 射程 1 ・ 対象 敵\n  火属性 4 ダメージ" in ja
    assert main(["skills", "--format", "md"]) == 0
    md = capsys.readouterr().out.splitlines()
    rows = [r for r in md if r.startswith("| ") and "`" in r]
    assert len(rows) == 20 and all(r.count(" | ") == 7 for r in rows)


def test_every_skill_has_an_effect_in_both_languages() -> None:
    for skill in load_catalog().skills:
        for lang in ("en", "ja"):
            facts = skill_facts(skill, lang)
            assert facts["effect"] and facts["effect"] == describe_effect(skill, lang), skill.id


def test_skills_of_a_house_ruleset_and_of_an_unknown_one(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    house = tmp_path / "house.ruleset.yaml"
    house.write_text("extends: tcgt\nname: house\n", encoding="utf-8")
    assert main(["skills", "--ruleset", str(house)]) == 0
    assert "Skills of the house ruleset" in capsys.readouterr().out
    assert main(["skills", "--ruleset", "tcgtt"]) == 1
    assert "error[unknown-ruleset]" in capsys.readouterr().err


def test_rulesets_lists_the_built_in_ones_and_what_a_house_ruleset_changes(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rulesets"]) == 0
    out = capsys.readouterr().out
    first = out.splitlines()[0]
    assert first.startswith("built-in rulesets: ") and "tcgt" in first.split(": ", 1)[1].replace(",", " ").split()
    assert "tcgt: TCG Tactics" in out and "map         8x8  (R-FIELD-1)" in out
    assert "    movement    steps (adjacency king)\n" in out
    assert "    stall       narrowing (schedule after turn 30: b2-g7; after turn 35: c3-f6;" in out
    assert "changes from" not in out.split("tcgt: TCG Tactics", 1)[1].split("\n\n", 1)[0]  # tcgt's own block
    house = tmp_path / "house.ruleset.yaml"
    house.write_text("extends: tcgt\nname: house\ndescription: short fights\nturn_limit: 50\n"
                     "map: {blocked: [d4]}\n", encoding="utf-8")
    assert main(["rulesets", str(house)]) == 0
    out = capsys.readouterr().out
    assert "house: short fights" in out and "blocked d4" in out and "turn limit  50" in out
    assert "changes from tcgt: map.blocked, turn_limit" in out


def test_rulesets_reports_a_bad_one_after_describing_the_others(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rulesets", "tcgt", "nope"]) == 1
    captured = capsys.readouterr()
    assert "tcgt: TCG Tactics" in captured.out and "error[unknown-ruleset]" in captured.err


@pytest.mark.parametrize("encoding", ["cp1252", "cp932", "ascii"])
def test_reports_are_written_as_utf8_whatever_the_console(encoding: str) -> None:
    """Issue 14: ``referee demo > report.txt`` on a cp1252 Windows crashed."""
    env = {**os.environ, "PYTHONIOENCODING": encoding}
    done = subprocess.run([sys.executable, "-m", "referee.cli", "demo", "--lang", "ja"], capture_output=True,
                          env=env, cwd=ROOT, timeout=120)
    assert done.returncode == 0, done.stderr.decode("utf-8", "replace")
    assert b"Traceback" not in done.stderr
    assert "神楽" in done.stdout.decode("utf-8") or "ターン" in done.stdout.decode("utf-8")


def test_resolve_prints_warnings_and_batch_lists_them_in_the_standings(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    round_dir = tmp_path / "round"
    (round_dir / "sheets").mkdir(parents=True)
    for name in ("kagura", "ash"):
        (round_dir / "sheets" / f"{name}.yaml").write_text(
            (ROOT / "fixtures" / "sheets" / f"{name}.yaml").read_text("utf-8"), encoding="utf-8")
    with (round_dir / "sheets" / "kagura.yaml").open("a", encoding="utf-8") as handle:
        handle.write("  use whirlwind first\n")  # not on Kagura's sheet: a warning
    (round_dir / "a.battle.yaml").write_text(
        "title: A\nseed: 3\nteams:\n  white: [sheets/kagura.yaml]\n  black: [sheets/ash.yaml]\n", encoding="utf-8")
    assert main(["resolve", str(round_dir / "a.battle.yaml")]) == 0
    captured = capsys.readouterr()
    assert "warning[skill-not-on-sheet]" in captured.err and "kagura.yaml:11:7" in captured.err
    assert "Traceback" not in captured.err
    assert main(["batch", str(round_dir), "-o", str(tmp_path / "out"), "--jobs", "1", "--lang", "ja"]) == 0
    captured = capsys.readouterr()
    assert "a.battle.yaml: warnings" in captured.err
    md = (tmp_path / "out" / "standings.md").read_text("utf-8")
    assert "## 警告" in md and "sheets/kagura.yaml:11:7: warning[skill-not-on-sheet]" in md
    assert str(tmp_path) not in md  # paths relative to the round folder
    row = json.loads((tmp_path / "out" / "standings.json").read_text("utf-8"))["battles"][0]
    assert "skill-not-on-sheet" in row["warnings"]


def _yaml_blocks(doc: Path) -> list[str]:
    parts = doc.read_text("utf-8").split("```yaml\n")[1:]
    return [p.split("```", 1)[0] for p in parts]


def test_the_guide_s_annotated_sheet_and_battle_file_are_valid(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """docs/organiser.md's examples are real files: checked as a round."""
    sheet_text, battle_text = _yaml_blocks(ROOT / "docs" / "organiser.md")
    (tmp_path / "sheets").mkdir()
    for name in ("tomoe", "ren", "ash", "bryn", "cole"):
        (tmp_path / "sheets" / f"{name}.yaml").write_text(
            (ROOT / "fixtures" / "sheets" / f"{name}.yaml").read_text("utf-8"), encoding="utf-8")
    (tmp_path / "sheets" / "kagura.yaml").write_text(sheet_text, encoding="utf-8")
    (tmp_path / "t1.battle.yaml").write_text(battle_text, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert main(["check", "sheets/kagura.yaml", "t1.battle.yaml", "."]) == 0, capsys.readouterr().err
    assert main(["resolve", "t1.battle.yaml"]) == 0


def test_check_of_a_round_folder_says_how_many_battles_it_checked(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", str(ROOT / "fixtures" / "round")]) == 1
    assert "failed: 3 battle(s) in 1 folder(s), 3 error(s)" in capsys.readouterr().err


def test_the_mechanics_listed_are_the_ones_the_engine_runs(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """R-VAR-1: ``referee rulesets`` lists every slot from the ruleset's typed
    mechanics (the object the engine is built from), so a house ruleset that
    swaps one mechanic shows exactly that swap."""
    house = tmp_path / "calm.ruleset.yaml"
    house.write_text((ROOT / "fixtures" / "house-calm.ruleset.yaml").read_text("utf-8"), encoding="utf-8")
    assert main(["rulesets", str(house)]) == 0
    out = capsys.readouterr().out
    assert "  mechanics   (R-VAR-1)\n" in out
    assert "    stall       none\n" in out and "stall       narrowing" not in out
    assert "    range       chebyshev\n" in out and "    end         army_reduced (goal 1/3)\n" in out
    assert out.rstrip().endswith("changes from tcgt: turn_limit, mechanics.stall")
