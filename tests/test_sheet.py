"""Character sheets: the creation rules R-CHAR-1..4 and R-PAT-1, every violation
reported at once with its code, line and column; bad YAML never raises."""

from __future__ import annotations

import textwrap
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.diagnostics import Diagnostic
from referee.elements import Element
from referee.ruleset import Ruleset, load_ruleset
from referee.sheet import CharacterSheet, load_sheet, parse_sheet

SHEETS = Path(__file__).resolve().parent / "data_sheets"

VALID = """\
name: Tomoe
abilities: {body: 3, reflex: 3, intellect: 3}
patterns:
  - 火火水
  - 水水地
skills: [rest, eruption, firecracker]
"""


@pytest.fixture(scope="module")
def ruleset() -> Ruleset:
    return load_ruleset()


def parse(text: str, ruleset: Ruleset, base_dir: Path = SHEETS) -> tuple[CharacterSheet | None, list[Diagnostic]]:
    return parse_sheet(textwrap.dedent(text), "t.yaml", ruleset, base_dir)


def only_diagnostic(text: str, ruleset: Ruleset) -> Diagnostic:
    sheet, diags = parse(text, ruleset)
    assert sheet is None
    assert len(diags) == 1, diags
    return diags[0]


def assert_diagnostic(text: str, ruleset: Ruleset, code: str, line: int, column: int) -> Diagnostic:
    """Exactly one diagnostic, with this code at this position (style lesson 12)."""
    d = only_diagnostic(text, ruleset)
    assert (d.code, d.line, d.column) == (code, line, column), d
    assert d.file == "t.yaml" and d.source_line is not None
    return d


# --- valid sheets ---------------------------------------------------------------


def test_valid_sheet_with_kanji_keys_and_every_spelling(ruleset: Ruleset) -> None:
    sheet, diags = load_sheet(SHEETS / "kagura.yaml", ruleset)
    assert diags == [] and sheet is not None
    assert (sheet.name, sheet.body, sheet.reflex, sheet.intellect, sheet.max_hp) == ("Kagura", 3, 3, 3, 12)
    assert sheet.skills == ("rest", "eruption", "firecracker", "slash", "avenger")
    assert [p.text for p in sheet.patterns] == ["火火水", "水水地", "剣地風"]
    assert sheet.patterns[0].elements == (Element.FIRE, Element.FIRE, Element.WATER)
    assert [p.condition_text for p in sheet.patterns] == [None, "hp <= 5", None]
    cond = sheet.patterns[1]
    assert (cond.line, cond.column, cond.condition_line, cond.condition_column) == (6, 5, 6, 15)
    assert sheet.plan_file is not None and sheet.plan_file.endswith("kagura.plan")
    assert sheet.plan_text is not None and "extend eruption max" in sheet.plan_text
    assert sheet.plan_line_offset == 0


def test_r_char_2_max_hp_is_4_x_body(ruleset: Ruleset) -> None:
    """R-CHAR-2: HP = 4 x body."""
    sheet, _ = parse(VALID.replace("body: 3, reflex: 3, intellect: 3", "body: 5, reflex: 2, intellect: 2")
                     .replace("火火水", "火火").replace("水水地", "水水").replace("firecracker", "slash"), ruleset)
    assert sheet is not None and sheet.max_hp == 20


def test_no_plan_means_defaults(ruleset: Ruleset) -> None:
    sheet, diags = parse(VALID, ruleset)
    assert diags == [] and sheet is not None
    assert sheet.plan_text is None and sheet.plan_file is None and not sheet.has_plan


def test_repeated_skill_entries_are_kept(ruleset: Ruleset) -> None:
    """R-CHAR-3: the same skill may be listed more than once."""
    sheet, diags = parse(VALID.replace("[rest, eruption, firecracker]", "[avenger, 報復, Avenger]"), ruleset)
    assert diags == [] and sheet is not None and sheet.skills == ("avenger",) * 3


