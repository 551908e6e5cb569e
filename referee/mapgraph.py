"""The map as a graph: ranges, routes, knockback, extension groups, narrowing.

This is the only module that imports networkx, and no networkx type leaves
it (style lesson 1). A :class:`MapGraph` is built once per map (and once per
narrowing stage, cached) and precomputes everything the engine asks on its hot
path -- all-pairs route lengths, ranges, next steps -- into plain dicts and
tuples, so a battle never touches the graph library while it resolves.

Ties are never left to graph iteration order: every function that can return
several squares returns them in canonical order (R-RNG-1) for the caller's
seeded RNG to choose from.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Hashable, Literal, Sequence, TypeVar

import networkx as nx  # type: ignore[import-untyped]

from referee.board import (
    Direction,
    Rect,
    Square,
    chebyshev,
    direction_between,
    euclidean_sq,
)

Adjacency = Literal["king", "rook"]
K = TypeVar("K", bound=Hashable)

_KING_STEPS: tuple[tuple[int, int], ...] = tuple((d.dx, d.dy) for d in Direction)
_ROOK_STEPS: tuple[tuple[int, int], ...] = ((0, 1), (1, 0), (0, -1), (-1, 0))


@dataclass(frozen=True, slots=True)
class Knockback:
    """Where a push ends (R-KNOCK-1..3): ``hit_wall`` means it stayed and takes 1."""

    dest: Square
    hit_wall: bool


class MapGraph:
    """An immutable map: its areas, their adjacency and the derived geometry.

    :param width: files, 1..32.
    :param height: ranks, 1..32.
    :param adjacency: ``"king"`` (8-way, TCGT) or ``"rook"`` (4-way, R-VAR-ORM).
    :param blocked: squares that are not areas of the map at all.
    :param kept: when narrowed, the rectangle still on the map (R-NARROW-4).
    """

    def __init__(
        self,
        width: int = 8,
        height: int = 8,
        adjacency: Adjacency = "king",
        blocked: frozenset[Square] = frozenset(),
        kept: Rect | None = None,
    ) -> None:
        if adjacency not in ("king", "rook"):
            raise ValueError(f"adjacency must be 'king' or 'rook', not {adjacency!r}")
        self.width = width
        self.height = height
        self.adjacency: Adjacency = adjacency
        self.blocked = frozenset(blocked)
        self.bounds = Rect.of_map(width, height)
        self.kept = kept if kept is not None else self.bounds
        self.squares: tuple[Square, ...] = tuple(
            sq for sq in self.kept.squares() if self.bounds.contains(sq) and sq not in self.blocked
        )
        self._on_map = frozenset(self.squares)
        steps = _KING_STEPS if adjacency == "king" else _ROOK_STEPS
        self._neighbours: dict[Square, tuple[Square, ...]] = {
            sq: tuple(sorted(n for dx, dy in steps if (n := sq.offset(dx, dy)) in self._on_map))
            for sq in self.squares
        }
        self._graph = nx.Graph()
        self._graph.add_nodes_from(self.squares)
        self._graph.add_edges_from((sq, n) for sq, ns in self._neighbours.items() for n in ns)
        # Route lengths, one breadth-first row per source the first time it is
        # asked: 64 rows on 8x8 cost nothing, and a 32x32 map never pays for
        # the million pairs it does not use.
        self._dist: dict[Square, dict[Square, int]] = {}
        self._range_cache: dict[tuple[Square, int], tuple[Square, ...]] = {}
        self._step_cache: dict[tuple[Square, Square], tuple[Square, ...]] = {}
        self._restricted: dict[Rect, MapGraph] = {}

    def __repr__(self) -> str:
        return f"MapGraph({self.width}x{self.height}, {self.adjacency}, kept={self.kept})"

    # ------------------------------------------------------------------ basics
    def contains(self, square: Square) -> bool:
        """True if ``square`` is an area of this map (not off it, blocked or removed)."""
        return square in self._on_map

    def neighbours(self, square: Square) -> tuple[Square, ...]:
        """Adjacent areas, canonical order (one legal move each, R-MOVE-1)."""
        return self._neighbours.get(square, ())

    def distance(self, a: Square, b: Square) -> int | None:
        """Route length in steps on this map; None if either is off it or unreachable."""
        row = self._dist.get(a)
        if row is None:
            if a not in self._on_map:
                return None
            row = dict(nx.single_source_shortest_path_length(self._graph, a))
            self._dist[a] = row
        return row.get(b)

    # ------------------------------------------------------------------ range
    def within_range(self, square: Square, r: int) -> tuple[Square, ...]:
        """R-RANGE-1: every area within Chebyshev distance ``r``, canonical order.

        Range 0 is the own area, 1 the 3x3 block, 2 the 5x5 block, cut at the
        map's edge (and at removed or blocked areas).
        """
        key = (square, r)
        hit = self._range_cache.get(key)
        if hit is None:
            hit = tuple(
                Square(f, rk)
                for rk in range(square.rank - r, square.rank + r + 1)
                for f in range(square.file - r, square.file + r + 1)
                if Square(f, rk) in self._on_map
            )
            self._range_cache[key] = hit
        return hit

    # ------------------------------------------------------------------ movement
    def next_steps(self, src: Square, dst: Square) -> tuple[Square, ...]:
        """R-MOVE-5: the candidate next squares from ``src`` toward ``dst``.

        Among the neighbours that stay on a shortest route, those ending
        nearest ``dst`` in straight-line distance. On an open rectangle that is
        the single step (sign dx, sign dy) -- "diagonal approach first". More
        than one only when truly tied (blocked maps, 4-way maps); canonical
        order for the caller's RNG. Empty when ``src == dst`` or unreachable.
        """
        key = (src, dst)
        hit = self._step_cache.get(key)
        if hit is not None:
            return hit
        total = self.distance(src, dst)
        if not total:
            result: tuple[Square, ...] = ()
        else:
            # Distances *to* dst: the graph is undirected, so read dst's row once.
            on_route = [n for n in self.neighbours(src) if self.distance(dst, n) == total - 1]
            best = min(euclidean_sq(n, dst) for n in on_route)
            result = tuple(n for n in on_route if euclidean_sq(n, dst) == best)
        self._step_cache[key] = result
        return result

    # ------------------------------------------------------------------ knockback
    def knockback(self, attacker: Square, target: Square, direction: Direction | None = None) -> Knockback:
        """R-KNOCK-1..3: where a push from ``attacker`` leaves ``target``.

        The push is one area directly away from the attacker, (sign dx, sign
        dy). From the same area the caller draws ``direction`` (R-KNOCK-2). A
        push onto anything not on this map -- past the edge, a blocked area, an
        area removed by narrowing -- leaves the target in place against the
        wall (R-KNOCK-3).

        :raises ValueError: if the squares are equal and no direction is given.
        """
        if direction is None:
            direction = direction_between(attacker, target)
            if direction is None:
                raise ValueError("knockback from the same area needs a drawn direction (R-KNOCK-2)")
        dest = target.offset(direction.dx, direction.dy)
        if dest in self._on_map:
            return Knockback(dest, False)
        return Knockback(target, True)

    # ------------------------------------------------------------------ narrowing
    def restricted_to(self, rect: Rect) -> MapGraph:
        """R-NARROW-4: the map with every area outside ``rect`` removed (cached)."""
        hit = self._restricted.get(rect)
        if hit is None:
            hit = _restricted_map(self.width, self.height, self.adjacency, self.blocked, rect)
            self._restricted[rect] = hit
        return hit

    def clamp(self, square: Square) -> Square:
        """R-NARROW-2/4: the kept area a removed square's occupant is pushed to."""
        return self.kept.clamp(square)


