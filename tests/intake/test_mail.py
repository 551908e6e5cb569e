"""Reading mail: what a message is, within the limits (docs/security.md)."""

from __future__ import annotations

import email
import email.policy
from datetime import datetime, timezone

from referee.intake.mail import compose, message_key, read_message
from referee.intake.receipt import Receipt
from referee.limits import MAX_HEADER_CHARS, MAX_MESSAGE_BYTES, MAX_MIME_DEPTH, MAX_MIME_PARTS

from .mailhelpers import mail

NOW = datetime(2030, 12, 1, tzinfo=timezone.utc)
SHEET = b"name: Kagura\nabilities: {body: 3, reflex: 3, intellect: 3}\n"


def read(raw: bytes):  # type: ignore[no-untyped-def]
    return read_message(raw, NOW)


def test_attachments_fences_token_and_use() -> None:
    body = "Hi!\n\ntoken: abc-123\nuse: this\n\n```plan kagura.plan\nuse rest first\n```\n"
    reading = read(mail("K <kagura@players.test>", body, attachments=(("kagura.yaml", SHEET),)))
    sub = reading.submission
    assert sub is not None and reading.ignored is None and reading.rejected is None
    assert (sub.sender, sub.token, sub.use, sub.channel) == ("kagura@players.test", "abc-123", "this", "mail")
    assert [(f.name, f.data) for f in sub.files] == [("kagura.yaml", SHEET), ("kagura.plan", b"use rest first\n")]


def test_a_token_inside_a_fence_is_not_the_token() -> None:
    sub = read(mail("k@players.test", "```yaml\ntoken: inside\n```\n")).submission
    assert sub is not None and sub.token is None


def test_an_iso_2022_jp_body_is_decoded() -> None:
    body = "巴です。\ntoken: 巴-tok\n```yaml\nname: 巴\n```\n"
    sub = read(mail("t@players.test", body, charset="iso-2022-jp")).submission
    assert sub is not None and sub.token == "巴-tok" and sub.files[0].data == "name: 巴\n".encode()


def test_html_only_mail_says_why_and_still_finds_the_token() -> None:
    sub = read(mail("d@players.test", html="<p>token: tok-1</p><p>name: Dana</p>")).submission
    assert sub is not None and sub.token == "tok-1" and [n.code for n in sub.notices] == ["html-only"]


def test_archives_are_refused_and_other_attachments_named() -> None:
    sub = read(mail("k@players.test", "token: t", attachments=(("round.zip", b"PK\x03\x04"), ("a.png", b"\x89PNG"),
                                                                ("k.yaml", SHEET)))).submission
    assert sub is not None and [n.code for n in sub.notices] == ["archive-refused", "not-a-file-kind"]
    assert [f.name for f in sub.files] == ["k.yaml"]


def test_robots_are_ignored() -> None:
    for headers in ({"Auto-Submitted": "auto-replied"}, {"X-Loop": "tcgt-referee"}, {"Precedence": "bulk"},
                    {"Return-Path": "<>"}):
        assert read(mail("k@players.test", "token: t", headers=headers)).ignored, headers
    assert read(mail("MAILER-DAEMON@mx.test", "bounce")).ignored
    assert read(mail("k@players.test", "token: t", headers={"Auto-Submitted": "no"})).submission is not None


def test_what_breaks_a_limit_is_rejected_with_its_reason() -> None:
    assert "message-too-large" in str(read(b"From: a@b.test\n\n" + b"x" * MAX_MESSAGE_BYTES).rejected)
    long_header = mail("k@players.test", "x", headers={"X-Long": "y" * (MAX_HEADER_CHARS + 10)})
    assert "too-complex" in str(read(long_header).rejected)
    parts = "".join("--B\nContent-Type: text/plain\n\nx\n" for _ in range(MAX_MIME_PARTS + 1))
    wide = f"From: k@players.test\nContent-Type: multipart/mixed; boundary=B\n\n{parts}--B--\n".encode()
    assert "parts" in str(read(wide).rejected)
    deep = "From: k@players.test\n"
    for level in range(MAX_MIME_DEPTH + 2):
        deep += f"Content-Type: multipart/mixed; boundary=L{level}\n\n--L{level}\n"
    assert "nested" in str(read(deep.encode() + b"Content-Type: text/plain\n\nx\n").rejected)
    assert read(b"\x00\xff garbage").rejected


def test_the_key_survives_redelivery_but_not_a_reused_message_id() -> None:
    raw = mail("k@players.test", "token: t", message_id="<1@players.test>")
    assert message_key(raw) == message_key(b"Received: from mx by mx2\r\n" + raw)
    other = mail("k@players.test", "token: u", message_id="<1@players.test>")
    assert message_key(raw) != message_key(other)


def test_a_receipt_mail_goes_to_the_roster_address_and_stops_robots() -> None:
    receipt = Receipt(key="k", outcome="nothing", round="Round 1", lang="ja", received=NOW.isoformat(),
                      player="kagura", player_name="神楽", to="kagura@players.test")
    msg = email.message_from_bytes(compose(receipt, "referee@round.test").as_bytes(), policy=email.policy.default)
    assert (msg["To"], msg["Auto-Submitted"], msg["X-Loop"]) == ("kagura@players.test", "auto-replied", "tcgt-referee")
    assert "神楽 さん" in msg.get_body().get_content()  # type: ignore[union-attr]
    assert read(compose(receipt, "referee@round.test").as_bytes()).ignored  # our own receipt coming back
