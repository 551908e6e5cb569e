"""Screenshots of the round's web page (``referee serve``) for docs/intake.md
and a reviewer.

    python scripts/serve_screenshots.py [-o screenshots/serve]

Makes a small round from ``fixtures/round`` with ``referee roster add``
(three players, one of them Japanese), starts ``referee serve`` on a
loopback port, and has headless Chromium (under the system's chromedriver,
through selenium) photograph what players and the organiser see:

1. ``1-signin.png``: the sign-in page;
2. ``2-check-en.png``: a sheet with two errors checked, each under its line;
3. ``3-receipt-en.png``: the receipt of the fixed sheet;
4. ``4-check-ja.png``: the Japanese page, the caret under the wide character;
5. ``5-organiser.png``: the organiser's ledger (two in, one missing) and buttons;
6. ``6-versions.png``: a player's versions with their diagnostics;
7. ``7-locked.png``: a player's page after the lock (read-only).

Japanese needs a CJK font (``apt-get install fonts-noto-cjk``).  Exit 2 when
no Chromium, chromedriver or selenium is found.
"""

from __future__ import annotations

import argparse
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from referee.report.browser import driven_chromium, find_chromedriver, find_chromium  # noqa: E402

BROKEN = {
    "kagura": ("skills: [rest, eruption, firecracker, slash, avenger]", "skills: [rest, eruption, firecraker, slash, avenger]",
               "use eruption only", "use erupton only"),
    "tomoe": ("name: Tomoe", "name: 巴", "  - 剣剣風", "  - 剣剣嵐"),
}


#: The command line, run by this interpreter.
REFEREE = (sys.executable, "-m", "referee.cli")


def referee(*args: str) -> str:
    return subprocess.run([*REFEREE, *args], check=True, capture_output=True, text=True).stdout


def make_round(folder: Path) -> tuple[dict[str, str], dict[str, str]]:
    """The round, its roster made by ``referee roster add``; the players'
    tokens, and each player's sheet as the fixture has it."""
    shutil.copytree(ROOT / "fixtures" / "round", folder)
    (folder / "r3-broken.battle.yaml").unlink()
    people = {"kagura": ("Kagura", "en"), "tomoe": ("巴", "ja"), "ash": ("Ash", "en")}
    tokens, sheets = {}, {}
    for player, (name, lang) in people.items():
        sheets[player] = (folder / "sheets" / f"{player}.yaml").read_text(encoding="utf-8")
        (folder / "sheets" / f"{player}.yaml").unlink()
        said = referee("roster", "add", str(folder), player, "--name", name, "--address", f"{player}@example.org",
                       "--sheet", f"sheets/{player}.yaml", "--lang", lang)
        found = re.search(r"token for \S+: (\S+)", said)
        assert found, said
        tokens[player] = found.group(1)
    roster = folder / "roster.yaml"
    roster.write_text(roster.read_text(encoding="utf-8").replace("# deadline: 2026-12-05T18:00:00+09:00",
                                                                 "deadline: 2030-12-05T18:00:00+09:00"), encoding="utf-8")
    return tokens, sheets


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Tab:
    def __init__(self, driver: Any, base: str) -> None:
        self.d, self.base = driver, base

    def go(self, path: str) -> None:
        self.d.get(self.base + path)

    def put(self, css: str, text: str) -> None:
        self.d.execute_script("arguments[0].value = arguments[1];", self.d.find_element("css selector", css), text)

    def click(self, css: str) -> None:
        from selenium.webdriver.support import expected_conditions
        from selenium.webdriver.support.ui import WebDriverWait

        old = self.d.find_element("css selector", "html")
        self.d.find_element("css selector", css).click()
        WebDriverWait(self.d, 60).until(expected_conditions.staleness_of(old))

    def shot(self, out: Path, name: str) -> None:
        path = out / name
        self.d.save_screenshot(str(path))
        print(path)


def photograph(driver: Any, base: str, folder: Path, tokens: dict[str, str], sheets: dict[str, str], out: Path) -> None:
    page = Tab(driver, base)
    page.go("/?lang=en")
    page.shot(out, "1-signin.png")
    page.put("#player", "kagura")
    page.put("#token", tokens["kagura"])
    page.click("#signin")
    broken = sheets["kagura"].replace(*BROKEN["kagura"][:2]).replace(*BROKEN["kagura"][2:])
    page.put('textarea[name="text:sheets/kagura.yaml"]', broken)
    page.click("#check")
    page.shot(out, "2-check-en.png")
    page.put('textarea[name="text:sheets/kagura.yaml"]', sheets["kagura"])
    page.click("#submit")
    page.shot(out, "3-receipt-en.png")
    page.click("#signout")
    driver.delete_all_cookies()
    page.go("/")
    page.put("#player", "tomoe")
    page.put("#token", tokens["tomoe"])
    page.click("#signin")
    tomoe = sheets["tomoe"].replace(*BROKEN["tomoe"][:2])
    page.put('textarea[name="text:sheets/tomoe.yaml"]', tomoe.replace(*BROKEN["tomoe"][2:]))
    page.click("#submit")
    page.click("#back")
    page.click("#check")
    page.shot(out, "4-check-ja.png")
    page.put('textarea[name="text:sheets/tomoe.yaml"]', tomoe)
    page.click("#submit")
    page.click("#back")
    org = Tab(driver, base.replace("127.0.0.1", "localhost"))  # another origin: the organiser's own cookie
    org.go("/organiser?lang=en")
    org.put("#key", (folder / "intake" / "web" / "organiser.key").read_text().strip())
    org.click("#signin")
    org.shot(out, "5-organiser.png")
    org.go("/organiser/player/tomoe")
    org.shot(out, "6-versions.png")
    org.go("/organiser")
    driver.find_element("css selector", "#confirm-lock").click()
    org.click("#do-lock")
    page.go("/player")
    page.shot(out, "7-locked.png")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("-o", "--output", default=str(ROOT / "screenshots" / "serve"), help="folder for the PNG files")
    parser.add_argument("--size", default="1280,1500", help="window size WIDTH,HEIGHT (default 1280,1500)")
    args = parser.parse_args(argv)
    browser, chromedriver = find_chromium(), find_chromedriver()
    try:
        import selenium  # noqa: F401
    except ImportError:
        browser = None
    if browser is None or chromedriver is None:
        print("serve_screenshots: needs chromium, chromedriver (apt-get install chromium chromium-driver) "
              "and selenium (pip install -e '.[test]')", file=sys.stderr)
        return 2
    out = Path(args.output)
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "round3"
        tokens, sheets = make_round(folder)
        port = free_port()
        server = subprocess.Popen([*REFEREE, "serve", str(folder), "--port", str(port)], stdout=subprocess.DEVNULL,
                                  stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL)
        driver = None
        try:
            base = f"http://127.0.0.1:{port}"
            for _ in range(600):
                try:
                    urllib.request.urlopen(base + "/static/serve.css", timeout=1).close()
                    break
                except OSError:
                    time.sleep(0.1)
            driver = driven_chromium(browser, chromedriver, args.size)
            photograph(driver, base, folder, tokens, sheets, out)
        finally:
            if driver is not None:
                driver.quit()
            server.send_signal(signal.SIGINT)
            server.wait(timeout=30)
    return 0


if __name__ == "__main__":
    sys.exit(main())
