"""The intake core, transport-neutral: what a submission is, what it checks,
what it stores, and the receipt it yields (docs/intake.md)."""

from __future__ import annotations

import hashlib
import json
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from referee.diagnostics import ReferError
from referee.intake.core import IncomingFile, Round, Submission, lock_round, open_round, submit
from referee.intake.ledger import round_status
from referee.intake.receipt import Receipt
from referee.intake.store import Inbox

from .mailhelpers import make_round, sheet, token_of

NOW = datetime(2030, 12, 1, 9, 0, tzinfo=timezone.utc)


def send(rnd: Round, player: str, files: dict[str, bytes], *, key: str | None = None, token: str | None = None,
         use: str | None = None, channel: str = "mail", at: datetime = NOW) -> Receipt:
    sender = f"{player}@players.test" if channel == "mail" else None
    return submit(rnd, Submission(key or f"{player}-{len(rnd.inbox.state.keys)}-{sorted(files)}", at, channel,
                                  token if token is not None else token_of(player), sender=sender,
                                  player=player if channel == "web" else None,
                                  files=tuple(IncomingFile(n, d) for n, d in files.items()), use=use))


@pytest.fixture
def rnd(tmp_path: Path) -> Round:
    return open_round(make_round(tmp_path / "round"))


def broken(rnd: Round, player: str) -> bytes:
    return sheet(rnd.folder, player).replace(b"avenger", b"avengr")


def test_a_valid_sheet_becomes_current_and_its_digest_is_the_files(rnd: Round) -> None:
    receipt = send(rnd, "kagura", {"kagura.yaml": sheet(rnd.folder, "kagura")})
    [f] = receipt.files
    assert (receipt.outcome, f.file, f.state, f.errors) == ("filed", "sheets/kagura.yaml", "current", 0)
    written = (rnd.folder / "sheets" / "kagura.yaml").read_bytes()
    assert written == sheet(rnd.folder, "kagura") and f.sha256 == hashlib.sha256(written).hexdigest()
    assert f.battles == ("r1.battle.yaml",) and f.clauses[0].text == "use rest first when ally hp lost >= 5"
    assert receipt.to == "kagura@players.test"


def test_a_file_with_errors_is_kept_but_the_last_valid_version_stays_current(rnd: Round) -> None:
    good = send(rnd, "kagura", {"kagura.yaml": sheet(rnd.folder, "kagura")}).files[0]
    bad = send(rnd, "kagura", {"kagura.yaml": broken(rnd, "kagura")}).files[0]
    assert bad.state == "kept-previous" and bad.current_sha256 == good.sha256
    assert {d.code for d in bad.diagnostics} == {"unknown-skill"} and bad.diagnostics[0].line == 6
    assert (rnd.folder / "sheets" / "kagura.yaml").read_bytes() == sheet(rnd.folder, "kagura")
    assert rnd.inbox.object_path(bad.sha256).read_bytes() == broken(rnd, "kagura")  # kept
    kagura = next(p for p in round_status(rnd).players if p.id == "kagura")
    assert kagura.state == "in" and kagura.files[0].state == "newer-invalid"


def test_use_this_makes_a_file_with_errors_current_and_the_player_invalid(rnd: Round) -> None:
    send(rnd, "kagura", {"kagura.yaml": sheet(rnd.folder, "kagura")})
    bad = send(rnd, "kagura", {"kagura.yaml": broken(rnd, "kagura")}, use="this").files[0]
    assert bad.state == "current-invalid"
    assert (rnd.folder / "sheets" / "kagura.yaml").read_bytes() == broken(rnd, "kagura")
    assert next(p for p in round_status(rnd).players if p.id == "kagura").state == "invalid"


def test_use_a_digest_goes_back_to_an_earlier_version(rnd: Round) -> None:
    first = send(rnd, "kagura", {"kagura.yaml": sheet(rnd.folder, "kagura")}).files[0]
    send(rnd, "kagura", {"kagura.yaml": sheet(rnd.folder, "kagura") + b"# v2\n"})
    back = send(rnd, "kagura", {}, use=first.sha256[:10])
    assert back.outcome == "filed" and not back.notices and back.promoted[0].sha256 == first.sha256
    assert rnd.inbox.state.current["sheets/kagura.yaml"] == first.sha256
    assert (rnd.folder / "sheets" / "kagura.yaml").read_bytes() == sheet(rnd.folder, "kagura")
    assert send(rnd, "kagura", {}, use="0123456789").notices[0].code == "unknown-version"


