"""``load_yaml`` reads what PyYAML's safe loader reads, and says where.

The reference is PyYAML itself: its safe loader (on libyaml when installed,
as ``load_yaml`` is) without the timestamp resolver (dates stay text, as
``referee.yamlio`` says).  Whenever ``load_yaml`` returns a document without
diagnostics, the reference reads the same data (types included), every
value and key is located, and each is where the reference composes it
(line, column, end line); whenever the reference reads a text with no
repeated key, ``load_yaml`` reads it without a diagnostic unless a limit of
:mod:`referee.limits` refuses it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.yamlio import FieldPath, YamlDocument, load_yaml

ROOT = Path(__file__).resolve().parents[1]
_TIMESTAMP = "tag:yaml.org,2002:timestamp"
#: Codes ``load_yaml`` gives for a text PyYAML reads but the limits refuse.
_LIMIT_CODES = {"yaml-too-complex", "number-too-large", "encoding"}


class _Reference(getattr(yaml, "CSafeLoader", yaml.SafeLoader)):  # type: ignore[misc]
    """PyYAML's safe loader, dates left as text, noting a repeated key (as a
    Python mapping sees it: ``yes`` and ``1`` are one key)."""

    repeated = False

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> Any:
        mapping = super().construct_mapping(node, deep)
        self.repeated = self.repeated or len(mapping) < len(node.value)
        return mapping


_Reference.yaml_implicit_resolvers = {
    first: [(tag, regexp) for tag, regexp in resolvers if tag != _TIMESTAMP]
    for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}


class _Read:
    """What the reference made of a text: its data, its composed root (merge
    keys merged, as constructing leaves it) and whether a key repeats."""

    def __init__(self, text: str) -> None:
        loader = _Reference(text)
        try:
            self.root = loader.get_single_node()
            self.data = loader.construct_document(self.root) if self.root is not None else None
            self.repeated = loader.repeated
        finally:
            loader.dispose()

    def node(self, path: FieldPath, *, key: bool = False) -> yaml.Node:
        """The node at ``path`` (or the key node naming it)."""
        node: Any = self.root
        named: Any = self.root
        for part in path:
            if isinstance(node, yaml.SequenceNode):
                node = named = node.value[part]
            else:
                named, node = next((k, v) for k, v in reversed(node.value)
                                   if _Reference("").construct_object(k) == part)
        found: yaml.Node = named if key else node
        return found


def _reference(text: str) -> _Read | None:
    try:
        return _Read(text)
    except Exception:  # noqa: BLE001 - any refusal (syntax, a tag it cannot build, a crash)
        return None


def _paths(data: Any, path: FieldPath = ()) -> dict[FieldPath, bool]:
    """Every path into plain data (the root, then through mapping keys and
    list indices), and whether a key names it."""
    out = {path: False}
    if isinstance(data, dict):
        for k, v in data.items():
            out.update(_paths(v, path + (k,)))
            out[path + (k,)] = True
    elif isinstance(data, list):
        for i, v in enumerate(data):
            out.update(_paths(v, path + (i,)))
    return out


def _at(node: yaml.Node) -> tuple[int, int, int]:
    """A node's 1-based start line and column and end line."""
    return node.start_mark.line + 1, node.start_mark.column + 1, node.end_mark.line + 1


def _check(text: str) -> YamlDocument | None:
    """The module docstring's contract for ``text``; the clean document, if any."""
    doc, diags = load_yaml(text, "t.yaml")
    read = _reference(text)
    if doc is not None and not diags:
        assert read is not None and not read.repeated, text
        assert repr(doc.data) == repr(read.data), text  # repr: 1 and True differ
        if "&" not in text:  # with an alias, only the paths of its anchor's place are kept
            paths = _paths(read.data) if read.root is not None else {}
            assert set(paths) <= set(doc.values), text  # every value located
            assert {path for path, named in paths.items() if named} <= set(doc.keys), text
        for path in doc.values:
            pos = doc.position(path)
            assert (pos.line, pos.column, pos.end_line) == _at(read.node(path)), (text, path)
        for path in doc.keys:
            pos = doc.key_position(path)
            assert (pos.line, pos.column, pos.end_line) == _at(read.node(path, key=True)), (text, path)
        return doc
    if read is not None and not read.repeated:
        assert diags and {d.code for d in diags} <= _LIMIT_CODES, (text, diags)
    return None


