"""``schema_diagnostics`` reports a problem exactly when the shipped JSON
Schema (draft 2020-12, read by jsonschema) refuses the data, and a whole
number is an integer and nothing else (``5.0`` is not a whole number)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from referee.yamlio import YamlDocument, load_schema, schema_diagnostics

ROOT = Path(__file__).resolve().parents[1]

#: Keywords that draft 7 (what fastjsonschema compiles) reads exactly as
#: draft 2020-12 does, for the schemas validated by the thousand in a round.
_SAME_IN_DRAFT_7 = {"$schema", "$id", "$ref", "$defs", "title", "description", "x-expected", "type", "properties",
                    "additionalProperties", "required", "items", "minItems", "minLength", "minProperties",
                    "maxProperties", "minimum", "pattern", "enum", "oneOf", "anyOf"}


def _keywords(schema: Any, out: set[str]) -> set[str]:
    """Every keyword used anywhere in ``schema`` (not the names it defines)."""
    if isinstance(schema, dict):
        for key, value in schema.items():
            out.add(key)
            if key in ("properties", "$defs"):
                for sub in value.values():
                    _keywords(sub, out)
            elif key not in ("enum", "required"):
                _keywords(value, out)
    elif isinstance(schema, list):
        for sub in schema:
            _keywords(sub, out)
    return out


@pytest.mark.parametrize("name", ["character", "battle"])
def test_sheet_and_battle_schemas_use_keywords_draft_7_reads_alike(name: str) -> None:
    assert _keywords(load_schema(name), set()) <= _SAME_IN_DRAFT_7


def _refused(name: str, data: Any) -> bool:
    return any(True for _ in Draft202012Validator(load_schema(name)).iter_errors(data))


def _doc(data: Any) -> YamlDocument:
    return YamlDocument("t.yaml", json.dumps(data, ensure_ascii=False), data)


_SCALARS = st.none() | st.booleans() | st.integers(-3, 12) | st.text(alphabet="火水風地剣abc.y/ 1", max_size=5)
_NAMES = st.sampled_from(["name", "abilities", "patterns", "skills", "plan", "body", "reflex", "intellect", "体力",
                          "player", "file", "text", "title", "ruleset", "seed", "teams", "white", "black", "setup",
                          "square", "hp", "size", "order", "c3", "Kai", "x"])
_DATA = st.recursive(_SCALARS, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(_NAMES, inner, max_size=5),
                     max_leaves=20)
#: Valid sheets and battle files, which :func:`_edited` spoils now and then.
_WORD = st.text(alphabet="火水風地剣ab", min_size=1, max_size=4)
_SHEETS = st.fixed_dictionaries(
    {"name": _WORD,
     "abilities": st.fixed_dictionaries({"body": st.integers(1, 5), "reflex": st.integers(1, 5)},
                                        optional={"intellect": st.integers(1, 5), "知性": st.integers(1, 5)}),
     "patterns": st.lists(_WORD | st.dictionaries(_WORD, _WORD, min_size=1, max_size=1), min_size=1, max_size=3),
     "skills": st.lists(_WORD, min_size=1, max_size=3)},
    optional={"plan": _WORD | st.fixed_dictionaries({"file": _WORD}) | st.fixed_dictionaries({"text": _WORD}),
              "player": _WORD, "notes": _WORD, "wiz": st.dictionaries(_WORD, st.integers(0, 2))})
_TEAM = st.lists(st.sampled_from(["a.yaml", "b.yaml"]), min_size=1, max_size=2)
_BATTLES = st.fixed_dictionaries(
    {"title": _WORD, "teams": st.fixed_dictionaries({"white": _TEAM, "black": _TEAM})},
    optional={"ruleset": _WORD, "seed": st.integers(0, 3) | _WORD,
              "setup": st.dictionaries(_WORD, st.fixed_dictionaries(
                  {}, optional={"square": st.sampled_from(["c3", "ab12"]), "hp": st.integers(1, 9),
                                "size": st.sampled_from(["T", "M", "H"])}).filter(bool), max_size=2),
              "order": st.lists(_WORD, min_size=1, max_size=2)})


@st.composite
def _edited(draw: st.DrawFn, documents: st.SearchStrategy[dict[str, Any]]) -> Any:
    """A valid document, or one with one edit somewhere: a key added or
    removed, or a value or list item replaced by odd data."""
    data = draw(documents)
    containers: list[Any] = []

    def collect(value: Any) -> None:
        if isinstance(value, (dict, list)):
            containers.append(value)
            for child in (value.values() if isinstance(value, dict) else value):
                collect(child)

    collect(data)
    where = draw(st.sampled_from(containers))
    edit = draw(st.sampled_from(["none", "add", "remove", "replace"]))
    if isinstance(where, dict):
        if edit == "add":
            where[draw(_NAMES | _WORD)] = draw(_DATA)
        elif edit == "remove" and where:
            del where[draw(st.sampled_from(sorted(where)))]
        elif edit == "replace" and where:
            where[draw(st.sampled_from(sorted(where)))] = draw(_DATA)
    elif edit == "add":
        where.append(draw(_DATA))
    elif edit == "remove" and where:
        where.pop()
    elif edit == "replace" and where:
        where[draw(st.integers(0, len(where) - 1))] = draw(_DATA)
    return data


@settings(max_examples=400, deadline=None)
@given(st.one_of(st.tuples(st.just("character"), _edited(_SHEETS) | _DATA),
                 st.tuples(st.just("battle"), _edited(_BATTLES) | _DATA)))
def test_diagnostics_exactly_when_the_schema_refuses(case: tuple[str, Any]) -> None:
    name, data = case
    assert bool(schema_diagnostics(_doc(data), name)) == _refused(name, data)


def test_every_sheet_and_battle_file_of_the_repository() -> None:
    from referee.yamlio import load_yaml

    checked = 0
    for path in ROOT.glob("**/*.yaml"):
        if ".venv" in path.parts:
            continue
        doc, _ = load_yaml(path.read_text("utf-8", errors="replace"), str(path))
        if doc is None:
            continue
        for name in ("character", "battle"):
            if not any(isinstance(v, float) for v in _leaves(doc.data)):
                assert bool(schema_diagnostics(doc, name)) == _refused(name, doc.data), (path, name)
                checked += 1
    assert checked > 100


def _leaves(value: Any) -> list[Any]:
    if isinstance(value, dict):
        return [x for v in value.values() for x in _leaves(v)]
    if isinstance(value, list):
        return [x for v in value for x in _leaves(v)]
    return [value]


@pytest.mark.parametrize(("name", "data", "path"), [
    ("character", {"name": "A", "abilities": {"body": 5.0, "reflex": 2, "intellect": 2}, "patterns": ["火火"],
                   "skills": ["rest"]}, "abilities.body"),
    ("battle", {"title": "t", "seed": 1.0, "teams": {"white": ["a.yaml"], "black": ["b.yaml"]}}, "seed"),
    ("battle", {"title": "t", "teams": {"white": ["a.yaml"], "black": ["b.yaml"]}, "setup": {"A": {"hp": 2.0}}},
     "setup.A.hp"),
])
def test_a_float_is_not_a_whole_number(name: str, data: dict[str, Any], path: str) -> None:
    diags = schema_diagnostics(_doc(data), name)
    assert len(diags) == 1 and diags[0].message.startswith(path), diags
