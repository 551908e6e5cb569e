"""Battle files (interfaces.md "Battle file"): shape, paths, names, setup, order.

Each test writes the smallest battle into a temporary folder and asserts the
exact diagnostics (code, line) -- every problem at once, never a traceback.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from referee.battlefile import load_battle, square_on_map
from referee.diagnostics import Diagnostic

SHEET = """name: {name}
abilities: {{body: 3, reflex: 3, intellect: 3}}
patterns: [火火水, 剣地風]
skills: [firecracker, slash, rest]
"""


def write(folder: Path, rel: str, text: str) -> Path:
    path = folder / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture()
def arena(tmp_path: Path) -> Path:
    for name in ("Ash", "Bryn", "Kagura", "Tomoe"):
        write(tmp_path, f"sheets/{name.lower()}.yaml", SHEET.format(name=name))
    return tmp_path


def codes(diags: list[Diagnostic]) -> list[tuple[str, int]]:
    return [(d.code, d.line) for d in diags if d.is_error]


BASE = """title: Round 3, table 2
ruleset: tcgt
seed: 20071213
teams:
  white: [sheets/kagura.yaml, sheets/tomoe.yaml]
  black: [sheets/ash.yaml, sheets/bryn.yaml]
"""


def test_valid_battle_loads_in_roster_order(arena: Path) -> None:
    battle, diags = load_battle(write(arena, "a.battle.yaml", BASE))
    assert codes(diags) == []
    assert battle is not None
    assert battle.title == "Round 3, table 2"
    assert battle.seed == 20071213
    assert battle.ruleset.name == "tcgt"
    assert [(e.team, e.name) for e in battle.entries] == [
        ("white", "Kagura"), ("white", "Tomoe"), ("black", "Ash"), ("black", "Bryn")]
    assert battle.order is None
    assert all(e.square is None and e.hp is None for e in battle.entries)


def test_setup_and_order_are_carried_into_the_entries(arena: Path) -> None:
    text = BASE + """setup:
  Kagura: {square: c3, hp: 7}
  Ash: {square: f6}
order: [Kagura, Ash, Tomoe, Bryn]
"""
    battle, diags = load_battle(write(arena, "a.battle.yaml", text))
    assert codes(diags) == [] and battle is not None
    by_name = {e.name: e for e in battle.entries}
    assert (by_name["Kagura"].square, by_name["Kagura"].hp) == ("c3", 7)
    assert (by_name["Ash"].square, by_name["Ash"].hp) == ("f6", None)
    assert battle.order == ("Kagura", "Ash", "Tomoe", "Bryn")


def test_seed_is_optional_and_ruleset_defaults_to_tcgt(arena: Path) -> None:
    text = "title: t\nteams:\n  white: [sheets/kagura.yaml]\n  black: [sheets/ash.yaml]\n"
    battle, diags = load_battle(write(arena, "a.battle.yaml", text))
    assert codes(diags) == [] and battle is not None
    assert battle.seed is None and battle.ruleset_ref == "tcgt"


def test_every_shape_error_is_reported_at_once(arena: Path) -> None:
    text = """titel: oops
ruleset: tcgt
seed: -4
teams:
  white: []
  black: [sheets/ash.yaml]
order: Kagura
"""
    battle, diags = load_battle(write(arena, "a.battle.yaml", text))
    assert battle is None
    got = codes(diags)
    assert ("unknown-field", 1) in got          # titel (did you mean title?)
    assert ("missing-field", 1) in got          # title missing
    assert ("invalid-value", 3) in got          # seed -4
    assert ("wrong-size", 5) in got             # empty team
    assert ("wrong-type", 7) in got             # order is not a list
    hint = next(d.hint for d in diags if d.code == "unknown-field")
    assert hint == "did you mean 'title'?"


def test_path_leaving_the_folder_is_refused_without_reading(arena: Path, tmp_path: Path) -> None:
    (arena / "round").mkdir()
    text = """title: t
teams:
  white: [../sheets/kagura.yaml]
  black: [/etc/passwd]