def test_every_yaml_file_of_the_repository() -> None:
    files = [p for p in ROOT.glob("**/*.y*ml") if ".venv" not in p.parts]
    clean = [_check(p.read_text("utf-8", errors="replace")) for p in files]
    assert sum(doc is not None for doc in clean) > 50


@pytest.mark.parametrize("text", [
    "", "a: 1\n", "- 1\n- -0\n- +7\n", "a: 0x10\n", "a: 010\n", "a: 1_000\n", "a: 1:30\n", "a: 5.0\n",
    "a: yes\nb: Off\nc: ~\nd: null\ne: TRUE\n", "a: 2007-12-13\n", "a: 1\na: 2\n", "a: &x [1]\nb: *x\n",
    "<<: {a: 1}\n", "? [a]\n: 1\n", "1: a\n", "~: a\n", "a: !!binary aGk=\n", "a: !!str 5\n", "a: !!int '5'\n",
    "a: !!float 1\n", "a: !custom x\n", "a: !!set {x}\n", "--- 1\n--- 2\n", "a: [1\n", "a: \x07\n",
    "a: " + "9" * 41 + "\n", "a: " + "9" * 39 + "\n", "a: " + "[" * 40 + "]" * 40 + "\n",
    "a:\n" + "".join("  " * i + "- \n" for i in range(1, 40)), "a: '\ud800'\n", "name: 名前\nplan: |\n  x\n",
    "= : 1\n", "a: =\n", "'a': 1\n\"a\": 2\n", "!!str\na: 1\n", "!!map ''\n", "!!seq ''\n", "!!int [1]\n",
    "a: !!null [1]\n", "!!str {a: 1}: 1\n", "a: x\u2028y\n", "a: x\x85y\n", "a: \ufeffx\n", "a: 'x'\n",
    "a: \"q\"\nb: [ 1 ,2]\nc: {d:  e}\n", "a:\n  b:\n    c: 1\n  d: [x]\ne: {}\nf: []\ng:\n  h: ~\n",
])
def test_edge_cases(text: str) -> None:
    _check(text)


def test_an_honest_sheet_reads_cleanly_with_its_positions() -> None:
    text = "name: Kagura\nabilities: {body: 3, reflex: 3, intellect: 3}\npatterns: [火火水]\nskills: [rest]\n"
    doc = _check(text)
    assert doc is not None and doc.data["abilities"] == {"body": 3, "reflex": 3, "intellect": 3}
    assert doc.position(("skills", 0)).column == 10 and doc.key_position(("abilities", "reflex")).column == 22


def test_a_quoted_value_says_where_its_text_starts() -> None:
    doc, _ = load_yaml("a: 'xy'\nb: xy\n", "q.yaml")
    assert doc is not None
    assert (doc.position(("a",)).column, doc.position(("a",)).content_column, doc.position(("a",)).style) == (4, 5, "'")
    assert (doc.position(("b",)).column, doc.position(("b",)).content_column) == (4, 4)
    assert not doc.position(("b",)).style  # plain


def test_a_duplicate_key_is_still_reported() -> None:
    doc, diags = load_yaml("name: A\nname: B\n", "d.yaml")
    assert doc is not None and doc.data == {"name": "B"}
    assert [(d.code, d.line, d.column) for d in diags] == [("duplicate-key", 2, 1)]


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


_PIECES = st.sampled_from([
    "a", "b", "名", ":", ": ", "- ", "\n", "\n  ", "  ", "[", "]", "{", "}", ", ", "1", "0", "-", "+", "x1",
    "yes", "no", "~", "null", "'", '"', "|", ">", "#", "&a ", "*a", "!!str ", "!!int ", "<<", "?", "1.5",
    "0x1F", "_", "=", "\t", "!!map ", "!!seq ", "!!null ", "!!bool ",
])


@settings(max_examples=1000)
@given(st.lists(_PIECES, max_size=30).map("".join))
def test_random_texts(text: str) -> None:
    _check(text)