@lru_cache(maxsize=64)
def _restricted_map(width: int, height: int, adjacency: Adjacency, blocked: frozenset[Square], rect: Rect) -> MapGraph:
    return MapGraph(width, height, adjacency, blocked, kept=rect)


@lru_cache(maxsize=16)
def open_map(width: int = 8, height: int = 8, adjacency: Adjacency = "king") -> MapGraph:
    """A shared, cached map with no blocked area (the common case)."""
    return MapGraph(width, height, adjacency)


def kept_rect_for_stage(width: int, height: int, stage: int) -> Rect:
    """The generic narrowing schedule: stage ``k`` keeps the map inset by ``k``.

    On 8x8 stage 1 keeps b2-g7, 2 c3-f6, 3 d4-e5 (R-NARROW-1); a side too
    short to shrink keeps its central one or two lines (see :meth:`Rect.inset`).
    """
    return Rect.of_map(width, height).inset(stage)


def extension_group(
    user_square: Square,
    primary_square: Square,
    skill_range: int,
    user_engaged: bool,
    candidates: Sequence[tuple[K, Square]],
) -> tuple[K, ...]:
    """R-EXT-8: the keys of ``candidates`` that R-EXT-2..5 allow as extra targets.

    ``candidates`` are (key, square) pairs in roster order; the caller leaves
    out the user (R-EXT-5: never in its own group) and the primary target. A
    candidate qualifies when it is within the skill's range of the user
    (R-EXT-2) and within distance 1 of the primary (R-EXT-2) -- with range 0,
    only in the same area (R-EXT-3). While the user is engaged every target,
    the primary included, must be in the user's own area (R-EXT-4): if the
    primary is elsewhere the group is empty, and the caller may still make an
    unextended use.
    """
    if user_engaged:
        if primary_square != user_square:
            return ()
        return tuple(key for key, sq in candidates if sq == user_square)
    if skill_range == 0:
        return tuple(key for key, sq in candidates if sq == primary_square and sq == user_square)
    return tuple(
        key
        for key, sq in candidates
        if chebyshev(user_square, sq) <= skill_range and chebyshev(primary_square, sq) <= 1
    )
