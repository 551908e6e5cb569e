"""A round's roster: who may file what, and how a player proves who they are.

``ROUND/roster.yaml`` is written by the organiser (``referee roster add`` and
``referee roster token`` write it for them) and read like every other file:
shape by ``referee/schemas/roster.schema.json``, then the meaning the schema
cannot say -- ids, addresses and files unique across players, files inside
the round with the right kind of name, a deadline with its time zone, a token
hash the referee can read -- every problem at once, each at its line.

The file names a player owns are the only names a round's files ever get
(a mail's attachment name is a hint matched against them, never a path).

A token is stored only as a salted scrypt hash: the roster may be copied
around with the round, and the token must not be derivable from anything the
referee publishes (the seed secret ``seeds reveal`` publishes is unrelated:
tokens come from :func:`secrets.token_urlsafe`).  A given token is compared
with :func:`hmac.compare_digest`, in constant time.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path, PurePosixPath
from typing import Any

from referee.confine import UnsafePathError, confine
from referee.diagnostics import Diagnostic
from referee.limits import MAX_ADDRESS_CHARS, MAX_ROSTER_PLAYERS
from referee.textcheck import name_problem
from referee.yamlio import YamlDocument, read_yaml_file, schema_diagnostics

__all__ = [
    "ROSTER_FILE",
    "NMR_POLICIES",
    "Player",
    "Roster",
    "load_roster",
    "new_token",
    "hash_token",
    "token_matches",
    "normal_address",
    "file_kind",
]

ROSTER_FILE = "roster.yaml"
#: What ``batch`` does for a player with no valid file at the lock (docs/intake.md).
NMR_POLICIES = ("reuse-last", "default-plan", "forfeit")
DEFAULT_NMR = "forfeit"

#: scrypt's cost: about 16 MB and a few tens of milliseconds per check, so a
#: stolen roster does not give its tokens away cheaply.
_SCRYPT_N, _SCRYPT_R, _SCRYPT_P = 2 ** 14, 8, 1
_HASH = re.compile(r"^scrypt\$(\d+)\$(\d+)\$(\d+)\$([0-9a-f]{32})\$([0-9a-f]{64})$")
_ADDRESS = re.compile(r"^[^@\s<>\"(),;:\\\[\]]+@[^@\s<>\"(),;:\\\[\]]+\.[^@\s<>\"(),;:\\\[\]]+$")


@dataclass(frozen=True)
class Player:
    """One player of the round.

    :param files: the round-relative paths the player owns, sheets then plans.
    """

    id: str
    name: str
    addresses: tuple[str, ...]
    lang: str
    sheets: tuple[str, ...]
    plans: tuple[str, ...]
    token_hash: str | None

    @property
    def files(self) -> tuple[str, ...]:
        return self.sheets + self.plans


@dataclass(frozen=True)
class Roster:
    """The loaded roster of one round folder."""

    folder: Path
    label: str
    players: tuple[Player, ...]
    deadline: datetime | None = None
    nmr: str = DEFAULT_NMR
    previous: str | None = None
    mail_from: str | None = None

    def player(self, player_id: str) -> Player | None:
        return next((p for p in self.players if p.id == player_id), None)

    def by_address(self, address: str) -> Player | None:
        """The player who registered ``address`` (addresses are unique across players)."""
        wanted = normal_address(address)
        return next((p for p in self.players if wanted in {normal_address(a) for a in p.addresses}), None)

    def owner(self, rel: str) -> Player | None:
        return next((p for p in self.players if rel in p.files), None)

    @property
    def files(self) -> tuple[str, ...]:
        return tuple(f for p in self.players for f in p.files)


def normal_address(address: str) -> str:
    """An address as compared: the domain is case-insensitive, and so (in
    practice, everywhere players are) is the local part."""
    return address.strip().lower()


def file_kind(name: str) -> str | None:
    """``sheet`` for ``*.yaml``/``*.yml``, ``plan`` for ``*.plan``, else ``None``."""
    lower = name.lower()
    if lower.endswith((".yaml", ".yml")):
        return "sheet"
    if lower.endswith(".plan"):
        return "plan"
    return None


def new_token() -> str:
    """A fresh token for a player: 96 random bits, URL-safe, 16 characters."""
    return secrets.token_urlsafe(12)


def hash_token(token: str, salt: bytes | None = None, *, cost: int = _SCRYPT_N) -> str:
    """The salted scrypt hash stored in the roster: ``scrypt$N$r$p$salt$hash``.

    The parameters travel with the hash, so a later, higher ``cost`` leaves
    the hashes already written valid."""
    salt = secrets.token_bytes(16) if salt is None else salt
    digest = hashlib.scrypt(token.encode("utf-8"), salt=salt, n=cost, r=_SCRYPT_R, p=_SCRYPT_P, dklen=32)
    return f"scrypt${cost}${_SCRYPT_R}${_SCRYPT_P}${salt.hex()}${digest.hex()}"


def token_matches(stored: str | None, given: str | None) -> bool:
    """Whether ``given`` is the token whose hash is ``stored`` (constant-time compare)."""
    if not stored or not given:
        return False
    match = _HASH.match(stored)
    if match is None:
        return False
    n, r, p = (int(match.group(i)) for i in (1, 2, 3))
    if not _cost_ok(n, r, p):
        return False
    digest = hashlib.scrypt(given.encode("utf-8", "surrogatepass"), salt=bytes.fromhex(match.group(4)),
                            n=n, r=r, p=p, dklen=32, maxmem=256 * 1024 * 1024)
    return hmac.compare_digest(digest, bytes.fromhex(match.group(5)))


def _cost_ok(n: int, r: int, p: int) -> bool:
    """A hash's parameters within what one check may cost (a roster is a file too)."""
    return 2 <= n <= 2 ** 17 and n & (n - 1) == 0 and 1 <= r <= 16 and 1 <= p <= 4


