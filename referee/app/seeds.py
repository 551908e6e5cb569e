"""Fair seeds: a round's seeds fixed by a secret committed before the deadline.

Why: an organiser who picks seeds after reading the plans could be accused of
picking lucky ones.  With a commitment nobody has to trust the organiser:

1. ``referee seeds commit ROUND`` draws a 32-byte secret (``os.urandom``),
   keeps it for the organiser **outside the round folder** (the round folder
   is often shared with players; see :func:`secret_store`), and writes
   ``ROUND/seeds.commitment.json`` with ``sha256(secret)``.  The organiser
   posts that hash before the deadline.
2. ``referee batch ROUND`` then resolves each battle with the seed
   ``HMAC-SHA256(secret, battle name)`` read as a number (:func:`battle_seed`;
   the name is the battle file's path relative to the round folder, ``/``
   separators), and every report and the standings print the commitment.
3. After the round, ``referee seeds reveal ROUND`` publishes the secret
   (``ROUND/seeds.reveal.json``); anyone can run ``referee seeds verify
   ROUND`` to check that the secret matches the posted hash and that every
   published report and standings row used the seed the secret gives.

The secret is fixed before the plans are known and its hash is public, so
the organiser can neither choose seeds nor change them afterwards; players
cannot predict them because the secret stays private until the reveal.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from referee.app.pipeline import PreparedBattle, prepare_file
from referee.diagnostics import Diagnostic, ReferError
from referee.report.record import Report

__all__ = [
    "COMMITMENT_FILE",
    "REVEAL_FILE",
    "SCHEME",
    "RoundCommitment",
    "battle_seed",
    "commitment_of",
    "commit_round",
    "reveal_round",
    "read_commitment",
    "round_secret",
    "revealed_secret",
    "committed_seeds",
    "resolve_committed",
    "prepare_committed",
    "secret_store",
]

COMMITMENT_FILE = "seeds.commitment.json"
REVEAL_FILE = "seeds.reveal.json"
#: Names the derivation, so a later change of method cannot pass for this one.
SCHEME = "sha256-commit/hmac-sha256-seed/v1"
SECRET_BYTES = 32


@dataclass(frozen=True)
class RoundCommitment:
    """What reports and standings print: the hash and how to check it."""

    commitment: str
    scheme: str = SCHEME

    def to_json(self) -> dict[str, str]:
        return {"commitment": self.commitment, "scheme": self.scheme}


def commitment_of(secret: bytes) -> str:
    """``sha256(secret)`` in hex: what the organiser posts."""
    return hashlib.sha256(secret).hexdigest()


def battle_seed(secret: bytes, battle_name: str) -> int:
    """The seed of one battle: the first 4 bytes of ``HMAC-SHA256(secret,
    battle_name)`` as a big-endian number (0 .. 2**32 - 1, the range of a
    drawn seed, so it reads back with ``referee resolve --seed``).

    >>> battle_seed(bytes(32), "r1.battle.yaml") == battle_seed(bytes(32), "r1.battle.yaml")
    True
    """
    digest = hmac.new(secret, battle_name.encode("utf-8"), hashlib.sha256).digest()
    return int.from_bytes(digest[:4], "big")


def secret_store() -> Path:
    """Where ``commit`` keeps secrets: ``$REFEREE_SECRETS_DIR``, else
    ``$XDG_DATA_HOME/tcgt-referee/secrets``, else
    ``~/.local/share/tcgt-referee/secrets`` (created with mode 0700)."""
    explicit = os.environ.get("REFEREE_SECRETS_DIR")
    if explicit:
        return Path(explicit)
    data = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(data) / "tcgt-referee" / "secrets"


def _error(file: Path | str, code: str, message: str, hint: str | None = None) -> Diagnostic:
    return Diagnostic(str(file), 0, 0, code, message, hint=hint)


def _read_json(path: Path) -> tuple[dict[str, Any] | None, list[Diagnostic]]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None, []
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as err:
        return None, [_error(path, "bad-seed-file", f"cannot read {path.name}: {err}")]
    if not isinstance(data, dict):
        return None, [_error(path, "bad-seed-file", f"{path.name} is not a JSON object")]
    return data, []


def read_commitment(round_dir: str | Path) -> RoundCommitment | None:
    """The round's commitment, or ``None`` when the round has none.

    :raises ReferError: the file exists but is not a commitment.
    """
    path = Path(round_dir) / COMMITMENT_FILE
    data, diags = _read_json(path)
    if diags:
        raise ReferError(diags)
    if data is None:
        return None
    value, scheme = data.get("commitment"), data.get("scheme")
    if not isinstance(value, str) or len(value) != 64 or scheme != SCHEME:
        raise ReferError([_error(path, "bad-seed-file",
                                 f"{COMMITMENT_FILE} must hold a sha256 'commitment' and scheme {SCHEME!r}")])
    return RoundCommitment(value, scheme)


def _write_new(path: Path, text: str, mode: int) -> None:
    """Create ``path`` with ``mode``; never overwrite (O_EXCL)."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode)
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        handle.write(text)


