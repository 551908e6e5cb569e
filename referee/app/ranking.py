"""Points and tie-breaks: the tournament's standings from its ledger.

Scoring is per player and per army (docs/tournament.md, "Points"):

- a battle's side scores ``win``, ``draw`` or ``loss``; a bye scores ``bye``
  (for the army and each of its players who play that round); a battle a
  side forfeited is a loss for it and a win for the other (both forfeited:
  both lose);
- a player whose missing plan was replaced (NMR ``reuse-last`` or
  ``default-plan``) adds ``nmr`` to the result; one who forfeited (NMR
  ``forfeit``) scores ``forfeit`` instead of the result.  An army adds or
  takes those only when every one of its players that battle did;
- a battle that did not resolve scores nothing, and is listed.

Tie-breaks, in the declared order after points: ``opponents-points``
(the points of every army met, byes not counted), ``survivors`` (a
player's own characters still standing at the end of each battle; an
army's all), ``hp-margin`` (the army's HP left less the other army's, per
battle), ``head-to-head`` (points scored against the others of the tied
group) and ``lot``: the first 8 hex digits of ``HMAC-SHA256(secret,
"lot/KIND/ID")``, lowest first, where the secret is the one revealed for
the last round counted -- fixed before anyone could know who would be tied,
and *undecided* until it is revealed.
"""

from __future__ import annotations

import hashlib
import hmac
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Mapping, Sequence

from referee.app.ledger import BattleRecord, RoundRecord
from referee.app.tournament import Points

__all__ = ["Entry", "Standings", "rank", "lot_value", "Rules"]


@dataclass(frozen=True)
class Rules:
    """What the standings need of the tournament: points, tie-breaks, and
    who is who (army of each player, roster order of each table)."""

    points: Points
    tiebreaks: tuple[str, ...]
    players: tuple[str, ...]
    armies: tuple[str, ...]
    army_of: Mapping[str, str]


@dataclass
class Entry:
    """One row of a table (a player or an army) with every value shown."""

    kind: str
    id: str
    points: int = 0
    played: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    byes: int = 0
    forfeits: int = 0
    nmrs: int = 0
    opponents: list[str] = field(default_factory=list)
    survivors: int = 0
    hp_margin: int = 0
    vs: dict[str, int] = field(default_factory=dict)
    values: dict[str, Any] = field(default_factory=dict)
    rank: int = 0
    tied: bool = False

    def record(self) -> str:
        return f"{self.wins}-{self.draws}-{self.losses}"


@dataclass(frozen=True)
class Standings:
    """Both tables after ``upto`` rounds, best first; ``unresolved``: battles
    that did not resolve (no points); ``lot_secret``: empty when undecided."""

    upto: int
    players: tuple[Entry, ...]
    armies: tuple[Entry, ...]
    unresolved: tuple[BattleRecord, ...]
    lot_secret: str


def lot_value(secret_hex: str, kind: str, ident: str) -> str:
    """The lot of one player or army: 8 hex digits of HMAC-SHA256 of the
    revealed secret, lowest first; ``""`` while the secret is unrevealed.

    >>> lot_value("00" * 32, "player", "alice") == lot_value("00" * 32, "player", "alice")
    True
    """
    if not secret_hex:
        return ""
    return hmac.new(bytes.fromhex(secret_hex), f"lot/{kind}/{ident}".encode(), hashlib.sha256).hexdigest()[:8]


def _result_points(points: Points, winner: str, team: str) -> int:
    return points.draw if winner == "draw" else points.win if winner == team else points.loss