"""
    battle, diags = load_battle(write(arena, "round/a.battle.yaml", text))
    assert battle is None
    assert codes(diags) == [("path-outside", 3), ("path-outside", 4)]
    assert "leaves the battle file's folder" in diags[0].message
    assert diags[0].column == 11


def test_ruleset_path_may_not_escape_either(arena: Path) -> None:
    (arena / "round").mkdir()
    text = "title: t\nruleset: ../evil.yaml\nteams:\n  white: [k.yaml]\n  black: [a.yaml]\n"
    battle, diags = load_battle(write(arena, "round/a.battle.yaml", text))
    assert battle is None
    assert ("path-outside", 2) in codes(diags)
    assert ("file-not-found", 4) in codes(diags) and ("file-not-found", 5) in codes(diags)


def test_the_files_a_ruleset_names_stay_in_the_battles_tree_too(arena: Path) -> None:
    """A ruleset inside the battle's folder may not reach out through its own
    ``extends`` or ``skills`` paths (they would be read, and quoted in
    diagnostics); inside the tree, a chain of file rulesets is fine."""
    (arena / "round").mkdir()
    write(arena, "shared.ruleset.yaml", "extends: tcgt\nturn_limit: 50\n")
    write(arena, "round/up.ruleset.yaml", "extends: ../shared.ruleset.yaml\n")
    write(arena, "round/cat.ruleset.yaml", "extends: tcgt\nskills: ../skills.yaml\n")
    write(arena, "round/base.ruleset.yaml", "extends: tcgt\nturn_limit: 40\n")
    write(arena, "round/ok.ruleset.yaml", "extends: base.ruleset.yaml\n")
    for name in ("Kagura", "Ash"):
        write(arena, f"round/sheets/{name.lower()}.yaml", SHEET.format(name=name))
    teams = "teams:\n  white: [sheets/kagura.yaml]\n  black: [sheets/ash.yaml]\n"
    for ruleset, field_line in (("up", 1), ("cat", 2)):
        battle, diags = load_battle(write(arena, f"round/{ruleset}.battle.yaml", f"title: t\nruleset: {ruleset}.ruleset.yaml\n" + teams))
        assert battle is None
        assert [(d.code, d.line) for d in diags if d.is_error] == [("path-outside", field_line)]
        assert diags[0].file.endswith(f"{ruleset}.ruleset.yaml")
    battle, diags = load_battle(write(arena, "round/ok.battle.yaml", "title: t\nruleset: ok.ruleset.yaml\n" + teams))
    assert battle is not None and battle.ruleset.turn_limit == 40


def test_symlink_out_of_the_tree_is_refused(arena: Path, tmp_path_factory: pytest.TempPathFactory) -> None:
    outside = tmp_path_factory.mktemp("outside")
    write(outside, "x.yaml", SHEET.format(name="X"))
    (arena / "round").mkdir()
    (arena / "round" / "link.yaml").symlink_to(outside / "x.yaml")
    write(arena, "round/ash.yaml", SHEET.format(name="Ash"))
    text = "title: t\nteams:\n  white: [link.yaml]\n  black: [ash.yaml]\n"
    battle, diags = load_battle(write(arena, "round/a.battle.yaml", text))
    assert battle is None and codes(diags) == [("path-outside", 3)]


def test_unknown_ruleset_name_points_at_the_field(arena: Path) -> None:
    text = BASE.replace("ruleset: tcgt", "ruleset: tcgx")
    battle, diags = load_battle(write(arena, "a.battle.yaml", text))
    assert battle is None
    assert codes(diags) == [("unknown-ruleset", 2)]
    assert diags[0].hint == "did you mean 'tcgt'?"


def test_missing_sheet_and_bad_sheet_are_both_reported(arena: Path) -> None:
    write(arena, "sheets/bad.yaml", "name: Bad\nabilities: {body: 9, reflex: 3, intellect: 3}\npatterns: [火火水]\nskills: [slash]\n")
    text = "title: t\nteams:\n  white: [sheets/nobody.yaml, sheets/bad.yaml]\n  black: [sheets/ash.yaml]\n"
    battle, diags = load_battle(write(arena, "a.battle.yaml", text))
    assert battle is None
    assert ("file-not-found", 3) in codes(diags)
    assert any(d.file.endswith("bad.yaml") for d in diags if d.is_error)


def test_names_must_be_unique_within_a_battle(arena: Path) -> None:
    write(arena, "sheets/kagura2.yaml", SHEET.format(name="Kagura"))
    text = "title: t\nteams:\n  white: [sheets/kagura.yaml]\n  black: [sheets/kagura2.yaml]\n"
    battle, diags = load_battle(write(arena, "a.battle.yaml", text))
    assert battle is None and codes(diags) == [("duplicate-name", 4)]


def test_setup_checks_names_squares_and_hp(arena: Path) -> None:
    text = BASE + """setup:
  Kagrua: {square: c3}
  Kagura: {square: i9, hp: 13}
  Ash: {hp: 0}
  Tomoe: {}
