"""The HTML report: self-contained, and its replay board steps in a real browser."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

from reporthelpers import FIXTURES, resolved


from referee.report import render
from referee.report.html import replay_steps

CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def chromium() -> str | None:
    for name in ("chromium", "chromium-browser", "google-chrome", "chrome"):
        found = shutil.which(name)
        if found:
            return found
    return None


def test_page_is_self_contained() -> None:
    page = render(resolved(str(FIXTURES / "skirmish.battle.yaml")), "html", "en")
    assert page.startswith("<!DOCTYPE html>")
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:)?//""", page)
    assert "<link" not in page and "<script src" not in page and "@import" not in page
    assert 'id="slider"' in page and 'id="next"' in page and 'id="prev"' in page


def test_replay_steps_follow_the_actions() -> None:
    rep = resolved(str(FIXTURES / "duel.battle.yaml"))
    steps = replay_steps(rep, "en")
    actions = sum(e.TYPE == "action_end" for e in rep.events)
    assert steps[0]["label"] == "start" and steps[-1]["label"] == "end"
    assert len(steps) == actions + 2
    final = {name: c for name, c in ((c.name, c) for c in rep.result.final)}
    names = [c["name"] for c in rep.inputs["characters"]]
    for (symbol, square, hp, down), name in zip(steps[-1]["pieces"], names):
        assert hp == final[name].hp and down == final[name].down


def dump_dom(browser: str, page: Path, fragment: str) -> str:
    with tempfile.TemporaryDirectory() as profile:
        proc = subprocess.run(
            [browser, *CHROMIUM_FLAGS, f"--user-data-dir={profile}", "--dump-dom", page.as_uri() + fragment],
            capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr[-2000:]
    return proc.stdout


def test_board_replays_in_headless_chromium(tmp_path: Path) -> None:
    browser = chromium()
    if browser is None:
        if os.environ.get("CI"):
            pytest.fail("chromium is required in CI (apt-get install -y chromium)")
        pytest.skip("chromium is not installed (apt-get install -y chromium); not in CI")
    rep = resolved(str(FIXTURES / "duel.battle.yaml"))
    page = tmp_path / "duel.html"
    page.write_text(render(rep, "html", "en"), encoding="utf-8")
    steps = replay_steps(rep, "en")
    names = [c["name"] for c in rep.inputs["characters"]]
    # next x3, prev x1 -> step 2; then the slider deep link to the last step.
    for fragment, expected in (("#press=next,next,next,prev", 2), (f"#step={len(steps) - 1}", len(steps) - 1),
                               ("#press=last,prev", len(steps) - 2)):
        dom = dump_dom(browser, page, fragment)
        assert 'data-ready="1"' in dom, "the replay script did not run"
        assert f'id="board" data-step="{expected}"' in dom
        at: dict[str, list[str]] = {}
        for symbol, square, hp, down in steps[expected]["pieces"]:
            if square and not down:
                at.setdefault(square, []).append(symbol)
        assert at
        for square, symbols in at.items():
            cell = re.search(rf'<td id="sq-{square}"[^>]*>([^<]*)</td>', dom)
            assert cell is not None, square
            assert cell.group(1) == " ".join(symbols), (fragment, square)  # everyone in the area, roster order
        label = re.search(r'<div id="step-label">([^<]*)</div>', dom)
        assert label is not None and label.group(1).startswith(steps[expected]["label"])
