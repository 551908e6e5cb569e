"""Properties of the checks issue 14 added: names against the battle, squares
against the map, and the text decoder (never raises, always one verdict)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from referee.plan.check import character_diagnostics, square_diagnostics, unknown_name_hint
from referee.plan.parser import parse_plan
from referee.ruleset import MapSpec
from referee.textfile import decode_text

NAMES = st.lists(st.from_regex(r"[A-Z][a-z]{2,7}", fullmatch=True), min_size=1, max_size=6, unique=True)


@given(NAMES, st.data())
def test_a_name_of_the_battle_is_never_reported_and_any_other_name_is_once(names: list[str], data: st.DataObject) -> None:
    known = data.draw(st.sampled_from(names))
    stranger = data.draw(st.from_regex(r"[A-Z][a-z]{2,7}", fullmatch=True).filter(lambda n: n not in names))
    plan, diags = parse_plan(f"never target {known}\nmove toward {stranger}\n", "p.plan")
    assert not diags
    assert character_diagnostics(plan.clauses[0], names, "p.plan") == []
    reported = character_diagnostics(plan.clauses[1], names, "p.plan")
    assert [(d.code, d.line, d.column) for d in reported] == [("unknown-character", 2, 13)]
    assert reported[0].hint  # always a did-you-mean or the list of names


def test_name_hints_prefer_the_plan_s_own_words_then_the_battle_s_names() -> None:
    assert unknown_name_hint("weakest", ["Weakest"], "preference").startswith("did you mean 'lowest hp'?")
    assert unknown_name_hint("Akanee", ["Akane", "Bo"]) == "did you mean 'Akane'?"
    assert unknown_name_hint("Zed", ["Akane", "Bo"]) == "characters in this battle: Akane, Bo"


@given(st.integers(1, 32), st.integers(1, 32), st.integers(0, 40), st.integers(1, 40))
def test_a_square_is_reported_exactly_when_it_is_off_the_map(width: int, height: int, file: int, rank: int) -> None:
    letters = "abcdefghijklmnopqrstuvwxyz"
    name = (letters[file] if file < 26 else "a" + letters[file - 26]) + str(rank)
    plan, diags = parse_plan(f"move to {name}\n", "p.plan")
    if diags:  # not a square the parser accepts (beyond af): nothing to check
        return
    reported = square_diagnostics(plan.clauses[0], MapSpec(width, height, "king"), "p.plan")
    assert bool(reported) == (file >= width or rank > height)


@given(st.binary(max_size=300))
def test_decoding_any_bytes_gives_text_or_exactly_one_encoding_error(raw: bytes) -> None:
    text, diags = decode_text(raw, "f.yaml")
    if text is None:
        assert [d.code for d in diags] == ["encoding"] and diags[0].hint
    else:
        assert diags == [] and text == raw.decode("utf-8-sig")


@given(st.text(max_size=200))
def test_utf8_text_always_decodes_as_itself(text: str) -> None:
    decoded, diags = decode_text(text.encode("utf-8"), "f.yaml")
    assert diags == [] and decoded == (text[1:] if text.startswith("\ufeff") else text)
