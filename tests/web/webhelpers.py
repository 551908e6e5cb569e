"""Helpers for the web page's tests: the real server (``referee serve`` in a
process of its own, on a loopback port), a plain HTTP client that keeps its
cookie, headless Chromium driven by selenium, and a fingerprint of a round's
files (to show that a request changed nothing)."""

from __future__ import annotations

import hashlib
import http.cookiejar
import re
import secrets
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from intake.mailhelpers import free_port

ROOT = Path(__file__).resolve().parents[2]
#: The command line, run as this interpreter runs it (whatever PATH holds).
REFEREE = (sys.executable, "-m", "referee.cli")


@dataclass
class Server:
    """``referee serve ROUND`` running on ``127.0.0.1:port``."""

    folder: Path
    port: int
    process: subprocess.Popen[bytes]
    log_path: Path

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def organiser_base(self) -> str:
        """The same server by another name: another origin, so one browser
        keeps a player's cookie and the organiser's apart."""
        return f"http://localhost:{self.port}"

    @property
    def organiser_key(self) -> str:
        return (self.folder / "intake" / "web" / "organiser.key").read_text().strip()

    def log(self) -> str:
        return self.log_path.read_text(encoding="utf-8", errors="replace")

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


def start_server(folder: Path, *args: str, log_dir: Path) -> Server:
    """The server of ``folder``, ready to answer (the command a user types)."""
    port = free_port()
    log_path = log_dir / f"serve-{port}.log"
    with open(log_path, "wb") as log:
        process = subprocess.Popen([*REFEREE, "serve", str(folder), "--port", str(port), *args],
                                   stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
    server = Server(folder, port, process, log_path)
    end = time.monotonic() + 60
    while time.monotonic() < end:
        if process.poll() is not None:
            raise RuntimeError(f"referee serve ended ({process.returncode}):\n{server.log()}")
        try:
            with urllib.request.urlopen(server.base + "/static/serve.css", timeout=2):
                return server
        except OSError:
            time.sleep(0.1)
    server.stop()
    raise RuntimeError(f"referee serve did not answer:\n{server.log()}")


def fingerprint(folder: Path) -> dict[str, str]:
    """Every file and folder under ``folder``: its content digest and mode."""
    out = {}
    for path in sorted(folder.rglob("*")):
        rel = path.relative_to(folder).as_posix()
        info = path.lstat()
        digest = hashlib.sha256(path.read_bytes()).hexdigest() if path.is_file() else "folder"
        out[rel] = f"{digest} {oct(info.st_mode)} {info.st_size}"
    return out


# -- a plain HTTP client ------------------------------------------------------


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None


@dataclass
class Answer:
    status: int
    headers: dict[str, str]
    text: str


@dataclass
class Client:
    """A visitor without a browser: one cookie jar, no redirect followed."""

    base: str
    jar: http.cookiejar.CookieJar = field(default_factory=http.cookiejar.CookieJar)

    def __post_init__(self) -> None:
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar), _NoRedirect())

    def request(self, method: str, path: str, body: bytes | None = None, headers: dict[str, str] | None = None
                ) -> Answer:
        req = urllib.request.Request(self.base + path, data=body, method=method, headers=headers or {})
        try:
            with self.opener.open(req, timeout=60) as resp:
                return Answer(resp.status, {k.lower(): v for k, v in resp.headers.items()},
                              resp.read().decode("utf-8"))
        except urllib.error.HTTPError as err:
            return Answer(err.code, {k.lower(): v for k, v in err.headers.items()}, err.read().decode("utf-8"))

    def get(self, path: str) -> Answer:
        return self.request("GET", path)

    def post(self, path: str, fields: dict[str, str]) -> Answer:
        body = urllib.parse.urlencode(fields).encode()
        return self.request("POST", path, body, {"Content-Type": "application/x-www-form-urlencoded"})

    def post_multipart(self, path: str, fields: dict[str, str], files: dict[str, tuple[str, bytes]] | None = None
                       ) -> Answer:
        boundary = "----referee" + secrets.token_hex(8)
        parts = []
        for name, value in fields.items():
            parts.append(f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n'.encode()
                         + value.encode() + b"\r\n")
        for name, (filename, data) in (files or {}).items():
            parts.append(f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"; filename="{filename}"\r\n'
                         f"Content-Type: application/octet-stream\r\n\r\n".encode() + data + b"\r\n")
        body = b"".join(parts) + f"--{boundary}--\r\n".encode()
        return self.request("POST", path, body, {"Content-Type": f"multipart/form-data; boundary={boundary}"})

    def csrf(self, path: str = "/") -> str:
        """The CSRF token of a page's form (the page also sets the cookie)."""
        found = re.search(r'name="csrf" value="([^"]+)"', self.get(path).text)
        assert found, f"no form on {path}"
        return found.group(1)

    def nonce(self) -> str:
        found = re.search(r'name="nonce" value="([^"]+)"', self.get("/player").text)
        assert found
        return found.group(1)

    def sign_in(self, player: str, token: str) -> Answer:
        return self.post("/signin", {"csrf": self.csrf(), "player": player, "token": token})