"""
    battle, diags = load_battle(write(arena, "a.battle.yaml", text))
    assert battle is None
    got = codes(diags)
    assert ("unknown-character", 8) in got
    assert ("off-map", 9) in got
    assert ("out-of-range", 9) in got           # hp 13 > max 12 (R-CHAR-2)
    assert ("out-of-range", 10) in got          # hp 0 < 1 (schema)
    assert ("wrong-size", 11) in got            # empty setup entry
    assert next(d.hint for d in diags if d.code == "unknown-character") == "did you mean 'Kagura'?"


def test_order_must_list_everyone_exactly_once(arena: Path) -> None:
    text = BASE + "order: [Kagura, Ash, Kagura, Brin]\n"
    battle, diags = load_battle(write(arena, "a.battle.yaml", text))
    assert battle is None
    got = codes(diags)
    assert ("duplicate-name", 7) in got
    assert ("unknown-character", 7) in got
    assert ("order-incomplete", 7) in got
    assert "Bryn" in next(d.message for d in diags if d.code == "order-incomplete")


def test_not_yaml_and_not_a_mapping_are_diagnostics(arena: Path) -> None:
    _, diags = load_battle(write(arena, "a.battle.yaml", "title: [unclosed\n"))
    assert codes(diags)[0][0] == "yaml-syntax"
    _, diags = load_battle(write(arena, "b.battle.yaml", "- just a list\n"))
    assert codes(diags) == [("wrong-type", 1)]
    _, diags = load_battle(arena / "missing.battle.yaml")
    assert codes(diags) == [("file-not-found", 0)]


def test_square_on_map_reads_files_and_ranks() -> None:
    assert square_on_map("a1", 8, 8) and square_on_map("h8", 8, 8)
    assert not square_on_map("a0", 8, 8) and not square_on_map("j3", 8, 8)
    assert square_on_map("j3", 10, 10)


def test_setup_and_order_are_checked_even_when_a_sheet_fails(arena: Path) -> None:
    text = """title: t
teams:
  white: [sheets/kagura.yaml, sheets/missing.yaml]
  black: [sheets/ash.yaml]
setup:
  Kagura: {square: k9}
order: [Kagura, Ash, Kagura]
"""
    battle, diags = load_battle(write(arena, "a.battle.yaml", text))
    assert battle is None
    assert codes(diags) == [("file-not-found", 3), ("off-map", 6), ("duplicate-name", 7)]


def test_a_broken_sheet_does_not_hide_the_battle_files_own_errors(arena: Path) -> None:
    """Every error at once: the sheet's errors, and setup/order checked against
    the sheets that loaded and the name the broken sheet gives."""
    write(arena, "sheets/bad.yaml", "name: Bad\nabilities: {body: 9, reflex: 3, intellect: 3}\npatterns: [火火水]\nskills: [slash]\n")
    text = """title: t
teams:
  white: [sheets/kagura.yaml, sheets/bad.yaml]
  black: [sheets/ash.yaml]
setup:
  Kagura: {hp: 99}
  Nobody: {square: c3}
  Bad: {square: c4}
order: [Kagura, Ash, Nobody]
"""
    battle, diags = load_battle(write(arena, "a.battle.yaml", text))
    assert battle is None
    assert any(d.file.endswith("bad.yaml") and d.is_error for d in diags)
    got = [(c, line) for c, line in codes(diags) if line >= 5]
    assert ("out-of-range", 6) in got            # Kagura's hp 99 > 12 (R-CHAR-2)
    assert ("unknown-character", 7) in got       # setup names Nobody
    assert ("unknown-character", 9) in got       # order names Nobody
    assert ("order-incomplete", 9) in got        # ... and misses Bad, known by name
    assert not any(d.code == "unknown-character" and d.line == 8 for d in diags)  # Bad is a character
    assert "Bad" in next(d.message for d in diags if d.code == "order-incomplete")
