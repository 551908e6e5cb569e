"""The real parts of the web page's tests: ``referee serve`` on a loopback
port, headless Chromium under the system's chromedriver, an SMTP server."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Callable, Iterator

import pytest

from intake.mailhelpers import SmtpCatcher
from .webhelpers import Server, start_server


@pytest.fixture(scope="session")
def driver(browser: str) -> Iterator[Any]:
    """One headless Chromium for every web test (its cookies cleared
    between tests).  Needs chromedriver: required in CI, skipped elsewhere
    when absent."""
    from referee.report.browser import driven_chromium, find_chromedriver

    found = find_chromedriver()
    try:
        import selenium  # noqa: F401  (the test extra)
    except ImportError:
        found = None
    if found is None:
        if os.environ.get("CI"):
            pytest.fail("chromedriver and selenium are required in CI (apt-get install -y chromium-driver; "
                        "pip install -e '.[test]')")
        pytest.skip("chromedriver or selenium is not installed (apt-get install chromium-driver); not in CI")
    session = driven_chromium(browser, found)
    yield session
    session.quit()


@pytest.fixture
def serve(tmp_path: Path) -> Iterator[Callable[..., Server]]:
    """Start ``referee serve`` for a round folder; every server started is
    stopped at the end of the test, and none may have printed a traceback."""
    started: list[Server] = []

    def start(folder: Path, *args: str) -> Server:
        server = start_server(folder, *args, log_dir=tmp_path)
        started.append(server)
        return server

    yield start
    for server in started:
        server.stop()
    for server in started:
        assert "Traceback" not in server.log(), server.log()


@pytest.fixture
def smtp() -> Iterator[SmtpCatcher]:
    server = SmtpCatcher().start()
    yield server
    server.stop()


@pytest.fixture
def fresh(driver: Any) -> Iterator[Any]:
    """The session's browser with no cookie of any earlier test."""
    driver.execute_cdp_cmd("Network.clearBrowserCookies", {})
    yield driver
