"""Benchmark: how many messages ``referee intake`` files and answers per second.

A copy of ``fixtures/round`` (two battles, eight players) gets a roster
whose tokens are hashed at the real cost (scrypt N=2**14); N messages are
delivered into a Maildir -- a mix of valid sheets, sheets with errors,
wrong tokens, strangers, auto-replies and unreadable mail, in the proportions
``--mix`` gives -- and ``referee intake ROUND --maildir DIR --smtp ...`` runs
in this process with receipts going to an aiosmtpd server on loopback.  It
prints messages per second over the whole run and per kind (each kind run
alone), so the cost of a checked file, of a token check and of a message
that never reaches the core can be told apart.

    python benchmarks/bench_intake.py [--messages 200] [--repeat 1]
"""

from __future__ import annotations

import argparse
import email.policy
import io
import os
import random
import shutil
import socket
import sys
import tempfile
import time
from email.message import EmailMessage
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

PLAYERS = ("kagura", "tomoe", "ash", "bryn", "ren", "dana", "cole", "goro")
KINDS = ("valid", "errors", "wrong-token", "stranger", "robot", "unreadable")


def make_round(folder: Path) -> None:
    from referee.intake.roster import hash_token

    shutil.copytree(ROOT / "fixtures" / "round", folder)
    (folder / "r3-broken.battle.yaml").unlink()
    lines = ["round: Bench", "nmr: forfeit", "players:"]
    for p in PLAYERS:
        lines += [f"  - id: {p}", f"    name: {p}", f"    addresses: [{p}@players.test]",
                  f"    sheets: [sheets/{p}.yaml]", f"    token: \"{hash_token('tok-' + p)}\""]
    (folder / "roster.yaml").write_text("\n".join(lines) + "\n", encoding="utf-8")


def message(kind: str, rng: random.Random, folder: Path, index: int) -> bytes:
    player = rng.choice(PLAYERS)
    msg = EmailMessage(policy=email.policy.SMTP)
    msg["From"] = f"{player}@players.test" if kind != "stranger" else f"x{index}@elsewhere.test"
    msg["To"] = "referee@round.test"
    msg["Subject"] = "sheet"
    msg["Message-ID"] = f"<{index}.{rng.getrandbits(32)}@players.test>"
    if kind == "robot":
        msg["Auto-Submitted"] = "auto-replied"
    if kind == "unreadable":
        return b"From: a@b.test\n" + b"X-H: v\n" * 600 + b"\nbody\n"
    token = f"tok-{player}" if kind in ("valid", "errors") else "wrong"
    msg.set_content(f"token: {token}\n")
    data = (folder / "sheets" / f"{player}.yaml").read_bytes() + f"# {index}\n".encode()
    if kind == "errors":
        data = data.replace(b"slash", b"slahs").replace(b"avenger", b"avengr")
    msg.add_attachment(data, maintype="application", subtype="octet-stream", filename=f"{player}.yaml")
    return msg.as_bytes()


def run(kinds: list[str], count: int, rng: random.Random) -> tuple[float, dict[str, int]]:
    """Seconds for ``count`` messages of ``kinds`` (drawn in turn), and the tally."""
    from aiosmtpd.controller import Controller

    from referee.intake.core import open_round
    from referee.intake.transport import SmtpSettings, maildir_deliveries, process

    class Handler:
        received = 0

        async def handle_DATA(self, server: object, session: object, envelope: object) -> str:
            Handler.received += 1
            return "250 OK"

    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "round"
        make_round(folder)
        box = Path(tmp) / "Maildir"
        for sub in ("new", "cur", "tmp"):
            (box / sub).mkdir(parents=True)
        for i in range(count):
            (box / "new" / f"{i:06d}.bench").write_bytes(message(kinds[i % len(kinds)], rng, folder, i))
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = probe.getsockname()[1]
        controller = Controller(Handler(), hostname="127.0.0.1", port=port)
        controller.start()
        try:
            smtp = SmtpSettings("127.0.0.1", port, sender="referee@round.test")
            rnd = open_round(folder)
            start = time.perf_counter()
            tally = process(rnd, maildir_deliveries(box), smtp, io.StringIO())
            seconds = time.perf_counter() - start
        finally:
            controller.stop()
        return seconds, {**tally.__dict__, "smtp_received": Handler.received}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--messages", type=int, default=200, help="messages in the mixed run (default 200)")
    parser.add_argument("--per-kind", type=int, default=40, help="messages in each single-kind run (default 40)")
    args = parser.parse_args()
    rng = random.Random(2026)
    # a round's mail: mostly players' files, some errors, a few strangers and robots
    mix = ["valid"] * 5 + ["errors"] * 2 + ["wrong-token", "stranger", "robot"]
    seconds, tally = run(mix, args.messages, rng)
    print(f"mixed ({', '.join(f'{k} {mix.count(k)}' for k in dict.fromkeys(mix))} of {len(mix)}): "
          f"{args.messages} messages in {seconds:.2f} s = {args.messages / seconds:.1f} messages/s  {tally}")
    base = None
    for kind in KINDS:
        seconds, tally = run([kind], args.per_kind, rng)
        rate = args.per_kind / seconds
        base = base or rate
        print(f"{kind:12s} {args.per_kind} in {seconds:6.2f} s = {rate:8.1f} messages/s  ({rate / base:5.2f}x valid)"
              f"  receipts {tally['smtp_received']}")
    print(f"cpus: {os.cpu_count()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