def parse_deadline(text: str) -> datetime | None:
    """An ISO 8601 time with its zone (``2026-12-05T18:00:00+09:00``), else ``None``."""
    try:
        when = datetime.fromisoformat(text.strip().replace("Z", "+00:00"))
    except ValueError:
        return None
    return when if when.tzinfo is not None else None


class _RosterChecker:
    def __init__(self, doc: YamlDocument, folder: Path) -> None:
        self.doc = doc
        self.folder = folder
        self.diags: list[Diagnostic] = []

    def error(self, path: tuple[Any, ...], code: str, message: str, hint: str | None = None) -> None:
        self.diags.append(self.doc.diagnostic(path, code, message, hint=hint))

    def round_file(self, rel: Any, path: tuple[Any, ...], kind: str) -> str | None:
        """``rel`` as a round-relative file of ``kind``, or an error at ``path``."""
        if not isinstance(rel, str):
            return None
        pure = PurePosixPath(rel)
        if rel.startswith(("/", "~")) or "\\" in rel or any(part in ("", ".", "..") for part in rel.split("/")):
            self.error(path, "path-outside", f"{rel!r} must be a path inside the round, such as sheets/kagura.yaml",
                       hint="write it relative to the roster's folder, without '..'")
            return None
        if name_problem(rel, "a file name", 200) is not None:
            self.error(path, "bad-path", f"{rel!r} is not a usable file name: {name_problem(rel, 'a file name', 200)}")
            return None
        if file_kind(pure.name) != kind:
            wanted = "*.yaml or *.yml" if kind == "sheet" else "*.plan"
            self.error(path, "wrong-file-kind", f"{rel!r} is listed as a {kind}, so its name must end in {wanted}")
            return None
        if pure.name.lower().endswith((".battle.yaml", ".battle.yml", ".ruleset.yaml", ".ruleset.yml")):
            self.error(path, "wrong-file-kind", f"{rel!r} is a battle or ruleset file, which players do not own")
            return None
        try:
            real = confine(self.folder / rel, self.folder, rel)
        except UnsafePathError as err:
            self.error(path, err.problem.code, err.problem.message)
            return None
        if real.exists() and not real.is_file():
            self.error(path, "not-a-file", f"{rel!r} is taken by something that is not a plain file (a folder?)",
                       hint="the referee writes the player's current version there")
            return None
        return rel

    def player(self, index: int, data: Any, seen: dict[str, dict[str, tuple[Any, ...]]]) -> Player | None:
        if not isinstance(data, dict):
            return None
        here = ("players", index)
        pid, name = data.get("id"), data.get("name")
        ok = isinstance(pid, str) and isinstance(name, str)
        if isinstance(name, str) and name_problem(name) is not None:
            self.error(here + ("name",), "bad-name", str(name_problem(name)))
            ok = False
        if isinstance(pid, str):
            ok &= self.unique(seen, "id", pid, here + ("id",), "player id")
        addresses = []
        for i, address in enumerate(data.get("addresses") or []):
            where = here + ("addresses", i)
            if not isinstance(address, str):
                continue
            if len(address) > MAX_ADDRESS_CHARS or not _ADDRESS.match(address.strip()):
                self.error(where, "bad-address", f"{address[:80]!r} is not a mail address such as kagura@example.org")
                ok = False
                continue
            ok &= self.unique(seen, "address", normal_address(address), where, "address")
            addresses.append(address.strip())
        files: dict[str, list[str]] = {"sheet": [], "plan": []}
        for key, kind in (("sheets", "sheet"), ("plans", "plan")):
            for i, rel in enumerate(data.get(key) or []):
                checked = self.round_file(rel, here + (key, i), kind)
                if checked is None:
                    ok = False
                elif self.unique(seen, "file", checked, here + (key, i), "file"):
                    files[kind].append(checked)
                else:
                    ok = False
        token = data.get("token")
        if isinstance(token, str) and (_HASH.match(token) is None or not _cost_ok(
                *(int(_HASH.match(token).group(i)) for i in (1, 2, 3)))):  # type: ignore[union-attr]
            self.error(here + ("token",), "bad-token-hash",
                       "this is not a token hash the referee wrote (never write a token itself here)",
                       hint=f"referee roster token {self.folder} {pid if isinstance(pid, str) else 'ID'}")
            ok = False
        if not ok or not isinstance(pid, str) or not isinstance(name, str):
            return None
        return Player(pid, name.strip(), tuple(addresses), str(data.get("lang", "en")),
                      tuple(files["sheet"]), tuple(files["plan"]), token if isinstance(token, str) else None)

    def unique(self, seen: dict[str, dict[str, tuple[Any, ...]]], what: str, value: str,
               path: tuple[Any, ...], words: str) -> bool:
        first = seen.setdefault(what, {}).get(value)
        if first is not None:
            self.error(path, f"duplicate-{what}",
                       f"{words} {value!r} is already listed (line {self.doc.position(first).line}); each belongs to one player")
            return False
        seen[what][value] = path
        return True

    def check(self) -> Roster | None:
        data = self.doc.data
        seen: dict[str, dict[str, tuple[Any, ...]]] = {}
        raw_players = data.get("players") if isinstance(data.get("players"), list) else []
        if len(raw_players) > MAX_ROSTER_PLAYERS:
            self.error(("players",), "too-many-players",
                       f"{len(raw_players)} players; a roster holds at most {MAX_ROSTER_PLAYERS}")
            return None
        players = [self.player(i, p, seen) for i, p in enumerate(raw_players)]
        deadline = None
        if isinstance(data.get("deadline"), str):
            deadline = parse_deadline(data["deadline"])
            if deadline is None:
                self.error(("deadline",), "bad-deadline",
                           f"{data['deadline']!r} is not a time with its zone",
                           hint="write it as 2026-12-05T18:00:00+09:00 (or ...Z for UTC)")
        previous = data.get("previous")
        if isinstance(previous, str) and (previous.startswith(("/", "~")) or "\\" in previous):
            self.error(("previous",), "bad-path", "the previous round's folder must be relative to this round's",
                       hint="such as ../round2")
        if data.get("nmr") == "reuse-last" and not isinstance(previous, str):
            self.error(("nmr",), "missing-field", "reuse-last needs the previous round's folder",
                       hint="add 'previous: ../round2'")
        label = data.get("round") if isinstance(data.get("round"), str) else self.folder.resolve().name
        if name_problem(label) is not None:
            self.error(("round",), "bad-name", str(name_problem(label)))
        sender = (data.get("mail") or {}).get("from") if isinstance(data.get("mail"), dict) else None
        if isinstance(sender, str) and not _ADDRESS.match(sender.strip()):
            self.error(("mail", "from"), "bad-address", f"{sender[:80]!r} is not a mail address")
        if self.diags or any(p is None for p in players):
            return None
        return Roster(self.folder, label, tuple(p for p in players if p is not None), deadline,
                      str(data.get("nmr", DEFAULT_NMR)), previous if isinstance(previous, str) else None,
                      sender.strip() if isinstance(sender, str) else None)


