"""A round run by mail through real servers (issue "Plans by mail", done when):
players mail sheets to a Dovecot mailbox over IMAP/TLS, ``referee intake``
files them and sends receipts through an aiosmtpd server, ``status`` shows
who is missing, ``lock`` commits, ``batch`` applies the missing-plan rule, and
every report's ``inputs_digest`` holds the digests the receipts gave."""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
import subprocess
from datetime import datetime, timezone
from pathlib import Path

from referee.cli import main
from referee.intake.core import IncomingFile, Submission, open_round, submit

from .mailhelpers import Dovecot, SmtpCatcher, body_of, make_round, mail, sheet, submission_mail, token_of


def referee(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """The command line, run in this process (the kill test runs it as a process of its own)."""
    out, err = io.StringIO(), io.StringIO()
    saved = {k: os.environ.get(k) for k in env or {}}
    os.environ.update(env or {})
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(list(args))
    finally:
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value
    return subprocess.CompletedProcess(list(args), code, out.getvalue(), err.getvalue())


def sha_in(body: str, file: str) -> str:
    block = body[body.index(f"== {file} =="):]
    found = re.search(r"sha256 ([0-9a-f]{64})", block)
    assert found, body
    return found.group(1)


def intake(round_dir: Path, imap: Dovecot, smtp: SmtpCatcher) -> subprocess.CompletedProcess[str]:
    done = referee("intake", str(round_dir), "--imap", f"127.0.0.1:{imap.port}", "--imap-user", imap.user,
                   "--cafile", imap.cafile, "--smtp", f"{smtp.host}:{smtp.port}",
                   env={"REFEREE_IMAP_PASSWORD": imap.password})
    assert done.returncode == 0, done.stderr
    assert imap.password not in done.stdout + done.stderr
    return done


def previous_round(folder: Path) -> dict[str, str]:
    """Round 0, filed through the core as the web page files (player id and
    token): the sheets Bryn, Ren, Dana and Cole played there; Goro has none."""
    make_round(folder, label="Round 0")
    rnd = open_round(folder)
    digests = {}
    for player in ("bryn", "ren", "dana", "cole"):
        receipt = submit(rnd, Submission(f"web-{player}", datetime.now(timezone.utc), "web", token_of(player),
                                         player=player, files=(IncomingFile(f"{player}.yaml", sheet(folder, player)),)))
        assert receipt.files[0].state == "current", receipt
        digests[player] = receipt.files[0].sha256
    return digests


def test_a_round_by_mail(tmp_path: Path, dovecot: Dovecot, smtp: SmtpCatcher) -> None:
    before = previous_round(tmp_path / "round0")
    round1 = make_round(tmp_path / "round1", nmr="reuse-last", previous="../round0", langs={"tomoe": "ja"})

    # -- the mail before the deadline -------------------------------------------
    broken = sheet(round1, "kagura").replace(b"firecracker", b"firecraker")
    dovecot.append(submission_mail("kagura", {"kagura.yaml": broken}))
    tomoe = sheet(round1, "tomoe").decode().replace("name: Tomoe", "name: 巴  # 巴のシート")
    japanese = f"審判さま\n\n巴のシートです。\ntoken: {token_of('tomoe')}\n\n```yaml\n{tomoe}```\nよろしく\n"
    dovecot.append(mail("巴 <tomoe@players.test>", japanese, charset="iso-2022-jp", subject="シート"))
    dovecot.append(submission_mail("ash", {"ash.yaml": sheet(round1, "ash")}))
    dovecot.append(submission_mail("ren", {"ren.yaml": b"name: Mallory\n"}, token="guessed-token"))
    dovecot.append(mail("Dana <dana@players.test>",
                        html=f"<p>token: {token_of('dana')}</p><pre>name: Dana</pre>"))
    intake(round1, dovecot, smtp)
    assert dovecot.unseen() == 0
    receipts = smtp.wait_for(5)
    assert len(receipts) == 5, [m["Subject"] for m in receipts]
    assert all(m["Auto-Submitted"] == "auto-replied" for m in receipts)
    assert {m["To"] for m in receipts} == {f"{p}@players.test" for p in ("kagura", "tomoe", "ash", "ren", "dana")}

    kagura = body_of(smtp.to("kagura@players.test")[0])
    assert "sheets/kagura.yaml:6:" in kagura and "error[unknown-skill]: unknown skill 'firecraker'" in kagura
    assert "did you mean 'firecracker'" in kagura and re.search(r"\n +\^\n", kagura)
    assert "no valid version of this file yet" in kagura
    assert "line 8: use rest first when ally hp lost >= 5" not in kagura  # an invalid sheet echoes no plan

    tomoe_receipt = smtp.to("tomoe@players.test")[0]
    assert "受領" in str(tomoe_receipt["Subject"])
    tomoe_body = body_of(tomoe_receipt)
    assert "ラウンドではこの版を使います" in tomoe_body and "審判が理解した作戦" in tomoe_body
    tomoe_sha = sha_in(tomoe_body, "sheets/tomoe.yaml")

    ash_body = body_of(smtp.to("ash@players.test")[0])
    assert "The round will use this version." in ash_body
    assert "line 8: with firecracker target lowest hp" in ash_body
    assert "checked against r1.battle.yaml" in ash_body
    ash_sha = sha_in(ash_body, "sheets/ash.yaml")

    impostor = body_of(smtp.to("ren@players.test")[0])
    assert "did not carry your token" in impostor and "Mallory" not in impostor
    assert "guessed-token" not in impostor and not (round1 / "sheets" / "ren.yaml").exists()
    dana = body_of(smtp.to("dana@players.test")[0])
    assert "only an HTML body" in dana and token_of("dana") not in dana

    # -- the fix, and the ledger ------------------------------------------------------
    dovecot.append(submission_mail("kagura", {"kagura.yaml": sheet(round1, "kagura")}))
    intake(round1, dovecot, smtp)
    fixed = body_of(smtp.wait_for(6)[5])
    assert "The round will use this version." in fixed and "0 error(s)" in fixed
    kagura_sha = sha_in(fixed, "sheets/kagura.yaml")
    assert (round1 / "sheets" / "kagura.yaml").read_bytes() == sheet(round1, "kagura")

    status = referee("status", str(round1))
    assert status.returncode == 0, status.stderr
    rows = {line.split()[0]: line.split()[1] for line in status.stdout.splitlines()[9:] if line.strip()}
    assert rows == {"kagura": "in", "tomoe": "in", "ash": "in", "bryn": "missing", "ren": "missing",
                    "dana": "missing", "cole": "missing", "goro": "missing"}
    posted = referee("status", str(round1), "--format", "md")
    assert "| kagura | in |" in posted.stdout and kagura_sha[:12] not in posted.stdout

    # -- the lock, and a late file ------------------------------------------------------
    locked = referee("lock", str(round1), env={"REFEREE_SECRETS_DIR": str(tmp_path / "secrets")})
    assert locked.returncode == 0, locked.stderr
    assert (round1 / "seeds.commitment.json").exists()
    dovecot.append(submission_mail("bryn", {"bryn.yaml": sheet(round1, "bryn")}))
    intake(round1, dovecot, smtp)
    late = smtp.wait_for(7)[6]
    assert "late, not used" in str(late["Subject"]) and not (round1 / "sheets" / "bryn.yaml").exists()

    # -- the batch: the missing-plan rule, and the digests in the reports ----------------
    out = tmp_path / "out"
    batch = referee("batch", str(round1), "-o", str(out), "--jobs", "1", "--formats", "json,text",
                    env={"REFEREE_SECRETS_DIR": str(tmp_path / "secrets")})
    assert batch.returncode == 0, batch.stderr
    standings = json.loads((out / "standings.json").read_text())
    rows = {row["battle"]: row for row in standings["battles"]}
    assert rows["r1.battle.yaml"]["status"] == "ok"
    assert rows["r1.battle.yaml"]["nmr"] == [{"player": "bryn", "policy": "reuse-last", "detail": "Round 0"}]
    assert rows["r2.battle.yaml"]["status"] == "forfeit" and rows["r2.battle.yaml"]["winner"] == "white"
    assert {"player": "goro", "policy": "forfeit", "detail": "nothing-to-reuse"} in rows["r2.battle.yaml"]["nmr"]
    report = json.loads((out / "r1.json").read_text())
    digest = report["inputs_digest"]
    assert digest["source:sheets/kagura.yaml"] == kagura_sha
    assert digest["source:sheets/tomoe.yaml"] == tomoe_sha
    assert digest["source:sheets/ash.yaml"] == ash_sha
    assert digest["source:sheets/bryn.yaml"] == before["bryn"]
    assert report["seed_source"] == "committed"
    assert "NMR: Bryn (bryn) sent no valid file by the lock; reused Round 0's sheet." in (out / "r1.txt").read_text()
    assert "NMR: goro -- forfeit (nothing to reuse)" in (out / "standings.md").read_text()
    replay = referee("replay", str(out / "r1.json"))
    assert replay.returncode == 0, replay.stdout + replay.stderr
