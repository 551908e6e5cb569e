"""The per-user cache of the built plan parser (referee.plan.parsercache).

The cache may make the referee faster, never wrong: a loaded parser parses
exactly like a built one, a damaged or stale file is rebuilt, and a folder
others could write to is never read.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from lark import Lark

from referee.plan import parser as parser_module
from referee.plan.parser import PARSER_OPTIONS, _grammar_text, parse_plan
from referee.plan.parsercache import cache_dir, cache_file, cached_parser

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = sorted((ROOT / "plans").glob("*.plan")) + sorted((ROOT / "tests" / "bad_plans").glob("*.plan"))


def build() -> Lark:
    return Lark(_grammar_text(), **PARSER_OPTIONS)


def outcome(parser: Lark, text: str, monkeypatch: pytest.MonkeyPatch) -> tuple[object, object]:
    """The whole of parse_plan (AST with positions, every diagnostic, the
    line-by-line recovery) with ``parser`` in place of the process's one."""
    monkeypatch.setattr(parser_module, "plan_parser", lambda: parser)
    return parse_plan(text, "sample.plan")


def test_a_cached_parser_parses_every_sample_exactly_like_a_built_one(tmp_path: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    grammar = _grammar_text()
    first, how_first = cached_parser(grammar, PARSER_OPTIONS, build, tmp_path)
    second, how_second = cached_parser(grammar, PARSER_OPTIONS, build, tmp_path)
    assert (how_first, how_second) == ("built", "cache")
    assert len(list(tmp_path.iterdir())) == 1
    assert len(SAMPLES) > 30
    for path in SAMPLES:
        text = path.read_text(encoding="utf-8")
        assert outcome(second, text, monkeypatch) == outcome(first, text, monkeypatch), path.name


def test_a_damaged_cache_file_is_rebuilt_and_rewritten(tmp_path: Path) -> None:
    grammar = _grammar_text()
    path = cache_file(tmp_path, grammar, PARSER_OPTIONS)
    path.write_text("__import__('os').system('echo never run')", encoding="utf-8")
    parser, how = cached_parser(grammar, PARSER_OPTIONS, build, tmp_path)
    assert how == "built" and isinstance(parser, Lark)
    assert cached_parser(grammar, PARSER_OPTIONS, build, tmp_path)[1] == "cache"


def test_another_grammar_or_options_use_another_file(tmp_path: Path) -> None:
    grammar = _grammar_text()
    assert cache_file(tmp_path, grammar, PARSER_OPTIONS) != cache_file(tmp_path, grammar + "\n", PARSER_OPTIONS)
    assert cache_file(tmp_path, grammar, PARSER_OPTIONS) != \
        cache_file(tmp_path, grammar, {**PARSER_OPTIONS, "strict": False})


def test_the_cache_folder_is_private_and_can_be_turned_off(tmp_path: Path) -> None:
    folder = cache_dir({"REFEREE_CACHE_DIR": str(tmp_path / "c")})
    assert folder == tmp_path / "c"
    assert (folder.stat().st_mode & 0o777) == 0o700
    assert cache_dir({"REFEREE_CACHE_DIR": ""}) is None
    assert cache_dir({"XDG_CACHE_HOME": str(tmp_path / "x")}) == tmp_path / "x" / "tcgt-referee"


@pytest.mark.skipif(not hasattr(os, "getuid"), reason="POSIX permissions")
def test_a_folder_others_may_write_is_never_used(tmp_path: Path) -> None:
    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(0o777)
    assert cache_dir({"REFEREE_CACHE_DIR": str(shared)}) is None
    _, how = cached_parser(_grammar_text(), PARSER_OPTIONS, build, cache_dir({"REFEREE_CACHE_DIR": str(shared)}))
    assert how == "built" and list(shared.iterdir()) == []
