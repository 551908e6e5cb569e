"""Issue 17, "Never a traceback" (point 12): numbers too long to print, NUL
bytes and over-long paths, lone surrogates, tiny maps, unusable outputs and
malformed reports are each a located diagnostic."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any, Callable

import pytest

from referee.cli import main
from referee.yamlio import load_yaml

from .hostilehelpers import BATTLE, SHEET, make_round, write

HUGE = "9" * 5000


def run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    code = main(args)
    captured = capsys.readouterr()
    assert "Traceback" not in captured.err
    return code, captured.err


@pytest.mark.parametrize("field", ["body: 3", "reflex: 3", "intellect: 3"])
def test_point_12_integers_of_thousands_of_digits_in_a_sheet(tmp_path: Path, field: str,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    sheet = write(tmp_path, "big.yaml", SHEET.format(name="Big").replace(field, field[:-1] + HUGE))
    code, err = run(["check", str(sheet)], capsys)
    assert code == 1 and "big.yaml:2:" in err and "error[number-too-large]" in err


def test_point_12_every_integer_field_of_a_ruleset(tmp_path: Path) -> None:
    text = Path(__file__).parents[2].joinpath("referee", "data", "rulesets", "tcgt.yaml").read_text("utf-8")
    import re

    numbers = [m for m in re.finditer(r"(?<=: )\d+\b", text)
               if "#" not in text[text.rfind("\n", 0, m.start()) + 1:m.start()]]  # not in a comment
    assert len(numbers) >= 10
    for m in numbers:
        spoilt = text[:m.start()] + HUGE + text[m.end():]
        _, diags = load_yaml(spoilt, "house.ruleset.yaml")
        line = text[:m.start()].count("\n") + 1
        assert [(d.code, d.line) for d in diags] == [("number-too-large", line)]


def test_point_12_a_huge_seed(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    battle = make_round(tmp_path, BATTLE.replace("seed: 7", "seed: " + HUGE))
    code, err = run(["resolve", str(battle)], capsys)
    assert code == 1 and "a.battle.yaml:2:7: error[number-too-large]" in err
    with pytest.raises(SystemExit) as usage:
        main(["resolve", str(battle), "--seed", HUGE])
    assert usage.value.code == 2


def test_point_12_a_nul_byte_or_an_over_long_path(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    make_round(tmp_path)
    nul = write(tmp_path, "nul.battle.yaml", BATTLE.replace("sheets/ash.yaml", '"sheets/a\\0sh.yaml"'))
    code, err = run(["check", str(nul)], capsys)
    assert code == 1 and "nul.battle.yaml:5:11: error[bad-path]" in err
    long = write(tmp_path, "long.battle.yaml", BATTLE.replace("sheets/ash.yaml", "sheets/" + "a" * 5000 + ".yaml"))
    code, err = run(["check", str(long)], capsys)
    assert code == 1 and "long.battle.yaml:5:11: error[bad-path]" in err
    code, err = run(["check", "x" * 5000 + ".plan"], capsys)
    assert code == 1 and "error[bad-path]" in err


def test_point_12_a_lone_surrogate_in_a_name(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from referee.textcheck import name_problem

    # Escaped in YAML (libyaml refuses the escape itself; PyYAML builds the
    # surrogate and the sheet checker refuses the name) ...
    write(tmp_path, "s.yaml", SHEET.format(name='"X\\udc80"'))
    code, err = run(["check", str(tmp_path / "s.yaml")], capsys)
    assert code == 1 and "s.yaml:1:" in err
    assert name_problem("X\udc80") == "a name cannot contain a lone surrogate (U+DC80, not a character) (at character 2)"
    # ... and in a report, where JSON escapes decode to one.
    battle = make_round(tmp_path)
    report = tmp_path / "r.json"
    assert main(["resolve", str(battle), "--format", "json", "-o", str(report)]) == 0
    report.write_text(report.read_text("utf-8").replace('"name": "Ash"', '"name": "Ash\\udc80"'), "utf-8")
    code, err = run(["replay", str(report)], capsys)
    assert code == 1 and "inputs.characters[1]" in err


def test_point_12_a_map_one_or_two_squares_high(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for height in (1, 2):
        write(tmp_path, "tiny.ruleset.yaml", f"extends: tcgt\nmap: {{height: {height}}}\nmechanics: {{stall: {{kind: none}}}}\n")
        battle = make_round(tmp_path, BATTLE + "ruleset: tiny.ruleset.yaml\n")
        code, err = run(["resolve", str(battle)], capsys)
        assert code == 1 and "tiny.ruleset.yaml:2:15: error[map-too-small]" in err


def test_point_12_unusable_outputs_are_refused_before_resolving(tmp_path: Path,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    battle = make_round(tmp_path)
    code, err = run(["resolve", str(battle), "-o", str(tmp_path)], capsys)
    assert code == 1 and "error[output-is-folder]" in err
    code, err = run(["resolve", str(battle), "-o", str(battle / "r.txt")], capsys)
    assert code == 1 and "error[output-below-file]" in err
    code, err = run(["batch", str(tmp_path), "-o", str(battle)], capsys)
    assert code == 1 and "error[output-is-file]" in err
    assert not (tmp_path / "reports").exists()


def _spoil(report: dict[str, Any], how: Callable[[dict[str, Any]], Any]) -> Any:
    data = copy.deepcopy(report)
    result = how(data)
    return data if result is None else result


MALFORMED: dict[str, tuple[Callable[[dict[str, Any]], Any], str]] = {
    "a list": (lambda d: [1, 2], "not-a-report"),
    "no events": (lambda d: d.pop("events") and None, "not-a-report"),
    "an unknown event": (lambda d: d["events"].__setitem__(0, {"type": "zzz"}), "not-a-report"),
    "an event that is a number": (lambda d: d["events"].__setitem__(0, 5), "not-a-report"),
    "a result without final": (lambda d: d.__setitem__("result", {"winner": "white"}), "not-a-report"),
    "characters as text": (lambda d: d["inputs"].__setitem__("characters", "x"), "bad-input"),
    "a character without body": (lambda d: d["inputs"]["characters"][0].pop("body") and None, "bad-input"),
    "setup as a list": (lambda d: d["inputs"].__setitem__("setup", [1]), "bad-input"),
    "a seed that is true": (lambda d: d.__setitem__("seed", True), "not-a-report"),
    "a ruleset as text": (lambda d: d.__setitem__("ruleset", "x"), "not-a-report"),
    "a square off the map": (lambda d: d["inputs"].__setitem__("setup", {"Kagura": {"square": "zz99"}}), "off-map"),
}


@pytest.mark.parametrize("kind", sorted(MALFORMED))
def test_point_12_malformed_reports_in_replay(tmp_path: Path, kind: str, capsys: pytest.CaptureFixture[str]) -> None:
    battle = make_round(tmp_path)
    report = tmp_path / "r.json"
    assert main(["resolve", str(battle), "--format", "json", "-o", str(report)]) == 0
    how, code = MALFORMED[kind]
    report.write_text(json.dumps(_spoil(json.loads(report.read_text("utf-8")), how)), "utf-8")
    status, err = run(["replay", str(report)], capsys)
    assert status == 1 and f"error[{code}]" in err


def test_point_12_reports_that_are_not_json_or_nest_too_deep(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for text in ("{", "[" * 100_000 + "]" * 100_000, '{"seed": ' + HUGE + "}"):
        write(tmp_path, "r.json", text)
        status, err = run(["replay", str(tmp_path / "r.json")], capsys)
        assert status == 1 and "error[not-json]" in err


def test_point_12_a_one_word_plan_that_is_no_possible_file_name(tmp_path: Path) -> None:
    """A one-word inline plan is read as a file name when such a file exists;
    a word too long to be a file name is simply not one."""
    from referee.ruleset import load_ruleset
    from referee.sheet import load_sheet

    sheet = write(tmp_path, "s.yaml", SHEET.format(name="Kagura") + "plan: " + "a" * 5000 + "\n")
    result, diags = load_sheet(sheet, load_ruleset())
    assert result is None and [d.code for d in diags] == ["line-too-long"]


@pytest.mark.parametrize("text, line", [('extends: "a\\0b.yaml"\n', 1), ('extends: tcgt\nskills: "a\\0b.yaml"\n', 2),
                                        ("extends: tcgt\nskills: " + "a" * 5000 + ".yaml\n", 2)])
def test_point_12_paths_a_ruleset_names(tmp_path: Path, text: str, line: int) -> None:
    from referee.ruleset import load_ruleset_file

    ruleset, diags = load_ruleset_file(write(tmp_path, "h.ruleset.yaml", text))
    assert ruleset is None and [(d.code, d.line) for d in diags] == [("bad-path", line)]
