"""The plan language: canonical clauses mean what interfaces.md says, the
example plans parse cleanly, the bad-plan corpus gives exactly its diagnostics."""

from __future__ import annotations

from typing import Any

from pathlib import Path

import pytest

from planhelpers import BAD_PLANS, assert_diagnostic, diagnose, expected_of
from referee.catalog import load_catalog
from referee.plan import ast as A
from referee.plan.check import check_plan, resolve_plan
from referee.plan.parser import parse_condition, parse_plan, plan_parser

PLANS = Path(__file__).resolve().parent.parent / "plans"


def one(text: str) -> A.Clause:
    plan, diags = parse_plan(text)
    assert diags == [] and len(plan.clauses) == 1, diags
    return plan.clauses[0]


def S(text: str) -> A.SkillRef:
    return A.SkillRef(text)


# --- interfaces.md: every canonical clause, and what it means ---------------------

CANONICAL: list[tuple[str, A.Clause]] = [
    ("use rest first when ally hp lost >= 5", A.UseFirst(S("rest"), A.Compare("ally", "hp_lost", ">=", 5))),
    ("use eruption only when enemies in range >= 2", A.UseOnlyWhen(S("eruption"), A.Count("enemies", "in_range", ">=", 2))),
    ("never use slash when hp <= 4", A.NeverUse(S("slash"), A.Compare("self", "hp", "<=", 4))),
    ("use pressurize first when target readies avenger", A.UseFirst(S("pressurize"), A.Readies("target", S("avenger")))),
    ("use night-shrieker first when acting first", A.UseFirst(S("night-shrieker"), A.ActingFirst())),
    ("with firecracker target lowest hp", A.TargetPreference(A.RankBy("lowest-hp"), S("firecracker"))),
    ("target most hp lost", A.TargetPreference(A.RankBy("most-hp-lost"))),
    ("never target Kagura", A.NeverTarget(A.CharacterRef("Kagura"))),
    ("extend eruption max", A.Extend(S("eruption"), "max")),
    ("extend firecracker by 1 when enemies in range >= 3", A.Extend(S("firecracker"), 1, A.Count("enemies", "in_range", ">=", 3))),
    ("friendly fire", A.FriendlyFire()),
    ("counter allies", A.CounterAllies()),
    ("heal even when unhurt", A.HealEvenWhenUnhurt()),
    ("stack avenger when hp <= 6", A.Stack(S("avenger"), A.Compare("self", "hp", "<=", 6))),
    ("maintain sala-twin-trees when engaged", A.Maintain(S("sala-twin-trees"), A.Engaged("self"))),
    ("release shield-mist when hp >= 10", A.Release(S("shield-mist"), A.Compare("self", "hp", ">=", 10))),
    ("move toward ally with hp lost >= 5 then use rest",
     A.MoveToward(A.AllyWith(A.Compare("target", "hp_lost", ">=", 5)), S("rest"))),
    ("move toward nearest enemy", A.MoveToward(A.NearestEnemy())),
    ("move toward Kagura", A.MoveToward(A.CharacterRef("Kagura"))),
    ("move to d4", A.MoveTo(A.SquareRef("d4"))),
    ("hold position when hp <= 4", A.HoldPosition(A.Compare("self", "hp", "<=", 4))),
    ("keep away from enemies when hp <= 4", A.KeepAway(A.Compare("self", "hp", "<=", 4))),
]


@pytest.mark.parametrize("text,meaning", CANONICAL, ids=[t for t, _ in CANONICAL])
def test_canonical_clause_means_what_interfaces_md_says(text: str, meaning: A.Clause) -> None:
    assert one(text) == meaning


def test_canonical_clauses_together_with_comments_and_blank_lines() -> None:
    text = "# a plan\n\n" + "\n".join(f"{t}   # comment" for t, _ in CANONICAL) + "\n\n# end\n"
    plan, diags = parse_plan(text, "all.plan")
    assert diags == []
    assert list(plan.clauses) == [m for _, m in CANONICAL]
    assert [c.line for c in plan.clauses] == list(range(3, 3 + len(CANONICAL)))
    assert plan.file == "all.plan"


def test_positions_point_at_the_written_text() -> None:
    clause = one("  use rest first when ally hp lost >= 5")
    assert isinstance(clause, A.UseFirst) and clause.condition is not None
    assert (clause.line, clause.column) == (1, 3)
    assert (clause.skill.line, clause.skill.column) == (1, 7)
    assert (clause.condition.line, clause.condition.column) == (1, 23)