def test_english_element_words_in_patterns(ruleset: Ruleset) -> None:
    sheet, diags = parse(VALID.replace("火火水", "fire, fire, water"), ruleset)
    assert diags == [] and sheet is not None and sheet.patterns[0].text == "火火水"


def test_inline_block_plan_offsets_point_into_the_sheet(ruleset: Ruleset) -> None:
    text = VALID + "plan: |\n  use rest first when ally hp lost >= 5\n  extend eruption max\n"
    sheet, diags = parse(text, ruleset)
    assert diags == [] and sheet is not None
    assert sheet.plan_text == "use rest first when ally hp lost >= 5\nextend eruption max\n"
    assert sheet.plan_file == "t.yaml"
    lines = text.splitlines()
    # plan line 2, column 1 is sheet line 2 + offset, column 1 + column offset
    assert lines[2 + sheet.plan_line_offset - 1][sheet.plan_column_offset:] == "extend eruption max"


def test_inline_single_line_plan(ruleset: Ruleset) -> None:
    sheet, diags = parse(VALID + "plan: 'counter allies'\n", ruleset)
    assert diags == [] and sheet is not None
    assert sheet.plan_text == "counter allies" and sheet.plan_file == "t.yaml"
    assert (sheet.plan_line_offset, sheet.plan_column_offset) == (6, 7)


def test_explicit_plan_file_mapping(ruleset: Ruleset) -> None:
    sheet, diags = parse(VALID + "plan: {file: kagura.plan}\n", ruleset)
    assert diags == [] and sheet is not None and sheet.plan_text is not None


# --- R-CHAR-1 -----------------------------------------------------------------


def test_r_char_1_budget_must_be_spent_exactly(ruleset: Ruleset) -> None:
    """R-CHAR-1: 9 points to share, each at least 1."""
    d = assert_diagnostic(VALID.replace("body: 3,", "body: 4,"), ruleset, "ability-budget", 2, 1)
    assert "10" in d.message and "9" in d.message


def test_r_char_1_each_ability_at_least_1(ruleset: Ruleset) -> None:
    text = VALID.replace("body: 3, reflex: 3, intellect: 3", "body: 0, reflex: 3, intellect: 6")
    assert_diagnostic(text, ruleset, "ability-minimum", 2, 19)


def test_r_char_1_missing_and_duplicate_abilities(ruleset: Ruleset) -> None:
    sheet, diags = parse(VALID.replace("reflex: 3, intellect: 3", "intellect: 3, 知性: 3"), ruleset)
    assert sheet is None
    got = {(d.code, d.line, d.column) for d in diags}
    assert ("duplicate-ability", 2, 36) in got
    assert ("missing-ability", 2, 1) in got


def test_unknown_ability_key_has_a_hint(ruleset: Ruleset) -> None:
    d = assert_diagnostic(VALID.replace("reflex: 3", "reflexes: 3"), ruleset, "unknown-field", 2, 22)
    assert d.hint == "did you mean 'reflex'?"


# --- R-CHAR-3, R-PAT-1 -----------------------------------------------------------


def test_r_char_3_at_most_intellect_patterns(ruleset: Ruleset) -> None:
    """R-CHAR-3: a character has 1 to intellect skill patterns of exactly reflex panels."""
    text = VALID.replace("  - 水水地\n", "  - 水水地\n  - 剣剣剣\n  - 地地地\n")
    d = assert_diagnostic(text, ruleset, "pattern-count", 7, 5)
    assert "4 patterns" in d.message and "at most 3" in d.message


def test_r_char_3_at_least_one_pattern(ruleset: Ruleset) -> None:
    text = VALID.replace("patterns:\n  - 火火水\n  - 水水地\n", "patterns: []\n")
    assert_diagnostic(text, ruleset, "pattern-count", 3, 1)


