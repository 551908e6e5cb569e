"""The HTML report: self-contained, and its replay watched in a real browser
(issue 15, item 5: stepping, keys, the address, narration and highlights)."""

from __future__ import annotations

import html
import os
import re
import subprocess
import tempfile
from pathlib import Path

import pytest

from reporthelpers import DEMO, FIXTURES, resolved


from referee.report import render
from referee.report.browser import HEADLESS_FLAGS
from referee.report.steps import replay_steps

CHROMIUM_FLAGS = [*HEADLESS_FLAGS, "--disable-quic"]


def test_page_is_self_contained() -> None:
    page = render(resolved(str(FIXTURES / "skirmish.battle.yaml")), "html", "en")
    assert page.startswith("<!DOCTYPE html>")
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:)?//""", page)
    assert "<link" not in page and "<script src" not in page and "@import" not in page
    for control in ('id="slider"', 'id="next"', 'id="prev"', 'id="play"', 'id="speed"', 'id="narration"'):
        assert control in page


def test_replay_steps_follow_the_actions() -> None:
    rep = resolved(str(FIXTURES / "duel.battle.yaml"))
    steps = replay_steps(rep, "en")
    actions = sum(e.TYPE == "action_end" for e in rep.events)
    assert steps[0].label == "start" and steps[-1].label == "end"
    assert len(steps) == actions + 2 or len(steps) == actions + 3  # (+1 when the battle ends mid-action)
    final = {c.name: c for c in rep.result.final}
    names = [c["name"] for c in rep.inputs["characters"]]
    for (symbol, square, hp, down), name in zip(steps[-1].pieces, names):
        assert hp == final[name].hp and down == final[name].down
    assert steps[-1].text.startswith("Black wins") and "(R-GOAL-1)" in steps[-1].text


def test_each_step_narrates_the_compact_log_line_of_its_action() -> None:
    rep = resolved(str(DEMO))
    text = render(rep, "text", "en")
    for step in replay_steps(rep, "en"):
        if step.actor is not None and ": nothing to do" not in step.text:
            sentences = step.text.split(": ", 1)[1]
            assert sentences in text, step.label


