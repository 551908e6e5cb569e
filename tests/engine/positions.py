"""Bare positions for property tests of the engine's plain functions: a
state of characters on squares, and a resolution around it with a probe RNG
that records every draw -- real engine objects, nothing patched."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from hypothesis import strategies as st

from referee.board import Square
from referee.engine.clauses import PlanRules
from referee.engine.core import Resolution
from referee.engine.mechanics.metric import Chebyshev, RangeMetric
from referee.engine.mechanics.registry import build_mechanics
from referee.engine.state import BLACK, WHITE, BattleState, Fighter
from referee.mapgraph import MapGraph

from .helpers import ruleset


@dataclass(frozen=True)
class Piece:
    """One character of a drawn position."""

    team: str
    square: Square
    hp: int
    max_hp: int


def pieces(size: int = 8, most: int = 12) -> st.SearchStrategy[list[Piece]]:
    """One to ``most`` characters of both armies on a ``size`` x ``size``
    map, several to an area allowed, HP 1..max."""
    def piece(max_hp: int) -> st.SearchStrategy[Piece]:
        return st.builds(Piece, st.sampled_from((WHITE, BLACK)),
                         st.builds(Square, st.integers(0, size - 1), st.integers(0, size - 1)),
                         st.integers(1, max_hp), st.just(max_hp))
    return st.lists(st.integers(1, 12).flatmap(piece), min_size=1, max_size=most)


def position(drawn: Sequence[Piece], *, size: int = 8, metric: RangeMetric = Chebyshev()) -> BattleState:
    """The state of ``drawn``, in roster order (names ``c0``, ``c1``, ...)."""
    fighters = [Fighter(f"c{i}", p.team, i, 3, p.max_hp, p.hp, p.square, (), (), PlanRules())
                for i, p in enumerate(drawn)]
    return BattleState(fighters, MapGraph(size, size), metric)


class Probe:
    """An ``Rng`` answering each choice with ``answer`` (modulo its size),
    recording (stream, n) for every draw R-RNG-1 makes."""

    def __init__(self, answer: int = 0) -> None:
        self.answer = answer
        self.asked: list[tuple[str, int]] = []

    def randrange(self, stream: str, n: int) -> int:
        if n <= 1:
            return 0
        self.asked.append((stream, n))
        return self.answer % n

    def chance(self, stream: str, p: Fraction | float) -> bool:
        self.asked.append((stream, 0))
        return True

    def die(self, stream: str, faces: int) -> int:
        return 1 + self.randrange(stream, faces)

    def dice(self, stream: str, faces: int, count: int) -> tuple[int, ...]:
        return tuple(self.die(stream, faces) for _ in range(count))


def resolution(state: BattleState, rng: Probe, ruleset_name: str = "tcgt") -> Resolution:
    rs = ruleset(ruleset_name)
    return Resolution(state, rs, build_mechanics(rs.mechanics), rng)