def commit_round(round_dir: str | Path) -> RoundCommitment:
    """Draw a secret, keep it in :func:`secret_store`, write the commitment.

    A round is committed once: a second commit would let an organiser try
    secrets until the seeds suit them, so it is refused.

    :raises ReferError: not a folder, or already committed.
    """
    root = Path(round_dir)
    if not root.is_dir():
        raise ReferError([_error(root, "not-a-folder", f"{root} is not a folder")])
    if (root / COMMITMENT_FILE).exists():
        raise ReferError([_error(root / COMMITMENT_FILE, "already-committed",
                                 "this round already has a seed commitment; a round is committed once",
                                 hint="post the commitment it holds, or start a new round folder")])
    secret = os.urandom(SECRET_BYTES)
    commitment = RoundCommitment(commitment_of(secret))
    store = secret_store()
    store.mkdir(parents=True, exist_ok=True, mode=0o700)
    _write_new(store / f"{commitment.commitment}.secret", secret.hex() + "\n", 0o600)
    _write_new(root / COMMITMENT_FILE, json.dumps(commitment.to_json(), indent=2) + "\n", 0o644)
    return commitment


def revealed_secret(root: Path, commitment: RoundCommitment) -> tuple[bytes | None, list[Diagnostic]]:
    """The secret published in ``ROUND/seeds.reveal.json`` (``None`` before the
    reveal), checked against the commitment."""
    path = root / REVEAL_FILE
    data, diags = _read_json(path)
    if data is None:
        return None, diags
    try:
        secret = bytes.fromhex(str(data.get("secret", "")))
    except ValueError:
        return None, [_error(path, "bad-seed-file", f"{REVEAL_FILE}: 'secret' is not hexadecimal")]
    if commitment_of(secret) != commitment.commitment:
        return None, [_error(path, "commitment-mismatch",
                             f"the revealed secret hashes to {commitment_of(secret)[:16]}..., "
                             f"not to the posted commitment {commitment.commitment[:16]}...")]
    return secret, []


def round_secret(round_dir: str | Path) -> tuple[RoundCommitment, bytes] | None:
    """The round's commitment and secret (revealed, else from the organiser's
    store); ``None`` for a round without a commitment.

    :raises ReferError: committed but the secret is not available or does not match.
    """
    root = Path(round_dir)
    commitment = read_commitment(root)
    if commitment is None:
        return None
    secret, diags = revealed_secret(root, commitment)
    if diags:
        raise ReferError(diags)
    if secret is None:
        stored = secret_store() / f"{commitment.commitment}.secret"
        try:
            secret = bytes.fromhex(stored.read_text(encoding="utf-8").strip())
        except (OSError, ValueError):
            raise ReferError([_error(root / COMMITMENT_FILE, "secret-unavailable",
                                     f"the round is committed but its secret is neither revealed nor in {stored}",
                                     hint="run the round where 'referee seeds commit' ran, or after 'referee seeds reveal'")]) from None
        if commitment_of(secret) != commitment.commitment:
            raise ReferError([_error(stored, "commitment-mismatch", "the stored secret does not match the commitment")])
    return commitment, secret


def committed_seeds(round_dir: str | Path, battle_names: list[str]) -> tuple[RoundCommitment, dict[str, int]] | None:
    """Each battle's committed seed, or ``None`` for a round without a commitment."""
    found = round_secret(round_dir)
    if found is None:
        return None
    commitment, secret = found
    return commitment, {name: battle_seed(secret, name) for name in battle_names}


def reveal_round(round_dir: str | Path) -> str:
    """Publish the secret next to the commitment; returns it in hex.

    :raises ReferError: no commitment, or the secret is not available.
    """
    root = Path(round_dir)
    found = round_secret(root)
    if found is None:
        raise ReferError([_error(root, "not-committed", "this round has no seed commitment",
                                 hint="referee seeds commit ROUND_DIR, before the deadline")])
    commitment, secret = found
    path = root / REVEAL_FILE
    if not path.exists():
        _write_new(path, json.dumps({**commitment.to_json(), "secret": secret.hex()}, indent=2) + "\n", 0o644)
    return secret.hex()


def resolve_committed(path: str | Path, battle_name: str, commitment: RoundCommitment,
                      secret: bytes) -> tuple[Report, list[Diagnostic]]:
    """Resolve one battle of a committed round with its committed seed; the
    report records the commitment (``seed_source`` ``committed``).

    :returns: the report and the battle's warnings (as ``resolve_file_checked``).
    :raises ReferError: the battle is invalid.
    """
    prepared, warnings = prepare_committed(path, battle_name, commitment, secret)
    return prepared.resolve(), warnings


def prepare_committed(path: str | Path, battle_name: str, commitment: RoundCommitment,
                      secret: bytes) -> tuple[PreparedBattle, list[Diagnostic]]:
    """:func:`referee.app.pipeline.prepare_file` with the battle's committed seed.

    :raises ReferError: the battle is invalid.
    """
    prepared, warnings = prepare_file(path, battle_seed(secret, battle_name))
    return replace(prepared, seed_source="committed", commitment=commitment.to_json()), warnings