def test_line_offset_shifts_every_position() -> None:
    plan, diags = parse_plan("counter allies\nuse rest\n", "s.yaml", line_offset=10)
    assert plan.clauses[0].line == 11 and [(d.line, d.column) for d in diags] == [(12, 9)]


@pytest.mark.parametrize("name", ["爆撃", "イラプション", "eruption", "Eruption", '"Eruption"', "「爆撃」"])
def test_r_sk_4_skill_names_as_id_english_japanese_or_reading(name: str) -> None:
    plan, diags = parse_plan(f"extend {name} max")
    resolved, more = resolve_plan(plan, load_catalog())
    clause = resolved.clauses[0]
    assert diags == more == [] and isinstance(clause, A.Extend) and clause.skill.id == "eruption"


def test_multi_word_english_names_need_no_quotes() -> None:
    plan, _ = parse_plan("use Night Shrieker first when acting second")
    resolved, diags = resolve_plan(plan, load_catalog())
    assert diags == [] and resolved.clauses[0] == A.UseFirst(A.SkillRef("Night Shrieker", "night-shrieker"), A.ActingSecond())


def test_keywords_are_case_insensitive_and_whole_words() -> None:
    assert one("USE Rest FIRST WHEN Hp <= 3") == A.UseFirst(S("Rest"), A.Compare("self", "hp", "<=", 3))
    assert one("move towards Kagura") == A.MoveToward(A.CharacterRef("Kagura"))
    # "userest" is not "use" + "rest"
    assert [d.code for d in diagnose("userest first\n")] == ["unknown-clause"]


def test_unicode_operators_and_full_width_space() -> None:
    assert one("use rest first when ally hp lost ≥ 5\u3000") == CANONICAL[0][1]
    assert one("never use slash when hp ≠ 4").condition == A.Compare("self", "hp", "!=", 4)  # type: ignore[attr-defined]


def test_and_binds_tighter_than_or_and_not_tightest() -> None:
    clause = one("hold position when not engaged and hp < 3 or turn > 5")
    assert clause == A.HoldPosition(A.Or((
        A.And((A.Not(A.Engaged("self")), A.Compare("self", "hp", "<", 3))),
        A.TurnCompare(">", 5),
    )))


def test_r_pan_4_readies_a_class() -> None:
    assert one("use slash first when target readies 反撃").condition == A.Readies("target", None, "counter")  # type: ignore[attr-defined]
    # quoted, the word is a skill name, not a class
    assert one('use slash first when target readies "counter"').condition == A.Readies("target", S("counter"))  # type: ignore[attr-defined]


def test_r_move_8_square_or_character_after_toward() -> None:
    assert one("move toward d4") == A.MoveToward(A.SquareRef("d4"))
    assert one('move toward "d4"') == A.MoveToward(A.CharacterRef("d4"))


def test_r_pat_2_pattern_condition_positions_are_in_the_sheet() -> None:
    cond, diags = parse_condition("hp <= 5", "k.yaml", 5, 15)
    assert diags == [] and cond == A.Compare("self", "hp", "<=", 5)
    assert cond is not None and (cond.line, cond.column) == (5, 15)
    cond, diags = parse_condition("hp <=", "k.yaml", 5, 15)
    assert cond is None and [(d.code, d.line, d.column) for d in diags] == [("unexpected-end", 5, 20)]


def test_r_pat_2_pattern_condition_cannot_mention_target() -> None:
    _, diags = parse_condition("target hp <= 3", "k.yaml", 2, 10)
    assert [(d.code, d.line, d.column) for d in diags] == [("target-without-skill", 2, 10)]


