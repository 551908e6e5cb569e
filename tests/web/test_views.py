"""The page's parts that need no server: a file's lines with the diagnostics
under them (the caret placed as the terminal places it), the sign-in limits
and sessions on a scripted clock, and the round's secrets on disk."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from referee.diagnostics import Diagnostic, ReferError, format_diagnostic
from referee.limits import (MAX_WEB_SESSIONS, WEB_SESSION_SECONDS, WEB_SIGN_IN_CHECKS_PER_MINUTE,
                            WEB_SIGN_IN_FAILURES_PER_ACCOUNT, WEB_SIGN_IN_FAILURES_PER_ADDRESS,
                            WEB_SIGN_IN_WINDOW_SECONDS)
from referee.web.guard import Sessions, SignInLimiter, csrf_matches, csrf_token, round_key
from referee.web.views import listing

TEXT = "name: 巴\npatterns:\n  - 剣剣嵐\nskills: [kusanagi, 夜鳴き刃x]\n"


def diag(line: int, column: int, code: str = "unknown-element", source: str | None = None) -> Diagnostic:
    lines = TEXT.split("\n")
    return Diagnostic("sheets/tomoe.yaml", line, column, code, f"problem at {line}:{column}", hint="did you mean x?",
                      source_line=source if source is not None else (lines[line - 1] if line else None))


def test_each_diagnostic_sits_under_its_line_with_the_terminals_caret() -> None:
    shown = listing(TEXT, [diag(4, 20, "unknown-skill"), diag(3, 7)])
    assert [r.number for r in shown.rows] == [1, 2, 3, 4]
    assert [(r.number, [n.code for n in r.notes]) for r in shown.rows if r.notes] == [(3, ["unknown-element"]),
                                                                                       (4, ["unknown-skill"])]
    for row, d in ((shown.rows[2], diag(3, 7)), (shown.rows[3], diag(4, 20, "unknown-skill"))):
        caret_line = format_diagnostic(d).split("\n")[2]
        assert "    " + str(row.notes[0].pad) + "^" == caret_line  # the terminal's caret, cell for cell
        assert [s.text for s in row.segments if s.marked] == [TEXT.split("\n")[d.line - 1][d.column - 1]]
    assert shown.rows[2].notes[0].pad == " " * 8  # '  - ' and two wide characters
    assert shown.rows[2].notes[0].where == "sheets/tomoe.yaml:3:7" and shown.rows[2].notes[0].source is None


def test_a_diagnostic_without_a_line_or_past_the_end_is_shown_above_the_lines() -> None:
    shown = listing(TEXT, [diag(0, 0, "encoding"), Diagnostic("sheets/tomoe.yaml", 99, 1, "x", "far")])
    assert [n.code for n in shown.loose] == ["encoding", "x"] and not any(r.notes for r in shown.rows)
    assert shown.loose[0].pad is None and shown.loose[0].where == "sheets/tomoe.yaml"


def test_a_diagnostic_quoting_another_line_brings_its_own() -> None:
    shown = listing(TEXT, [diag(3, 2, source="  - 別の行")])
    note = shown.rows[2].notes[0]
    assert note.source == "  - 別の行" and not any(s.marked for s in shown.rows[2].segments)


def test_unsafe_characters_are_shown_as_the_terminal_shows_them() -> None:
    shown = listing("name: a\u202eb\x1b[31m\n", [])
    assert "".join(s.text for s in shown.rows[0].segments) == "name: a\ufffdb\ufffd[31m"


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_failed_sign_ins_are_limited_per_address_and_per_account() -> None:
    clock = Clock()
    limiter = SignInLimiter(clock)
    for _ in range(WEB_SIGN_IN_FAILURES_PER_ADDRESS):
        assert limiter.wait("10.0.0.1", "player:kagura") == 0
        limiter.failed("10.0.0.1", "player:kagura")
    assert limiter.wait("10.0.0.1", "player:tomoe") == WEB_SIGN_IN_WINDOW_SECONDS
    assert limiter.wait("10.0.0.2", "player:kagura") == 0  # another address, an account not yet over
    for i in range(WEB_SIGN_IN_FAILURES_PER_ACCOUNT - WEB_SIGN_IN_FAILURES_PER_ADDRESS):
        limiter.failed(f"10.0.1.{i}", "player:kagura")
    clock.now += 60
    assert limiter.wait("10.0.0.3", "player:kagura") == WEB_SIGN_IN_WINDOW_SECONDS - 60
    clock.now += WEB_SIGN_IN_WINDOW_SECONDS
    assert limiter.wait("10.0.0.1", "player:kagura") == 0


def test_every_check_counts_toward_the_servers_budget_per_minute() -> None:
    clock = Clock()
    limiter = SignInLimiter(clock)
    for i in range(WEB_SIGN_IN_CHECKS_PER_MINUTE):
        assert limiter.wait(f"10.{i // 250}.{i % 250}.1", None) == 0
    assert limiter.wait("10.9.9.9", None) == 60
    clock.now += 61
    assert limiter.wait("10.9.9.9", None) == 0


def test_sessions_end_when_unused_and_the_oldest_goes_first() -> None:
    clock = Clock()
    sessions = Sessions(clock)
    sid = sessions.start("player", "kagura", "tok")
    clock.now += WEB_SESSION_SECONDS - 1
    assert sessions.get(sid) is not None
    clock.now += WEB_SESSION_SECONDS + 1
    assert sessions.get(sid) is None and sessions.get(None) is None and sessions.get(42) is None
    first = sessions.start("organiser")
    for _ in range(MAX_WEB_SESSIONS):
        sessions.start("player", "x", "y")
    assert sessions.get(first) is None


def test_a_csrf_token_is_renewed_and_compared_whole() -> None:
    session: dict[str, object] = {}
    token = csrf_token(session)
    assert csrf_token(session) == token and csrf_matches(session, token)
    assert not csrf_matches(session, token[:-1]) and not csrf_matches(session, None) and not csrf_matches({}, token)
    assert csrf_token(session, renew=True) != token and not csrf_matches(session, token)


def test_a_round_key_is_made_private_and_kept(tmp_path: Path) -> None:
    folder = tmp_path / "intake" / "web"
    key = round_key(folder, "session.key")
    assert len(key) >= 32 and round_key(folder, "session.key") == key
    assert (folder / "session.key").stat().st_mode & 0o777 == 0o600 and folder.stat().st_mode & 0o777 == 0o700
    os.chmod(folder / "session.key", 0o644)
    with pytest.raises(ReferError) as refused:
        round_key(folder, "session.key")
    [problem] = refused.value.diagnostics
    assert problem.code == "key-readable" and problem.file == "intake/web/session.key" and str(tmp_path) not in str(problem)
