"""Finding a headless Chromium for the HTML replay's screenshots and its
browser test (issue 15), and for the round's web page.  Nothing in a report
needs a browser; only the reviewer's screenshots (``scripts/screenshots.py``,
``scripts/serve_screenshots.py``) and the tests that drive the pages
(``tests/test_report_html.py``, ``tests/web``) do, and all look for it the
same way.  Clicks and typing go through the system's chromedriver (the
``chromium-driver`` package, the same build as the browser): nothing is
ever downloaded."""

from __future__ import annotations

import os
import shutil
from typing import Any

__all__ = ["BROWSER_NAMES", "HEADLESS_FLAGS", "find_chromium", "find_chromedriver", "driven_chromium"]

#: Names a Chromium goes by on the machines we meet (Debian: ``chromium``).
BROWSER_NAMES: tuple[str, ...] = ("chromium", "chromium-browser", "google-chrome", "chrome")

#: Flags for a quiet, offline, sandbox-free headless run (CI runs as root).
HEADLESS_FLAGS: tuple[str, ...] = ("--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                                   "--disable-background-networking", "--disable-component-update",
                                   "--disable-sync")


def find_chromium() -> str | None:
    """The first Chromium on ``PATH``, or None."""
    for name in BROWSER_NAMES:
        found = shutil.which(name)
        if found:
            return found
    return None


def find_chromedriver() -> str | None:
    """The system's chromedriver (on ``PATH``, or where Debian puts it), or None."""
    found = shutil.which("chromedriver")
    if found is None and os.path.exists("/usr/bin/chromedriver"):
        found = "/usr/bin/chromedriver"
    return found


def driven_chromium(browser: str, driver: str, size: str = "1280,1600", lang: str = "en-US") -> Any:
    """A headless Chromium that selenium clicks and types in (``pip install
    selenium``), under ``driver``; the caller quits it."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = browser
    for flag in (*HEADLESS_FLAGS, f"--window-size={size}", f"--lang={lang}"):
        options.add_argument(flag)
    return webdriver.Chrome(service=Service(driver), options=options)
