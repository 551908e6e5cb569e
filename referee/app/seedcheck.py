"""``referee seeds verify``: anyone's check of a published, committed round.

What a player can check once the organiser has revealed the secret
(:mod:`referee.app.seeds`): the secret hashes to the commitment posted before
the deadline, and every published result used the seed the secret gives its
battle -- each JSON report (``seed``, ``seed_source``, ``seed_commitment``)
and each row of ``standings.json``.  Every mismatch is reported, not the first.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from referee.app.batch import find_battles, report_stem
from referee.app.replay import replay_report
from referee.app.seeds import COMMITMENT_FILE, REVEAL_FILE, battle_seed, read_commitment, revealed_secret
from referee.diagnostics import Diagnostic, ReferError

__all__ = ["RoundCheck", "verify_round"]


@dataclass(frozen=True)
class RoundCheck:
    """The verdict: the diagnostics (empty when the round checks out) and how
    many published seeds were compared."""

    commitment: str
    diagnostics: tuple[Diagnostic, ...]
    checked: int

    @property
    def ok(self) -> bool:
        return not any(d.is_error for d in self.diagnostics)


def _load(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError):
        return None


def _mismatch(file: Path, battle: str, got: Any, want: int) -> Diagnostic:
    return Diagnostic(str(file), 0, 0, "seed-mismatch",
                      f"{battle}: published seed {got!r}, but the revealed secret gives {want}",
                      hint="this battle was not resolved with its committed seed")


def _check_report(path: Path, battle: str, want: int, commitment: str) -> list[Diagnostic]:
    data = _load(path)
    if not isinstance(data, dict):
        return [Diagnostic(str(path), 0, 0, "not-a-report", f"{path} is not a JSON report")]
    out = []
    if data.get("seed") != want:
        out.append(_mismatch(path, battle, data.get("seed"), want))
    sealed = data.get("seed_commitment")
    if data.get("seed_source") != "committed" or not isinstance(sealed, dict) or sealed.get("commitment") != commitment:
        out.append(Diagnostic(str(path), 0, 0, "commitment-mismatch",
                              f"{battle}: the report does not name this round's commitment"))
    return out


def _check_standings(path: Path, seeds: dict[str, int], commitment: str) -> tuple[list[Diagnostic], int]:
    data = _load(path)
    if not isinstance(data, dict) or not isinstance(data.get("battles"), list):
        return [Diagnostic(str(path), 0, 0, "not-standings", f"{path} is not a standings.json")], 0
    out, checked = [], 0
    if data.get("seed_commitment") != commitment:
        out.append(Diagnostic(str(path), 0, 0, "commitment-mismatch",
                              "the standings do not name this round's commitment"))
    for row in data["battles"]:
        battle = str(row.get("battle", "")) if isinstance(row, dict) else ""
        if battle not in seeds:
            out.append(Diagnostic(str(path), 0, 0, "unknown-battle", f"{battle!r} is not a battle of this round"))
            continue
        if row.get("status") == "ok":
            checked += 1
            if row.get("seed") != seeds[battle]:
                out.append(_mismatch(path, battle, row.get("seed"), seeds[battle]))
    return out, checked


def _replayed(report: Path) -> list[Diagnostic]:
    """The report resolved again: a difference means its events or result were edited."""
    try:
        outcome = replay_report(report)
    except ReferError as err:
        return list(err.diagnostics)
    if outcome.identical:
        return []
    return [Diagnostic(str(report), 0, 0, "replay-differs", f"resolved again, the battle {outcome.message}")]


def verify_round(round_dir: str | Path, reports_dir: str | Path | None = None, *,
                 replay: bool = False) -> RoundCheck:
    """Check a revealed round's commitment and every published seed.

    :param reports_dir: where ``referee batch`` wrote the reports (default ``ROUND/reports``).
    :param replay: also resolve each JSON report again from its inputs and
        seed (``referee replay``), so an edited result is caught too.
    :raises ReferError: no commitment, not revealed yet, or a secret that does not match.
    """
    root = Path(round_dir)
    commitment = read_commitment(root)
    if commitment is None:
        raise ReferError([Diagnostic(str(root / COMMITMENT_FILE), 0, 0, "not-committed",
                                     "this round has no seed commitment to verify")])
    # Only the published secret counts here, never the organiser's own copy.
    secret, problems = revealed_secret(root, commitment)
    if problems:
        raise ReferError(problems)
    if secret is None:
        raise ReferError([Diagnostic(str(root / REVEAL_FILE), 0, 0, "not-revealed",
                                     "the organiser has not revealed the secret yet",
                                     hint="after the round: referee seeds reveal ROUND_DIR")])
    reports = Path(reports_dir) if reports_dir is not None else root / "reports"
    seeds = {p.relative_to(root).as_posix(): battle_seed(secret, p.relative_to(root).as_posix())
             for p in find_battles(root) if reports not in p.parents}
    diags: list[Diagnostic] = []
    checked = 0
    for battle, want in seeds.items():
        report = reports / f"{report_stem(battle)}.json"
        if report.is_file():
            diags += _check_report(report, battle, want, commitment.commitment)
            checked += 1
            if replay:
                diags += _replayed(report)
    standings = reports / "standings.json"
    if standings.is_file():
        more, rows = _check_standings(standings, seeds, commitment.commitment)
        diags += more
        checked += rows
    if checked == 0:
        diags.append(Diagnostic(str(reports), 0, 0, "nothing-published",
                                f"no JSON report and no standings.json in {reports} to check",
                                hint="give the folder with --reports"))
    return RoundCheck(commitment.commitment, tuple(diags), checked)
