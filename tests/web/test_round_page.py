"""A round run from its web page, end to end (docs/intake.md, "Plans by web
page"): the real server (``referee serve`` on a loopback port), headless
Chromium, and a real SMTP server for the receipts.

A player pastes a sheet with two errors, sees both under their lines (as the
terminal locates them), fixes them and submits; a second player does it in
Japanese (the caret under the right character); the organiser's page shows
both in and one missing, reminds, locks; a late submission is filed as late
and not used; the batch runs from the page."""

from __future__ import annotations

import hashlib
import subprocess
import shutil
import time
from pathlib import Path
from typing import Any, Callable

from intake.mailhelpers import SmtpCatcher, body_of, make_round, sheet, token_of
from .webhelpers import REFEREE, Page, Server, fingerprint

KAGURA_BROKEN = """name: Kagura
abilities: {body: 3, reflex: 3, intellect: 3}
patterns:
  - 火火水
  - 剣地風
skills: [rest, eruption, firecraker, slash, avenger]
plan: |
  use rest first when ally hp lost >= 5
  use erupton only when enemies in range >= 2
  stack avenger when hp <= 6
"""

TOMOE_BROKEN = """name: 巴
abilities: {body: 4, reflex: 3, intellect: 2}
patterns:
  - 剣火剣
  - 剣剣嵐
skills: [kusanagi, slash, sala-twin-trees, 夜鳴き刃x]
plan: |
  move toward nearest enemy
"""


def terminal_check(folder: Path, rel: str, text: str, tmp: Path) -> str:
    """What ``referee check --lint`` prints for the round with ``text`` as ``rel``."""
    copy = tmp / "terminal"
    shutil.copytree(folder, copy, ignore=shutil.ignore_patterns("intake", ".originals"))
    (copy / rel).write_text(text, encoding="utf-8")
    done = subprocess.run([*REFEREE, "check", "--lint", "r1.battle.yaml"], cwd=copy, capture_output=True, text=True)
    return done.stdout + done.stderr


def digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def wait_for_batch(org: Page, seconds: float = 180) -> str:
    """Let the organiser's page refresh itself until the batch is over."""
    from selenium.common.exceptions import WebDriverException

    end = time.monotonic() + seconds
    while time.monotonic() < end:
        try:
            state = org.el("#batch-state").get_attribute("data-state")
        except WebDriverException:  # the page is reloading
            state = "running"
        if state != "running":
            return str(state)
        time.sleep(0.5)
    raise AssertionError("the batch did not finish")


