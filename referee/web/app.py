"""The Starlette application of ``referee serve ROUND``.

Every route only carries: a player's form becomes a
:class:`~referee.intake.core.Submission` (key: the page's one-time nonce,
so a double click files once), :func:`~referee.intake.core.check_submission`
or :func:`~referee.intake.core.submit` decide, and the receipt comes back as
a page (and by mail when ``--smtp`` is given).  The organiser's buttons call
:func:`~referee.intake.transport.send_reminders`,
:func:`~referee.intake.core.lock_round` and
:func:`~referee.commands.batch.batch_round` -- what ``referee remind``,
``lock`` and ``batch`` call.

What a stranger can do: read the sign-in pages, and be refused.  No route
writes a file before the visitor is signed in and the form's CSRF token
matches; a request body is bounded before it is parsed; every page is
autoescaped and names no path of this machine.
"""

from __future__ import annotations

import hmac
import re
import secrets
import smtplib
import sys
import threading
from datetime import datetime, timezone
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any, Callable, TypeVar

import jinja2
from starlette.applications import Starlette
from starlette.background import BackgroundTask
from starlette.datastructures import FormData, UploadFile
from starlette.exceptions import HTTPException
from starlette.formparsers import MultiPartException, MultiPartParser
from starlette.middleware import Middleware
from starlette.middleware.sessions import SessionMiddleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse, Response
from starlette.routing import Route
from starlette.types import Receive, Scope, Send

from referee.confine import without_place
from referee.diagnostics import ReferError, format_diagnostics
from referee.intake.core import (IncomingFile, Round, Submission, check_submission, current_round, decode_file,
                                 is_locked, lock_round, open_round, round_ruleset, sign_in, submit)
from referee.intake.ledger import file_words, lock_words, player_status, reminder_texts, round_status, summary_words
from referee.intake.receipt import Receipt
from referee.intake.render import deadline_words, when
from referee.intake.store import sha256_hex
from referee.intake.transport import SmtpSettings, flush_receipts, send_reminders
from referee.limits import (MAX_ATTACHMENT_BYTES, MAX_WEB_FORM_FIELDS, MAX_WEB_REQUEST_BYTES, WEB_SESSION_SECONDS)
from referee.report import LANGS
from referee.report.messages import message, team_label
from referee.web.batchjob import BatchJob
from referee.web.guard import (KEY_DIR, BodyLimit, SecurityHeaders, Sessions, SignedIn, SignInLimiter, csrf_matches,
                               csrf_token, round_key)
from referee.web.views import file_results, player_files, state_words, versions

__all__ = ["Site", "make_app"]

T = TypeVar("T")
_NONCE = re.compile(r"^[A-Za-z0-9_-]{16,64}$")


class _InMemoryMultiPart(MultiPartParser):
    """Starlette's parser, keeping uploads in memory: the body is bounded
    before it is parsed, and nothing a visitor sends is written to disk."""

    spool_max_size = MAX_WEB_REQUEST_BYTES + 1


async def _form(request: Request) -> FormData:
    """The request's form, bounded in fields and size (400 if unreadable)."""
    ctype = request.headers.get("content-type", "")
    if ctype.startswith("multipart/form-data"):
        try:
            return await _InMemoryMultiPart(request.headers, request.stream(), max_files=MAX_WEB_FORM_FIELDS,
                                            max_fields=MAX_WEB_FORM_FIELDS,
                                            max_part_size=MAX_WEB_REQUEST_BYTES).parse()
        except MultiPartException:
            raise HTTPException(400) from None
    return await request.form(max_files=0, max_fields=MAX_WEB_FORM_FIELDS, max_part_size=MAX_WEB_REQUEST_BYTES)


def _text(form: FormData, name: str, limit: int = 256) -> str:
    value = form.get(name)
    return value.strip()[:limit] if isinstance(value, str) else ""


@lru_cache(maxsize=8)
def _ruleset(name: str) -> Any:
    from referee.ruleset import load_ruleset

    return load_ruleset(name)


