"""5,000 malformed or hostile messages through ``referee intake``'s whole
path (a Maildir, the reader, the core, receipts to a real SMTP server): no
traceback, no message lost, no file written outside the round's inbox and
the roster's own files, no token in any receipt.

The messages come from a seeded generator, so a failure is reproduced by its
index: garbage bytes, header bombs, deep or wide MIME trees, hostile
attachment names (``../``, absolute, NUL, control characters, archives),
broken transfer encodings and charsets, robots' mail, HTML-only mail, and
from the players' own addresses -- with wrong, missing and right tokens --
files built to hurt the checker (YAML bombs, endless plans, paths out of
the round)."""

from __future__ import annotations

import base64
import io
import os
import random
from pathlib import Path

from referee.intake.core import open_round
from referee.intake.transport import maildir_deliveries, process
from referee.limits import MAX_HEADER_CHARS, MAX_MESSAGE_BYTES, MAX_MIME_DEPTH, MAX_MIME_PARTS

from .mailhelpers import PLAYERS, SmtpCatcher, deliver, maildir, make_round, sheet, token_of

COUNT = 5000

HOSTILE_NAMES = ["../../etc/passwd.yaml", "/etc/cron.d/x.plan", "a\x00b.yaml", "..\\..\\win.yaml", "CON.yaml",
                 "\u202egnp.yaml", "x" * 300 + ".yaml", "sheets/../../../out.plan", "~/.bashrc.plan", "a\nb.yaml",
                 "kagura.yaml", "kagura.plan", ".yaml", "plan", "round.zip", "x.tar.gz", "=?utf-8?b?Li4vLi4veC55YW1s?="]
HOSTILE_FILES = [
    b"a: &a [1,1,1,1,1,1,1,1,1]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\n"
    b"d: [*c,*c,*c,*c,*c,*c,*c,*c,*c]\n",
    b"[" * 5000 + b"]" * 5000,
    b"name: Kagura\nplan: ../../../../etc/passwd\n",
    b"name: Kagura\nplan: {file: /etc/shadow}\n",
    b"use rest first\n" * 20000,
    b"\x00\x01\x02\xff\xfe" * 100,
    b"name: !!python/object/apply:os.system ['touch /tmp/pwned']\n",
    "名前: 神楽\n能力: {体力: 3}\n".encode("shift_jis"),
    b"\xef\xbb\xbfname: Kagura\r\nabilities: {body: 3, reflex: 3, intellect: 3}\r\n",
    b"use " + b"x" * 100000 + b" first\n",
]
CHARSETS = ["utf-8", "iso-2022-jp", "shift_jis", "x-unknown", "utf-7", "", "euc-jp", "\"utf-8\"", "utf-8\r\nX: y"]


def _header_block(rng: random.Random, sender: str) -> list[str]:
    headers = [f"From: {sender}", "To: referee@round.test", f"Subject: fuzz {rng.random()}",
               f"Message-ID: <{rng.getrandbits(64):x}@fuzz.test>"]
    roll = rng.random()
    if roll < 0.05:
        headers.append("Auto-Submitted: auto-replied")
    elif roll < 0.08:
        headers.append("X-Loop: tcgt-referee")
    elif roll < 0.10:
        headers.append("Precedence: bulk")
    elif roll < 0.12:
        headers.append("X-Long: " + "y" * (MAX_HEADER_CHARS + rng.randrange(1, 5000)))
    elif roll < 0.14:
        headers += [f"X-H{i}: v" for i in range(rng.randrange(400, 1200))]
    elif roll < 0.16:
        headers.append("Return-Path: <>")
    return headers


