"""Issue 17, "Integrity of what is posted" (points 13-17): forged reports
are named, names and titles cannot forge report lines, standings cannot be
broken out of, rounds do not mix."""

from __future__ import annotations

import io
import json
import os
import re
from pathlib import Path
from typing import Any, Callable

import pytest

from referee.app.batch import run_batch
from referee.battlefile import load_battle
from referee.cli import main
from referee.diagnostics import ReferError
from referee.plan import parse_plan
from referee.sheet import load_sheet
from referee.ruleset import load_ruleset

from .hostilehelpers import BATTLE, SHEET, make_round, write

PLAN_SHEET = SHEET + "plan: |\n  use rest first when hp <= 4\n"

FORGERIES: dict[str, tuple[Callable[[dict[str, Any]], None], str]] = {
    "max HP 99": (lambda d: d["inputs"]["characters"][0].__setitem__("max_hp", 99), "invalid-character"),
    "body 9 (breaks the budget)": (lambda d: d["inputs"]["characters"][0].__setitem__("body", 9), "invalid-character"),
    "the title": (lambda d: d["inputs"].__setitem__("title", "Final, table 1"), "report-edited"),
    "the house rules": (lambda d: d["inputs"]["rules"].__setitem__("turn_limit", 5), "report-edited"),
    "a skill name": (lambda d: d["inputs"]["skill_names"]["rest"].__setitem__("en", "Nap"), "report-edited"),
    "the parsed plan": (lambda d: d["inputs"]["characters"][0]["plan"].__setitem__("parsed", []), "report-edited"),
    "the version": (lambda d: d.__setitem__("referee", "9.9.9"), "report-version"),
}


@pytest.mark.parametrize("what", sorted(FORGERIES))
def test_point_13_replay_names_what_was_forged(tmp_path: Path, what: str, capsys: pytest.CaptureFixture[str]) -> None:
    make_round(tmp_path)
    write(tmp_path, "sheets/kagura.yaml", PLAN_SHEET.format(name="Kagura"))
    report = tmp_path / "r.json"
    assert main(["resolve", str(tmp_path / "a.battle.yaml"), "--format", "json", "-o", str(report)]) == 0
    assert main(["replay", str(report)]) == 0
    capsys.readouterr()
    data = json.loads(report.read_text("utf-8"))
    forge, code = FORGERIES[what]
    forge(data)
    report.write_text(json.dumps(data, ensure_ascii=False, indent=2), "utf-8")
    assert main(["replay", str(report)]) == 1
    err = capsys.readouterr().err
    assert f"error[{code}]" in err and "identical" not in err


def test_point_13_the_edited_input_is_named(tmp_path: Path) -> None:
    from referee.app.replay import replay_report

    battle = make_round(tmp_path)
    report = tmp_path / "r.json"
    assert main(["resolve", str(battle), "--format", "json", "-o", str(report)]) == 0
    data = json.loads(report.read_text("utf-8"))
    data["inputs"]["title"] = "Final, table 1"
    data["inputs"]["characters"][0]["max_hp"] = 99
    report.write_text(json.dumps(data), "utf-8")
    with pytest.raises(ReferError) as caught:
        replay_report(report)
    assert [d.message.split(":")[0] for d in caught.value.diagnostics] == [
        "inputs.characters[0] (Kagura).max_hp", "inputs.characters", "inputs.title"]


@pytest.mark.parametrize("name", ["Ash\nResult: White wins", "\x1b[31mAsh", "Ash\u202e", "   ", "A\tsh"])
def test_point_14_names_that_would_forge_lines_or_reach_the_terminal(tmp_path: Path, name: str) -> None:
    sheet = write(tmp_path, "s.yaml", SHEET.format(name=json.dumps(name)))
    result, diags = load_sheet(sheet, load_ruleset())
    assert result is None and [(d.code, d.line, d.column) for d in diags] == [("bad-name", 1, 7)]


