"""``referee serve`` as a command: its help, its refusals in words, behind a
reverse proxy's path, the page's language, and the organiser's buttons when
they cannot act."""

from __future__ import annotations

import socket
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

import pytest

from intake.mailhelpers import make_round, token_of
from referee.cli import main
from referee.limits import WEB_SIGN_IN_FAILURES_PER_ADDRESS

from .webhelpers import REFEREE, Client, Proxy, Server, fingerprint, start_server


def test_serve_has_help_with_examples(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        main(["serve", "--help"])
    said = capsys.readouterr().out
    assert done.value.code == 0 and "examples:" in said and "--root-path" in said and "organiser.key" in said


def test_a_taken_port_and_a_broken_roster_are_refused_in_words(tmp_path: Path) -> None:
    folder = make_round(tmp_path / "round")
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        busy = subprocess.run([*REFEREE, "serve", str(folder), "--port", str(port)], capture_output=True, text=True,
                              timeout=60)
    assert busy.returncode == 1 and f"cannot listen on 127.0.0.1:{port}: another program listens there" in busy.stderr
    (folder / "roster.yaml").write_text("players:\n  - id: kagura\n    name: 3\n")
    broken = subprocess.run([*REFEREE, "serve", str(folder), "--port", str(port)], capture_output=True, text=True,
                            timeout=60)
    assert broken.returncode == 1 and "roster.yaml:3:" in broken.stderr and "Traceback" not in broken.stderr
    bad_path = subprocess.run([*REFEREE, "serve", str(folder), "--root-path", "round3"], capture_output=True,
                              text=True, timeout=60)
    assert bad_path.returncode == 1 and "is not a path such as /round3" in bad_path.stderr


@dataclass
class Proxied:
    server: Server
    proxy: Proxy

    @property
    def base(self) -> str:
        return f"{self.proxy.base}/round3"


@pytest.fixture(scope="module")
def proxied(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Proxied]:
    """A server behind a reverse proxy, under /round3."""
    tmp = tmp_path_factory.mktemp("web-proxied")
    server = start_server(make_round(tmp / "round", players=("kagura", "tomoe"), langs={"tomoe": "ja"}),
                          "--root-path", "/round3", "--behind-proxy", log_dir=tmp)
    proxy = Proxy("/round3", server.port)
    yield Proxied(server, proxy)
    proxy.stop()
    server.stop()
    assert "Traceback" not in server.log()


def test_behind_a_reverse_proxy_every_link_keeps_its_path(proxied: Proxied) -> None:
    client = Client(proxied.base)
    page = client.get("/")
    assert page.status == 200
    assert 'action="/round3/signin"' in page.text and 'href="/round3/static/serve.css"' in page.text
    signed = client.sign_in("kagura", token_of("kagura"))
    assert signed.status == 303 and signed.headers["location"] == "/round3/player"
    assert "; path=/round3;" in signed.headers["set-cookie"]  # another round on the host keeps its own
    assert 'href="/round3/skills"' in client.get("/player").text
    # sign-in limits count the visitor the proxy names, not the proxy
    guesser = Client(proxied.base)
    for _ in range(WEB_SIGN_IN_FAILURES_PER_ADDRESS):
        assert guesser.sign_in("kagura", "guess").status == 401
    assert guesser.sign_in("kagura", "guess").status == 429
    proxied.proxy.visitor = "198.51.100.8"
    assert Client(proxied.base).sign_in("tomoe", token_of("tomoe")).status == 303


def test_the_page_speaks_the_players_language_until_they_choose_another(proxied: Proxied) -> None:
    client = Client(proxied.base)
    assert client.sign_in("tomoe", token_of("tomoe")).status == 303
    assert '<html lang="ja">' in client.get("/player").text
    assert '<html lang="en">' in client.get("/player?lang=en").text
    assert '<html lang="en">' in client.get("/player").text and "Your files" in client.get("/skills").text
    stranger = Client(proxied.base)
    assert '<html lang="ja">' in stranger.request("GET", "/", headers={"Accept-Language": "ja,en;q=0.5"}).text
    skills = client.get("/skills?lang=ja").text
    assert "スキル" in skills and "kusanagi" in skills and "草薙" in skills


def test_the_organisers_buttons_say_why_they_cannot_act(proxied: Proxied) -> None:
    before = fingerprint(proxied.server.folder)
    client = Client(proxied.base)
    client.post("/organiser/signin", {"csrf": client.csrf("/organiser"), "key": proxied.server.organiser_key})
    csrf = client.csrf("/organiser")
    for action, said in (("remind", "Mail is not configured: start referee serve with --smtp"),
                         ("batch", "Lock the round first"),
                         ("lock", "Tick the box to confirm the lock; nothing was done.")):
        assert client.post(f"/organiser/{action}", {"csrf": csrf}).status == 303
        assert said in client.get("/organiser").text
    assert client.post("/organiser/unknown", {"csrf": csrf}).status == 404
    assert fingerprint(proxied.server.folder) == before