def test_a_sheet_waiting_for_its_plan_file_is_made_current_when_the_plan_comes(tmp_path: Path) -> None:
    rnd = open_round(make_round(tmp_path / "round", plans={"kagura": "sheets/kagura.plan"}))
    text = sheet(rnd.folder, "kagura").decode()
    split = text[: text.index("plan: |")] + "plan: kagura.plan\n"
    plan = "".join(line[2:] + "\n" for line in text[text.index("plan: |"):].splitlines()[1:]).encode()
    waiting = send(rnd, "kagura", {"kagura.yaml": split.encode()}).files[0]
    assert waiting.state == "none-valid" and waiting.diagnostics[0].code == "plan-not-found"
    receipt = send(rnd, "kagura", {"kagura.plan": plan})
    assert receipt.files[0].state == "current" and [c.text for c in receipt.files[0].clauses][0].startswith("use rest")
    assert [p.file for p in receipt.promoted] == ["sheets/kagura.yaml"]
    assert (rnd.folder / "sheets" / "kagura.yaml").read_text() == split
    assert next(p for p in round_status(rnd).players if p.id == "kagura").state == "in"


def test_a_receipt_reports_only_the_players_own_files(rnd: Round) -> None:
    (rnd.folder / "sheets" / "ash.yaml").write_bytes(broken(rnd, "ash"))  # the opponent's file, with errors
    receipt = send(rnd, "kagura", {"kagura.yaml": broken(rnd, "kagura")})
    assert receipt.files[0].diagnostics and all(d.file == "sheets/kagura.yaml" for d in receipt.files[0].diagnostics)
    assert "ash.yaml" not in json.dumps(receipt.to_json()) and "avengr" not in str(receipt.files[0].battles)


def test_a_token_pasted_into_a_file_never_comes_back(rnd: Round) -> None:
    leaked = sheet(rnd.folder, "kagura").replace(b"name: Kagura", f"name: Kagura\ntoken: {token_of('kagura')}".encode())
    receipt = send(rnd, "kagura", {"kagura.yaml": leaked})
    assert receipt.files[0].diagnostics  # 'token' is no field of a sheet
    assert token_of("kagura") not in json.dumps(receipt.to_json())


def test_a_wrong_token_has_no_effect_and_one_reply_an_hour(rnd: Round) -> None:
    first = send(rnd, "kagura", {"kagura.yaml": sheet(rnd.folder, "kagura")}, token="nope")
    again = send(rnd, "kagura", {"kagura.yaml": sheet(rnd.folder, "kagura")}, token="nope", at=NOW + timedelta(minutes=5))
    later = send(rnd, "kagura", {}, token="", at=NOW + timedelta(hours=2))
    assert (first.outcome, first.to, first.files) == ("refused", "kagura@players.test", ())
    assert again.to is None and later.to == "kagura@players.test"
    assert not (rnd.folder / "sheets" / "kagura.yaml").exists() and not rnd.inbox.state.versions
    web = send(rnd, "kagura", {"kagura.yaml": sheet(rnd.folder, "kagura")}, token="nope", channel="web")
    assert web.outcome == "refused" and web.to is None


def test_the_right_token_from_another_players_address_is_refused(rnd: Round) -> None:
    receipt = submit(rnd, Submission("x", NOW, "mail", token_of("kagura"), sender="ash@players.test",
                                     files=(IncomingFile("kagura.yaml", sheet(rnd.folder, "kagura")),)))
    assert receipt.outcome == "refused" and receipt.player == "ash"


def test_a_submission_is_filed_once_by_its_key(rnd: Round) -> None:
    one = send(rnd, "kagura", {"kagura.yaml": sheet(rnd.folder, "kagura")}, key="same")
    two = send(rnd, "kagura", {"kagura.yaml": broken(rnd, "kagura")}, key="same")
    assert one == two
    lines = (rnd.inbox.ledger).read_text().splitlines()
    assert sum(json.loads(line)["key"] == "same" for line in lines) == 1