def read_roster_document(round_dir: str | Path) -> tuple[YamlDocument | None, list[Diagnostic]]:
    """The roster's YAML document and its shape problems (schema)."""
    folder = Path(round_dir)
    path = folder / ROSTER_FILE
    if not path.exists():
        return None, [Diagnostic(str(path), 0, 0, "no-roster", f"{folder} has no {ROSTER_FILE}",
                                 hint=f"referee roster add {folder} ID --name NAME --address ADDR --sheet sheets/ID.yaml")]
    doc, diags = read_yaml_file(path, root=folder)
    if doc is None:
        return None, diags
    if not isinstance(doc.data, dict):
        return None, diags + [doc.diagnostic((), "wrong-type", "a roster is a mapping with a list of players")]
    return doc, diags + schema_diagnostics(doc, "roster")


def load_roster(round_dir: str | Path) -> tuple[Roster | None, list[Diagnostic]]:
    """Read and check ``ROUND/roster.yaml``; never raises on bad input.

    :returns: the roster (``None`` if any error) and every diagnostic.
    """
    folder = Path(round_dir)
    doc, diags = read_roster_document(folder)
    if doc is None:
        return None, diags
    checker = _RosterChecker(doc, folder)
    roster = checker.check()
    diags = sorted(set(diags + checker.diags), key=lambda d: (d.line, d.column, d.code))
    return (roster if not diags else None), diags


