"""Finding a headless Chromium for the HTML replay's screenshots and its
browser test (issue 15).  Nothing in a report needs a browser; only the
reviewer's screenshots (``scripts/screenshots.py``) and the test that steps
through the page (``tests/test_report_html.py``) do, and both look for it the
same way."""

from __future__ import annotations

import shutil

__all__ = ["BROWSER_NAMES", "HEADLESS_FLAGS", "find_chromium"]

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