def test_r_char_3_pattern_has_exactly_reflex_panels(ruleset: Ruleset) -> None:
    d = assert_diagnostic(VALID.replace("水水地", "水水地地"), ruleset, "pattern-length", 5, 5)
    assert "4 panels" in d.message and "exactly 3" in d.message


def test_r_pat_1_unknown_element_points_at_the_character(ruleset: Ruleset) -> None:
    d = assert_diagnostic(VALID.replace("水水地", "水水土"), ruleset, "unknown-element", 5, 7)
    assert d.hint == "did you mean 地 (earth)?"


def test_r_pat_1_misspelt_english_element(ruleset: Ruleset) -> None:
    d = assert_diagnostic(VALID.replace("水水地", "'water, watr, earth'"), ruleset, "unknown-element", 5, 13)
    assert d.hint == "did you mean water (水)?"


def test_r_pat_2_condition_on_a_bad_pattern_points_at_the_key(ruleset: Ruleset) -> None:
    assert_diagnostic(VALID.replace("  - 水水地\n", "  - 水水: when hp <= 5\n"), ruleset, "pattern-length", 5, 5)


def test_r_char_3_at_most_intellect_plus_2_entries(ruleset: Ruleset) -> None:
    """R-CHAR-3: 1 to intellect + 2 skill entries."""
    text = VALID.replace("[rest, eruption, firecracker]", "[rest, eruption, firecracker, slash, avenger, rest]")
    d = assert_diagnostic(text, ruleset, "skill-count", 6, 55)
    assert "6 skill entries" in d.message and "at most 5" in d.message


def test_r_char_3_at_least_one_entry(ruleset: Ruleset) -> None:
    assert_diagnostic(VALID.replace("[rest, eruption, firecracker]", "[]"), ruleset, "skill-count", 6, 1)


def test_unknown_skill_with_did_you_mean(ruleset: Ruleset) -> None:
    d = assert_diagnostic(VALID.replace("eruption", "fireball"), ruleset, "unknown-skill", 6, 16)
    assert d.message == "unknown skill 'fireball'"
    assert d.hint == "did you mean 'firecracker' (炸撃)?"


# --- plans, types, syntax -------------------------------------------------------


def test_missing_plan_file(ruleset: Ruleset) -> None:
    d = assert_diagnostic(VALID + "plan: nowhere.plan\n", ruleset, "plan-not-found", 7, 7)
    assert "nowhere.plan" in d.message


def test_plan_path_may_not_leave_the_root(ruleset: Ruleset, tmp_path: Path) -> None:
    (tmp_path / "secret.plan").write_text("counter allies\n", encoding="utf-8")
    (tmp_path / "sheets").mkdir()
    sheet_path = tmp_path / "sheets" / "s.yaml"
    sheet_path.write_text(VALID + "plan: ../secret.plan\n", encoding="utf-8")
    sheet, diags = load_sheet(sheet_path, ruleset)
    assert sheet is None and [d.code for d in diags] == ["plan-outside"]
    sheet, diags = load_sheet(sheet_path, ruleset, root=tmp_path)
    assert diags == [] and sheet is not None and sheet.plan_text == "counter allies\n"


def test_folded_inline_plan_is_a_warning(ruleset: Ruleset) -> None:
    sheet, diags = parse(VALID + "plan: >\n  counter allies\n", ruleset)
    assert sheet is not None and [(d.code, d.severity) for d in diags] == [("plan-folded", "warning")]


def test_wrong_types_are_named(ruleset: Ruleset) -> None:
    text = VALID.replace("body: 3", "body: three").replace("[rest, eruption, firecracker]", "[rest, 3]")
    sheet, diags = parse(text, ruleset)
    assert sheet is None
    got = {(d.code, d.line) for d in diags}
    assert ("wrong-type", 2) in got and ("wrong-type", 6) in got
    assert any("abilities.body" in d.message for d in diags)


