"""The forum formats (issue 15, item 2) and escaping in every written format:
a name or a title must never forge a line or markup."""

from __future__ import annotations

import re

import pytest

from reporthelpers import FIXTURES, renamed, resolved

from referee.report import render
from referee.report.discord import LIMIT, SEPARATOR, discord_messages, split_messages
from referee.report.story import read_story


def report(name: str):  # type: ignore[no-untyped-def]
    return resolved(str(FIXTURES / f"{name}.battle.yaml"))


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_bbcode_has_a_spoiler_per_written_turn_and_tables_for_boards(lang: str) -> None:
    rep = report("narrowing")
    post = render(rep, "bbcode", lang)
    story = read_story(rep)
    written = rep.result.turns - sum(f.turns for f in story.folds)
    assert post.count("[spoiler=") == post.count("[/spoiler]") == written
    boards = sum(e.TYPE == "narrowing" for e in rep.events) + 2  # start, each narrowing, summary
    assert post.count("[table]") == boards + 1  # and the final table
    assert "```" not in post and "\n## " not in post


@pytest.mark.parametrize("fmt", ["text", "md", "bbcode", "discord", "html"])
def test_every_format_renders_every_fixture_in_both_languages(fmt: str) -> None:
    for battle in ("duel", "melee", "narrowing", "skirmish", "statuses"):
        for lang in ("en", "ja"):
            out = render(report(battle), fmt, lang)
            body = out.split("<main>")[-1].split("</main>")[0] if fmt == "html" else out
            assert out.endswith("\n") and not re.search(r"\{[a-z_]+\}", body), "a placeholder left unfilled"


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_discord_messages_fit_and_each_reads_alone(lang: str) -> None:
    rep = report("skirmish")
    for full in (False, True):
        messages = discord_messages(rep, lang, full=full)
        assert len(messages) > 3
        for index, text in enumerate(messages, 1):
            assert len(text) <= LIMIT, (index, len(text))
            assert text.startswith("**Skirmish") and f"{index}/{len(messages)}" in text.splitlines()[0]
            assert text.count("```") % 2 == 0, "a code block was cut open"
        joined = render(rep, "discord", lang, full=full)
        assert joined.rstrip("\n").split(f"\n\n{SEPARATOR}\n\n") == messages


def test_discord_cuts_an_oversized_board_and_line_and_fences_again() -> None:
    text = "**Turn 9**\n\n```\n" + "\n".join(f"row {i:03} " + "x" * 40 for i in range(100)) + "\n```\n\n- " + "word " * 900
    messages = split_messages(text, "T", "en", limit=500)
    assert all(len(m) <= 500 for m in messages)
    assert all(m.count("```") % 2 == 0 for m in messages)
    assert sum(m.count("row ") for m in messages) == 100
    assert sum(m.count("word") for m in messages) == 900
    assert "**Turn 9** (continued)" in messages[1]


HOSTILE = {
    "text": "Ash\nTurn 99\n-------",
    "md": "*Ash* [x](http://e.vil) <b>`",
    "bbcode": "[b]Ash[/b][/spoiler][url=http://e.vil]",
    "discord": "@everyone **Ash** ```",
    "html": "<!--<script>alert(1)</script>",
}


@pytest.mark.parametrize("fmt", list(HOSTILE))
def test_a_hostile_name_forges_no_line_and_no_markup(fmt: str) -> None:
    name = HOSTILE[fmt]
    rep = renamed(report("duel"), "Dana", name)
    out = render(rep, fmt, "en")
    plain = render(renamed(report("duel"), "Dana", "Dana"), fmt, "en")
    if fmt != "discord":  # (a longer name may take one more message there)
        assert len(out.splitlines()) == len(plain.splitlines()), "a name added lines"
    if fmt == "text":
        assert "Ash\\u000aTurn 99\\u000a-------" in out and "\nTurn 99\n" not in out
    elif fmt == "md":
        assert r"\*Ash\* \[x\](http://e.vil) \<b\>\`" in out
    elif fmt == "bbcode":
        assert "［b］Ash［/b］［/spoiler］［url=http://e.vil］" in out
        assert out.count("[/spoiler]") == plain.count("[/spoiler]")
    elif fmt == "discord":
        assert "@everyone" not in out and "@\u2060everyone \\*\\*Ash\\*\\* \\`\\`\\`" in out
        assert all(m.count("```") % 2 == 0 for m in out.split(SEPARATOR))
    else:
        assert "<!--<script>" not in out
        data = re.search(r'<script type="application/json" id="replay-data">(.*?)</script>', out, re.S)
        assert data is not None and "<" not in data.group(1) and ">" not in data.group(1)
        assert out.count("<script") == plain.count("<script")


# --------------------------------------------------------------- properties

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from referee.report.forum import bbcode_escape, discord_escape  # noqa: E402
from referee.report.markup import fence_for, markdown_escape, one_line  # noqa: E402


@given(st.text())
def test_one_line_never_breaks_a_line(text: str) -> None:
    shown = one_line(text)
    assert len(shown.splitlines()) <= 1 and not any(ch in shown for ch in "\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029")
    assert one_line(shown) == shown


@given(st.text())
def test_markdown_escaping_leaves_no_live_markup_character(text: str) -> None:
    escaped = markdown_escape(text, line_start=True)
    bare = re.sub(r"\\.", "", escaped)
    assert not set(bare) & set("\\`*_<>[]~|&#")
    assert not re.match(r"\s*([-+=>]|\d+[.)])", escaped), "a list, quote or heading could start here"


@given(st.text())
def test_bbcode_and_discord_escaping(text: str) -> None:
    assert "[" not in bbcode_escape(text) and "]" not in bbcode_escape(text)
    assert "\n" not in discord_escape(text) and "@e" not in discord_escape(text.replace("@", "@e"))


@given(st.lists(st.text(alphabet="`ab", max_size=12), max_size=6))
def test_a_fence_is_longer_than_any_backtick_run(lines: list[str]) -> None:
    fence = fence_for(lines)
    assert all(fence not in line for line in lines)


_line = st.text(alphabet=st.sampled_from("ab cdé火 "), min_size=1, max_size=120).map(str.strip).filter(bool)
_block = st.one_of(st.lists(_line, min_size=1, max_size=8).map(lambda ls: ["- " + x for x in ls]),
                   st.lists(_line, min_size=1, max_size=30).map(lambda ls: ["```", *ls, "```"]),
                   _line.map(lambda x: ["**" + x + "**"]))


@settings(max_examples=60)
@given(st.lists(_block, min_size=1, max_size=25), st.integers(min_value=300, max_value=2000))
def test_discord_split_keeps_every_line_within_the_limit(blocks: list[list[str]], limit: int) -> None:
    text = "\n\n".join("\n".join(b) for b in blocks)
    messages = split_messages(text, "T", "en", limit=limit)
    assert all(len(m) <= limit for m in messages)
    assert all(m.count("```") % 2 == 0 for m in messages)
    body = "\n".join(messages)
    for block in blocks:
        for line in block:
            if line != "```":
                assert line in body
