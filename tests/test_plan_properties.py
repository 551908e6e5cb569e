"""Hypothesis properties of the plan language (style lesson 15): strategies
follow grammar/plan.lark; printing then re-parsing gives an equal AST; no input
makes the parser raise."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from referee.plan import ast as A
from referee.plan.check import check_plan
from referee.plan.format import KEYWORDS, format_plan
from referee.plan.parser import parse_plan

ops = st.sampled_from(A.OPS)
numbers = st.integers(0, 9999)
subjects = st.sampled_from(("self", "target", "ally"))
quantities = st.sampled_from(("hp", "hp_lost", "max_hp"))
_word = st.from_regex(r"[A-Za-z安火ア][a-z0-9\-]{0,7}", fullmatch=True).filter(lambda w: w.lower() not in KEYWORDS)
names = st.one_of(
    st.sampled_from(["rest", "eruption", "爆撃", "イラプション", "Night Shrieker", "イア=テムの呪いの剣"]),
    st.lists(_word, min_size=1, max_size=2).map(" ".join),
    st.text(st.characters(blacklist_characters='"\n\r#', blacklist_categories=("Cs", "Cc")), min_size=1, max_size=8)
    .map(str.strip).filter(bool),
)
skills = names.map(A.SkillRef)
characters = names.map(A.CharacterRef)
classes = st.sampled_from(("attack", "heal", "counter", "defence", "passive"))


def _readies(subject: st.SearchStrategy[str]) -> st.SearchStrategy[A.Readies]:
    return st.one_of(st.builds(A.Readies, subject, skills), st.builds(lambda s, c: A.Readies(s, None, c), subject, classes))


atoms = st.one_of(
    st.builds(A.Compare, subjects, quantities, ops, numbers),
    st.builds(A.Count, st.sampled_from(("enemies", "allies")), st.sampled_from(("in_range", "alive")), ops, numbers),
    st.builds(A.TurnCompare, ops, numbers),
    st.builds(A.Engaged, subjects), st.builds(A.Bound, subjects), _readies(subjects),
    st.just(A.ActingFirst()), st.just(A.ActingSecond()),
)
ally_atoms = st.one_of(
    st.builds(A.Compare, st.just("target"), quantities, ops, numbers),
    st.builds(A.Engaged, st.just("target")), st.builds(A.Bound, st.just("target")), _readies(st.just("target")),
)


def _combine(base: st.SearchStrategy[A.Condition]) -> st.SearchStrategy[A.Condition]:
    return st.recursive(base, lambda c: st.one_of(
        st.builds(A.Not, c),
        st.lists(c, min_size=2, max_size=3).map(lambda p: A.And(tuple(p))),
        st.lists(c, min_size=2, max_size=3).map(lambda p: A.Or(tuple(p))),
    ), max_leaves=6)


conditions = _combine(atoms)
maybe = st.none() | conditions
ally_with = _combine(ally_atoms).map(A.AllyWith)
ranks = st.sampled_from(("nearest", "farthest", "lowest-hp", "highest-hp", "most-hp-lost", "least-hp-lost")).map(A.RankBy)
squares = st.from_regex(r"[a-h][1-8]", fullmatch=True).map(A.SquareRef)

clauses = st.one_of(
    st.builds(A.UseFirst, skills, maybe),
    st.builds(A.UseOnlyWhen, skills, conditions),
    st.builds(A.NeverUse, skills, maybe),
    st.builds(A.TargetPreference, st.one_of(ranks, characters, ally_with), st.none() | skills, maybe),
    st.builds(A.NeverTarget, characters, st.none() | skills, maybe),
    st.builds(A.OnlyTarget, st.one_of(characters, ally_with, st.just(A.AllAllies()), st.just(A.AllEnemies())), st.none() | skills, maybe),
    st.builds(A.Extend, skills, st.integers(1, 9) | st.just("max"), maybe),
    st.builds(A.FriendlyFire, maybe), st.builds(A.CounterAllies, maybe), st.builds(A.HealEvenWhenUnhurt, maybe),
    st.builds(A.Stack, skills, maybe), st.builds(A.Maintain, skills, maybe), st.builds(A.Release, skills, maybe),
    st.builds(A.MoveToward, st.one_of(st.just(A.NearestEnemy()), st.just(A.NearestAlly()), characters, ally_with, squares),
              st.none() | skills, maybe),
    st.builds(A.MoveTo, squares, maybe),
    st.builds(A.HoldPosition, maybe), st.builds(A.KeepAway, maybe),
)
plans = st.lists(clauses, max_size=8).map(lambda cs: A.Plan(tuple(cs)))


@settings(max_examples=400, deadline=None)
@given(plans)
def test_printed_plan_reparses_to_an_equal_ast(plan: A.Plan) -> None:
    text = format_plan(plan)
    again, diags = parse_plan(text)
    assert diags == [], (text, diags)
    assert again == plan, text  # positions do not take part in equality


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=300))
def test_arbitrary_text_gives_diagnostics_never_an_exception(text: str) -> None:
    plan, diags = parse_plan(text, "junk.plan")
    diags += check_plan(plan)
    for d in diags:
        assert d.file == "junk.plan" and d.line >= 1 and d.column >= 0 and d.code


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=300))
def test_binary_junk_gives_diagnostics_never_an_exception(data: bytes) -> None:
    plan, diags = parse_plan(data.decode("utf-8", errors="replace"), "junk.plan")
    check_plan(plan)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(["use", "rest", "first", "when", "hp", ">=", "5", "(", ")", "not", "and", "or",
                                 "target", "ally", "with", "\n", "#", "move", "toward", "extend", "max", "by", '"']),
                max_size=40))
def test_near_miss_token_soup_never_raises(words: list[str]) -> None:
    plan, diags = parse_plan(" ".join(words), "soup.plan")
    check_plan(plan)


def test_one_megabyte_inputs_give_diagnostics_only() -> None:
    for text in ("use rest first when " + "(" * 500_000 + "\n",
                 "x" * 1_000_000,
                 ("use fireball first\n" * 55_000)[:1_000_000],
                 "hold position when hp < " + "9" * 1_000_000):
        plan, diags = parse_plan(text, "big.plan")
        assert diags and all(d.is_error for d in diags)


def test_a_skill_named_like_a_class_is_printed_quoted_so_it_reads_back_as_the_skill() -> None:
    """Found by hypothesis: ``readies "回復"`` (a skill written 回復) printed bare
    re-parsed as the heal *class* (R-SK-2 class words after ``readies``)."""
    for text in ('move toward ally with readies "回復"\n', 'use rest first when target readies "Attack"\n'):
        plan, diags = parse_plan(text, "x.plan")
        assert not diags
        printed = format_plan(plan)
        again, diags = parse_plan(printed)
        assert diags == [] and again == plan, printed


def test_every_keyword_of_the_grammar_is_known_to_the_formatter() -> None:
    """A name that is a keyword must be quoted when a plan is written back
    (``never target "Focus"``), so ``format.KEYWORDS`` must hold every word a
    keyword terminal of ``grammar/plan.lark`` matches -- the variants' too."""
    import re
    from pathlib import Path

    grammar = (Path(__file__).resolve().parents[1] / "grammar" / "plan.lark").read_text(encoding="utf-8")
    patterns = re.findall(r"^[A-Z_]+\.2: /(.*?)\(\?!", grammar, re.M)
    assert len(patterns) > 40
    unknown = [p for p in patterns if not any(re.fullmatch(p, w, re.I) for w in KEYWORDS)]
    assert not unknown, f"keywords the formatter would leave bare: {unknown}"
