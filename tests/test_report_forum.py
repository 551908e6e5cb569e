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