def test_after_the_lock_files_are_late_and_not_used(rnd: Round, tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("REFEREE_SECRETS_DIR", str(tmp_path / "secrets"))
    send(rnd, "kagura", {"kagura.yaml": sheet(rnd.folder, "kagura")})
    lock_round(rnd)
    late = send(rnd, "kagura", {"kagura.yaml": sheet(rnd.folder, "kagura") + b"# later\n"})
    assert late.outcome == "late" and late.locked and late.files[0].state == "late"
    assert (rnd.folder / "sheets" / "kagura.yaml").read_bytes() == sheet(rnd.folder, "kagura")
    assert round_status(rnd).locked


def test_names_only_choose_among_the_players_files(tmp_path: Path) -> None:
    rnd = open_round(make_round(tmp_path / "round"))
    receipt = send(rnd, "kagura", {"../../etc/passwd.yaml": sheet(rnd.folder, "kagura"), "notes.txt": b"hi",
                                   "kagura.plan": b"use rest first\n"})
    assert [f.file for f in receipt.files] == ["sheets/kagura.yaml"]  # its only sheet, whatever the name
    assert [n.code for n in receipt.notices] == ["not-a-file-kind", "unknown-file"]
    assert not (tmp_path / "etc").exists()


def test_declared_japanese_charsets_are_decoded_and_others_refused(rnd: Round) -> None:
    text = sheet(rnd.folder, "kagura").decode().replace("name: Kagura", "name: 神楽")
    ok = submit(rnd, Submission("sjis", NOW, "mail", token_of("kagura"), sender="kagura@players.test",
                                files=(IncomingFile("kagura.yaml", text.encode("shift_jis"), "Shift_JIS"),)))
    assert ok.files[0].state == "current" and "神楽" in (rnd.folder / "sheets" / "kagura.yaml").read_text()
    refused = submit(rnd, Submission("utf7", NOW, "mail", token_of("kagura"), sender="kagura@players.test",
                                     files=(IncomingFile("kagura.yaml", b"x", "utf-7"),)))
    assert refused.outcome == "nothing" and refused.notices[0].code == "encoding-refused"


def test_a_ledger_line_cut_by_a_crash_never_counted(rnd: Round) -> None:
    send(rnd, "kagura", {"kagura.yaml": sheet(rnd.folder, "kagura")})
    with open(rnd.inbox.ledger, "ab") as handle:
        handle.write(b'{"type": "submission", "key": "half')
    fresh = Inbox(rnd.folder)
    state = fresh.refresh()
    assert "half" not in "".join(state.keys) and len(state.keys) == 1
    assert rnd.inbox.ledger.read_bytes().endswith(b"\n")


def test_every_state_and_notice_has_words_in_both_languages() -> None:
    from referee.intake.receipt import FILE_STATES, OUTCOMES, FileReceipt, Notice
    from referee.intake.render import render_receipt

    codes = ("html-only", "archive-refused", "unknown-file", "not-a-file-kind", "file-too-large", "encoding-refused",
             "too-many-files", "duplicate-file", "no-files", "unknown-version", "bad-part")
    files = tuple(FileReceipt(f"sheets/{state}.yaml", "ab" * 32, 10, state, "cd" * 32) for state in FILE_STATES)
    for outcome in OUTCOMES:
        for lang in ("en", "ja"):
            receipt = Receipt(key="k", outcome=outcome, round="R", lang=lang, received=NOW.isoformat(), player="p",
                              files=files, promoted=files[:1], notices=tuple(Notice(c, "x.yaml", "9") for c in codes),
                              deadline=(NOW + timedelta(days=1)).isoformat())
            subject, body = render_receipt(receipt)
            assert subject and "{" not in body and "x.yaml" in body


def test_a_receipt_names_no_path_of_the_organisers_disk(rnd: Round) -> None:
    text = sheet(rnd.folder, "kagura").decode()
    waiting = text[: text.index("plan: |")] + "plan: kagura.plan\n"
    outside = text[: text.index("plan: |")] + "plan: ../../../../etc/passwd.plan\n"
    for data in (waiting, outside):
        receipt = send(rnd, "kagura", {"kagura.yaml": data.encode()})
        said = json.dumps(receipt.to_json(), ensure_ascii=False)
        assert receipt.files[0].diagnostics and str(rnd.folder) not in said and "/tmp" not in said
    assert "plan file 'sheets/kagura.plan' does not exist" in receipt_messages(send(rnd, "kagura", {"kagura.yaml": waiting.encode()}))


def receipt_messages(receipt: Receipt) -> str:
    return "\n".join(d.message for f in receipt.files for d in f.diagnostics)


def test_sign_in_is_the_identity_test_of_every_submission_and_stores_nothing(rnd: Round) -> None:
    from referee.intake.core import sign_in

    assert sign_in(rnd, "kagura", token_of("kagura")).id == "kagura"  # type: ignore[union-attr]
    assert sign_in(rnd, "kagura", token_of("ash")) is None and sign_in(rnd, "kagura", "") is None
    assert sign_in(rnd, "nobody", token_of("kagura")) is None
    assert not rnd.inbox.ledger.exists()


def test_the_round_reads_its_roster_again_when_the_file_changes(rnd: Round) -> None:
    from referee.intake.core import current_round, sign_in
    from .mailhelpers import token_hash

    assert current_round(rnd) is rnd
    roster = rnd.folder / "roster.yaml"
    roster.write_text(roster.read_text().replace(token_hash(token_of("kagura")), token_hash("renewed-token")))
    again = current_round(rnd)
    assert again is not rnd and current_round(again) is again
    assert sign_in(again, "kagura", token_of("kagura")) is None and sign_in(again, "kagura", "renewed-token")
    roster.write_text("players: [{id: 1}]\n")
    with pytest.raises(ReferError):
        current_round(again)


def test_a_file_named_by_its_roster_path_is_that_file(tmp_path: Path) -> None:
    folder = make_round(tmp_path / "round", players=("kagura",))
    roster = folder / "roster.yaml"
    roster.write_text(roster.read_text().replace("sheets: [sheets/kagura.yaml]",
                                                 "sheets: [sheets/kagura.yaml, spare/kagura.yaml]"))
    rnd = open_round(folder)
    receipt = send(rnd, "kagura", {"spare/kagura.yaml": sheet(folder, "kagura")})
    assert [f.file for f in receipt.files] == ["spare/kagura.yaml"]
    assert (folder / "spare" / "kagura.yaml").exists() and not (folder / "sheets" / "kagura.yaml").exists()
