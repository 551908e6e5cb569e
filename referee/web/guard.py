"""What a public page needs before it can carry a submission: secrets,
sessions, CSRF tokens, sign-in limits, a bound on every request, and the
headers that keep the page out of frames and scripts out of it.

Secrets are generated per round on first use and kept in
``ROUND/intake/web/`` (the inbox's private folder, mode 0700), each file
mode 0600: ``session.key`` signs the session cookie, ``organiser.key`` opens
the organiser's page.  A key file anyone else can read is refused.

A signed-in session is kept in the server's memory (:class:`Sessions`): the
cookie holds only a random session id, a CSRF token and the chosen language,
signed (Starlette's ``SessionMiddleware``); the player's token, which every
submission carries to the core, never leaves the server.
"""

from __future__ import annotations

import hmac
import os
import secrets
import stat
import threading
import time
from collections import OrderedDict, deque
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Awaitable, Callable

from starlette.exceptions import HTTPException
from starlette.types import ASGIApp as App, Message, Receive, Scope, Send

from referee.diagnostics import Diagnostic, ReferError
from referee.limits import (MAX_WEB_SESSIONS, WEB_SESSION_SECONDS, WEB_SIGN_IN_CHECKS_PER_MINUTE,
                            WEB_SIGN_IN_FAILURES_PER_ACCOUNT, WEB_SIGN_IN_FAILURES_PER_ADDRESS,
                            WEB_SIGN_IN_WINDOW_SECONDS)

__all__ = ["KEY_DIR", "round_key", "Sessions", "SignedIn", "SignInLimiter", "csrf_token", "csrf_matches",
           "BodyLimit", "SecurityHeaders", "SECURITY_HEADERS"]

#: Where a round's web secrets live, inside its private inbox folder.
KEY_DIR = "web"


def round_key(folder: Path, name: str) -> str:
    """The secret kept in ``folder/name``; made the first time (256 random
    bits, mode 0600, in a folder of mode 0700).

    :raises ReferError: the file is readable by others, or not a key."""
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    path = folder / name
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o600)
    except FileExistsError:
        pass
    else:
        with os.fdopen(fd, "w") as handle:
            handle.write(secrets.token_urlsafe(32) + "\n")
            handle.flush()
            os.fsync(handle.fileno())
    info = path.lstat()
    shown = f"intake/{KEY_DIR}/{name}"
    if not stat.S_ISREG(info.st_mode):
        raise ReferError([Diagnostic(shown, 0, 0, "not-a-file", f"{shown} must be a plain file")])
    if info.st_mode & 0o077:
        raise ReferError([Diagnostic(shown, 0, 0, "key-readable",
                                     f"{shown} can be read by other users of this machine",
                                     hint=f"chmod 600 the file (or remove it: a new key is made)")])
    value = path.read_text(encoding="ascii", errors="replace").strip()
    if len(value) < 32:
        raise ReferError([Diagnostic(shown, 0, 0, "key-too-short", f"{shown} holds fewer than 32 characters",
                                     hint="remove it: a new key is made")])
    return value


@dataclass
class SignedIn:
    """One signed-in browser: a player (with the token the core checks at
    every submission) or the organiser.  ``flash`` is the one-line outcome
    of the organiser's last button, shown once."""

    kind: str
    player: str | None
    token: str | None
    seen: float
    flash: tuple[str, str] | None = None