def dump_dom(browser: str, page: Path, fragment: str, budget_ms: int = 0) -> str:
    extra = [f"--virtual-time-budget={budget_ms}"] if budget_ms else []
    with tempfile.TemporaryDirectory() as profile:
        proc = subprocess.run(
            [browser, *CHROMIUM_FLAGS, *extra, f"--user-data-dir={profile}", "--dump-dom", page.as_uri() + fragment],
            capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr[-2000:]
    dom = proc.stdout
    assert 'data-ready="1"' in dom, "the replay script did not run"
    return dom


def shown_step(dom: str) -> int:
    found = re.search(r'id="board" data-step="(\d+)"', dom) or re.search(r'data-step="(\d+)" id="board"', dom)
    assert found is not None
    return int(found.group(1))


def pieces_in(dom: str, square: str) -> list[tuple[str, str]]:
    """(class, symbol) of every piece drawn in ``square``'s cell."""
    cell = re.search(rf'<td id="sq-{square}"[^>]*>(.*?)</td>', dom, re.S)
    assert cell is not None, square
    return re.findall(r'<span class="(pc [^"]*)" data-name="[^"]*">([^<]*)<', cell.group(1))



@pytest.fixture(scope="module")
def demo_page(tmp_path_factory: pytest.TempPathFactory) -> Path:
    page = tmp_path_factory.mktemp("html") / "demo.html"
    page.write_text(render(resolved(str(DEMO)), "html", "en"), encoding="utf-8")
    return page


def _first(steps, words: str):  # type: ignore[no-untyped-def]
    for number, step in enumerate(steps, 1):
        if step.actor is not None and words in step.text:
            return number, step
    raise AssertionError(f"no step says {words!r}")


def test_the_demo_replay_narrates_and_highlights_a_hit_a_knockback_and_a_knock_out(
        browser: str, demo_page: Path) -> None:
    rep = resolved(str(DEMO))
    steps = replay_steps(rep, "en")
    symbols = {c["name"]: s for c, s in zip(rep.inputs["characters"], (p[0] for p in steps[0].pieces))}
    for words in (" sword damage → HP", " is knocked back ", " is down on "):
        number, step = _first(steps, words)
        dom = dump_dom(browser, demo_page, f"#step={number}")
        assert shown_step(dom) == number
        narration = re.search(r'<div id="narration"[^>]*>([^<]*)</div>', dom)
        assert narration is not None and html.unescape(narration.group(1)) == step.text
        assert words in step.text
        label = re.search(r'<div id="step-label">([^<]*)</div>', dom)
        assert label is not None and html.unescape(label.group(1)).startswith(step.label)
        assert f"(step {number} of {len(steps)})" in label.group(1), "#step=N means step N"
        index = {c["name"]: i for i, c in enumerate(rep.inputs["characters"])}
        actor_square = step.pieces[index[step.actor]][1]
        team = rep.inputs["characters"][index[step.actor]]["team"]
        assert any(cls.startswith(f"pc {team} actor") and sym == symbols[step.actor]
                   for cls, sym in pieces_in(dom, actor_square)), step.actor
        for target in step.targets:
            square = step.pieces[index[target]][1]
            assert any("target" in cls and sym == symbols[target] for cls, sym in pieces_in(dom, square)), target
        for name, delta in step.hp_changes.items():
            if delta:
                assert re.search(rf'<span class="fx (dmg|heal)" data-name="{re.escape(name)}"[^>]*>\+?{delta}</span>', dom)
        if words == " is knocked back ":
            frm, to, kind = next(a for a in step.arrows if a[2] == "knock")
            assert re.search(rf'<line [^>]*class="knock"[^>]*data-from="{frm}" data-to="{to}"', dom)
        if words == " is down on ":
            down = step.downs[0]
            assert any("fell" in cls and sym == symbols[down] for cls, sym in
                       pieces_in(dom, step.pieces[index[down]][1]))


def test_buttons_keys_and_the_address_drive_the_replay(browser: str, demo_page: Path) -> None:
    total = len(replay_steps(resolved(str(DEMO)), "en"))
    for fragment, expected in (("#press=next,next,next,prev", 3),
                               ("#step=5&keys=ArrowRight,ArrowRight,ArrowLeft", 6),
                               ("#keys=End", total), ("#keys=End,Home", 1),
                               ("#press=last,prev", total - 1)):
        dom = dump_dom(browser, demo_page, fragment)
        assert shown_step(dom) == expected, fragment
        assert f'data-hash="#step={expected}"' in dom, "the address follows the board"


def test_play_advances_by_itself(browser: str, demo_page: Path) -> None:
    dom = dump_dom(browser, demo_page, "#step=10&play", budget_ms=3500)
    assert shown_step(dom) > 10
    assert 'aria-pressed="true"' in dom


def test_cells_stay_square_whatever_the_crowd(browser: str, demo_page: Path) -> None:
    """The narrowing of turn 30 pushes three standing characters onto b7: two
    pieces at most in the cell, then a badge, the tooltip naming everyone."""
    steps = replay_steps(resolved(str(DEMO)), "en")
    number = next(n for n, s in enumerate(steps, 1) if s.label.startswith("Board after the narrowing"))
    standing = [p for p in steps[number - 1].pieces if p[1] == "b7" and not p[3]]
    assert len(standing) == 3
    dom = dump_dom(browser, demo_page, f"#step={number}")
    assert len(pieces_in(dom, "b7")) == 2
    cell = re.search(r'<td id="sq-b7"[^>]*? title="([^"]*)"[^>]*>(.*?)</td>', dom, re.S)
    assert cell is not None and '<span class="badge">+1</span>' in cell.group(2)
    assert all(symbol in cell.group(1) for symbol, *_ in standing)
    assert "table-layout:fixed" in dom and "max-width:3.3rem" in dom


def test_the_replay_draws_soulwireds_objects_and_barriers_until_an_object_falls(
        browser: str, tmp_path: Path) -> None:
    """Issue 12, item 1 (R-SOUL-TERR-1/2): the step replay draws objects and
    barrier areas, not only blocked ones; an object leaves the board at the
    step that destroys it (soulwired-6v6: h5 at turn 16)."""
    report = resolved(str(FIXTURES / "soulwired-6v6.battle.yaml"))
    steps = replay_steps(report, "en")
    fell = next(n for n, s in enumerate(steps, 1) if s.objects is not None and "h5" not in s.objects)
    assert steps[0].objects == ["a4", "h5"] and steps[fell - 1].turn == 16
    page = tmp_path / "soul.html"
    page.write_text(render(report, "html", "en"), encoding="utf-8")

    def cell_class(dom: str, square: str) -> str:
        found = re.search(rf'<td id="sq-{square}"(?: class="([^"]*)")?', dom)
        assert found is not None, square
        return found.group(1) or ""

    before = dump_dom(browser, page, "#step=1")
    assert cell_class(before, "h5") == "object" and cell_class(before, "a4") == "object"
    assert cell_class(before, "c4") == "barrier" and cell_class(before, "d4") == "out"
    after = dump_dom(browser, page, f"#step={fell}")
    assert cell_class(after, "h5") != "object" and cell_class(after, "a4") == "object"


def test_a_board_without_terrain_carries_no_terrain_keys() -> None:
    """tcgt's replay data is as before: no ``barriers`` and no per-step ``objects``."""
    page = render(resolved(str(DEMO)), "html", "en")
    data = re.search(r'id="replay-data">(.*?)</script>', page, re.S)
    assert data is not None and '"barriers"' not in data.group(1) and '"objects"' not in data.group(1)
