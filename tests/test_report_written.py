"""The text and Markdown reports: structure, both languages, --explain."""

from __future__ import annotations

import re

import pytest

from reporthelpers import FIXTURES, resolved, standoff_text

from referee.engine.events import EVENT_TYPES
from referee.report import render
from referee.report.visitor import handled_types
from referee.report.written import WrittenReport


def report(name: str):  # type: ignore[no-untyped-def]
    return resolved(str(FIXTURES / f"{name}.battle.yaml"))


def test_every_event_type_has_a_sentence() -> None:
    """Style lesson 7: one method per event type, dispatched by a table."""
    assert handled_types(WrittenReport) == set(EVENT_TYPES)


def test_text_report_has_the_sections_a_game_master_posts() -> None:
    text = render(report("skirmish"), "text", "en")
    headings = ("Summary", "Armies", "House rules in force", "Starting positions", "Initiative",
                "Board at the start", "Turn by turn", "Result")
    for heading in headings:
        assert re.search(rf"^{re.escape(heading)}\n-+$", text, re.M), heading
    positions = [text.index(f"\n{h}\n") for h in headings]
    assert positions == sorted(positions), "the story first, then the log, in this order"
    assert re.search(r"^- Turn 1 · ", text, re.M)
    full = render(report("skirmish"), "text", "en", full=True)
    assert re.search(r"^Turn 1\n-+$", full, re.M) and "Turn by turn" not in full
    assert text.startswith("Skirmish: かぐら's company\n")
    assert "seed 20071213" in text
    assert "Action order: " in text
    assert "{" not in text and "}" not in text


def test_every_damage_event_is_written_with_hp_after() -> None:
    rep = report("melee")
    text = render(rep, "text", "en")
    damages = [e for e in rep.events if e.TYPE == "damage"]
    assert damages
    assert text.count("→ HP") >= len(damages)


def test_narrowing_prints_a_board_after_each_stage() -> None:
    rep = report("narrowing")
    stages = [e for e in rep.events if e.TYPE == "narrowing"]
    assert len(stages) >= 4 and rep.result.turns >= 45
    text = render(rep, "text", "en")
    assert text.count("Board after the narrowing of turn") == len(stages)
    assert "the field narrows (stage 1): only b2-g7 remains" in text


def test_japanese_report_is_in_japanese() -> None:
    text = render(report("skirmish"), "text", "ja")
    for word in ("概要", "両軍", "適用ルール", "初期配置", "第1ターン", "結果", "同じマスにいるキャラクター"):
        assert word in text
    for english in ("Armies", "Turn 1", "Result", " takes ", " moves ", "Legend"):
        assert english not in text
    assert "炸撃 (Firecracker)" in text


def test_explain_adds_the_decisions() -> None:
    rep = report("skirmish")
    plain = render(rep, "text", "en")
    explained = render(rep, "text", "en", explain=True)
    assert "why: " not in plain
    assert explained.count("why: skill order:") == sum(e.TYPE == "skill_order" for e in rep.events)
    assert "why: " in explained and "passes over" in explained
    # Ash's plan says `extend heat-wave max` (R-EXT-7): words, not the internal count
    assert "extension asked as many as possible, used 0" in explained
    assert "asked 99" not in explained
    assert "拡張 要求最大" in render(rep, "text", "ja", explain=True)


def test_markdown_is_github_flavoured() -> None:
    md = render(report("duel"), "md", "en")
    assert md.startswith("# Duel: Dana vs Eiji\n")
    assert "\n- Turn 1 · " in md and "\n```text\n" in md
    assert "\n## Turn 1\n" in render(report("duel"), "md", "en", full=True)
    assert re.search(r"^\| piece \| name \| team \| HP \| square \| state \|$", md, re.M)
    assert md.count("```") % 2 == 0


@pytest.mark.parametrize("fmt", ["text", "md"])
def test_reports_end_with_the_result_and_its_rule(fmt: str) -> None:
    rep = report("duel")
    text = render(rep, fmt, "en")
    assert rep.result.rule in text or "R-GOAL-1" in text


def _standoff(tmp_path, white_hp: int, black_hp: int) -> str:  # type: ignore[no-untyped-def]
    """Two characters who hold position far apart until a 2-turn cap."""
    return standoff_text(tmp_path, 2, white_hp, black_hp)


