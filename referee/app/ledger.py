"""The tournament's ledger: every round's pairings and results, read from
the files the referee wrote, as plain records a third party can re-check.

A round's record is built from three files (docs/tournament.md, "Files"):

- ``ROUND/pairings.json`` (``referee tournament pair``): each battle's
  armies, their players and the sheets each brought; the byes; who was
  left out;
- ``REPORTS/standings.json`` (``referee batch``): each battle's status,
  winner and seed, and, when the mail intake applied a policy for a missing
  plan, its ``nmr`` list (``{"player", "policy", "detail"}``; absent: none).
  A battle a side forfeited (status ``forfeit``) has a winner -- the other
  side, or ``none`` when both forfeited -- and no report;
- ``REPORTS/<battle>.json``, the JSON report: who is still standing and
  with what HP, character by character, read back to their players through
  the sheets they brought.

Plus the seed commitment and, once revealed, the secret
(:mod:`referee.app.seeds`), from which the final tie-break's lot is drawn.
:func:`ledger_json` writes it all in one document, and
:func:`referee.app.ranking.rank` reads nothing else.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Mapping

from referee.app.seeds import COMMITMENT_FILE, read_commitment, revealed_secret
from referee.app.tournament import Tournament
from referee.confine import UnsafePathError, read_untrusted
from referee.diagnostics import Diagnostic, ReferError
from referee.limits import MAX_REPORT_BYTES

__all__ = ["PAIRINGS_FILE", "NMR_POLICIES", "Side", "BattleRecord", "RoundRecord", "read_ledger", "ledger_json",
           "ledger_from_json", "read_pairings", "read_round", "round_json"]

PAIRINGS_FILE = "pairings.json"

#: The mail intake's policies for a player with no valid file at the lock.
NMR_POLICIES = ("reuse-last", "default-plan", "forfeit")


@dataclass(frozen=True)
class Side:
    """One army in one battle: its players and, per player, the sheet paths
    as the battle file names them."""

    army: str
    players: tuple[str, ...]
    sheets: Mapping[str, tuple[str, ...]] = field(default_factory=dict)


@dataclass(frozen=True)
class BattleRecord:
    """One battle of the tournament and, once resolved, its result.

    :param status: ``pending`` (not resolved yet), ``ok``, ``forfeit`` (a side
        forfeited: a result, not fought), or batch's failure status.
    :param winner: ``white``, ``black``, ``draw``, ``none`` (both sides
        forfeited), or ``""`` when unresolved.
    :param survivors: per player, their characters still standing at the end.
    :param left: per side, characters still standing; ``hp``: per side, HP left.
    :param nmr: ``(player, policy, detail)`` for each player whose plan was missing.
    :param report_sha256: of the JSON report the result was read from.
    """

    round: int
    battle: str
    white: Side
    black: Side
    status: str = "pending"
    winner: str = ""
    seed: int | str | None = None
    turns: int = 0
    survivors: Mapping[str, int] = field(default_factory=dict)
    left: Mapping[str, int] = field(default_factory=dict)
    hp: Mapping[str, int] = field(default_factory=dict)
    nmr: tuple[tuple[str, str, str], ...] = ()
    report_sha256: str = ""

    @property
    def resolved(self) -> bool:
        """It has a result: fought, or forfeited."""
        return self.status in ("ok", "forfeit")

    @property
    def fought(self) -> bool:
        """It was resolved by the engine and has a report."""
        return self.status == "ok"

    def side(self, team: str) -> Side:
        return self.white if team == "white" else self.black

    def team_of_army(self, army: str) -> str:
        return "white" if self.white.army == army else "black"


@dataclass(frozen=True)
class RoundRecord:
    """A round as far as it has gone: ``paired`` once pairings.json exists,
    ``resolved`` once batch's standings are in."""

    number: int
    paired: bool = False
    resolved: bool = False
    battles: tuple[BattleRecord, ...] = ()
    byes: tuple[Side, ...] = ()
    left_out: tuple[str, ...] = ()
    commitment: str = ""
    secret: str = ""
    #: single-elimination: the bracket, pairs of army ids (or None) in slot order.
    bracket: tuple[tuple[str | None, str | None], ...] = ()


def _error(file: Path | str, code: str, message: str, hint: str | None = None) -> Diagnostic:
    return Diagnostic(str(file), 0, 0, code, message, hint=hint)


def _read(path: Path) -> bytes:
    """A file the referee wrote into a round, read as any input is (regular
    files only, within the report size limit: round folders are shared).

    :raises FileNotFoundError: it is not there; :raises UnsafePathError: it cannot be read safely.
    """
    if not path.exists():
        raise FileNotFoundError(path)
    return read_untrusted(path, limit=MAX_REPORT_BYTES)


