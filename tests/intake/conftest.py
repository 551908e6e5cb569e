"""The real servers of the intake tests, started once per session."""

from __future__ import annotations

import os
from typing import Iterator

import pytest

from .mailhelpers import DOVECOT, Dovecot, SmtpCatcher


@pytest.fixture
def smtp() -> Iterator[SmtpCatcher]:
    """aiosmtpd on a loopback port: every receipt the referee sends lands here."""
    server = SmtpCatcher().start()
    yield server
    server.stop()


@pytest.fixture(scope="session")
def dovecot_server() -> Iterator[Dovecot]:
    """Dovecot (the OS package) with a throwaway configuration, TLS and one
    user.  Skipped where it is not installed -- never in CI, which installs it."""
    if not os.path.exists(DOVECOT):
        if os.environ.get("CI"):
            pytest.fail("dovecot is not installed, and CI must run the IMAP tests (.ci/run installs it)")
        pytest.skip("dovecot is not installed (apt-get install dovecot-imapd)")
    server = Dovecot.start()
    yield server
    server.stop()


@pytest.fixture
def dovecot(dovecot_server: Dovecot) -> Dovecot:
    """The session's Dovecot with an empty INBOX."""
    with dovecot_server.imap() as conn:
        conn.select("INBOX")
        _, found = conn.search(None, "ALL")
        for num in (found[0] or b"").split():
            conn.store(num, "+FLAGS.SILENT", "(\\Deleted)")
        conn.expunge()
    return dovecot_server
