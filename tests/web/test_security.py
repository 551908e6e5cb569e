"""What a public page must withstand (docs/security.md, "The round's web
page"): a wrong token, a form without its CSRF token, names and files
holding markup, a 10 MB upload, a hundred sign-ins in a row -- each refused
or shown as text, never a traceback, never a file changed.  The real server,
driven over HTTP and in headless Chromium."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path
from typing import Any, Callable, Iterator

import pytest

from intake.mailhelpers import make_round, sheet, token_of
from referee.limits import (MAX_ATTACHMENT_BYTES, MAX_WEB_REQUEST_BYTES, WEB_SIGN_IN_FAILURES_PER_ADDRESS)
from referee.web.guard import SECURITY_HEADERS

from .webhelpers import REFEREE, Client, Page, Server, fingerprint, start_server

HOSTILE_NAME = "<script>alert('name')</script><img src=x onerror=alert(2)>"
HOSTILE_SHEET = """name: "<script>alert('sheet')</script>"
abilities: {body: 3, reflex: 3, intellect: 3}
patterns:
  - 火火水
skills: [rest, "<img src=x onerror=alert(3)>", slash]
plan: |
  use <b>rest</b> first
"""


def hostile_round(folder: Path) -> Path:
    make_round(folder, players=("kagura", "tomoe", "ash"), langs={"tomoe": "ja"})
    roster = folder / "roster.yaml"
    roster.write_text(roster.read_text().replace("name: Ash's player", f'name: "{HOSTILE_NAME}"'))
    return folder


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """One server for the tests that leave its sign-in limits alone."""
    tmp = tmp_path_factory.mktemp("web-security")
    server = start_server(hostile_round(tmp / "round"), log_dir=tmp)
    yield server
    server.stop()
    assert "Traceback" not in server.log(), server.log()


def player(server: Server, who: str = "kagura") -> Client:
    client = Client(server.base)
    assert client.sign_in(who, token_of(who)).status == 303
    return client


def organiser(server: Server) -> Client:
    client = Client(server.organiser_base)
    answer = client.post("/organiser/signin", {"csrf": client.csrf("/organiser"), "key": server.organiser_key})
    assert answer.status == 303
    return client


def submit_form(client: Client, text: str, *, csrf: str | None = None, nonce: str | None = None,
                action: str = "submit") -> dict[str, str]:
    fields = {"nonce": nonce or client.nonce(), "action": action, "text:sheets/kagura.yaml": text,
              "shown:sheets/kagura.yaml": ""}
    if csrf is not None:
        fields["csrf"] = csrf
    return fields


def test_a_wrong_token_signs_nobody_in_and_changes_nothing(site: Server) -> None:
    before = fingerprint(site.folder)
    client = Client(site.base)
    wrong = client.sign_in("kagura", "tok-kagura-guess")
    stranger = client.sign_in("nobody", "tok-kagura-guess")
    assert (wrong.status, stranger.status) == (401, 401)
    assert "That player id and token do not match." in wrong.text
    assert re.sub(r'value="[^"]*"', "", wrong.text) == re.sub(r'value="[^"]*"', "", stranger.text)  # no id is confirmed
    assert client.get("/player").status == 303  # not signed in: back to the sign-in page
    assert client.post_multipart("/player", submit_form(client, "x", csrf="x", nonce="n" * 20)).status == 403
    assert fingerprint(site.folder) == before


def test_a_form_without_its_csrf_token_is_refused(site: Server) -> None:
    before = fingerprint(site.folder)
    stranger = Client(site.base)
    stranger.get("/")
    no_token = stranger.post("/signin", {"player": "kagura", "token": token_of("kagura")})
    assert no_token.status == 403 and "did not come from this page" in no_token.text
    assert stranger.get("/player").status == 303  # the right token without the form's CSRF token signs nobody in

    client = player(site)
    good = sheet(site.folder, "kagura").decode()
    for csrf in (None, "", "forged-token-of-the-right-length!"):
        answer = client.post_multipart("/player", submit_form(client, good, csrf=csrf))
        assert answer.status == 403 and "did not come from this page" in answer.text
    assert client.post("/signout", {}).status == 403 and client.get("/player").status == 200  # still signed in

    boss = organiser(site)
    for action in ("lock", "remind", "batch"):
        assert boss.post(f"/organiser/{action}", {"confirm": "yes"}).status == 403
    assert fingerprint(site.folder) == before and not (site.folder / "seeds.commitment.json").exists()


def test_the_organisers_page_needs_its_own_key(site: Server) -> None:
    before = fingerprint(site.folder)
    client = player(site)
    page = client.get("/organiser")
    assert page.status == 200 and 'id="ledger"' not in page.text and 'name="key"' in page.text
    csrf = client.csrf("/player")
    assert client.post("/organiser/lock", {"csrf": csrf, "confirm": "yes"}).status == 403
    assert client.get("/organiser/player/kagura").status == 303
    outsider = Client(site.organiser_base)
    wrong = outsider.post("/organiser/signin", {"csrf": outsider.csrf("/organiser"), "key": site.organiser_key[:-1]})
    assert wrong.status == 401 and 'id="ledger"' not in outsider.get("/organiser").text
    key = site.folder / "intake" / "web" / "organiser.key"
    assert key.stat().st_mode & 0o777 == 0o600 and key.parent.stat().st_mode & 0o777 == 0o700
    assert fingerprint(site.folder) == before and not (site.folder / "seeds.commitment.json").exists()


def test_names_and_files_holding_markup_are_shown_as_text(site: Server, fresh: Any) -> None:
    from selenium.common.exceptions import NoAlertPresentException

    page = Page(fresh, site.base)
    page.sign_in("ash", token_of("ash"))
    assert HOSTILE_NAME in page.el("h1").text
    page.paste("sheets/ash.yaml", HOSTILE_SHEET)
    page.click("#check")
    shown = page.el(".listing").text
    assert "<script>alert('sheet')</script>" in shown and "<img src=x onerror=alert(3)>" in shown
    assert "use <b>rest</b> first" in shown
    org = Page(fresh, site.organiser_base)
    org.go("/organiser")
    org.type("#key", site.organiser_key)
    org.click("#signin")
    assert HOSTILE_NAME in org.el('#ledger tr[data-player="ash"]').text
    for where in (page, org):
        assert where.all("script") == [] and where.all("img") == [] and where.all("main b") == []
        with pytest.raises(NoAlertPresentException):
            where.d.switch_to.alert.text
    assert not (site.folder / "sheets" / "ash.yaml").exists()


def test_an_upload_of_10_mb_is_refused_before_it_is_read(site: Server, fresh: Any, tmp_path: Path) -> None:
    before = fingerprint(site.folder)
    big = tmp_path / "kagura.yaml"
    big.write_bytes(b"name: Kagura\n" + b"#" * (10 * 1024 * 1024))
    page = Page(fresh, site.base)
    page.sign_in("kagura", token_of("kagura"))
    page.el('input[name="upload:sheets/kagura.yaml"]').send_keys(str(big))
    page.click("#submit")
    assert f"larger than {MAX_WEB_REQUEST_BYTES:,} bytes" in page.el("#problem").text
    assert "Traceback" not in page.d.page_source

    client = player(site)
    fields = submit_form(client, "", csrf=client.csrf("/player"))
    declared = client.post_multipart("/player", fields, {"upload:sheets/kagura.yaml": ("kagura.yaml", big.read_bytes())})
    assert declared.status == 413 and "Nothing was taken" in declared.text

    def chunks() -> Iterator[bytes]:  # no Content-Length: counted as it arrives
        yield b"--b\r\nContent-Disposition: form-data; name=\"csrf\"\r\n\r\nx\r\n"
        for _ in range(160):
            yield b"#" * 65536

    streamed = client.request("POST", "/player", chunks(),  # type: ignore[arg-type]
                              {"Content-Type": "multipart/form-data; boundary=b", "Transfer-Encoding": "chunked"})
    assert streamed.status == 413

    # under the request's limit, over a file's: the core's own words, nothing stored
    over = "name: Kagura\n" + "#" * (MAX_ATTACHMENT_BYTES + 10)
    checked = client.post_multipart("/player", submit_form(client, over, csrf=client.csrf("/player")))
    assert checked.status == 303
    receipt = client.get(checked.headers["location"].removeprefix(site.base))
    assert "more than a file may have" in receipt.text
    assert fingerprint(site.folder).keys() >= before.keys()
    assert not (site.folder / "sheets" / "kagura.yaml").exists()


def test_no_page_names_a_path_of_this_machine_or_shows_a_traceback(site: Server) -> None:
    client = player(site, "tomoe")
    text = sheet(site.folder, "tomoe").decode().replace("plan: |", "plan: ../../../../etc/passwd.plan\nx: |")
    pages = [client.get(p) for p in ("/", "/player", "/skills", "/rules", "/nowhere", "/player/receipt/" + "x" * 20)]
    pages.append(client.post_multipart("/player", {**submit_form(client, "", csrf=client.csrf("/player"), action="check"),
                                                   "text:sheets/tomoe.yaml": text}))
    pages.append(client.request("POST", "/player", b"--broken", {"Content-Type": "multipart/form-data; boundary=zz"}))
    pages.append(client.request("DELETE", "/player"))
    boss = organiser(site)
    pages += [boss.get(p) for p in ("/organiser", "/organiser/player/tomoe", "/organiser/player/kagura", "/rules")]
    assert [p.status for p in pages] == [303, 200, 200, 200, 404, 404, 200, 400, 405, 200, 200, 200, 200]
    assert "leaves the folder" in pages[6].text  # the plan path was refused, in words
    machine = {str(site.folder), str(site.folder.resolve()), str(Path.home()), "/tmp/"}
    for answer in pages:
        assert not any(place in answer.text for place in machine), answer.text
        assert "Traceback" not in answer.text
        for name, value in SECURITY_HEADERS:
            assert answer.headers.get(name) == value


def test_a_double_click_files_once(site: Server) -> None:
    client = player(site, "tomoe")
    fields = {"csrf": client.csrf("/player"), "nonce": client.nonce(), "action": "submit",
              "text:sheets/tomoe.yaml": sheet(site.folder, "tomoe").decode(), "shown:sheets/tomoe.yaml": ""}
    first, second = (client.post_multipart("/player", fields) for _ in range(2))
    assert first.status == second.status == 303 and first.headers["location"] == second.headers["location"]
    ledger = (site.folder / "intake" / "ledger.jsonl").read_text().splitlines()
    assert sum(f'"key": "web:tomoe:{fields["nonce"]}"' in line for line in ledger) == 1


def test_a_stranger_gets_no_body_parsed(site: Server) -> None:
    before = fingerprint(site.folder)
    stranger = Client(site.base)
    answer = stranger.request("POST", "/player", b"x" * 1000, {"Content-Type": "multipart/form-data; boundary=x"})
    assert answer.status == 403 and "Sign in first." in answer.text
    forged = Client(site.base)
    forged.jar.set_cookie(__import__("http.cookiejar").cookiejar.Cookie(
        0, "referee_session", "eyJzaWQiOiAiYWJjIn0=.forged.signature", None, False, "127.0.0.1", False, False, "/",
        True, False, None, False, None, None, {}))
    assert forged.get("/player").status == 303
    assert fingerprint(site.folder) == before


def test_a_hundred_sign_in_attempts_in_a_row(tmp_path: Path, serve: Callable[..., Server]) -> None:
    server = serve(hostile_round(tmp_path / "round"))
    before = fingerprint(server.folder)
    client = Client(server.base)
    csrf = client.csrf()
    answers = [client.post("/signin", {"csrf": csrf, "player": "kagura", "token": f"guess-{i}"}) for i in range(100)]
    statuses = [a.status for a in answers]
    assert statuses == [401] * WEB_SIGN_IN_FAILURES_PER_ADDRESS + [429] * (100 - WEB_SIGN_IN_FAILURES_PER_ADDRESS)
    assert "Too many attempts. Try again in 15 min." in answers[-1].text
    right = client.post("/signin", {"csrf": csrf, "player": "kagura", "token": token_of("kagura")})
    spoofed = client.request("POST", "/signin", f"csrf={csrf}&player=kagura&token={token_of('kagura')}".encode(),
                             {"Content-Type": "application/x-www-form-urlencoded", "X-Forwarded-For": "203.0.113.9"})
    assert right.status == spoofed.status == 429 and client.get("/player").status == 303
    assert all("Traceback" not in a.text for a in answers)
    assert fingerprint(server.folder) == before


def test_a_renewed_token_ends_the_session(tmp_path: Path, serve: Callable[..., Server]) -> None:
    server = serve(hostile_round(tmp_path / "round"))
    client = player(server)
    fields = submit_form(client, sheet(server.folder, "kagura").decode(), csrf=client.csrf("/player"))
    subprocess.run([*REFEREE, "roster", "token", str(server.folder), "kagura"], check=True, capture_output=True)
    answer = client.post_multipart("/player", fields)
    assert answer.status == 403 and "no longer valid" in answer.text
    assert client.get("/player").status == 303 and not (server.folder / "sheets" / "kagura.yaml").exists()