def test_grammar_is_built_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Parsing many plans builds (or loads) the parser once per process:
    count the builds behind ``plan_parser`` across several parses."""
    import referee.plan.parser as parser_module

    builds: list[str] = []
    real = parser_module.cached_parser

    def counting(*args: Any, **kwargs: Any) -> Any:
        builds.append("build")
        return real(*args, **kwargs)

    monkeypatch.setattr(parser_module, "cached_parser", counting)
    plan_parser.cache_clear()
    try:
        for text in ("hold position\n", "use rest first when hp <= 3\n", "keep away from enemies\n"):
            assert parse_plan(text)[0].clauses
        assert plan_parser() is plan_parser()
        assert builds == ["build"]
    finally:
        plan_parser.cache_clear()


# --- examples and the bad-plan corpus ------------------------------------------------

EXAMPLES = sorted(PLANS.glob("*.plan"))


def test_there_are_at_least_eight_example_plans() -> None:
    assert len(EXAMPLES) >= 8


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.name for p in EXAMPLES])
def test_every_example_plan_parses_and_checks_with_zero_diagnostics(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    plan, diags = parse_plan(text, str(path))
    assert diags == [] and plan.clauses
    assert check_plan(plan, catalog=load_catalog()) == []
    assert all(line.lstrip().startswith("#") for line in text.splitlines()[:1]), "each example starts with a comment"


BAD = sorted(BAD_PLANS.glob("*.plan"))


def test_the_bad_plan_corpus_has_at_least_25_files() -> None:
    assert len(BAD) >= 25


@pytest.mark.parametrize("path", BAD, ids=[p.stem for p in BAD])
def test_bad_plan_gives_exactly_its_expected_diagnostics(path: Path) -> None:
    expected = expected_of(path.with_suffix(".expected"))
    diags = diagnose(path.read_text(encoding="utf-8"), str(path))
    assert expected, "an expected file lists at least one diagnostic"
    assert [(d.code, d.line, d.column) for d in diags] == expected
    for d in diags:
        assert d.message and "Token" not in d.message and "$END" not in d.message


# --- precise single diagnostics (style lesson 12) ---------------------------------------


def test_unknown_skill_suggests_the_close_one() -> None:
    d = assert_diagnostic("use fireball first\n", "unknown-skill", 1, 5)
    assert d.message == "unknown skill 'fireball'" and d.hint == "did you mean 'firecracker' (炸撃)?"


def test_unknown_clause_suggests_the_keyword() -> None:
    d = assert_diagnostic("uze rest first\n", "unknown-clause", 1, 1)
    assert d.hint == "did you mean 'use'?"


def test_misspelt_keyword_after_a_name_suggests_the_keyword() -> None:
    """'frist' after a skill name reads as more of the name; the hint names the keyword."""
    d = assert_diagnostic("use rest frist\n", "unexpected-end", 1, 15)
    assert d.hint == "did you mean 'first'? ('frist' was read as part of a name)"


def test_missing_skill_says_a_skill_name_is_expected() -> None:
    d = assert_diagnostic("stack\n", "unexpected-end", 1, 6)
    assert d.message == "expected a skill name after 'stack', but the line ends there"


def test_r_ext_7_extend_needs_an_extend_skill() -> None:
    assert_diagnostic("extend avenger\n", "not-extendable", 1, 8)


def test_r_turn_4_maintain_needs_a_maintain_skill() -> None:
    assert_diagnostic("maintain rest when engaged\n", "not-maintainable", 1, 10)
    assert diagnose("maintain shield-mist when engaged\nmaintain 沙羅双樹\n") == []


def test_r_char_4_clause_count_at_most_twice_intellect() -> None:
    plan, _ = parse_plan("counter allies\nfriendly fire\nheal even when unhurt\n")
    assert check_plan(plan, intellect=2) == []
    assert [(d.code, d.line) for d in check_plan(plan, intellect=1)] == [("too-many-clauses", 3)]
    assert check_plan(plan) == [], "a plan checked alone has no intellect: no count"


def test_skill_not_on_sheet_is_a_warning() -> None:
    plan, _ = parse_plan("use eruption first\n")
    diags = check_plan(plan, skills=["rest"])
    assert [(d.code, d.severity) for d in diags] == [("skill-not-on-sheet", "warning")]


def test_every_error_of_a_file_is_reported() -> None:
    diags = diagnose("use rest\nuse slash\nuse eruption\nmove to x\n")
    assert [(d.code, d.line) for d in diags] == [
        ("unexpected-end", 1), ("unexpected-end", 2), ("unexpected-end", 3), ("not-a-square", 4)]


def test_good_lines_of_a_bad_file_still_reach_the_semantic_pass() -> None:
    diags = diagnose("use rest\nextend avenger max\n")
    assert [(d.code, d.line) for d in diags] == [("unexpected-end", 1), ("not-extendable", 2)]