def test_r_goal_2_the_result_says_total_hp_decided_when_heads_are_equal(tmp_path) -> None:  # type: ignore[no-untyped-def]
    text = _standoff(tmp_path, 12, 11)
    assert ("White wins: the turn limit ended the battle after turn 2 with equal head counts, "
            "decided by total HP (R-TURN-9, R-GOAL-2).") in text
    assert "Draw: the turn limit ended the battle after turn 2" in _standoff(tmp_path, 12, 12)


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_sentences_say_what_happened(lang: str) -> None:
    """Issue 15, item 6: no bound character when a plan clause is bound, no
    "recovers 0 HP", no "takes 0 damage (2 less 2)", no "(panels 4)"."""
    texts = [render(report(name), "text", lang, full=True)
             for name in ("duel", "melee", "narrowing", "skirmish", "statuses")]
    text = "\n".join(texts)
    if lang == "en":
        assert not re.search(r"is bound \(plan line \d+\)", text)
        assert re.search(r"'s plan line \d+ is bound for \d+ actions", text)
        assert "recovers 0 HP" not in text and "takes 0 " not in text and " less " not in text
        assert not re.search(r"\(panels \d+\)", text) and re.search(r"\(panel \d+\)", text)
        assert re.search(r"takes no [a-z]+ damage: all \d+ blocked → HP", text)
        assert re.search(r"takes \d+ [a-z]+ damage \(\d+, \d+ blocked\) → HP", text)
    else:
        assert "0 ダメージ" not in text and "HP を 0 回復" not in text
        assert re.search(r"の作戦 \d+ 行目が束縛", text)


def test_a_heal_on_a_full_character_says_so() -> None:
    from referee.report.written import WrittenReport
    from referee.report.markup import TextMarkup
    from referee.engine.events import Heal

    writer = WrittenReport(report("duel"), "en", TextMarkup(), full=True)
    name = report("duel").characters()[0]["name"]
    max_hp = report("duel").characters()[0]["max_hp"]
    writer.on_heal(Heal(turn=1, target=name, amount=0, hp_after=max_hp, actor=name, skill="rest"))
    writer.on_heal(Heal(turn=1, target=name, amount=0, hp_after=max_hp - 1, actor=name, skill="rest"))
    assert writer.lines[-2].endswith(f"{name} is already at full HP ({max_hp}): nothing to recover")
    assert writer.lines[-1].endswith(f"{name} recovers no HP → HP {max_hp - 1}")


def test_fast_one_line_and_width_answer_as_the_general_functions() -> None:
    """Issue 18: markup.one_line returns printable text at once and
    text_width counts ASCII by len; both must answer exactly as
    textcheck.shown_escaped and diagnostics.display_width."""
    from referee.diagnostics import display_width
    from referee.report.markup import one_line, text_width
    from referee.textcheck import BIDI_CONTROLS, shown_escaped

    samples = ["W1-0", "", "a b", "かぐら", "Ｗ１", "名 · d5 → e4", "x\ny", "\x1b[31m", "\ud800", "a\u2028b",
               "a\u2029b", "\t", "\x7f", "\u00a0", "\u200b", "\ufeff", *(f"x{c}y" for c in sorted(BIDI_CONTROLS))]
    for text in samples:
        assert one_line(text) == shown_escaped(text), repr(text)
        assert text_width(text) == display_width(text), repr(text)


def test_story_boards_are_the_board_each_event_leads_to() -> None:
    """Issue 18: the written report draws its start, narrowing and end boards
    from the story pass's copies (Story.view_before) instead of applying every
    event a second time; each copy must be the board at that event."""
    from reporthelpers import fixture_battles

    from referee.report.boardview import BoardView
    from referee.report.story import read_story

    for path in fixture_battles():
        rep = resolved(str(path))
        story = read_story(rep)
        view = BoardView(rep.inputs)
        seen = 0
        for event in rep.events:
            if event.TYPE == "turn_start" and event.turn in story.turn_views:
                copy = story.view_before(event.turn)
                assert (copy.snapshot(), copy.objects) == (view.snapshot(), view.objects), (path.name, event.turn)
                seen += 1
            elif event.TYPE == "battle_end":
                copy = story.view_before(None)
                assert (copy.snapshot(), copy.objects) == (view.snapshot(), view.objects), path.name
            view.apply(event)
        assert seen >= 1, path.name
