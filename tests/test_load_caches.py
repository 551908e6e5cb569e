"""Remembered loads give every answer a fresh load gives.

- sheets are remembered by *content*: an edit that keeps the size and the
  modification time is still seen; a sheet whose plan lives in another file
  is not remembered at all (its answer depends on that file);
- a remembered sheet's diagnostics are a fresh list per caller (no state
  leaks from one battle into the next);
- sheet paths that are plain (no symlink, no ``..``) skip the second
  confinement; any other path still goes through :func:`referee.confine.confine`
  and is refused or accepted as before.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from referee.battlefile import load_battle
from referee.confine import confine, resolve_below
from referee.ruleset import load_ruleset
from referee.sheet import parse_sheet

SHEET = """name: {name}
abilities: {{body: 3, reflex: 3, intellect: 3}}
patterns: [火火水, 剣地風]
skills: [firecracker, slash, rest]
"""

BATTLE = """title: t
seed: 1
teams:
  white: [{white}]
  black: [{black}]
"""


def _round(folder: Path, white: str = "sheets/kagura.yaml", black: str = "sheets/ash.yaml") -> Path:
    (folder / "sheets").mkdir(parents=True, exist_ok=True)
    for name in ("Kagura", "Ash"):
        (folder / "sheets" / f"{name.lower()}.yaml").write_text(SHEET.format(name=name), "utf-8")
    path = folder / "a.battle.yaml"
    path.write_text(BATTLE.format(white=white, black=black), "utf-8")
    return path


def test_an_edit_keeping_size_and_mtime_is_seen(tmp_path: Path) -> None:
    battle_file = _round(tmp_path)
    battle, diags = load_battle(battle_file)
    assert battle is not None and battle.entries[0].sheet.body == 3, diags
    sheet = tmp_path / "sheets" / "kagura.yaml"
    before = sheet.stat()
    sheet.write_text(SHEET.format(name="Kagura").replace("body: 3, reflex: 3, intellect: 3",
                                                         "body: 4, reflex: 3, intellect: 2"), "utf-8")
    os.utime(sheet, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert sheet.stat().st_size == before.st_size and sheet.stat().st_mtime_ns == before.st_mtime_ns
    battle, diags = load_battle(battle_file)
    assert battle is not None and battle.entries[0].sheet.body == 4, diags


def test_a_sheet_with_a_plan_file_is_read_afresh(tmp_path: Path) -> None:
    ruleset = load_ruleset()
    (tmp_path / "k.plan").write_text("target lowest hp\n", "utf-8")
    text = SHEET.format(name="Kagura") + "plan: k.plan\n"
    sheet, diags = parse_sheet(text, str(tmp_path / "k.yaml"), ruleset, tmp_path, remember=True)
    assert sheet is not None and sheet.plan_text == "target lowest hp\n", diags
    (tmp_path / "k.plan").write_text("never target lowest hp\n", "utf-8")
    sheet, diags = parse_sheet(text, str(tmp_path / "k.yaml"), ruleset, tmp_path, remember=True)
    assert sheet is not None and sheet.plan_text == "never target lowest hp\n", diags


def test_remembered_answers_equal_fresh_ones_and_do_not_share_lists(tmp_path: Path) -> None:
    ruleset = load_ruleset()
    for text in (SHEET.format(name="A"), SHEET.format(name="A").replace("rest", "resst"),
                 SHEET.format(name="A") + "plan: |\n  target nobody\n"):
        fresh = parse_sheet(text, "a.yaml", ruleset, tmp_path)
        first = parse_sheet(text, "a.yaml", ruleset, tmp_path, remember=True)
        first[1].append("spoilt")  # type: ignore[arg-type]
        again = parse_sheet(text, "a.yaml", ruleset, tmp_path, remember=True)
        assert again == fresh
    # the file name is part of the key: diagnostics name their own file
    bad = SHEET.format(name="A").replace("rest", "resst")
    assert {d.file for d in parse_sheet(bad, "b.yaml", ruleset, tmp_path, remember=True)[1]} == {"b.yaml"}


def test_resolve_below_answers_only_plain_paths(tmp_path: Path) -> None:
    _round(tmp_path)
    base = str(tmp_path.resolve())
    os.symlink(tmp_path / "sheets" / "ash.yaml", tmp_path / "sheets" / "link.yaml")
    os.symlink(tmp_path / "sheets", tmp_path / "linked")
    got = resolve_below(base, "sheets/kagura.yaml", str(tmp_path / "sheets/kagura.yaml"))
    assert got is not None and got[0] == str(confine(tmp_path / "sheets/kagura.yaml", tmp_path))
    for rel in ("sheets/link.yaml", "linked/kagura.yaml", "sheets/../sheets/kagura.yaml", "./sheets/kagura.yaml",
                "sheets//kagura.yaml", "/etc/passwd", "~/x", "sheets/none.yaml", "sheets/\x1b.yaml"):
        assert resolve_below(base, rel, str(tmp_path / rel)) is None, rel
    assert resolve_below(base, "sheets/kagura.yaml", "x" * 2000) is None


@pytest.mark.parametrize(("white", "codes"), [
    ("sheets/../sheets/kagura.yaml", []),
    ("linked/kagura.yaml", []),
    ("out/secret.yaml", ["path-outside"]),
    ("sheets/fifo.yaml", ["not-a-file"]),
    ("sheets/none.yaml", ["file-not-found"]),
    ("sheets", ["not-a-file"]),
])
def test_paths_that_are_not_plain_get_the_full_checks(tmp_path: Path, white: str, codes: list[str]) -> None:
    round_dir = tmp_path / "round"
    battle_file = _round(round_dir, white=white)
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "elsewhere" / "secret.yaml").write_text(SHEET.format(name="Kagura"), "utf-8")
    os.symlink(tmp_path / "elsewhere", round_dir / "out")
    os.symlink(round_dir / "sheets", round_dir / "linked")
    os.mkfifo(round_dir / "sheets" / "fifo.yaml")
    battle, diags = load_battle(battle_file)
    assert [d.code for d in diags if d.severity == "error"] == codes
    assert (battle is not None) == (not codes)


def test_a_remembered_plan_parse_equals_a_fresh_one() -> None:
    from referee.plan.parser import parse_plan, parse_plan_remembered

    text = "keep away from enemies when hp <= 4\ntarget lowest hp\n"
    first, _ = parse_plan_remembered(text, "a.yaml", 3)
    again, diags = parse_plan_remembered(text, "b.yaml", 3)
    fresh, fresh_diags = parse_plan(text, "b.yaml", 3)
    assert again == fresh and again.file == "b.yaml" and first.file == "a.yaml" and diags == fresh_diags == []
    assert [(c.line, c.column) for c in again.clauses] == [(c.line, c.column) for c in fresh.clauses]
    bad = "target lowest hp\nuse\n"
    for file in ("x.yaml", "y.yaml"):  # a plan with errors is parsed afresh: its diagnostics name their file
        assert parse_plan_remembered(bad, file)[1] == parse_plan(bad, file)[1]
        assert {d.file for d in parse_plan_remembered(bad, file)[1]} == {file}


def test_a_clean_plan_check_is_not_reused_for_other_skills(tmp_path: Path) -> None:
    ruleset = load_ruleset()
    plan = "plan: |\n  use rest first when hp <= 4\n"
    with_rest = SHEET.format(name="A") + plan
    without = SHEET.format(name="B").replace("slash, rest", "slash") + plan
    assert not [d for d in parse_sheet(with_rest, "a.yaml", ruleset, tmp_path)[1] if d.code == "skill-not-on-sheet"]
    codes = [d.code for d in parse_sheet(without, "b.yaml", ruleset, tmp_path)[1]]
    assert "skill-not-on-sheet" in codes
