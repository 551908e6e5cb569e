"""Pairings: who fights whom in the next round, from the standings so far.

Three formats (docs/tournament.md, "Pairings"):

- **swiss** -- a maximum-weight matching (``networkx.max_weight_matching``,
  maximum cardinality) over the armies in standings order, where an edge
  weighs a constant less its declared cost: ``score`` per square of the
  points between the two, ``rematch`` per earlier meeting, ``side`` per game
  of White/Black imbalance the better orientation leaves, and 1 per place
  between them in the standings (so equal costs pair neighbours, the same
  way every time).  With an odd number of armies a bye node joins the graph:
  an army that had a bye may take it only at a cost above any other, so a
  second bye comes only when every army has had one; among the others the
  cost rises with the points, so the lowest-placed takes it.
- **round-robin** -- the circle method over the armies in roster order;
  the opponent of a withdrawn army has a bye.
- **single-elimination** -- a bracket of the next power of two, seeds in
  roster order (1 v 16, 8 v 9, ...), the top seeds take the byes; each later
  round pairs the previous round's advancers in bracket order.

Every function here is pure: the same records give the same pairing.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Mapping, Sequence

import networkx as nx  # type: ignore[import-untyped]

from referee.app.tournament import Costs

__all__ = ["ArmyRecord", "Pairing", "pair_swiss", "pair_round_robin", "bracket_order", "pair_elimination",
           "NEIGHBOURS"]

#: How many armies above and below in the standings, not met before, each
#: army is joined to in the swiss graph (with every army between them).
#: Up to 2 x this + 1 armies the graph is complete and the matching exact;
#: beyond, the matching's work grows with the field, not with its square.
NEIGHBOURS = 32

#: The cost of a second bye: above any sum of declared costs (they are
#: capped by the schema), so it is taken only when nothing else is possible.
SECOND_BYE = 10 ** 18


@dataclass(frozen=True)
class ArmyRecord:
    """What the pairing reads of one active army: its points, who it met
    (army id -> battles), its games as White and as Black, its byes."""

    id: str
    points: int = 0
    met: Mapping[str, int] = field(default_factory=dict)
    whites: int = 0
    blacks: int = 0
    byes: int = 0


@dataclass(frozen=True)
class Pairing:
    """One round: ``battles`` as ``(white, black)`` army ids in table order,
    and the armies with a bye."""

    battles: tuple[tuple[str, str], ...]
    byes: tuple[str, ...] = ()


def _oriented(a: ArmyRecord, b: ArmyRecord, round_number: int) -> tuple[tuple[str, str], int]:
    """``(white, black)`` for two armies and the side imbalance it leaves:
    the orientation that leaves less; on equal terms the army that has been
    White less often, then the higher-placed (``a``) in odd rounds."""
    def imbalance(white: ArmyRecord, black: ArmyRecord) -> int:
        return abs(white.whites + 1 - white.blacks) + abs(black.whites - black.blacks - 1)

    one, two = imbalance(a, b), imbalance(b, a)
    if one != two:
        return ((a.id, b.id), one) if one < two else ((b.id, a.id), two)
    if a.whites != b.whites:
        return ((a.id, b.id), one) if a.whites < b.whites else ((b.id, a.id), one)
    return ((a.id, b.id), one) if round_number % 2 else ((b.id, a.id), one)


def pair_swiss(standing: Sequence[ArmyRecord], costs: Costs, round_number: int) -> Pairing:
    """Pair the active armies, given in standings order (best first).

    Tables are numbered by the better-placed army of each battle."""
    n = len(standing)
    place = {r.id: i for i, r in enumerate(standing)}
    graph = nx.Graph()
    graph.add_nodes_from(range(n))
    edges: dict[tuple[int, int], int] = {}
    for i, a in enumerate(standing):
        for step in (1, -1):
            fresh, j = 0, i + step
            while 0 <= j < n and fresh < NEIGHBOURS:
                fresh += standing[j].id not in a.met
                key = (min(i, j), max(i, j))
                if key not in edges:
                    b = standing[j]
                    _, sides = _oriented(a, b, round_number)
                    edges[key] = (costs.score * (a.points - b.points) ** 2 + costs.rematch * a.met.get(b.id, 0)
                                  + costs.side * sides + abs(i - j))
                j += step
    bye = n if n % 2 else None
    if bye is not None:
        low = min((r.points for r in standing), default=0)
        for i, r in enumerate(standing):
            edges[(i, bye)] = SECOND_BYE * r.byes + costs.score * (r.points - low) ** 2 + (n - i)
    top = max(edges.values(), default=0) + 1
    for (i, j), cost in sorted(edges.items()):
        graph.add_edge(i, j, weight=top - cost)
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    battles, byes = [], []
    for i, j in sorted((min(e), max(e)) for e in matching):
        if j == bye:
            byes.append(standing[i].id)
        else:
            battles.append(_oriented(standing[i], standing[j], round_number)[0])
    battles.sort(key=lambda wb: min(place[wb[0]], place[wb[1]]))
    return Pairing(tuple(battles), tuple(byes))


def pair_round_robin(armies: Sequence[str], round_number: int, active: Callable[[str], bool]) -> Pairing:
    """Round ``round_number`` of the circle method over ``armies`` (roster
    order; a phantom makes an odd number even).  Sides alternate with the
    round for the fixed army and by table for the rest."""
    slots: list[str | None] = list(armies) + ([None] if len(armies) % 2 else [])
    n = len(slots)
    rotation = (round_number - 1) % (n - 1)
    rest = slots[1:]
    turned = rest[-rotation:] + rest[:-rotation] if rotation else rest
    circle = [slots[0], *turned]
    battles, byes = [], []
    for table in range(n // 2):
        a, b = circle[table], circle[n - 1 - table]
        if (table == 0 and round_number % 2 == 0) or (table > 0 and table % 2 == 1):
            a, b = b, a
        live = [x for x in (a, b) if x is not None and active(x)]
        if len(live) == 2 and a is not None and b is not None:
            battles.append((a, b))
        elif len(live) == 1:
            byes.append(live[0])
    return Pairing(tuple(battles), tuple(byes))


def bracket_order(size: int) -> list[int]:
    """The seeds (1-based) of a bracket of ``size`` slots in slot order, so
    that seed 1 meets seed 2 only in the final.

    >>> bracket_order(8)
    [1, 8, 4, 5, 2, 7, 3, 6]
    """
    order = [1]
    while len(order) < size:
        total = 2 * len(order) + 1
        order = [x for seed in order for x in (seed, total - seed)]
    return order


def pair_elimination(entrants: Sequence[str | None], round_number: int) -> tuple[Pairing, list[list[str | None]]]:
    """A round of a bracket: ``entrants`` in slot order (``None``: an empty
    slot or a withdrawn army); consecutive slots meet.  Returns the pairing
    and the bracket (the pairs in slot order, which the next round reads).
    Sides: the upper slot is White in odd rounds."""
    bracket = [[entrants[i], entrants[i + 1]] for i in range(0, len(entrants), 2)]
    battles, byes = [], []
    for a, b in bracket:
        if a is not None and b is not None:
            battles.append((a, b) if round_number % 2 else (b, a))
        elif a is not None or b is not None:
            byes.append(a if a is not None else b)
    return Pairing(tuple(battles), tuple(x for x in byes if x is not None)), bracket
