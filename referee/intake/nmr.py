"""Missing plans at the batch (NMR, "no moves received"): the round's policy
for a player with no valid file at the lock.

- ``reuse-last``: the files the player's previous round used (that round's
  current versions, or what its own missing-plan rule put in their place);
- ``default-plan``: the player's last sheet received before the lock with
  its plan taken out -- the character acts by the rules' defaults;
- ``forfeit``: the player's side of every battle they are in loses without
  the battle being resolved.

When a policy has nothing to work with (no previous round's file, no sheet
that loads) the player forfeits, and the detail says why.  Substitutes are
written to the player's roster files (atomically; every received version
stays in the inbox) and recorded in the ledger, so the report's
``inputs.sources`` digests name them.  :func:`missing_plans` returns, per
battle, the entries ``standings.json`` writes under ``"nmr"``:
``{"player", "policy", "detail"}``.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from referee.diagnostics import ReferError
from referee.intake.ledger import player_status
from referee.intake.roster import Player, Roster, load_roster
from referee.intake.store import Inbox, LedgerState

__all__ = ["NmrEntry", "RoundNmr", "missing_plans"]


@dataclass(frozen=True)
class NmrEntry:
    """One player's missing-plan ruling: ``detail`` is the previous round's
    name (``reuse-last``), ``rules-defaults`` (``default-plan``), or why the
    player forfeits (``no-valid-file``, ``nothing-to-reuse``, ``no-valid-sheet``)."""

    player: str
    policy: str
    detail: str
    sheets: tuple[str, ...]

    def to_json(self) -> dict[str, str]:
        return {"player": self.player, "policy": self.policy, "detail": self.detail}


@dataclass(frozen=True)
class RoundNmr:
    """Every ruling of a round, by the roster sheet paths they cover."""

    entries: tuple[NmrEntry, ...]

    def for_sheets(self, sheets: set[str]) -> tuple[NmrEntry, ...]:
        """The rulings about any of ``sheets`` (round-relative)."""
        return tuple(e for e in self.entries if sheets & set(e.sheets))


def _used_files(folder: Path, player_id: str, depth: int = 0) -> tuple[str, dict[str, bytes]] | None:
    """The round's name and the files player ``player_id`` played with there
    (round-relative paths of that round), or ``None``."""
    roster, _ = load_roster(folder)
    if roster is None:
        return None
    player = roster.player(player_id)
    if player is None:
        return None
    inbox = Inbox(folder)
    state = inbox.refresh()
    ruled = state.nmr.get(player_id)
    if ruled is not None and ruled.get("policy") != "forfeit":
        files = {rel: inbox.get(sha) for rel, sha in (ruled.get("files") or {}).items()}
        return roster.label, files
    if player_status(state, player).state != "in":
        return None
    return roster.label, {rel: inbox.get(state.current[rel]) for rel in player.files}


def _reuse(roster: Roster, player: Player) -> tuple[str, dict[str, bytes]] | None:
    if roster.previous is None:
        return None
    found = _used_files((roster.folder / roster.previous), player.id)
    if found is None:
        return None
    label, files = found
    before = load_roster(roster.folder / roster.previous)[0]
    old = before.player(player.id) if before is not None else None
    if old is None:
        return None
    out: dict[str, bytes] = {}
    for mine, theirs in ((player.sheets, old.sheets), (player.plans, old.plans)):
        if len(mine) != len(theirs):
            return None
        for new_rel, old_rel in zip(mine, theirs):
            if old_rel not in files:
                return None
            out[new_rel] = files[old_rel]
    return label, out


def _without_plan(text: str, ruleset_name: str) -> bytes | None:
    """The sheet with its ``plan`` field removed, if the result is a valid sheet."""
    from referee.ruleset import load_ruleset
    from referee.sheet import parse_sheet
    from referee.yamlio import load_yaml

    doc, _ = load_yaml(text, "sheet")
    if doc is None or not isinstance(doc.data, dict):
        return None
    lines = text.splitlines()
    if "plan" in doc.data:
        first = doc.key_position(("plan",)).line
        keys_after = [doc.key_position((k,)).line for k in doc.data if doc.key_position((k,)).line > first]
        last = min(keys_after) - 1 if keys_after else len(lines)
        lines = lines[:first - 1] + lines[last:]
    stripped = "\n".join(lines) + "\n"
    try:
        sheet, _ = parse_sheet(stripped, "sheet", load_ruleset(ruleset_name))
    except ReferError:
        return None
    return stripped.encode("utf-8") if sheet is not None else None


def _default_plan(inbox: Inbox, state: LedgerState, player: Player, ruleset: str) -> dict[str, bytes] | None:
    out: dict[str, bytes] = {}
    for rel in player.sheets:
        version = state.current.get(rel) or (state.latest(rel).sha256 if state.latest(rel) else None)  # type: ignore[union-attr]
        if version is None:
            return None
        stripped = _without_plan(inbox.get(version).decode("utf-8"), ruleset)
        if stripped is None:
            return None
        out[rel] = stripped
    return out


def missing_plans(round_dir: str | Path) -> RoundNmr | None:
    """Apply the round's policy to every player who is not in; ``None`` for a
    round without a roster (nothing to apply).

    :raises ReferError: the roster has errors.
    """
    from referee.app.pipeline import write_atomic

    folder = Path(round_dir)
    if not (folder / "roster.yaml").exists():
        return None
    roster, diags = load_roster(folder)
    if roster is None:
        raise ReferError(diags)
    from referee.intake.core import round_ruleset

    ruleset = round_ruleset(folder)
    inbox = Inbox(folder)
    entries = []
    with inbox.locked() as state:
        for player in roster.players:
            if player_status(state, player).state == "in":
                continue
            files: dict[str, bytes] | None = None
            policy, detail = roster.nmr, "no-valid-file"
            if policy == "reuse-last":
                found = _reuse(roster, player)
                files, detail = (found[1], found[0]) if found else (None, "nothing-to-reuse")
            elif policy == "default-plan":
                files = _default_plan(inbox, state, player, ruleset)
                detail = "rules-defaults" if files is not None else "no-valid-sheet"
            if files is None:
                policy = "forfeit"
            record: dict[str, Any] = {"type": "nmr", "player": player.id, "policy": policy, "detail": detail,
                                      "files": {rel: inbox.put(data) for rel, data in (files or {}).items()}}
            for rel, data in (files or {}).items():
                write_atomic(folder / rel, data.decode("utf-8"), root=folder)
            if {k: v for k, v in state.nmr.get(player.id, {}).items() if k != "at"} != record:
                inbox.append(record)
            entries.append(NmrEntry(player.id, policy, detail, player.sheets))
    return RoundNmr(tuple(entries))