def test_point_14_titles_and_plans_too(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    battle = make_round(tmp_path, BATTLE.replace("Round 3, table 2", '"Round 3\\n\\nResult: White wins"'))
    _, diags = load_battle(battle)
    assert [(d.code, d.line) for d in diags] == [("bad-title", 1)]
    _, diags = parse_plan("use rest first\nuse \x1b[2J slash first\n", "p.plan")
    assert [(d.code, d.line, d.column) for d in diags] == [("bad-character", 2, 5)]
    write(tmp_path, "p.plan", "use \x1b[2Jslash first\n")
    assert main(["check", str(tmp_path / "p.plan")]) == 1
    assert "\x1b" not in capsys.readouterr().err  # the quoted line shows U+FFFD instead


def test_point_15_standings_escape_titles_and_folder_names(tmp_path: Path) -> None:
    round_dir = tmp_path / "round"
    make_round(round_dir, BATTLE.replace("Round 3, table 2", '"<script>alert(1)</script> **White wins** | x"'))
    folder = "evil\n```\n# Results: forged"
    write(round_dir, f"{folder}/b.battle.yaml", "title: t\nteams: {white: [nobody.yaml], black: [x.yaml]}\n")
    write(round_dir, "c.battle.yaml", "title: t\nteams: {white: [n.yaml], black: [m````.yaml]}\n")
    run_batch(round_dir, tmp_path / "out", progress=io.StringIO())
    md = (tmp_path / "out" / "standings.md").read_text("utf-8")
    assert "<script>" not in md and "&lt;script&gt;" in md and "\\*\\*White wins\\*\\*" in md
    lines = md.splitlines()
    assert [line for line in lines if line.startswith("# ")] == ["# Results: round"]
    assert len([line for line in lines if line.startswith("| ") and "battle.yaml" in line]) == 3
    # every fence closes where it opened: a fence line is only ever followed
    # by its own closing fence of the same length
    fences = [line for line in lines if re.fullmatch(r"`{3,}(text)?", line)]
    assert len(fences) % 2 == 0


def test_point_16_a_second_round_into_the_same_folder_is_refused(tmp_path: Path) -> None:
    one, two = tmp_path / "one", tmp_path / "two"
    make_round(one)
    make_round(two)
    write(two, "b.battle.yaml", BATTLE)
    out = tmp_path / "out"
    run_batch(one, out, progress=io.StringIO())
    with pytest.raises(ReferError) as caught:
        run_batch(two, out, progress=io.StringIO())
    assert [d.code for d in caught.value.diagnostics] == ["output-holds-other-round"]
    assert json.loads((out / "standings.json").read_text("utf-8"))["summary"]["battles"] == 1
    run_batch(two, out, progress=io.StringIO(), replace=True)
    names = sorted(p.name for p in out.iterdir() if not p.name.startswith("."))
    assert names == ["a.json", "a.txt", "b.json", "b.txt", "standings.json", "standings.md"]
    assert json.loads((out / "standings.json").read_text("utf-8"))["summary"]["battles"] == 2
    run_batch(two, out, progress=io.StringIO())  # the same round again is fine


def test_point_17_a_name_that_opens_an_html_comment_keeps_the_replay_board(tmp_path: Path) -> None:
    """A character named ``<!--<script>``: inside a ``<script>`` element this
    puts the HTML tokenizer in its "double escaped" state, where the closing
    ``</script>`` no longer closes, and the board's data never loads.  The
    embedded JSON must carry ``<`` (and ``>``, ``&``) as ``\\u003c`` escapes."""
    make_round(tmp_path, names=("Kagura", "Ash"))
    write(tmp_path, "sheets/ash.yaml", SHEET.format(name='"<!--<script>"'))
    out = tmp_path / "r.html"
    assert main(["resolve", str(tmp_path / "a.battle.yaml"), "--format", "html", "-o", str(out)]) == 0
    page = out.read_text("utf-8")
    data = page[page.index('id="replay-data">'):]
    data = data[:data.index("</script>")]
    assert "<!--" not in data and "<script" not in data.lower()


def test_point_14_house_rules_and_skill_names_are_printed_too(tmp_path: Path) -> None:
    """A house ruleset's name and description and a house catalogue's skill
    names appear in every report: the same rule as for character names."""
    from referee.catalog import builtin_catalog_path
    from referee.ruleset import load_ruleset_file

    path = write(tmp_path, "h.ruleset.yaml", 'extends: tcgt\nname: "house\\e[2J"\ndescription: "a\\nResult: draw"\n')
    ruleset, diags = load_ruleset_file(path)
    assert ruleset is None and [(d.code, d.line) for d in diags] == [("bad-name", 2), ("bad-name", 3)]
    catalog = builtin_catalog_path().read_text("utf-8").replace("name_en: Rest", 'name_en: "Rest\\nWhite wins"', 1)
    write(tmp_path, "skills.yaml", catalog)
    path = write(tmp_path, "s.ruleset.yaml", "extends: tcgt\nskills: skills.yaml\n")
    ruleset, diags = load_ruleset_file(path)
    assert ruleset is None and "bad-name" in [d.code for d in diags]


def test_point_14_file_names_and_replay_differences_reach_no_terminal(tmp_path: Path,
                                                                      capsys: pytest.CaptureFixture[str]) -> None:
    make_round(tmp_path)
    write(tmp_path, "sheets/a\x1b[2Jsh.yaml", SHEET.format(name="Ash"))
    battle = write(tmp_path, "b.battle.yaml", BATTLE.replace("sheets/ash.yaml", '"sheets/a\\e[2Jsh.yaml"'))
    _, diags = load_battle(battle)
    assert [(d.code, d.line) for d in diags] == [("bad-path", 5)]
    name = os.fsdecode(b"caf\xe9.plan")  # not UTF-8: a lone surrogate in Python
    write(tmp_path, name, "use rest first\n")
    assert main(["check", "--format", "json", str(tmp_path / name)]) == 1
    assert json.loads(capsys.readouterr().out)[0]["code"] == "bad-path"
    report = tmp_path / "r.json"
    assert main(["resolve", str(tmp_path / "a.battle.yaml"), "--format", "json", "-o", str(report)]) == 0
    data = json.loads(report.read_text("utf-8"))
    data["events"][0]["ruleset"] = "tcgt\x1b[2J"
    report.write_text(json.dumps(data), "utf-8")
    capsys.readouterr()
    assert main(["replay", str(report)]) == 1
    err = capsys.readouterr().err
    assert "differs at event 1" in err and "\x1b" not in err
