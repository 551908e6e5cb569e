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

from referee.yamlio import _load_plain, _load_yaml_general, load_yaml

ROOT = Path(__file__).resolve().parents[1]


def _same(text: str) -> bool:
    """Assert the contract for ``text``; True when the plain path answered."""
    plain = _load_plain(text, "t.yaml")
    try:
        general, diags = _load_yaml_general(text, "t.yaml")
    except (IndexError, KeyError):  # `!!int ''`, `!!bool ''` escape the general path (reported): never plain
        assert plain is None, text
        return False
    if plain is None:
        return False
    assert general is not None and not diags, (text, diags)
    assert repr(plain.data) == repr(general.data), text  # repr: 1 and True differ
    assert plain.floatless
    assert set(plain.values) == set(general.values) and set(plain.keys) == set(general.keys), text
    for path in general.values:
        assert plain.values[path] == general.values[path], (text, path)
    for path in general.keys:
        assert plain.keys[path] == general.keys[path], (text, path)
    return True


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