class Sessions:
    """Signed-in sessions by random id, forgotten after
    :data:`~referee.limits.WEB_SESSION_SECONDS` unused, at most
    :data:`~referee.limits.MAX_WEB_SESSIONS` (the oldest goes first)."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._by_id: OrderedDict[str, SignedIn] = OrderedDict()
        self._lock = threading.Lock()

    def start(self, kind: str, player: str | None = None, token: str | None = None) -> str:
        sid = secrets.token_urlsafe(24)
        with self._lock:
            self._by_id[sid] = SignedIn(kind, player, token, self._clock())
            while len(self._by_id) > MAX_WEB_SESSIONS:
                self._by_id.popitem(last=False)
        return sid

    def get(self, sid: Any) -> SignedIn | None:
        if not isinstance(sid, str):
            return None
        with self._lock:
            found = self._by_id.get(sid)
            if found is None:
                return None
            now = self._clock()
            if now - found.seen > WEB_SESSION_SECONDS:
                del self._by_id[sid]
                return None
            found.seen = now
            self._by_id.move_to_end(sid)
            return found

    def end(self, sid: Any) -> None:
        if isinstance(sid, str):
            with self._lock:
                self._by_id.pop(sid, None)


@dataclass
class SignInLimiter:
    """Failed sign-ins per address and per account (a player id, or the
    organiser's key) in a sliding window, and every check per minute: over
    a limit, an attempt is refused before its token is even hashed."""

    clock: Callable[[], float] = time.monotonic
    _failures: dict[str, deque[float]] = field(default_factory=dict)
    _checks: deque[float] = field(default_factory=deque)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def _recent(self, key: str, now: float) -> deque[float]:
        times = self._failures.get(key)
        if times is None:
            return deque()
        while times and now - times[0] > WEB_SIGN_IN_WINDOW_SECONDS:
            times.popleft()
        if not times:
            del self._failures[key]
        return times

    def wait(self, address: str, account: str | None) -> float:
        """Seconds before an attempt from ``address`` on ``account`` may be
        checked (0: now); when 0, the check is counted."""
        with self._lock:
            now = self.clock()
            waits = [0.0]
            for key, limit in ((f"address:{address}", WEB_SIGN_IN_FAILURES_PER_ADDRESS),
                               (f"account:{account}" if account else "", WEB_SIGN_IN_FAILURES_PER_ACCOUNT)):
                times = self._recent(key, now) if key else deque()
                if len(times) >= limit:
                    waits.append(WEB_SIGN_IN_WINDOW_SECONDS - (now - times[-limit]))
            while self._checks and now - self._checks[0] > 60:
                self._checks.popleft()
            if len(self._checks) >= WEB_SIGN_IN_CHECKS_PER_MINUTE:
                waits.append(60 - (now - self._checks[0]))
            wait = max(waits)
            if wait <= 0:
                self._checks.append(now)
            return max(wait, 0.0)

    def failed(self, address: str, account: str | None) -> None:
        with self._lock:
            now = self.clock()
            for key in (f"address:{address}", f"account:{account}" if account else ""):
                if key:
                    self._failures.setdefault(key, deque()).append(now)


def csrf_token(session: dict[str, Any], *, renew: bool = False) -> str:
    """The session's CSRF token (made when missing, or when ``renew``: at
    sign-in and sign-out, so a token seen before is worth nothing after)."""
    if renew or not isinstance(session.get("csrf"), str):
        session["csrf"] = secrets.token_urlsafe(24)
    return str(session["csrf"])


def csrf_matches(session: dict[str, Any], given: Any) -> bool:
    """Whether a form's token is the session's (constant-time compare)."""
    expected = session.get("csrf")
    if not isinstance(expected, str) or not isinstance(given, str):
        return False
    return hmac.compare_digest(expected.encode("utf-8"), given.encode("utf-8", "replace"))


# -- ASGI middleware ------------------------------------------------------------


#: Sent with every response.  No script runs on these pages at all; no
#: other site may frame them; no address of them leaks in a Referer.
SECURITY_HEADERS: tuple[tuple[str, str], ...] = (
    ("content-security-policy", "default-src 'none'; style-src 'self'; img-src 'self'; form-action 'self'; "
                                "frame-ancestors 'none'; base-uri 'none'"),
    ("x-frame-options", "DENY"),
    ("referrer-policy", "no-referrer"),
    ("x-content-type-options", "nosniff"),
    ("cross-origin-opener-policy", "same-origin"),
    ("cache-control", "no-store"),
)


class SecurityHeaders:
    """Adds :data:`SECURITY_HEADERS` (and HSTS when served over HTTPS)."""

    def __init__(self, app: App, https: bool = False) -> None:
        self.app = app
        self.headers = [(k.encode(), v.encode()) for k, v in SECURITY_HEADERS]
        if https:
            self.headers.append((b"strict-transport-security", b"max-age=31536000"))

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                present = {k.lower() for k, _ in message.get("headers", [])}
                message["headers"] = [*message.get("headers", []),
                                      *((k, v) for k, v in self.headers if k not in present)]
            await send(message)

        await self.app(scope, receive, with_headers)


class BodyLimit:
    """Refuses a request body over ``limit`` bytes before the application
    parses any of it: at once when its Content-Length says so (``refuse``
    answers, with a page), else as soon as the bytes received pass the limit
    (an HTTP 413 error the application's handler answers).

    A refused body that is not too much larger is read and dropped first, so
    a browser still sending it sees the page rather than a reset connection."""

    def __init__(self, app: App, limit: int, refuse: Callable[[Scope, Receive, Send], Awaitable[None]]) -> None:
        self.app = app
        self.limit = limit
        self.refuse = refuse

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope.get("headers", [])).get(b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > self.limit):
            if declared.isdigit() and int(declared) <= DRAIN_FACTOR * self.limit:
                await _drain(receive, DRAIN_FACTOR * self.limit)
            await self.refuse(scope, receive, send)
            return
        seen = 0

        async def bounded() -> Message:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.limit:
                    if message.get("more_body"):
                        await _drain(receive, DRAIN_FACTOR * self.limit - seen)
                    raise HTTPException(413)
            return message

        await self.app(scope, bounded, send)


#: A refused body up to this many times the limit is read to its end first.
DRAIN_FACTOR = 16


async def _drain(receive: Receive, budget: int) -> None:
    """Read and drop the rest of a body, at most ``budget`` bytes of it."""
    while budget > 0:
        message = await receive()
        budget -= len(message.get("body", b""))
        if message["type"] != "http.request" or not message.get("more_body"):
            return