# -- headless Chromium ------------------------------------------------------------


def _left(element: Any) -> bool:
    """Whether the page holding ``element`` is gone.  Mid-navigation Chromium
    may answer "node does not belong to the document" rather than selenium's
    stale-element error; both mean the old page is gone."""
    from selenium.common.exceptions import WebDriverException

    try:
        element.is_enabled()
    except WebDriverException:
        return True
    return False


class Page:
    """One browser tab on the server: go, type, paste, click and wait."""

    def __init__(self, driver: Any, base: str) -> None:
        self.d = driver
        self.base = base

    def go(self, path: str) -> Page:
        self.d.get(self.base + path)
        return self

    def el(self, css: str) -> Any:
        from selenium.webdriver.common.by import By

        return self.d.find_element(By.CSS_SELECTOR, css)

    def all(self, css: str) -> list[Any]:
        from selenium.webdriver.common.by import By

        return list(self.d.find_elements(By.CSS_SELECTOR, css))

    def type(self, css: str, text: str) -> None:
        box = self.el(css)
        box.clear()
        box.send_keys(text)

    def paste(self, file: str, text: str) -> None:
        """Put ``text`` in the box of ``file`` as a paste does (whole, at once)."""
        box = self.el(f'textarea[name="text:{file}"]')
        self.d.execute_script("arguments[0].value = arguments[1];", box, text)

    def click(self, css: str) -> None:
        """Click and wait for the next page to load."""
        from selenium.webdriver.support.ui import WebDriverWait

        old = self.el("html")
        self.el(css).click()
        WebDriverWait(self.d, 60).until(lambda d: _left(old))
        WebDriverWait(self.d, 60).until(lambda d: d.execute_script("return document.readyState") == "complete")

    @property
    def text(self) -> str:
        return str(self.el("body").text)

    @property
    def lang(self) -> str:
        return str(self.el("html").get_attribute("lang"))

    def sign_in(self, player: str, token: str) -> None:
        self.go("/")
        self.type("#player", player)
        self.type("#token", token)
        self.click("#signin")

    def caret_offsets(self, file: str) -> list[float]:
        """For every diagnostic with a caret in ``file``'s listing: how far
        (in pixels) the caret stands from the character it points at."""
        return [float(x) for x in self.d.execute_script("""
            const out = [];
            for (const note of document.querySelectorAll(`.listing[data-file="${arguments[0]}"] .note`)) {
              const caret = note.querySelector('.caret');
              if (!caret) continue;
              let row = note.previousElementSibling;
              while (row && !row.matches('.line[data-line]')) row = row.previousElementSibling;
              const marks = [...row.querySelectorAll('mark')];
              const x = caret.getBoundingClientRect().left;
              out.push(Math.min(...marks.map(m => Math.abs(m.getBoundingClientRect().left - x))));
            }
            return out;""", file)]

    def notes(self, file: str) -> list[tuple[int, str]]:
        """Each diagnostic shown in ``file``'s listing: the number of the
        line it sits under, and its words (location, message, hint)."""
        return [(int(n), str(t)) for n, t in self.d.execute_script("""
            const out = [];
            for (const note of document.querySelectorAll(`.listing[data-file="${arguments[0]}"] .note`)) {
              let row = note.previousElementSibling;
              while (row && !row.matches('.line[data-line]')) row = row.previousElementSibling;
              const words = [...note.querySelectorAll('.said, .hint')].map(e => e.textContent).join('\\n');
              out.push([row ? row.dataset.line : 0, words]);
            }
            return out;""", file)]


# -- a reverse proxy, as nginx's "location /round3/ { proxy_pass http://127.0.0.1:PORT/; }" ---------


class Proxy:
    """Passes ``/PREFIX/...`` on to the server as ``/...`` (the prefix taken
    off), with ``X-Forwarded-For`` naming the visitor: what a reverse proxy
    in front of ``referee serve --root-path /PREFIX --behind-proxy`` does."""

    def __init__(self, prefix: str, target: int, visitor: str = "198.51.100.7") -> None:
        import http.client
        import http.server
        import threading

        proxy = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def relay(self) -> None:
                if not self.path.startswith(prefix + "/"):
                    self.send_error(404)
                    return
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length) if length else None
                headers = {k: v for k, v in self.headers.items() if k.lower() not in ("host", "connection")}
                headers["X-Forwarded-For"] = proxy.visitor
                upstream = http.client.HTTPConnection("127.0.0.1", target, timeout=60)
                upstream.request(self.command, self.path[len(prefix):], body, headers)
                answer = upstream.getresponse()
                data = answer.read()
                self.send_response(answer.status)
                for key, value in answer.getheaders():
                    if key.lower() not in ("connection", "transfer-encoding", "content-length", "date", "server"):
                        self.send_header(key, value)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)
                upstream.close()

            do_GET = do_POST = relay

            def log_message(self, *args: Any) -> None:
                pass

        self.visitor = visitor
        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.server.server_address[1]
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()