class Site:
    """One round served: its folder, secrets, sessions and batch."""

    def __init__(self, round_dir: str | Path, *, smtp: SmtpSettings | None = None, https: bool = False,
                 root_path: str = "") -> None:
        self.folder = Path(round_dir)
        self.root_path = root_path
        self._round = open_round(self.folder)
        keys = self._round.inbox.folder / KEY_DIR
        self.session_key = round_key(keys, "session.key")
        self.organiser_key = round_key(keys, "organiser.key")
        self.smtp = smtp
        self.https = https
        self.sessions = Sessions()
        self.limiter = SignInLimiter()
        self.batch = BatchJob(self.folder)
        self.env = jinja2.Environment(loader=jinja2.PackageLoader("referee", "templates/serve"), autoescape=True,
                                      undefined=jinja2.StrictUndefined)
        self._lock = threading.Lock()

    # -- the round, the visitor --------------------------------------------------

    def round(self) -> Round:
        """The round, its roster read again when the file changed.

        :raises ReferError: the roster now has errors (the page closes until fixed)."""
        with self._lock:
            self._round = current_round(self._round)
            return self._round

    def who(self, request: Request, kind: str) -> SignedIn | None:
        found = self.sessions.get(request.session.get("sid"))
        return found if found is not None and found.kind == kind else None

    def lang(self, request: Request, who: SignedIn | None = None) -> str:
        """The page's language: chosen (``?lang=ja``, kept in the session),
        else the player's from the roster, else the browser's."""
        session = request.scope.get("session")
        chosen = request.query_params.get("lang")
        if chosen in LANGS and session is not None and request.method == "GET":
            session["lang"] = chosen
        if session is not None and session.get("lang") in LANGS:
            return str(session["lang"])
        if chosen in LANGS:
            return str(chosen)
        player = self._round.roster.player(who.player) if who is not None and who.player else None
        if player is not None and player.lang in LANGS:
            return player.lang
        return "ja" if request.headers.get("accept-language", "").lower().startswith("ja") else "en"

    def page(self, request: Request, template: str, status: int = 200, *, who: SignedIn | None = None,
             background: BackgroundTask | None = None, **context: Any) -> HTMLResponse:
        lang = self.lang(request, who)
        session = request.scope.get("session")

        def say(key: str, **fields: Any) -> str:
            return message(lang, key, **fields)

        html = self.env.get_template(template).render(
            lang=lang, say=say, team=lambda t: team_label(lang, t), who=who,
            csrf=csrf_token(session) if session is not None else "", label=self._round.roster.label,
            base=request.scope.get("root_path", ""), **context)
        return HTMLResponse(html, status, background=background)

    def refusal(self, request: Request, status: int, key: str, who: SignedIn | None = None,
                **fields: Any) -> HTMLResponse:
        return self.page(request, "error.html", status, who=who, problem=key, fields=fields)

    def go(self, request: Request, path: str, background: BackgroundTask | None = None) -> RedirectResponse:
        return RedirectResponse(request.scope.get("root_path", "") + path, 303, background=background)

    # -- signing in and out -------------------------------------------------------

    async def home(self, request: Request) -> Response:
        if self.who(request, "player"):
            return self.go(request, "/player")
        if self.who(request, "organiser"):
            return self.go(request, "/organiser")
        return self.page(request, "signin.html")

    async def sign_in(self, request: Request) -> Response:
        form = await _form(request)
        if not csrf_matches(request.session, form.get("csrf")):
            return self.refusal(request, 403, "web.error.form")
        player_id, token = _text(form, "player", 64), _text(form, "token")
        rnd = await _thread(self.round)
        account = f"player:{player_id}" if rnd.roster.player(player_id) is not None else None
        wait = self.limiter.wait(_address(request), account)
        if wait:
            return self.page(request, "signin.html", 429, problem="web.signin.too_many",
                             minutes=int(wait // 60) + 1, player=player_id)
        player = await _thread(sign_in, rnd, player_id, token)
        if player is None:
            self.limiter.failed(_address(request), account)
            return self.page(request, "signin.html", 401, problem="web.signin.wrong", player=player_id)
        self._start(request, "player", player.id, token)
        return self.go(request, "/player")

    def _start(self, request: Request, kind: str, player: str | None = None, token: str | None = None) -> None:
        self.sessions.end(request.session.get("sid"))
        request.session["sid"] = self.sessions.start(kind, player, token)
        csrf_token(request.session, renew=True)

    async def sign_out(self, request: Request) -> Response:
        form = await _form(request)
        if not csrf_matches(request.session, form.get("csrf")):
            return self.refusal(request, 403, "web.error.form")
        self.sessions.end(request.session.pop("sid", None))
        csrf_token(request.session, renew=True)
        return self.go(request, "/")

    # -- the player's page ------------------------------------------------------------

    def _player(self, request: Request) -> tuple[SignedIn, Round, Any] | None:
        who = self.who(request, "player")
        if who is None:
            return None
        rnd = self.round()
        player = rnd.roster.player(str(who.player))
        return (who, rnd, player) if player is not None else None

    def _player_page(self, request: Request, who: SignedIn, rnd: Round, player: Any, status: int = 200,
                     **context: Any) -> HTMLResponse:
        lang = self.lang(request, who)
        with rnd.inbox.locked() as state:
            standing = player_status(state, player)
            files = player_files(state, rnd.inbox, player, standing, lang)
        locked = is_locked(rnd.folder)
        deadline = rnd.roster.deadline.isoformat() if rnd.roster.deadline else None
        return self.page(request, "player.html", status, who=who, player=player, files=files, locked=locked,
                         state=message(lang, f"status.state.{standing.state}"),
                         deadline="" if locked else deadline_words(lang, deadline, _now().isoformat(), False),
                         nonce=secrets.token_urlsafe(18), **context)

    async def player_page(self, request: Request) -> Response:
        found = await _thread(self._player, request)
        if found is None:
            return self.go(request, "/")
        return await _thread(self._player_page, request, *found)

    async def player_post(self, request: Request) -> Response:
        found = await _thread(self._player, request)  # before the body is read: strangers get nothing parsed
        if found is None:
            return self.refusal(request, 403, "web.error.signin")
        who, rnd, player = found
        form = await _form(request)
        if not csrf_matches(request.session, form.get("csrf")):
            return self.refusal(request, 403, "web.error.form", who)
        nonce = _text(form, "nonce", 64)
        if _NONCE.match(nonce) is None:
            return self.refusal(request, 400, "web.error.bad_request", who)
        sent, texts, boxes = await _gathered(form, player.files)
        checking = form.get("action") == "check"
        files = [f for f, changed in sent.values() if checking or changed]
        lang = self.lang(request, who)
        if not files:
            note = "web.check.nothing" if checking or not sent else "web.unchanged"
            return await _thread(self._player_page, request, who, rnd, player, note=note, boxes=boxes)
        sub = Submission(f"web:{player.id}:{nonce}", _now(), "web", who.token, player=player.id,
                         files=tuple(files),
                         use="this" if form.get("use_this") == "yes" else None)
        if checking:
            receipt = await _thread(check_submission, rnd, sub)
            if receipt.outcome == "refused":
                return self._stale(request)
            results, elsewhere = file_results(receipt, texts, lang)
            return await _thread(self._player_page, request, who, rnd, player, checked={r.file: r for r in results},
                                 elsewhere=elsewhere, notices=_notices(receipt, lang), boxes=boxes)
        receipt = await _thread(submit, rnd, sub)
        if receipt.outcome == "refused":
            return self._stale(request)
        mail = BackgroundTask(flush_receipts, rnd, self.smtp, sys.stderr) if self.smtp else None
        return self.go(request, f"/player/receipt/{nonce}", background=mail)

    def _stale(self, request: Request) -> HTMLResponse:
        """The session's token no longer opens the roster (renewed): signed out."""
        self.sessions.end(request.session.pop("sid", None))
        return self.refusal(request, 403, "web.receipt.refused")

    async def receipt_page(self, request: Request) -> Response:
        found = await _thread(self._player, request)
        if found is None:
            return self.go(request, "/")
        who, rnd, player = found
        key = f"web:{player.id}:{request.path_params['nonce']}"

        def read() -> tuple[Receipt | None, dict[str, str]]:
            with rnd.inbox.locked() as state:
                data = state.receipts.get(key)
            if not data:
                return None, {}
            receipt = Receipt.from_json(data)
            return receipt, {f.file: rnd.inbox.get(f.sha256).decode("utf-8") for f in receipt.files}

        receipt, texts = await _thread(read)
        if receipt is None or receipt.player != player.id:
            return self.refusal(request, 404, "web.error.not_found", who)
        lang = self.lang(request, who)
        results, elsewhere = file_results(receipt, texts, lang)
        return self.page(request, "receipt.html", who=who, receipt=receipt, results=results, elsewhere=elsewhere,
                         notices=_notices(receipt, lang), promoted=receipt.promoted, mailed=self.smtp is not None,
                         received=when(receipt.received, receipt.deadline),
                         deadline=deadline_words(lang, receipt.deadline, receipt.received, receipt.locked),
                         state_words=lambda f: state_words(f, lang))

    # -- the skills and the rules ---------------------------------------------------------

    def _ruleset(self) -> Any:
        """The ruleset the round's battles name (the one its files are checked against)."""
        return _ruleset(round_ruleset(self.folder))

    def _reader(self, request: Request) -> SignedIn | None:
        return self.who(request, "player") or self.who(request, "organiser")

    async def skills(self, request: Request) -> Response:
        from referee.describe import skill_facts

        who = self._reader(request)
        if who is None:
            return self.go(request, "/")
        ruleset = await _thread(self._ruleset)
        lang = self.lang(request, who)
        return self.page(request, "skills.html", who=who, ruleset=ruleset.name,
                         skills=[skill_facts(s, lang) for s in ruleset.catalog.skills])

    async def rules(self, request: Request) -> Response:
        from referee.describe import describe_ruleset

        who = self._reader(request)
        if who is None:
            return self.go(request, "/")
        ruleset = await _thread(self._ruleset)
        return self.page(request, "rules.html", who=who, ruleset=ruleset.name,
                         text=without_place(describe_ruleset(ruleset), self.folder))

    # -- the organiser's page ---------------------------------------------------------------

    async def organiser(self, request: Request) -> Response:
        who = self.who(request, "organiser")
        if who is None:
            return self.page(request, "organiser_signin.html")
        return await _thread(self._organiser_page, request, who)

    def _organiser_page(self, request: Request, who: SignedIn) -> HTMLResponse:
        from referee.app.seeds import read_commitment

        lang = self.lang(request, who)
        flash, who.flash = who.flash, None
        try:
            rnd = self.round()
        except ReferError as err:
            return self.page(request, "organiser.html", who=who, flash=flash, problems=without_place(
                format_diagnostics(err.diagnostics), self.folder), ledger=None)
        status = round_status(rnd)
        sealed = read_commitment(rnd.folder) if status.locked else None
        return self.page(request, "organiser.html", who=who, flash=flash, problems=None, ledger=status,
                         summary=summary_words(status, lang), open_words=lock_words(status, lang),
                         deadline="" if status.locked else deadline_words(lang, status.deadline, _now().isoformat(),
                                                                          False),
                         file_words=lambda f: file_words(lang, f),
                         commitment=sealed.commitment if sealed else None, reminders=reminder_texts(status),
                         mail=self.smtp is not None, batch=self.batch.snapshot(),
                         when=lambda iso: when(iso, status.deadline))

    async def organiser_sign_in(self, request: Request) -> Response:
        form = await _form(request)
        if not csrf_matches(request.session, form.get("csrf")):
            return self.refusal(request, 403, "web.error.form")
        wait = self.limiter.wait(_address(request), "organiser")
        if wait:
            return self.page(request, "organiser_signin.html", 429, problem="web.signin.too_many",
                             minutes=int(wait // 60) + 1)
        if not hmac.compare_digest(_text(form, "key").encode("utf-8"), self.organiser_key.encode("utf-8")):
            self.limiter.failed(_address(request), "organiser")
            return self.page(request, "organiser_signin.html", 401, problem="web.signin.wrong")
        self._start(request, "organiser")
        return self.go(request, "/organiser")

    async def organiser_action(self, request: Request) -> Response:
        who = self.who(request, "organiser")
        if who is None:
            return self.refusal(request, 403, "web.error.signin")
        form = await _form(request)
        if not csrf_matches(request.session, form.get("csrf")):
            return self.refusal(request, 403, "web.error.form", who)
        lang = self.lang(request, who)
        action = request.path_params["action"]
        who.flash = await _thread(self._act, action, form, lang)
        return self.go(request, "/organiser")

    def _act(self, action: str, form: FormData, lang: str) -> tuple[str, str]:
        """Run one of the organiser's buttons; the line the page then shows."""
        rnd = self.round()
        if action == "remind":
            if self.smtp is None:
                return "problem", message(lang, "web.organiser.remind.nomail")
            try:
                count = send_reminders(rnd, self.smtp)
            except (OSError, smtplib.SMTPException) as err:
                return "problem", message(lang, "web.organiser.remind.failed", error=type(err).__name__)
            return "done", message(lang, "web.organiser.reminded", count=count)
        if action == "lock":
            if form.get("confirm") != "yes":
                return "problem", message(lang, "web.organiser.lock.unconfirmed")
            try:
                sealed = lock_round(rnd)
            except ReferError as err:
                return "problem", without_place(format_diagnostics(err.diagnostics), self.folder)
            return "done", message(lang, "web.organiser.locked", commitment=sealed.commitment)
        if action == "batch":
            if not is_locked(rnd.folder):
                return "problem", message(lang, "web.organiser.batch.need_lock")
            if not self.batch.start():
                return "problem", message(lang, "web.organiser.batch.busy")
            return "done", message(lang, "web.organiser.batch.started")
        raise HTTPException(404)

    async def organiser_player(self, request: Request) -> Response:
        who = self.who(request, "organiser")
        if who is None:
            return self.go(request, "/organiser")
        rnd = await _thread(self.round)
        player = rnd.roster.player(request.path_params["player"])
        if player is None:
            return self.refusal(request, 404, "web.error.not_found", who)
        lang = self.lang(request, who)

        def read() -> list[tuple[str, Any]]:
            with rnd.inbox.locked() as state:
                return [(rel, versions(state, rnd.inbox, rel, lang)) for rel in player.files]

        return self.page(request, "versions.html", who=who, player=player, files=await _thread(read),
                         when=lambda iso: when(iso, rnd.roster.deadline.isoformat() if rnd.roster.deadline else None))

    # -- the rest ---------------------------------------------------------------------------

    async def stylesheet(self, request: Request) -> Response:
        css = (resources.files("referee") / "templates" / "serve" / "serve.css").read_text(encoding="utf-8")
        return Response(css, media_type="text/css", headers={"cache-control": "max-age=3600"})

    async def http_error(self, request: Request, exc: Exception) -> Response:
        code = getattr(exc, "status_code", 500)
        key = {404: "web.error.not_found", 405: "web.error.bad_request", 413: "web.error.too_large",
               400: "web.error.bad_request"}.get(code, "web.error.internal")
        return self.refusal(request, code, key, limit=f"{MAX_WEB_REQUEST_BYTES:,}")

    async def round_closed(self, request: Request, exc: Exception) -> Response:
        return self.refusal(request, 503, "web.error.round")

    async def crashed(self, request: Request, exc: Exception) -> Response:
        return self.refusal(request, 500, "web.error.internal")

    async def too_large(self, scope: Scope, receive: Receive, send: Send) -> None:
        """The answer to a body over the limit (before the application sees it)."""
        await self.refusal(Request(scope), 413, "web.error.too_large", limit=f"{MAX_WEB_REQUEST_BYTES:,}")(
            scope, receive, send)


def _now() -> datetime:
    return datetime.now(timezone.utc)


def _address(request: Request) -> str:
    return request.client.host if request.client is not None else "?"


async def _thread(fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    """``fn`` in a worker thread (the core takes a file lock and checks files)."""
    from starlette.concurrency import run_in_threadpool

    return await run_in_threadpool(fn, *args, **kwargs)


async def _gathered(form: FormData, files: tuple[str, ...]
                    ) -> tuple[dict[str, tuple[IncomingFile, bool]], dict[str, str], dict[str, str]]:
    """The player's files on the form: each roster file's upload, else its
    box, when not empty, as the core takes it (named by its roster path),
    and whether the player changed it from the version the page showed.

    :returns: the files, their texts as decoded (for the diagnostics under
        their lines) and what each box shows next."""
    sent: dict[str, tuple[IncomingFile, bool]] = {}
    texts: dict[str, str] = {}
    boxes: dict[str, str] = {}
    for rel in files:
        box = form.get(f"text:{rel}")
        boxes[rel] = box if isinstance(box, str) else ""
        upload = form.get(f"upload:{rel}")
        uploaded = isinstance(upload, UploadFile) and bool(upload.filename)
        data = await upload.read() if isinstance(upload, UploadFile) and uploaded else boxes[rel].encode("utf-8")
        if not data.strip():
            continue
        text, _ = decode_file(data, None, rel)
        if text is not None:
            texts[rel] = boxes[rel] = text
        shown = form.get(f"shown:{rel}")
        changed = uploaded or text is None or sha256_hex(text.encode("utf-8")) != shown
        sent[rel] = (IncomingFile(rel, data), changed)
    return sent, texts, boxes


def _notices(receipt: Receipt, lang: str) -> list[str]:
    return [message(lang, f"intake.notice.{n.code}", detail=n.detail, value=n.value, limit=MAX_ATTACHMENT_BYTES)
            for n in receipt.notices]


def make_app(site: Site) -> Any:
    """The ASGI application: the routes, a signed session cookie (for the
    page's own path only: two rounds served on one host keep theirs apart),
    a bound on every request body, the security headers."""
    routes = [
        Route("/", site.home),
        Route("/signin", site.sign_in, methods=["POST"]),
        Route("/signout", site.sign_out, methods=["POST"]),
        Route("/player", site.player_page),
        Route("/player", site.player_post, methods=["POST"]),
        Route("/player/receipt/{nonce:str}", site.receipt_page),
        Route("/skills", site.skills),
        Route("/rules", site.rules),
        Route("/organiser", site.organiser),
        Route("/organiser/signin", site.organiser_sign_in, methods=["POST"]),
        Route("/organiser/player/{player:str}", site.organiser_player),
        Route("/organiser/{action:str}", site.organiser_action, methods=["POST"]),
        Route("/static/serve.css", site.stylesheet),
    ]
    app = Starlette(routes=routes,
                    middleware=[Middleware(SessionMiddleware, secret_key=site.session_key,
                                           session_cookie="referee_session", max_age=WEB_SESSION_SECONDS,
                                           same_site="strict", https_only=site.https,
                                           path=site.root_path or "/")],
                    exception_handlers={HTTPException: site.http_error, ReferError: site.round_closed,
                                        Exception: site.crashed})
    return SecurityHeaders(BodyLimit(app, MAX_WEB_REQUEST_BYTES, site.too_large), https=site.https)