_KEYS = st.sampled_from(["a", "b", "name", "null", "yes", "1", "_", "ab_1", "名", "k" * 70, "y", "On"])
_SCALARS = st.sampled_from([
    "x", "W1-0", "火火水", "1", "0", "-1", "+1", "01", "0x1", "1_0", "1.5", ".5", "~", "null", "Null", "true",
    "Yes", "off", "=", "<<", ".inf", "a b", "a  b", "a,b", "a#b", "a #b", "a:b", "a: b", "x\u2028y", "x\x85y",
    "\ufeffx", "x\ty", "9" * 41, "9" * 39, "2007-12-13", "sheets/a.yaml", "-x", "x-", "(x)", "$^;~", "'x'",
    "\U0001f600", "x\u00a0y", "", "&a x", "*a",
])


@st.composite
def _key_line_texts(draw: st.DrawFn) -> str:
    """Texts of ``key: value`` lines, as sheets and battle files are written,
    indented or not, with scalars, flow lists and flow mappings, and now and
    then a stray piece."""
    lines = []
    for _ in range(draw(st.integers(1, 6))):
        indent = " " * draw(st.sampled_from([0, 0, 0, 2, 2, 4, 1, 3]))
        key = draw(_KEYS)
        kind = draw(st.sampled_from(["scalar", "seq", "map", "empty", "stray"]))
        sep = draw(st.sampled_from([", ", ", ", ", ", ",", " ,", ",  "]))
        if kind == "scalar":
            lines.append(f"{indent}{key}: {draw(_SCALARS)}")
        elif kind == "seq":
            items = draw(st.lists(_SCALARS, max_size=4))
            lines.append(f"{indent}{key}: [{sep.join(items)}]")
        elif kind == "map":
            pairs = draw(st.lists(st.tuples(_KEYS, _SCALARS), max_size=4))
            lines.append(f"{indent}{key}: {{{sep.join(f'{k}: {v}' for k, v in pairs)}}}")
        elif kind == "empty":
            lines.append(f"{indent}{key}:")
        else:
            lines.append(indent + draw(_PIECES) + draw(_PIECES))
    end = draw(st.sampled_from(["\n", "\n", "\n", "", "\n\n", " \n"]))
    return "\n".join(lines) + end


_HONEST_SCALARS = st.sampled_from(["x", "W1-0", "火火水", "1", "0", "19", "~", "null", "true", "Yes", "off",
                                   "2007-12-13", "sheets/a.yaml", "x-", "(x)", "$^;~", "a b c", "9" * 39, "'q'"])


@st.composite
def _honest_texts(draw: st.DrawFn) -> str:
    """Well-formed key-line texts nested by indentation, with block lists."""
    lines: list[str] = []
    indents = [0]
    for _ in range(draw(st.integers(1, 8))):
        indent = draw(st.sampled_from(indents))
        indents = indents[: indents.index(indent) + 1]
        key = draw(st.sampled_from(["a", "b", "c", "name", "skills", "_x"]))
        kind = draw(st.sampled_from(["scalar", "seq", "map", "nest", "block"]))
        pad = " " * indent
        if kind == "scalar":
            lines.append(f"{pad}{key}: {draw(_HONEST_SCALARS)}")
        elif kind == "seq":
            lines.append(f"{pad}{key}: [{', '.join(draw(st.lists(_HONEST_SCALARS, max_size=4)))}]")
        elif kind == "map":
            pairs = draw(st.lists(st.tuples(st.sampled_from(["a", "b", "体力", "x1"]), _HONEST_SCALARS), max_size=3))
            lines.append(f"{pad}{key}: {{{', '.join(f'{k}: {v}' for k, v in pairs)}}}")
        elif kind == "block":
            lines.append(f"{pad}{key}:")
            lines.extend(f"{pad}  - {v}" for v in draw(st.lists(_HONEST_SCALARS, min_size=1, max_size=3)))
        else:
            lines.append(f"{pad}{key}:")
            lines.append(f"{pad}  {key}: {draw(_HONEST_SCALARS)}")
            indents.append(indent + 2)
    return "\n".join(lines) + "\n"


@settings(max_examples=1500)
@given(st.one_of(_key_line_texts(), _honest_texts()))
def test_random_key_line_texts(text: str) -> None:
    _check(text)
