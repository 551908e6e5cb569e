"""Helpers for the intake tests: a round with a roster, mail as players write
it, and the real servers the tests talk to (aiosmtpd, Dovecot)."""

from __future__ import annotations

import email
import email.policy
import functools
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from email.message import EmailMessage
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
ROUND = ROOT / "fixtures" / "round"
PLAYERS = ("kagura", "tomoe", "ash", "bryn", "ren", "dana", "cole", "goro")
DOVECOT = "/usr/sbin/dovecot"


@functools.lru_cache(maxsize=None)
def token_hash(token: str) -> str:
    """A cheap scrypt hash (the cost travels with the hash): a real roster's
    costs ~0.1 s per check, and the fuzz checks hundreds."""
    from referee.intake.roster import hash_token

    return hash_token(token, salt=b"test-salt-16byte", cost=2 ** 8)


def token_of(player: str) -> str:
    return f"tok-{player}-7Qx"


def make_round(folder: Path, *, players: tuple[str, ...] = PLAYERS, nmr: str = "forfeit", previous: str | None = None,
               deadline: str = "2030-12-05T18:00:00+09:00", langs: dict[str, str] | None = None,
               label: str = "Round 1", empty: bool = True, plans: dict[str, str] | None = None) -> Path:
    """The fixture round (two 2v2 battles, eight sheets) with a roster of
    ``players``; ``empty``: the players' sheets are removed (they mail them)."""
    shutil.copytree(ROUND, folder)
    (folder / "r3-broken.battle.yaml").unlink()
    originals = {p: (folder / "sheets" / f"{p}.yaml").read_bytes() for p in PLAYERS}
    if empty:
        for p in players:
            (folder / "sheets" / f"{p}.yaml").unlink()
    lines = [f"round: {label}", f"deadline: {deadline}", f"nmr: {nmr}", "mail:", "  from: referee@round.test"]
    if previous:
        lines.append(f"previous: {previous}")
    lines.append("players:")
    for p in players:
        lines += [f"  - id: {p}", f"    name: {p.title()}'s player", f"    addresses: [{p}@players.test]",
                  f"    lang: {(langs or {}).get(p, 'en')}", f"    sheets: [sheets/{p}.yaml]"]
        if plans and p in plans:
            lines.append(f"    plans: [{plans[p]}]")
        lines.append(f"    token: \"{token_hash(token_of(p))}\"")
    (folder / "roster.yaml").write_text("\n".join(lines) + "\n", encoding="utf-8")
    (folder / ".originals").mkdir()
    for p, data in originals.items():
        (folder / ".originals" / f"{p}.yaml").write_bytes(data)
    return folder


def sheet(folder: Path, player: str) -> bytes:
    """The player's fixture sheet as the test round had it."""
    return (folder / ".originals" / f"{player}.yaml").read_bytes()


def mail(sender: str, body: str = "", *, attachments: tuple[tuple[str, bytes], ...] = (),
         subject: str = "my files", headers: dict[str, str] | None = None, html: str | None = None,
         charset: str = "utf-8", message_id: str | None = None) -> bytes:
    """A message as a mail client writes it."""
    msg = EmailMessage(policy=email.policy.SMTP)
    msg["From"] = sender
    msg["To"] = "referee@round.test"
    msg["Subject"] = subject
    msg["Message-ID"] = message_id or email.utils.make_msgid(domain="players.test")
    for name, value in (headers or {}).items():
        msg[name] = value
    if html is not None and not body:
        msg.set_content(html, subtype="html")
    else:
        msg.set_content(body, charset=charset)
        if html is not None:
            msg.add_alternative(html, subtype="html")
    for name, data in attachments:
        msg.add_attachment(data, maintype="application", subtype="octet-stream", filename=name)
    return msg.as_bytes()


def submission_mail(player: str, files: dict[str, bytes], *, token: str | None = None, extra: str = "",
                    **kw: Any) -> bytes:
    """A player's mail: the token line and the files attached."""
    body = f"Hello referee,\n\ntoken: {token if token is not None else token_of(player)}\n{extra}\n"
    return mail(f"{player.title()} <{player}@players.test>", body, attachments=tuple(files.items()), **kw)


def maildir(folder: Path) -> Path:
    for sub in ("new", "cur", "tmp"):
        (folder / sub).mkdir(parents=True, exist_ok=True)
    return folder


def deliver(box: Path, raw: bytes, name: str | None = None) -> Path:
    """Deliver like an MTA: write in tmp/, rename into new/."""
    name = name or f"{time.time_ns()}.{os.getpid()}.test"
    tmp = box / "tmp" / name
    tmp.write_bytes(raw)
    target = box / "new" / name
    os.replace(tmp, target)
    return target


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


# -- a real SMTP server: aiosmtpd on loopback -----------------------------------