def test_missing_fields(ruleset: Ruleset) -> None:
    sheet, diags = parse("name: X\n", ruleset)
    assert sheet is None
    assert sorted(d.message for d in diags if d.code == "missing-field") == [
        "(top level): required field 'abilities' is missing",
        "(top level): required field 'patterns' is missing",
        "(top level): required field 'skills' is missing",
    ]


def test_yaml_syntax_error_has_line_and_column(ruleset: Ruleset) -> None:
    sheet, diags = parse("name: X\nabilities: {body: 3\nskills: [a]\n", ruleset)
    assert sheet is None
    (d,) = diags
    assert d.code == "yaml-syntax" and d.line == 3 and d.column >= 1


def test_not_a_mapping(ruleset: Ruleset) -> None:
    sheet, diags = parse("- just\n- a list\n", ruleset)
    assert sheet is None and [d.code for d in diags] == ["wrong-type"]


def test_duplicate_top_level_key(ruleset: Ruleset) -> None:
    d = assert_diagnostic(VALID + "skills: [slash]\n", ruleset, "duplicate-key", 7, 1)
    assert "line 6" in d.message


def test_every_violation_at_once(ruleset: Ruleset) -> None:
    """Style lesson 11: one sheet, nine problems, nine diagnostics, in file order."""
    sheet, diags = load_sheet(SHEETS / "everything_wrong.yaml", ruleset)
    assert sheet is None
    assert [(d.code, d.line, d.column) for d in diags] == [
        ("ability-budget", 3, 1),
        ("duplicate-ability", 3, 47),
        ("unknown-element", 5, 6),
        ("pattern-count", 6, 5),
        ("pattern-length", 6, 5),
        ("unknown-skill", 7, 16),
        ("skill-count", 7, 33),
        ("plan-not-found", 8, 7),
        ("unknown-field", 9, 1),
    ]
    assert all(d.file.endswith("everything_wrong.yaml") for d in diags)


def test_the_plan_is_checked_even_when_the_rest_of_the_sheet_is_wrong(ruleset: Ruleset) -> None:
    """Every error at once: a sheet with creation-rule errors still gets its
    plan and pattern conditions checked -- syntax, unknown skills, and with a
    sound intellect the R-CHAR-4 clause count; the caret of a pattern
    condition's error sits on the sheet's own line."""
    text = """\
    name: Bad3
    abilities: {body: 3, reflex: 3, intellect: 1}
    patterns:
      - 火火水
      - 水水地: when hp <=
    skills: [rest, fireball]
    plan: |
      use fireballz first
      frobnicate
      hold position
      keep away
    """
    sheet, diags = parse(text, ruleset)
    assert sheet is None
    assert [(d.code, d.line, d.column) for d in diags if d.is_error] == [
        ("ability-budget", 2, 1),
        ("pattern-count", 5, 5),
        ("unexpected-end", 5, 20),
        ("unknown-skill", 6, 16),
        ("unknown-skill", 8, 7),
        ("unknown-clause", 9, 3),
        ("too-many-clauses", 11, 3),         # 3 clauses; intellect 1 allows 2
    ]
    condition = next(d for d in diags if d.code == "unexpected-end")
    assert condition.source_line == "  - 水水地: when hp <="
    # a broken skill list: no 'not on this sheet' guesses from a partial list
    assert not any(d.code == "skill-not-on-sheet" for d in diags)


def test_unreadable_sheet(ruleset: Ruleset, tmp_path: Path) -> None:
    _, diags = load_sheet(tmp_path / "none.yaml", ruleset)
    assert [d.code for d in diags] == ["file-not-found"]
    bad = tmp_path / "latin1.yaml"
    bad.write_bytes("name: caf\xe9\n".encode("latin-1"))
    _, diags = load_sheet(bad, ruleset)
    assert [d.code for d in diags] == ["encoding"]