# -- the organiser's edits (``referee roster add|token``) -------------------------
# The roster is edited as text, line by line, so the organiser's comments and
# layout survive; every edit is checked by loading the result before it is written.


def roster_template(label: str) -> str:
    return (f"# The roster of {label} (referee intake; docs/intake.md). Keep it private: it holds\n"
            "# addresses. Tokens are stored only as hashes (referee roster token).\n"
            f"round: {_quote(label)}\n"
            "nmr: forfeit        # for a player with no valid file at the lock: reuse-last, default-plan or forfeit\n"
            "# deadline: 2026-12-05T18:00:00+09:00\n"
            "# previous: ../round2   # the previous round's folder, for reuse-last\n"
            "players:\n")


def _quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def player_block(player_id: str, name: str, addresses: list[str], lang: str, sheets: list[str],
                 plans: list[str], token_hash: str) -> str:
    lines = [f"  - id: {player_id}", f"    name: {_quote(name)}",
             f"    addresses: [{', '.join(_quote(a) for a in addresses)}]", f"    lang: {lang}",
             f"    sheets: [{', '.join(_quote(s) for s in sheets)}]"]
    if plans:
        lines.append(f"    plans: [{', '.join(_quote(p) for p in plans)}]")
    lines.append(f"    token: {_quote(token_hash)}")
    return "\n".join(lines) + "\n"


def with_player(doc: YamlDocument | None, label: str, block: str) -> tuple[str | None, str | None]:
    """The roster text with ``block`` added to ``players`` (a new roster
    when ``doc`` is ``None``); ``(None, why)`` when it cannot be placed."""
    if doc is None:
        return roster_template(label) + block, None
    lines = doc.text.splitlines()
    keys = {k: doc.key_position((k,)).line for k in doc.data if isinstance(k, str)}
    if "players" not in keys:
        return doc.text.rstrip("\n") + "\nplayers:\n" + block, None
    players_line = keys["players"]
    if any(line > players_line for line in keys.values()):
        return None, "'players:' must be the roster's last key for 'roster add' to append to it"
    source = lines[players_line - 1]
    if re.match(r"^players:\s*\[\s*\]\s*(#.*)?$", source):
        lines[players_line - 1] = "players:"
    elif doc.data.get("players") and doc.position(("players",)).style != "sequence":
        return None, "write 'players:' as a block list (one '- id:' per player) for 'roster add' to append to it"
    return "\n".join(lines).rstrip("\n") + "\n" + block, None


def with_token(doc: YamlDocument, player_id: str, token_hash: str) -> str | None:
    """The roster text with the player's token hash set (``None``: no such player)."""
    players = doc.data.get("players") if isinstance(doc.data, dict) else None
    index = next((i for i, p in enumerate(players or []) if isinstance(p, dict) and p.get("id") == player_id), None)
    if index is None:
        return None
    lines = doc.text.splitlines()
    if "token" in players[index]:  # type: ignore[index]
        line = doc.key_position(("players", index, "token")).line
        lines[line - 1] = re.sub(r"(token\s*:\s*).*$", lambda m: m.group(1) + _quote(token_hash), lines[line - 1])
    else:
        at = doc.key_position(("players", index, "id"))
        lines.insert(at.line, " " * (at.column - 1) + f"token: {_quote(token_hash)}")
    return "\n".join(lines) + "\n"