@dataclass
class SmtpCatcher:
    """An aiosmtpd server on loopback keeping every message it is given."""

    host: str = "127.0.0.1"
    port: int = 0
    messages: list[EmailMessage] = field(default_factory=list)
    envelopes: list[tuple[str, list[str]]] = field(default_factory=list)
    controller: Any = None

    def start(self) -> SmtpCatcher:
        from aiosmtpd.controller import Controller

        catcher = self

        class Handler:
            async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
                catcher.envelopes.append((envelope.mail_from, list(envelope.rcpt_tos)))
                catcher.messages.append(email.message_from_bytes(envelope.content, policy=email.policy.default))  # type: ignore[arg-type]
                return "250 OK"

        self.port = free_port()
        self.controller = Controller(Handler(), hostname=self.host, port=self.port)
        self.controller.start()
        return self

    def stop(self) -> None:
        if self.controller is not None:
            self.controller.stop()

    def wait_for(self, count: int, seconds: float = 10.0) -> list[EmailMessage]:
        end = time.monotonic() + seconds
        while len(self.messages) < count and time.monotonic() < end:
            time.sleep(0.02)
        return self.messages

    def to(self, address: str) -> list[EmailMessage]:
        return [m for m in self.messages if m["To"] == address]


def body_of(msg: EmailMessage) -> str:
    part = msg.get_body(preferencelist=("plain",))
    assert part is not None
    return str(part.get_content()).replace("\r\n", "\n")


# -- a real IMAP server: Dovecot with a throwaway configuration --------------------


@dataclass
class Dovecot:
    """Dovecot on a loopback port with TLS (a certificate made here) and one
    passwd-file user; everything in a temporary folder, removed by stop()."""

    folder: Path
    port: int
    user: str = "round1"
    password: str = "round-pw-1"

    @property
    def cafile(self) -> str:
        return str(self.folder / "cert.pem")

    @staticmethod
    def start() -> Dovecot:
        folder = Path(tempfile.mkdtemp(prefix="referee-dovecot-"))
        folder.chmod(0o755)
        subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", str(folder / "key.pem"),
                        "-out", str(folder / "cert.pem"), "-days", "2", "-subj", "/CN=localhost",
                        "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1"],
                       check=True, capture_output=True)
        (folder / "mail").mkdir()
        root = os.geteuid() == 0
        import grp
        import pwd

        me = pwd.getpwuid(os.getuid())
        if root:  # Dovecot never gives mail to uid 0: the mail user is nobody
            mail_uid, mail_gid = pwd.getpwnam("nobody").pw_uid, pwd.getpwnam("nobody").pw_gid
            internal, login = "dovecot", "dovenull"
            group = grp.getgrgid(pwd.getpwnam("dovecot").pw_gid).gr_name
            os.chown(folder / "mail", mail_uid, mail_gid)
        else:
            mail_uid, mail_gid = me.pw_uid, me.pw_gid
            internal = login = me.pw_name
            group = grp.getgrgid(me.pw_gid).gr_name
        server = Dovecot(folder, free_port())
        (folder / "passwd").write_text(
            f"{server.user}:{{PLAIN}}{server.password}:{mail_uid}:{mail_gid}::{folder}/mail/{server.user}\n")
        (folder / "dovecot.conf").write_text(f"""
base_dir = {folder}/run
state_dir = {folder}/state
log_path = {folder}/dovecot.log
instance_name = referee-test-{server.port}
protocols = imap
listen = 127.0.0.1
ssl = required
ssl_cert = <{folder}/cert.pem
ssl_key = <{folder}/key.pem
default_internal_user = {internal}
default_internal_group = {group}
default_login_user = {login}
first_valid_uid = 1
auth_mechanisms = plain
passdb {{
  driver = passwd-file
  args = {folder}/passwd
}}
userdb {{
  driver = passwd-file
  args = {folder}/passwd
}}
mail_location = maildir:~/Maildir
service imap-login {{
  chroot =
  inet_listener imap {{
    port = 0
  }}
  inet_listener imaps {{
    port = {server.port}
    ssl = yes
  }}
}}
service anvil {{
  chroot =
}}
""")
        # its daemons keep whatever pipes it is given: give them none
        subprocess.run([DOVECOT, "-c", str(folder / "dovecot.conf")], check=True, stdin=subprocess.DEVNULL,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        from referee.intake.transport import wait_for_port

        if not wait_for_port("127.0.0.1", server.port):
            log = (folder / "dovecot.log").read_text() if (folder / "dovecot.log").exists() else ""
            server.stop()
            raise RuntimeError(f"dovecot did not start:\n{log}")
        return server

    def imap(self) -> Any:
        import imaplib
        import ssl

        conn = imaplib.IMAP4_SSL("127.0.0.1", self.port, ssl_context=ssl.create_default_context(cafile=self.cafile))
        conn.login(self.user, self.password)
        return conn

    def append(self, raw: bytes) -> None:
        """Deliver a message into INBOX (what the MTA does for a real mailbox)."""
        with self.imap() as conn:
            status, _ = conn.append("INBOX", None, None, raw)
            assert status == "OK"

    def unseen(self) -> int:
        with self.imap() as conn:
            conn.select("INBOX")
            _, found = conn.uid("SEARCH", "UNSEEN")
            return len((found[0] or b"").split())

    def stop(self) -> None:
        pid_file = self.folder / "run" / "master.pid"
        if pid_file.exists():
            pid = int(pid_file.read_text().strip())
            try:
                os.kill(pid, signal.SIGTERM)
                for _ in range(100):
                    os.kill(pid, 0)
                    time.sleep(0.05)
            except ProcessLookupError:
                pass
        shutil.rmtree(self.folder, ignore_errors=True)


def every_file(folder: Path) -> set[Path]:
    return {p for p in folder.rglob("*")}