def _load_json(path: Path, diags: list[Diagnostic], what: str) -> Any:
    try:
        return json.loads(_read(path))
    except FileNotFoundError:
        return None
    except UnsafePathError as err:
        diags.append(_error(path, "bad-file", f"cannot read {what}: {err.problem.message}"))
        return None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as err:
        diags.append(_error(path, "bad-file", f"cannot read {what}: {err}"))
        return None


def _side(data: Any) -> Side:
    players = tuple(str(p["id"]) for p in data["players"])
    return Side(str(data["army"]), players, {str(p["id"]): tuple(str(s) for s in p["sheets"]) for p in data["players"]})


def read_pairings(path: Path, number: int) -> tuple[RoundRecord | None, list[Diagnostic]]:
    """A round's ``pairings.json`` as an unresolved record (``None`` when absent)."""
    diags: list[Diagnostic] = []
    data = _load_json(path, diags, PAIRINGS_FILE)
    if data is None:
        return None, diags
    try:
        battles = tuple(BattleRecord(number, str(b["battle"]), _side(b["white"]), _side(b["black"]))
                        for b in data["battles"])
        byes = tuple(_side(b) for b in data["byes"])
        bracket = tuple((p[0], p[1]) for p in data.get("bracket", ()))
        return RoundRecord(number, True, False, battles, byes, tuple(data["left_out"]), bracket=bracket), diags
    except (KeyError, TypeError, IndexError) as err:
        return None, [_error(path, "bad-file", f"{PAIRINGS_FILE} is not what referee tournament pair writes "
                                               f"(missing {err})")]


def _nmr(row: Mapping[str, Any], where: Path, diags: list[Diagnostic]) -> tuple[tuple[str, str, str], ...]:
    out = []
    for entry in row.get("nmr") or ():
        if not isinstance(entry, dict) or entry.get("policy") not in NMR_POLICIES or not isinstance(entry.get("player"), str):
            diags.append(_error(where, "bad-nmr", f"{row.get('battle')}: an nmr entry must be "
                                                  f"{{player, policy ({', '.join(NMR_POLICIES)}), detail}}, not {entry!r}"))
            continue
        out.append((entry["player"], entry["policy"], str(entry.get("detail", ""))))
    return tuple(out)


def _result(battle: BattleRecord, row: Mapping[str, Any], reports: Path, diags: list[Diagnostic]) -> BattleRecord:
    """``battle`` with its result: batch's row, and the JSON report's final table."""
    nmr = _nmr(row, reports / "standings.json", diags)
    status = str(row.get("status", ""))
    if status == "forfeit":
        return replace(battle, status=status, winner=str(row.get("winner", "none")), nmr=nmr,
                       survivors={p: 0 for side in (battle.white, battle.black) for p in side.players},
                       left={"white": 0, "black": 0}, hp={"white": 0, "black": 0})
    if status != "ok":
        return replace(battle, status=status or "failed", nmr=nmr)
    stem = battle.battle.rsplit(".battle.", 1)[0]
    path = reports / f"{stem}.json"
    try:
        raw = _read(path)
        report = json.loads(raw)
        final = report["result"]["final"]
        characters = report["inputs"]["characters"]
    except FileNotFoundError:
        diags.append(_error(path, "no-json-report", f"{battle.battle} was resolved, but its JSON report is missing",
                            hint="run referee batch with --formats including json (the default)"))
        return battle
    except UnsafePathError as err:
        diags.append(_error(path, "bad-file", f"cannot read the JSON report of {battle.battle}: {err.problem.message}"))
        return battle
    except (OSError, ValueError, KeyError, TypeError) as err:
        diags.append(_error(path, "bad-file", f"cannot read the JSON report of {battle.battle}: {err}"))
        return battle
    owner = {sheet: player for side in (battle.white, battle.black) for player, sheets in side.sheets.items()
             for sheet in sheets}
    survivors = {p: 0 for side in (battle.white, battle.black) for p in side.players}
    left = {"white": 0, "black": 0}
    hp = {"white": 0, "black": 0}
    for character in characters:
        end = final.get(character["name"], {})
        team = character["team"]
        standing = not end.get("down", True)
        left[team] += standing
        hp[team] += int(end.get("hp", 0)) if standing else 0
        player = owner.get(character["sheet"])
        if player is not None:
            survivors[player] += standing
    if report.get("seed") != row.get("seed"):
        diags.append(_error(path, "seed-mismatch", f"{battle.battle}: the report's seed {report.get('seed')!r} is not "
                                                   f"the standings' {row.get('seed')!r}"))
    return replace(battle, status="ok", winner=str(row.get("winner", "")), seed=row.get("seed"),
                   turns=int(row.get("turns", 0)), survivors=survivors, left=left, hp=hp, nmr=nmr,
                   report_sha256=hashlib.sha256(raw).hexdigest())


