"""Shared pytest options."""

from __future__ import annotations

import os

import pytest


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--update-goldens", action="store_true", default=False,
                     help="rewrite fixtures/*.golden from the current renderers (review the diff before committing)")


# Hypothesis: a machine with two busy cores makes first-call timings noisy (a
# map's first breadth-first search, lark's grammar build); correctness tests
# have no deadline -- speed is measured by benchmarks/, not by tests.
from hypothesis import settings as _hypothesis_settings

_hypothesis_settings.register_profile("referee", deadline=None)
_hypothesis_settings.load_profile("referee")


@pytest.fixture(scope="session")
def browser() -> str:
    """A headless Chromium for the pages' browser tests: required in CI,
    skipped where it is not installed."""
    from referee.report.browser import find_chromium

    found = find_chromium()
    if found is None:
        if os.environ.get("CI"):
            pytest.fail("chromium is required in CI (apt-get install -y chromium)")
        pytest.skip("chromium is not installed (apt-get install -y chromium); not in CI")
    return found
