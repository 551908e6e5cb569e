"""Killing ``referee intake`` at random points never loses or duplicates a
submission: 20 trials, each delivering fresh mail to a Maildir (with a
re-delivery of an old message), starting the real command as a process of
its own (forked from this one, so the kill lands in the run rather than in
Python's start-up) and killing it (SIGKILL, SIGTERM or SIGINT) at a random
moment of its run; then one clean run, and the ledger must hold every message exactly
once, the Maildir's new/ must be empty, and every receipt must have been sent."""

from __future__ import annotations

import hashlib
import json
import multiprocessing
import os
import random
import signal
import time
from pathlib import Path

from referee.cli import main

from referee.intake.mail import message_key

from .mailhelpers import SmtpCatcher, deliver, maildir, make_round, sheet, submission_mail

TRIALS = 20


def _run(argv: list[str]) -> None:
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)
    code = main(argv)
    os._exit(code)


def _intake(round_dir: Path, box: Path, smtp: SmtpCatcher) -> multiprocessing.process.BaseProcess:
    """``referee intake`` in a process of its own."""
    proc = multiprocessing.get_context("fork").Process(target=_run, args=(
        ["intake", str(round_dir), "--maildir", str(box), "--smtp", f"{smtp.host}:{smtp.port}"],))
    proc.start()
    return proc


def _ledger(round_dir: Path) -> list[dict[str, object]]:
    path = round_dir / "intake" / "ledger.jsonl"
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def test_killing_intake_never_loses_or_duplicates(tmp_path: Path, smtp: SmtpCatcher) -> None:
    rng = random.Random(20261128)
    round_dir = make_round(tmp_path / "round")
    box = maildir(tmp_path / "Maildir")
    players = ["kagura", "tomoe", "ash", "bryn"]
    sent: list[bytes] = []

    def fresh(trial: int) -> None:
        for player in rng.sample(players, 2):
            data = sheet(round_dir, player)
            if rng.random() < 0.3:
                data = data.replace(b"avenger", b"avengerr")  # a version with errors
            raw = submission_mail(player, {f"{player}.yaml": data + f"# trial {trial}\n".encode()})
            sent.append(raw)
            deliver(box, raw)
        if sent and rng.random() < 0.5:
            deliver(box, rng.choice(sent))  # the MTA delivers an old message again

    # how long a whole run takes here, to kill inside it
    fresh(0)
    start = time.monotonic()
    first = _intake(round_dir, box, smtp)
    first.join(timeout=120)
    assert first.exitcode == 0
    whole = time.monotonic() - start
    killed = 0
    for trial in range(1, TRIALS + 1):
        fresh(trial)
        proc = _intake(round_dir, box, smtp)
        time.sleep(rng.uniform(0.0, 1.2) * whole)
        if proc.pid is not None and proc.exitcode is None:
            os.kill(proc.pid, rng.choice([signal.SIGKILL, signal.SIGKILL, signal.SIGTERM, signal.SIGINT]))
        proc.join(timeout=60)
        assert proc.exitcode is not None
        killed += proc.exitcode != 0
    assert killed >= TRIALS // 2, f"only {killed} of {TRIALS} runs were stopped before their end"
    final = _intake(round_dir, box, smtp)
    final.join(timeout=120)
    assert final.exitcode == 0

    records = [r for r in _ledger(round_dir) if r["type"] == "submission"]
    keys = [r["key"] for r in records]
    assert len(keys) == len(set(keys)), "a submission was filed twice"
    assert set(keys) == {message_key(raw) for raw in sent}, "a submission was lost"
    assert not os.listdir(box / "new")
    assert not list(round_dir.rglob("*.tmp")), "a killed write's temporary file was left behind"
    replied = {r["key"] for r in _ledger(round_dir) if r["type"] == "replied"}
    assert replied == set(keys), "a receipt was never sent"
    assert len(smtp.messages) >= len(keys)
    # the round's files are the current versions the ledger names
    current = {}
    for r in records:
        for item in r.get("files", []):  # type: ignore[union-attr]
            if item["current"]:
                current[item["file"]] = item["sha256"]
    for rel, sha in current.items():
        assert hashlib.sha256((round_dir / rel).read_bytes()).hexdigest() == sha