def rank(rules: Rules, rounds: Sequence[RoundRecord], upto: int | None = None) -> Standings:
    """The standings after the first ``upto`` rounds (default: every round given)."""
    count = len(rounds) if upto is None else upto
    counted = [r for r in rounds[:count] if r.paired]
    players = {p: Entry("player", p) for p in rules.players}
    armies = {a: Entry("army", a) for a in rules.armies}
    unresolved = []
    p = rules.points
    for record in counted:
        for side in record.byes:
            armies[side.army].byes += 1
            armies[side.army].points += p.bye
            for pid in side.players:
                players[pid].byes += 1
                players[pid].points += p.bye
        for battle in record.battles:
            if not battle.resolved:
                unresolved.append(battle)
                continue
            nmr = {pid: policy for pid, policy, _ in battle.nmr}
            for team in ("white", "black"):
                side, other = battle.side(team), battle.side("black" if team == "white" else "white")
                base = _result_points(p, battle.winner, team)
                margin = battle.hp.get(team, 0) - battle.hp.get("black" if team == "white" else "white", 0)
                scored: list[int] = []
                for pid in side.players:
                    policy = nmr.get(pid)
                    got = p.forfeit if policy == "forfeit" else base + (p.nmr if policy else 0)
                    scored.append(got)
                    e = players[pid]
                    _count(e, battle.winner, team, got, other.army, policy)
                    e.survivors += battle.survivors.get(pid, 0)
                    e.hp_margin += margin
                policies = {nmr.get(pid) for pid in side.players}
                army_got = (p.forfeit if policies == {"forfeit"} else
                            base + p.nmr if len(policies) == 1 and None not in policies else base)
                a = armies[side.army]
                _count(a, battle.winner, team, army_got, other.army,
                       next(iter(policies)) if len(policies) == 1 else None)
                a.survivors += battle.left.get(team, 0)
                a.hp_margin += margin
    secret = counted[-1].secret if counted and count == len(counted) else ""
    army_points = {a.id: a.points for a in armies.values()}
    return Standings(count, _ordered(players.values(), rules, army_points, secret, rules.army_of),
                     _ordered(armies.values(), rules, army_points, secret, {a: a for a in rules.armies}),
                     tuple(unresolved), secret)


def _count(e: Entry, winner: str, team: str, got: int, opponent: str, policy: str | None) -> None:
    e.points += got
    e.played += 1
    e.wins += winner == team
    e.draws += winner == "draw"
    e.losses += winner not in (team, "draw")
    e.forfeits += policy == "forfeit"
    e.nmrs += policy in ("reuse-last", "default-plan")
    e.opponents.append(opponent)
    e.vs[opponent] = e.vs.get(opponent, 0) + got


def _ordered(entries: Iterable[Entry], rules: Rules, army_points: Mapping[str, int], secret: str,
             army_of: Mapping[str, str]) -> tuple[Entry, ...]:
    """Sort by each tie-break in turn, within the groups the earlier ones
    left tied; record every value shown; number the ranks (ties share one)."""
    order = {x: i for i, x in enumerate((*rules.players, *rules.armies))}
    rows = sorted(entries, key=lambda e: order.get(e.id, 0))
    plain: dict[str, Callable[[Entry], Any]] = {
        "points": lambda e: e.points,
        "opponents-points": lambda e: sum(army_points[o] for o in e.opponents),
        "survivors": lambda e: e.survivors,
        "hp-margin": lambda e: e.hp_margin,
        "lot": lambda e: lot_value(secret, e.kind, e.id),
    }
    for e in rows:
        for name, value in plain.items():
            if name in rules.tiebreaks:
                e.values[name] = value(e)
    groups = [rows]
    for name in rules.tiebreaks:
        refined = []
        for group in groups:
            if len(group) == 1:
                refined.append(group)
                continue
            if name == "head-to-head":
                armies = {army_of[e.id] for e in group}
                for e in group:
                    e.values[name] = sum(v for o, v in e.vs.items() if o in armies and o != army_of[e.id])
            if name == "lot" and not secret:
                refined.append(group)  # undecided until the secret is revealed
                continue
            sign = 1 if name == "lot" else -1
            keyed = sorted(group, key=lambda e: _signed(e.values[name], sign))
            run = [keyed[0]]
            for e in keyed[1:]:
                if e.values[name] == run[-1].values[name]:
                    run.append(e)
                else:
                    refined.append(run)
                    run = [e]
            refined.append(run)
        groups = refined
    out: list[Entry] = []
    for group in groups:
        start = len(out) + 1
        for e in group:
            e.rank, e.tied = start, len(group) > 1
            out.append(e)
    return tuple(out)


def _signed(value: Any, sign: int) -> Any:
    return value if sign > 0 else -value
