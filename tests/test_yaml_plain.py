"""The plain YAML path (issue 18, item 2) answers exactly as the general one.

``referee.yamlio.load_yaml`` builds an honest file in one pass and leaves
everything else to the general path, which alone writes diagnostics.  These
tests hold the plain path to that contract: whenever it answers, the data
(types included), every position and every key position equal the general
path's, and the general path finds no problem; whenever the general path
finds a problem, the plain path did not answer.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.diagnostics import Diagnostic
from referee.yamlio import YamlDocument, _load_plain, _load_simple, _load_yaml_general, load_yaml

ROOT = Path(__file__).resolve().parents[1]


def _same(text: str) -> bool:
    """Assert the contract for ``text`` for both fast paths (the plain one and
    the simple one); True when the plain path answered."""
    plain = _load_plain(text, "t.yaml")
    simple = _load_simple(text, "t.yaml")
    try:
        general, diags = _load_yaml_general(text, "t.yaml")
    except (IndexError, KeyError):  # `!!int ''`, `!!bool ''` escape the general path (reported): never plain
        assert plain is None and simple is None, text
        return False
    if simple is not None:
        _agrees(text, simple, general, diags)
    if plain is None:
        return False
    _agrees(text, plain, general, diags)
    return True


def _simple_answers(text: str) -> bool:
    """:func:`_same`, and True when the simple path answered."""
    _same(text)
    return _load_simple(text, "t.yaml") is not None


def _agrees(text: str, plain: YamlDocument, general: YamlDocument | None, diags: list[Diagnostic]) -> None:
    """``plain`` is what the general path made of ``text``, which found no problem."""
    assert general is not None and not diags, (text, diags)
    assert repr(plain.data) == repr(general.data), text  # repr: 1 and True differ
    assert plain.floatless
    assert set(plain.values) == set(general.values) and set(plain.keys) == set(general.keys), text
    for path in general.values:
        assert plain.values[path] == general.values[path], (text, path)
    for path in general.keys:
        assert plain.keys[path] == general.keys[path], (text, path)
    for path in general.values:
        assert plain.line(path) == general.values[path].line, (text, path)


def test_every_yaml_file_of_the_repository() -> None:
    files = [p for p in ROOT.glob("**/*.y*ml") if ".venv" not in p.parts]
    answered = sum(_same(p.read_text("utf-8", errors="replace")) for p in files)
    assert answered > 50


@pytest.mark.parametrize("text", [
    "", "a: 1\n", "- 1\n- -0\n- +7\n", "a: 0x10\n", "a: 010\n", "a: 1_000\n", "a: 1:30\n", "a: 5.0\n",
    "a: yes\nb: Off\nc: ~\nd: null\ne: TRUE\n", "a: 2007-12-13\n", "a: 1\na: 2\n", "a: &x [1]\nb: *x\n",
    "<<: {a: 1}\n", "? [a]\n: 1\n", "1: a\n", "~: a\n", "a: !!binary aGk=\n", "a: !!str 5\n", "a: !!int '5'\n",
    "a: !!float 1\n", "a: !custom x\n", "a: !!set {x}\n", "--- 1\n--- 2\n", "a: [1\n", "a: \x07\n",
    "a: " + "9" * 41 + "\n", "a: " + "9" * 39 + "\n", "a: " + "[" * 40 + "]" * 40 + "\n",
    "a:\n" + "".join("  " * i + "- \n" for i in range(1, 40)), "a: '\ud800'\n", "name: 名前\nplan: |\n  x\n",
    "= : 1\n", "a: =\n", "'a': 1\n\"a\": 2\n", "!!str\na: 1\n", "!!map ''\n", "!!seq ''\n", "!!int [1]\n",
    "a: !!null [1]\n", "!!str {a: 1}: 1\n",
])
def test_edge_cases(text: str) -> None:
    _same(text)


def test_an_honest_sheet_takes_the_plain_path() -> None:
    text = "name: Kagura\nabilities: {body: 3, reflex: 3, intellect: 3}\npatterns: [火火水]\nskills: [rest]\n"
    assert _same(text)
    doc, diags = load_yaml(text, "k.yaml")
    assert doc is not None and not diags and doc.floatless


def test_a_duplicate_key_is_still_reported() -> None:
    doc, diags = load_yaml("name: A\nname: B\n", "d.yaml")
    assert doc is not None and doc.data == {"name": "B"}
    assert [(d.code, d.line, d.column) for d in diags] == [("duplicate-key", 2, 1)]


_PIECES = st.sampled_from([
    "a", "b", "名", ":", ": ", "- ", "\n", "\n  ", "  ", "[", "]", "{", "}", ", ", "1", "0", "-", "+", "x1",
    "yes", "no", "~", "null", "'", '"', "|", ">", "#", "&a ", "*a", "!!str ", "!!int ", "<<", "?", "1.5",
    "0x1F", "_", "=", "\t", "!!map ", "!!seq ", "!!null ", "!!bool ",
])


@settings(max_examples=1000)
@given(st.lists(_PIECES, max_size=30).map("".join))
def test_random_texts(text: str) -> None:
    _same(text)


@pytest.mark.parametrize("text, line, column, tag", [
    ("name: X\nabilities: !!bool\n", 2, 12, "bool"),
    ("name: X\nabilities: {body: !!int }\n", 2, 19, "int"),
    ("- a\n- [1, !!float ]\n", 2, 7, "float"),
])
def test_an_empty_value_with_an_explicit_tag_is_a_located_diagnostic(text: str, line: int, column: int,
                                                                     tag: str) -> None:
    """PyYAML's constructors index an empty ``!!bool``/``!!int`` text and raise
    KeyError/IndexError: a hostile sheet once crashed ``referee check`` with a
    traceback; it is a ``yaml-syntax`` error at the value instead."""
    doc, diags = load_yaml(text, "s.yaml")
    assert doc is None and len(diags) == 1
    d = diags[0]
    assert (d.code, d.line, d.column) == ("yaml-syntax", line, column), d
    assert f"!!{tag}" in d.message


# -- the simple path (issue 18, helper roundfast) ----------------------------

def test_a_round_sheet_and_battle_file_take_the_simple_path() -> None:
    sheet = ("name: W1-0\nabilities: {body: 3, reflex: 3, intellect: 3}\npatterns: [火火水, 剣地風]\n"
             "skills: [rest, eruption, sala-twin-trees]\n")
    battle = ("title: Benchmark battle 0\nruleset: tcgt\nseed: 0\nteams:\n"
              "  white: [sheets/b0000-w1.yaml, sheets/b0000-w2.yaml]\n  black: [sheets/b0000-b1.yaml]\n")
    nested = "a:\n  b:\n    c: 1\n  d: [x]\ne: {}\nf: []\ng:\n  h: ~\n"
    for text in (sheet, battle, nested):
        assert _simple_answers(text), text


@pytest.mark.parametrize("text", [
    "a: 1", "a: 1\n\n", "# c\na: 1\n", "a: 1 # c\n", "a: 1\r\n", "  a: 1\n", "a:\n", "a:\nb: 1\n", "a: \n",
    "a:  1\n", "a: 1 \n", "a: [1,2]\n", "a: [1 ,2]\n", "a: [ 1]\n", "a: {b:1}\n", "a: -1\n", "a: 1.5\n",
    "a: 0x1\n", "a: 01\n", "a: .inf\n", "a: =\n", "a: <<\n", "<<: 1\n", "null: 1\n", "yes: 1\n", "1: a\n",
    "a: {1: a}\n", "a: {b: 1, b: 2}\n", "a: 1\na: 2\n", "a:\n  b: 1\n c: 2\n", "a:\n  b: 1\n    c: 2\n",
    "a: x\u2028y\n", "a: x\x85y\n", "a: \ufeffx\n", "a: x\ty\n", "a: " + "9" * 41 + "\n", "a: 'x'\n",
    "a: x:y\n", "a: x#y\n", "a: x,y\n", "a: [x:y]\n", "a: !x\n", "a: *x\n", "a: %x\n", "a: @x\n", "a: `x\n",
    "a: ?x\n", "a: |\n  x\n", "a:\n- x\n", "---\na: 1\n", "a: ...\n", "a: 1\n...\n", "名: 1\n",
    "a: {" + "k" * 70 + ": 1}\n", "k" * 70 + ": 1\n", "a: [y, n, on, Off, NULL, ~, true]\n",
])
def test_simple_path_edges(text: str) -> None:
    _same(text)


_SIMPLE_KEYS = st.sampled_from(["a", "b", "name", "null", "yes", "1", "_", "ab_1", "名", "k" * 70, "y", "On"])
_SIMPLE_SCALARS = st.sampled_from([
    "x", "W1-0", "火火水", "1", "0", "-1", "+1", "01", "0x1", "1_0", "1.5", ".5", "~", "null", "Null", "true",
    "Yes", "off", "=", "<<", ".inf", "a b", "a  b", "a,b", "a#b", "a #b", "a:b", "a: b", "x\u2028y", "x\x85y",
    "\ufeffx", "x\ty", "9" * 41, "9" * 39, "2007-12-13", "sheets/a.yaml", "-x", "x-", "(x)", "$^;~", "'x'",
    "\U0001f600", "x\u00a0y", "",
])


@st.composite
def _simple_texts(draw: st.DrawFn) -> str:
    """Texts near the simple path's grammar: key lines, indented or not,
    with scalars, flow lists and flow mappings, and now and then a stray piece."""
    lines = []
    for _ in range(draw(st.integers(1, 6))):
        indent = " " * draw(st.sampled_from([0, 0, 0, 2, 2, 4, 1, 3]))
        key = draw(_SIMPLE_KEYS)
        kind = draw(st.sampled_from(["scalar", "seq", "map", "empty", "stray"]))
        sep = draw(st.sampled_from([", ", ", ", ", ", ",", " ,", ",  "]))
        if kind == "scalar":
            lines.append(f"{indent}{key}: {draw(_SIMPLE_SCALARS)}")
        elif kind == "seq":
            items = draw(st.lists(_SIMPLE_SCALARS, max_size=4))
            lines.append(f"{indent}{key}: [{sep.join(items)}]")
        elif kind == "map":
            pairs = draw(st.lists(st.tuples(_SIMPLE_KEYS, _SIMPLE_SCALARS), max_size=4))
            lines.append(f"{indent}{key}: {{{sep.join(f'{k}: {v}' for k, v in pairs)}}}")
        elif kind == "empty":
            lines.append(f"{indent}{key}:")
        else:
            lines.append(indent + draw(_PIECES) + draw(_PIECES))
    end = draw(st.sampled_from(["\n", "\n", "\n", "", "\n\n", " \n"]))
    return "\n".join(lines) + end


_HONEST_SCALARS = st.sampled_from(["x", "W1-0", "火火水", "1", "0", "19", "~", "null", "true", "Yes", "off",
                                   "2007-12-13", "sheets/a.yaml", "x-", "(x)", "$^;~", "a b c", "9" * 39])


@st.composite
def _honest_texts(draw: st.DrawFn) -> str:
    """Texts of the simple path's grammar, nested by indentation."""
    lines: list[str] = []
    indents = [0]
    for _ in range(draw(st.integers(1, 8))):
        indent = draw(st.sampled_from(indents))
        indents = indents[: indents.index(indent) + 1]
        key = draw(st.sampled_from(["a", "b", "c", "name", "skills", "_x"]))
        kind = draw(st.sampled_from(["scalar", "seq", "map", "nest"]))
        if kind == "scalar":
            lines.append(f"{' ' * indent}{key}: {draw(_HONEST_SCALARS)}")
        elif kind == "seq":
            lines.append(f"{' ' * indent}{key}: [{', '.join(draw(st.lists(_HONEST_SCALARS, max_size=4)))}]")
        elif kind == "map":
            pairs = draw(st.lists(st.tuples(st.sampled_from(["a", "b", "体力", "x1"]), _HONEST_SCALARS), max_size=3))
            lines.append(f"{' ' * indent}{key}: {{{', '.join(f'{k}: {v}' for k, v in pairs)}}}")
        else:
            lines.append(f"{' ' * indent}{key}:")
            lines.append(f"{' ' * (indent + 2)}{key}: {draw(_HONEST_SCALARS)}")
            indents.append(indent + 2)
    return "\n".join(lines) + "\n"


@settings(max_examples=3000)
@given(st.one_of(_simple_texts(), _honest_texts()))
def test_random_simple_texts(text: str) -> None:
    _same(text)