def read_round(tournament: Tournament, number: int) -> tuple[RoundRecord, list[Diagnostic]]:
    """One round as far as its files go (unpaired, paired, or resolved)."""
    spec = tournament.round(number)
    folder, reports = tournament.path(spec.folder), tournament.path(spec.reports)
    paired, diags = read_pairings(folder / PAIRINGS_FILE, number)
    if paired is None:
        return RoundRecord(number), diags
    commitment, secret = "", ""
    if (folder / COMMITMENT_FILE).exists():
        try:
            sealed = read_commitment(folder)
        except ReferError as err:
            diags += err.diagnostics
            sealed = None
        if sealed is not None:
            commitment = sealed.commitment
            revealed, problems = revealed_secret(folder, sealed)
            diags += problems
            secret = revealed.hex() if revealed is not None else ""
    rows = _load_json(reports / "standings.json", diags, "the round's standings.json")
    if not isinstance(rows, dict) or not isinstance(rows.get("battles"), list):
        return replace(paired, commitment=commitment, secret=secret), diags
    by_name = {str(r.get("battle")): r for r in rows["battles"] if isinstance(r, dict)}
    battles = []
    for battle in paired.battles:
        row = by_name.get(battle.battle)
        if row is None:
            diags.append(_error(reports / "standings.json", "battle-missing",
                                f"round {number}'s standings have no row for {battle.battle}",
                                hint=f"run referee batch {spec.folder} again"))
            battles.append(battle)
        else:
            battles.append(_result(battle, row, reports, diags))
    for name in sorted(set(by_name) - {b.battle for b in paired.battles}):
        diags.append(_error(reports / "standings.json", "unknown-battle",
                            f"{name} is in round {number}'s standings but not in its pairings", ))
    return replace(paired, resolved=True, battles=tuple(battles), commitment=commitment, secret=secret), diags


def read_ledger(tournament: Tournament, upto: int | None = None) -> tuple[list[RoundRecord], list[Diagnostic]]:
    """Every round up to ``upto`` (default: all), each as far as it has gone."""
    out: list[RoundRecord] = []
    diags: list[Diagnostic] = []
    for spec in tournament.rounds[: upto if upto is not None else len(tournament.rounds)]:
        record, problems = read_round(tournament, spec.number)
        out.append(record)
        diags += problems
    return out, diags


def _side_json(side: Side) -> dict[str, Any]:
    return {"army": side.army, "players": [{"id": p, "sheets": list(side.sheets.get(p, ()))} for p in side.players]}


def round_json(record: RoundRecord) -> dict[str, Any]:
    battles = []
    for b in record.battles:
        row: dict[str, Any] = {"battle": b.battle, "white": _side_json(b.white), "black": _side_json(b.black),
                               "status": b.status}
        if b.resolved:
            row.update({"winner": b.winner, "seed": b.seed, "turns": b.turns, "survivors": dict(b.survivors),
                        "left": dict(b.left), "hp": dict(b.hp), "report_sha256": b.report_sha256})
        if b.nmr:
            row["nmr"] = [{"player": p, "policy": policy, "detail": d} for p, policy, d in b.nmr]
        battles.append(row)
    return {"round": record.number, "paired": record.paired, "resolved": record.resolved,
            "commitment": record.commitment, "secret": record.secret, "battles": battles,
            "byes": [_side_json(s) for s in record.byes], "left_out": list(record.left_out),
            **({"bracket": [list(p) for p in record.bracket]} if record.bracket else {})}


def ledger_json(rounds: list[RoundRecord]) -> list[dict[str, Any]]:
    """The ledger as JSON data (the ``rounds`` of the standings export)."""
    return [round_json(r) for r in rounds]


def ledger_from_json(data: list[Any]) -> list[RoundRecord]:
    """The ledger back from :func:`ledger_json` (a third party's re-check).

    :raises KeyError, TypeError, ValueError: on anything else.
    """
    out = []
    for r in data:
        battles = []
        for b in r["battles"]:
            battles.append(BattleRecord(
                int(r["round"]), str(b["battle"]), _side(b["white"]), _side(b["black"]), str(b["status"]),
                str(b.get("winner", "")), b.get("seed"), int(b.get("turns", 0)),
                {str(k): int(v) for k, v in b.get("survivors", {}).items()},
                {str(k): int(v) for k, v in b.get("left", {}).items()},
                {str(k): int(v) for k, v in b.get("hp", {}).items()},
                tuple((str(n["player"]), str(n["policy"]), str(n.get("detail", ""))) for n in b.get("nmr", ())),
                str(b.get("report_sha256", ""))))
        out.append(RoundRecord(int(r["round"]), bool(r["paired"]), bool(r["resolved"]), tuple(battles),
                               tuple(_side(s) for s in r["byes"]), tuple(str(p) for p in r["left_out"]),
                               str(r["commitment"]), str(r["secret"]),
                               tuple((p[0], p[1]) for p in r.get("bracket", ()))))
    return out

