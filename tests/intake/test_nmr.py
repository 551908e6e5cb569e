"""Missing plans at the batch: the round's policy, in standings.json's
``nmr`` field and in words (standings.md, the reports), en and ja."""

from __future__ import annotations

import json
from datetime import datetime, timezone
from pathlib import Path

import pytest

from referee.app.batch import run_batch
from referee.intake.core import IncomingFile, Submission, open_round, submit
from referee.intake.ledger import render_status, round_status

from .mailhelpers import make_round, sheet, token_of

NOW = datetime(2030, 12, 1, tzinfo=timezone.utc)


def file_for(folder: Path, player: str, data: bytes, *, use: str | None = None) -> None:
    rnd = open_round(folder)
    receipt = submit(rnd, Submission(f"{player}-{data[-20:]!r}", NOW, "web", token_of(player), player=player,
                                     files=(IncomingFile(f"{player}.yaml", data),), use=use))
    assert receipt.outcome == "filed", receipt


def test_default_plan_plays_the_last_sheet_without_its_plan(tmp_path: Path) -> None:
    folder = make_round(tmp_path / "round", players=("kagura", "tomoe", "ash", "bryn"), nmr="default-plan",
                        empty=True)
    for player in ("tomoe", "ash"):
        file_for(folder, player, sheet(folder, player))
    broken_plan = sheet(folder, "kagura").replace(b"use rest first", b"use rest frist")
    file_for(folder, "kagura", broken_plan)  # invalid only for its plan
    outcomes = run_batch(folder, tmp_path / "out", formats=("json", "text"))
    r1 = next(o for o in outcomes if o.battle == "r1.battle.yaml")
    assert r1.status == "forfeit" and r1.winner == "white"  # Bryn sent nothing: no sheet to play
    assert r1.nmr == ({"player": "kagura", "policy": "default-plan", "detail": "rules-defaults"},
                      {"player": "bryn", "policy": "forfeit", "detail": "no-valid-sheet"})
    standings = json.loads((tmp_path / "out" / "standings.json").read_text())
    assert standings["summary"]["failed"] == 0
    rows = {row["battle"]: row for row in standings["battles"]}
    assert rows["r2.battle.yaml"]["nmr"] == [] and rows["r1.battle.yaml"]["nmr"] == list(r1.nmr)
    text = (tmp_path / "out" / "standings.md").read_text()
    assert "NMR: kagura -- played by the rules' defaults (no plan)" in text
    assert "NMR: bryn -- forfeit (no valid sheet)" in text
    assert "plan" not in (folder / "sheets" / "kagura.yaml").read_text()  # the substitute, in the round


def test_the_report_says_the_sheet_was_reused(tmp_path: Path) -> None:
    before = make_round(tmp_path / "round2", players=("kagura", "ash"), label="Round 2")
    file_for(before, "kagura", sheet(before, "kagura"))
    folder = make_round(tmp_path / "round3", players=("kagura", "ash"), nmr="reuse-last", previous="../round2",
                        label="Round 3", langs={"kagura": "ja"})
    file_for(folder, "ash", sheet(folder, "ash"))
    run_batch(folder, tmp_path / "out", formats=("json", "text"), lang="ja")
    report = json.loads((tmp_path / "out" / "r1.json").read_text())
    assert report["inputs"]["nmr"] == [{"player": "kagura", "policy": "reuse-last", "detail": "Round 2",
                                        "characters": ["Kagura"]}]
    assert "未提出：Kagura（kagura）は締切までに有効なファイルを送らなかったため、Round 2 のシートを再使用した。" in \
        (tmp_path / "out" / "r1.txt").read_text()
    assert "Round 2 のシートを再使用" in (tmp_path / "out" / "standings.md").read_text()


def test_a_double_forfeit_has_no_winner(tmp_path: Path) -> None:
    folder = make_round(tmp_path / "round", players=("ren", "dana", "cole", "goro"))
    outcomes = run_batch(folder, tmp_path / "out", formats=("json",))
    r2 = next(o for o in outcomes if o.battle == "r2.battle.yaml")
    assert (r2.status, r2.winner, len(r2.nmr)) == ("forfeit", "none", 4)


def test_status_for_posting_lists_only_ids_before_the_lock(tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    folder = make_round(tmp_path / "round", players=("kagura", "ash"))
    file_for(folder, "kagura", sheet(folder, "kagura"))
    rnd = open_round(folder)
    posted = render_status(round_status(rnd), "md")
    assert "| kagura | in |" in posted and "| ash | missing |" in posted and "sheets/" not in posted
    assert "Kagura's player" not in posted
    bbcode = render_status(round_status(rnd), "bbcode", "ja")
    assert "[td]kagura[/td][td]提出済み[/td]" in bbcode
    monkeypatch.setenv("REFEREE_SECRETS_DIR", str(tmp_path / "secrets"))
    from referee.intake.core import lock_round

    lock_round(rnd)
    assert "sheets/kagura.yaml" in render_status(round_status(rnd), "md")


def test_remind_mails_every_missing_or_invalid_player(tmp_path: Path, smtp, capsys) -> None:  # type: ignore[no-untyped-def]
    from referee.cli import main

    from .mailhelpers import body_of

    folder = make_round(tmp_path / "round", players=("kagura", "ash", "bryn"), langs={"bryn": "ja"})
    file_for(folder, "kagura", sheet(folder, "kagura"))
    file_for(folder, "ash", sheet(folder, "ash").replace(b"avenger", b"avengr"), use="this")
    assert main(["remind", str(folder), "--dry-run"]) == 0
    assert "To: bryn@players.test" in capsys.readouterr().out
    assert main(["remind", str(folder), "--smtp", f"{smtp.host}:{smtp.port}"]) == 0
    sent = {m["To"]: m for m in smtp.wait_for(2)}
    assert set(sent) == {"ash@players.test", "bryn@players.test"}
    assert "sheets/ash.yaml: the version the round has does not pass the check" in body_of(sent["ash@players.test"])
    assert "sheets/bryn.yaml：まだ何も届いていません" in body_of(sent["bryn@players.test"])