def test_r_char_1_budget_comes_from_the_ruleset(tmp_path: Path) -> None:
    """R-CHAR-1: rulesets may say 11 or 15."""
    path = tmp_path / "eleven.yaml"
    path.write_text("extends: tcgt\nabilities: {budget: 11}\n", encoding="utf-8")
    eleven = load_ruleset(path)
    sheet, diags = parse(VALID, eleven)
    assert sheet is None and [d.code for d in diags] == ["ability-budget"]


# --- the plan seam ----------------------------------------------------------------


def test_plan_seam_shifts_inline_plan_diagnostics_into_the_sheet(ruleset: Ruleset) -> None:
    """The plan language's diagnostics for an inline plan and a pattern
    condition point into the sheet (file, line, column, source line)."""
    plan = "plan: |\n  counter allies\n  extend erupton max\n" + "".join(f"  use rest first when turn <= {n}\n" for n in range(5))
    text = VALID.replace("  - 水水地\n", "  - 水水地: when hp <=< 5\n") + plan
    sheet, diags = parse(text, ruleset)
    assert sheet is None
    by_code = {d.code: d for d in diags}
    shifted = by_code["unknown-skill"]
    assert (shifted.file, shifted.line, shifted.column) == ("t.yaml", 9, 10)
    assert shifted.source_line == "  extend erupton max"
    condition = by_code["unexpected-token"]  # in the pattern condition 'when hp <=< 5'
    assert (condition.file, condition.line, condition.column) == ("t.yaml", 5, 20)
    assert by_code["too-many-clauses"].line == 7 + 7  # 7th clause: plan line 7 -> sheet line 14


# --- robustness -------------------------------------------------------------------


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=200))
def test_arbitrary_text_never_raises(text: str) -> None:
    sheet, diags = parse_sheet(text, "junk.yaml", load_ruleset(), SHEETS)
    assert (sheet is None) == any(d.is_error for d in diags)
    for d in diags:
        assert d.file == "junk.yaml" and d.line >= 0 and d.column >= 0


_json = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 20) | st.text(alphabet="火水風地剣abc ", max_size=6),
    lambda children: st.lists(children, max_size=5) | st.dictionaries(
        st.sampled_from(["name", "abilities", "patterns", "skills", "plan", "body", "reflex", "intellect", "知性", "x"]),
        children, max_size=5),
    max_leaves=25,
)


@settings(max_examples=300, deadline=None)
@given(_json)
def test_arbitrary_structures_never_raise(data: Any) -> None:
    text = yaml.safe_dump(data, allow_unicode=True)
    sheet, diags = parse_sheet(text, "junk.yaml", load_ruleset(), SHEETS)
    assert (sheet is None) == any(d.is_error for d in diags)


@settings(max_examples=200, deadline=None)
@given(
    st.dictionaries(st.sampled_from(["body", "reflex", "intellect", "体力", "神経反射", "知性"]), st.integers(-3, 12)),
    st.lists(st.text(alphabet="火水風地剣炎x", min_size=0, max_size=5), max_size=5),
    st.lists(st.sampled_from(["rest", "爆撃", "fireball", "Slash", "", "avenger"]), max_size=8),
)
def test_valid_sheets_satisfy_every_creation_rule(abilities: dict[str, int], patterns: list[str], skills: list[str]) -> None:
    """Property: whatever is accepted obeys R-CHAR-1 and R-CHAR-3."""
    ruleset = load_ruleset()
    text = yaml.safe_dump({"name": "P", "abilities": abilities, "patterns": patterns, "skills": skills}, allow_unicode=True)
    sheet, _ = parse_sheet(text, "p.yaml", ruleset, SHEETS)
    if sheet is None:
        return
    assert sheet.body + sheet.reflex + sheet.intellect == ruleset.abilities.budget
    assert min(sheet.body, sheet.reflex, sheet.intellect) >= ruleset.abilities.minimum
    assert 1 <= len(sheet.patterns) <= sheet.intellect
    assert all(len(p.elements) == sheet.reflex for p in sheet.patterns)
    assert 1 <= len(sheet.skills) <= sheet.intellect + 2
