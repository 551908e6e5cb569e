"""``referee site`` on the example tournament: every page parsed by html5lib
(a WHATWG parser) without error, no raw ``<`` from any name, every relative
link resolves, the feed is Atom, visibility holds back plans; and headless
Chromium opens the index, a round, a battle's replay and a player page."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import tempfile
import xml.etree.ElementTree as ET
from pathlib import Path
from urllib.parse import unquote, urlsplit

import html5lib
import pytest

from referee.cli import main
from referee.report.browser import HEADLESS_FLAGS
from reporthelpers import tree

FIXTURE = Path(__file__).resolve().parent.parent / "fixtures" / "tournament"
#: The roster's names made to break pages: a tag, an ampersand, quotes, BBCode.
HOSTILE = ('<b>Fox & "Co"</b>', "Léa [b]x[/b]")


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("site")
    assert main(["site", str(FIXTURE), "-o", str(out)]) == 0
    return out


def pages(site: Path) -> list[Path]:
    return sorted(site.rglob("*.html"))


def test_every_page_parses_without_error_and_no_name_opens_a_tag(site: Path) -> None:
    assert len(pages(site)) >= 1 + 6 + 2 * 14 + 12
    for page in pages(site):
        parser = html5lib.HTMLParser(strict=False)
        text = page.read_text(encoding="utf-8")
        document = parser.parse(text)
        assert parser.errors == [], (page, parser.errors[:3])
        tags = {el.tag.split("}")[-1] for el in document.iter()}
        assert "b" not in tags, f"{page}: a name became a <b> element"
        assert HOSTILE[0] not in text, f"{page}: a name written raw"
    player = (site / "players/fox.html").read_text(encoding="utf-8")
    assert "&lt;b&gt;Fox &amp; &#34;Co&#34;&lt;/b&gt;" in player


def test_every_link_resolves_inside_the_site(site: Path) -> None:
    checked = 0
    for page in pages(site):
        text = page.read_text(encoding="utf-8")
        for ref in re.findall(r'(?:href|src)="([^"]*)"', text):
            parts = urlsplit(ref)
            if not parts.path:
                continue
            assert not parts.scheme and not parts.netloc and not ref.startswith("/"), (page, ref)
            target = (page.parent / unquote(parts.path)).resolve()
            assert target.is_relative_to(site.resolve()) and target.is_file(), (page, ref)
            checked += 1
    assert checked > 500


def test_the_feed_is_atom_with_a_relative_link_per_round(site: Path) -> None:
    ns = {"a": "http://www.w3.org/2005/Atom"}
    feed = ET.parse(site / "feed.atom").getroot()
    entries = feed.findall("a:entry", ns)
    assert [e.find("a:title", ns).text for e in entries][:2] == ["Round 6: results", "Round 5: results"]  # type: ignore[union-attr]
    for entry in entries:
        href = entry.find("a:link", ns).get("href")  # type: ignore[union-attr]
        assert (site / str(href)).is_file()
        assert str(entry.find("a:id", ns).text).startswith("urn:uuid:")  # type: ignore[union-attr]


def test_round_pages_show_the_commitment_the_secret_and_the_forum_post(site: Path) -> None:
    page = (site / "rounds/3.html").read_text(encoding="utf-8")
    commitment = json.loads((FIXTURE / "rounds/3/seeds.commitment.json").read_text())["commitment"]
    secret = json.loads((FIXTURE / "rounds/3/seeds.reveal.json").read_text())["secret"]
    assert commitment in page and secret in page
    post = (site / "forum/round-3.bbcode").read_text(encoding="utf-8")
    assert post.startswith("[size=150][b]") and "[table]" in post and "Léa ［b］x［/b］" in post
    assert "Not received: none" in post


def test_visibility_after_tournament_holds_back_reports_plans_and_sheets(tmp_path: Path) -> None:
    cup = tmp_path / "cup"
    shutil.copytree(FIXTURE, cup)
    text = (cup / "tournament.yaml").read_text(encoding="utf-8")
    (cup / "tournament.yaml").write_text(text.replace("visibility: after-round", "visibility: after-tournament"),
                                         encoding="utf-8")
    shutil.rmtree(cup / "rounds/6/reports")  # the last round awaits its results
    out = tmp_path / "site"
    assert main(["site", str(cup), "-o", str(out)]) == 0
    assert not list(out.rglob("*.json")) and not list(out.rglob("*.replay.html"))
    battle = (out / "battles/1/t1.html").read_text(encoding="utf-8")
    assert "published when the tournament is over" in battle
    plan_line = "use rest first when ally hp lost"  # from Aiko's Kagura
    assert not any(plan_line in p.read_text(encoding="utf-8") for p in out.rglob("*.html"))
    index = (out / "index.html").read_text(encoding="utf-8")
    assert "Next deadline: round 6" in index and "2027-01-05 11:00 UTC" in index and "2027-01-05 20:00 Asia/Tokyo" in index
    public = tmp_path / "public"
    assert main(["site", str(FIXTURE), "-o", str(public)]) == 0
    assert any(plan_line in p.read_text(encoding="utf-8") for p in public.glob("players/*.html"))


def test_the_same_files_give_the_same_site(site: Path, tmp_path: Path) -> None:
    again = tmp_path / "again"
    assert main(["site", str(FIXTURE), "-o", str(again)]) == 0
    assert tree(site) == tree(again)



def dom(browser: str, page: Path, fragment: str = "") -> str:
    with tempfile.TemporaryDirectory() as profile:
        proc = subprocess.run([browser, *HEADLESS_FLAGS, "--disable-quic", f"--user-data-dir={profile}",
                               "--dump-dom", page.as_uri() + fragment], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr[-2000:]
    return proc.stdout


def test_chromium_opens_the_index_a_round_a_replay_and_a_player(browser: str, site: Path) -> None:
    index = dom(browser, site / "index.html")
    assert "<h1>Winter Cup 2026</h1>" in index and 'href="players/fox.html"' in index
    assert "&lt;b&gt;Fox &amp; \"Co\"&lt;/b&gt;" in index, "the name is text in the browser's tree, not a tag"
    assert '<span class="reader-local">' in dom(browser, site / "rounds/6.html"), "the deadline in the reader's time"
    round_page = dom(browser, site / "rounds/2.html")
    assert 'href="../battles/2/t1.html"' in round_page
    replay = dom(browser, site / "battles/2/t1.replay.html", "#keys=End")
    assert 'data-ready="1"' in replay, "the replay script ran"
    assert re.search(r'id="board" data-step="\d+"|data-step="\d+" id="board"', replay)
    battle = dom(browser, site / "battles/2/t1.html")
    assert '<iframe src="t1.replay.html"' in battle
    player = dom(browser, site / "players/dai.html")
    assert "<h1>大輔</h1>" in player and "../battles/1/" in player


def test_the_site_in_japanese(tmp_path: Path) -> None:
    assert main(["site", str(FIXTURE), "-o", str(tmp_path), "--lang", "ja"]) == 0
    page = (tmp_path / "rounds/1.html").read_text(encoding="utf-8")
    assert '<html lang="ja">' in page and "第1回戦" in page and "対戦相手の得点" in page
    assert "白軍" in (tmp_path / "battles/1/t1.html").read_text(encoding="utf-8")