def _part(rng: random.Random, depth: int = 0) -> str:
    """One MIME part, possibly a multipart of parts, possibly broken."""
    boundary = f"b{rng.getrandbits(40):x}"
    roll = rng.random()
    if depth < MAX_MIME_DEPTH + 3 and roll < 0.15:
        children = [_part(rng, depth + 1) for _ in range(rng.randrange(1, 4))]
        return (f"Content-Type: multipart/mixed; boundary=\"{boundary}\"\n\n" +
                "".join(f"--{boundary}\n{c}\n" for c in children) + f"--{boundary}--\n")
    if roll < 0.18:
        return (f"Content-Type: multipart/mixed; boundary=\"{boundary}\"\n\n" +
                "".join(f"--{boundary}\nContent-Type: text/plain\n\nx\n" for _ in range(MAX_MIME_PARTS + 5)) +
                f"--{boundary}--\n")
    if roll < 0.45:
        name = rng.choice(HOSTILE_NAMES)
        data = rng.choice(HOSTILE_FILES)
        encoding = rng.choice(["base64", "quoted-printable", "8bit", "x-bogus"])
        payload = base64.encodebytes(data).decode() if encoding == "base64" else data.decode("latin-1")
        if rng.random() < 0.2:
            payload = payload[: len(payload) // 2] + "!!!not base64!!!"
        return (f"Content-Type: application/octet-stream; charset={rng.choice(CHARSETS)}\n"
                f"Content-Disposition: attachment; filename=\"{name}\"\n"
                f"Content-Transfer-Encoding: {encoding}\n\n{payload}\n")
    if roll < 0.55:
        return f"Content-Type: text/html\n\n<p>token: {rng.choice(['x', 'tok-kagura-7Qx'])}</p><script>x</script>\n"
    charset = rng.choice(CHARSETS)
    text = rng.choice(["token: wrong\n", "", "```yaml ../../x.yaml\nname: a\n```\n", "```plan\nuse rest first\n",
                       "```yaml\n" + "```yaml\n" * 50, "\x00\x1b[2J\u202e", "本文です\n"])
    return f"Content-Type: text/plain; charset={charset}\nContent-Transfer-Encoding: 8bit\n\n{text}\n"


def hostile_message(rng: random.Random, index: int) -> bytes:
    roll = rng.random()
    if roll < 0.05:
        return bytes(rng.getrandbits(8) for _ in range(rng.randrange(0, 2000)))
    if roll < 0.06:
        return b"From: a@b.test\n\n" + b"x" * (MAX_MESSAGE_BYTES + 1)
    player = rng.choice(PLAYERS)
    identified = roll > 0.99  # a player's own mail with their token: the checker sees hostile files
    sender = f"{player}@players.test" if identified or rng.random() < 0.1 else rng.choice(
        ["evil@attacker.test", "MAILER-DAEMON@x.test", "", "a@b@c", "\"x\" <>", "<" * 300, "kagura@players.test, x@y"])
    headers = _header_block(rng, sender)
    body = _part(rng)
    if identified:
        name = rng.choice(HOSTILE_NAMES[:12])
        data = rng.choice(HOSTILE_FILES + [sheet(ROUND_DIR[0], player)])
        body = ("Content-Type: multipart/mixed; boundary=\"XX\"\n\n--XX\nContent-Type: text/plain\n\n"
                f"token: {token_of(player)}\n--XX\nContent-Type: application/octet-stream\n"
                f"Content-Disposition: attachment; filename=\"{name}\"\nContent-Transfer-Encoding: base64\n\n"
                f"{base64.encodebytes(data).decode()}\n--XX--\n")
    elif "token" not in body and rng.random() < 0.05:
        body = "Content-Type: text/plain\n\ntoken: guessed\n"
    return ("\n".join(headers) + "\n" + body).encode("utf-8", "surrogateescape")


ROUND_DIR: list[Path] = []


def test_five_thousand_hostile_messages(tmp_path: Path, smtp: SmtpCatcher) -> None:
    round_dir = make_round(tmp_path / "round")
    ROUND_DIR[:] = [round_dir]
    box = maildir(tmp_path / "Maildir")
    rng = random.Random(30)
    for index in range(COUNT):
        deliver(box, hostile_message(rng, index), name=f"{index:05d}.fuzz")
    before = {p for p in tmp_path.rglob("*")}
    rnd = open_round(round_dir)
    out = io.StringIO()
    tally = process(rnd, maildir_deliveries(box), smtp_settings(smtp), out)

    assert tally.filed + tally.late + tally.refused + tally.ignored + tally.rejected == COUNT
    assert not os.listdir(box / "new")
    assert len(os.listdir(box / "cur")) == COUNT - tally.rejected
    assert "Traceback" not in out.getvalue()
    assert tally.rejected > 0 and tally.ignored > 0 and tally.refused > 0 and tally.filed > 0
    roster_files = {round_dir / f for f in rnd.roster.files}
    for path in {p for p in tmp_path.rglob("*")} - before:
        inside = (path.is_relative_to(round_dir / "intake") or path in roster_files or path == round_dir / "sheets"
                  or path.is_relative_to(box))
        assert inside, f"a file outside the round's inbox: {path}"
    assert not Path("/tmp/pwned").exists()
    for msg in smtp.wait_for(len(smtp.messages)):
        text = str(msg)
        assert "Traceback" not in text and "guessed" not in text
        assert not any(token_of(p) in text for p in PLAYERS)


def smtp_settings(smtp: SmtpCatcher):  # type: ignore[no-untyped-def]
    from referee.intake.transport import SmtpSettings

    return SmtpSettings(smtp.host, smtp.port, sender="referee@round.test")