def test_a_round_from_sign_in_to_batch(tmp_path: Path, fresh: Any, serve: Callable[..., Server],
                                       smtp: SmtpCatcher) -> None:
    folder = make_round(tmp_path / "round", players=("kagura", "tomoe", "ash"), langs={"tomoe": "ja"})
    server = serve(folder, "--smtp", f"127.0.0.1:{smtp.port}")
    player = Page(fresh, server.base)

    # -- a player pastes a sheet with two errors and checks it: nothing is stored
    player.sign_in("kagura", token_of("kagura"))
    assert player.d.current_url == server.base + "/player" and player.lang == "en"
    before = fingerprint(folder)
    player.paste("sheets/kagura.yaml", KAGURA_BROKEN)
    player.click("#check")
    notes = player.notes("sheets/kagura.yaml")
    assert [line for line, _ in notes] == [6, 9]
    terminal = terminal_check(folder, "sheets/kagura.yaml", KAGURA_BROKEN, tmp_path)
    for _, words in notes:
        said, hint = words.split("\n")
        assert said in terminal and hint.startswith("hint: did you mean") and hint in terminal
    assert "unknown skill 'firecraker'" in notes[0][1] and "'firecracker' (炸撃)" in notes[0][1]
    assert "unknown skill 'erupton'" in notes[1][1] and "'eruption' (爆撃)" in notes[1][1]
    assert all(offset < 1.0 for offset in player.caret_offsets("sheets/kagura.yaml"))
    assert len(player.caret_offsets("sheets/kagura.yaml")) == 2
    assert fingerprint(folder) == before

    # -- fixes them (typed into the box), checks again, submits: the receipt
    fixed = sheet(folder, "kagura").decode()
    player.type('textarea[name="text:sheets/kagura.yaml"]', fixed)
    player.click("#check")
    assert all(": warning[" in words for _, words in player.notes("sheets/kagura.yaml"))  # lint's, as on the terminal
    assert "0 error(s)" in player.el(".checked .summary").text and "It passes" in player.text
    player.click("#submit")
    assert "/player/receipt/" in player.d.current_url
    receipt = player.el("#receipt")
    assert receipt.get_attribute("data-outcome") == "filed"
    assert f"sha256 {digest(fixed)}" in receipt.text and "The round will use this version." in receipt.text
    assert "line 8: use rest first when ally hp lost >= 5" in receipt.text
    assert (folder / "sheets" / "kagura.yaml").read_text(encoding="utf-8") == fixed
    [mailed] = smtp.wait_for(1)
    assert mailed["To"] == "kagura@players.test" and f"sha256 {digest(fixed)}" in body_of(mailed)

    # -- a second player, in Japanese: a version with errors, then the fix
    player.click("#signout")
    player.sign_in("tomoe", token_of("tomoe"))
    assert player.lang == "ja" and "あなたのファイル" in player.text
    player.paste("sheets/tomoe.yaml", TOMOE_BROKEN)
    player.click("#check")
    assert [line for line, _ in player.notes("sheets/tomoe.yaml")] == [5, 6]
    marked = [m.text for m in player.all('.listing[data-file="sheets/tomoe.yaml"] mark')]
    assert marked == ["嵐", "夜"]
    offsets = player.caret_offsets("sheets/tomoe.yaml")
    assert len(offsets) == 2 and all(offset < 1.0 for offset in offsets), offsets
    player.click("#submit")  # filed with its errors: kept, not used
    assert "エラーがあり、このファイルの有効な版はまだありません" in player.el("#receipt").text
    assert not (folder / "sheets" / "tomoe.yaml").exists()
    player.click("#back")
    assert player.el('textarea[name="text:sheets/tomoe.yaml"]').get_attribute("value") == TOMOE_BROKEN
    tomoe = sheet(folder, "tomoe").decode().replace("name: Tomoe", "name: 巴")
    player.type('textarea[name="text:sheets/tomoe.yaml"]', tomoe)
    player.click("#submit")
    assert "ラウンドではこの版を使います。" in player.el("#receipt").text
    assert (folder / "sheets" / "tomoe.yaml").read_text(encoding="utf-8") == tomoe
    player.click("#back")  # the form stays open in this tab while the organiser locks
    player_tab = player.d.current_window_handle

    # -- the organiser's page, in another tab and origin (its own cookie)
    player.d.switch_to.new_window("tab")
    org = Page(player.d, server.organiser_base)
    org.go("/organiser")
    assert "ledger" not in org.d.page_source
    org.type("#key", server.organiser_key)
    org.click("#signin")
    states = {row.get_attribute("data-player"): row.get_attribute("data-state") for row in org.all("#ledger tr[data-player]")}
    assert states == {"kagura": "in", "tomoe": "in", "ash": "missing"}
    assert org.el("#summary").text == "3 player(s): 2 in, 1 missing, 0 invalid."
    org.go("/organiser/player/tomoe")
    versions = org.all("details.version")
    assert len(versions) == 2 and "the round uses this version" in versions[0].text
    org.d.execute_script("arguments[0].open = true", versions[1])
    older = [n.text for n in versions[1].find_elements("css selector", ".note .said")]
    assert [said.split(": ")[0] for said in older] == ["sheets/tomoe.yaml:5:7", "sheets/tomoe.yaml:6:44"]
    assert "error[unknown-element]" in older[0] and "error[unknown-skill]" in older[1]

    org.go("/organiser")
    org.click("#do-remind")
    assert org.el("#flash").text == "1 reminder(s) sent."
    reminder = smtp.wait_for(4)[-1]
    assert reminder["To"] == "ash@players.test" and "sheets/ash.yaml" in body_of(reminder)

    org.click("#do-lock")  # not confirmed: nothing happens
    assert "Tick the box" in org.el("#flash").text and not (folder / "seeds.commitment.json").exists()
    org.el("#confirm-lock").click()
    org.click("#do-lock")
    assert org.el("#flash").text.startswith("Locked. The seed commitment (post it now): sha256 ")
    assert (folder / "seeds.commitment.json").exists()

    # -- a late submission, from the form opened before the lock: filed as late, not used
    org.d.switch_to.window(player_tab)
    player.type('textarea[name="text:sheets/tomoe.yaml"]', tomoe + "# after the lock\n")
    player.click("#submit")
    late = player.el("#receipt")
    assert late.get_attribute("data-outcome") == "late" and "締切後に届いたため使われません" in late.text
    assert (folder / "sheets" / "tomoe.yaml").read_text(encoding="utf-8") == tomoe
    player.click("#back")
    assert player.el("#locked") and player.all("textarea") == [] and player.all("#submit") == []

    # -- the batch, from the organiser's page
    org_tab = [h for h in player.d.window_handles if h != player_tab][0]
    player.d.switch_to.window(org_tab)
    org.go("/organiser")
    org.click("#do-batch")
    assert wait_for_batch(org) == "done"
    assert org.el("#batch-done").text.startswith("Batch finished") and "1 of 2 battle(s) resolved" in org.el(
        "#batch-done").text
    standings = org.el("#standings").text
    assert standings == (folder / "reports" / "standings.md").read_text(encoding="utf-8").strip()
    assert "NMR: ash" in standings
    assert (folder / "reports" / "r2.json").exists()
    player.d.close()
    player.d.switch_to.window(player_tab)
