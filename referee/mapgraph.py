"""The map as a graph: areas, steps, routes, knockback, narrowing.

This is the only module that imports networkx, and no networkx type leaves
it (style lesson 1). A :class:`MapGraph` is built once per map (and once per
narrowing stage, cached) and precomputes everything the engine asks on its hot
path -- all-pairs route lengths, next steps -- into plain dicts and
tuples, so a battle never touches the graph library while it resolves.

Ties are never left to graph iteration order: every function that can return
several squares returns them in canonical order (R-RNG-1) for the caller's
seeded RNG to choose from.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

import networkx as nx  # type: ignore[import-untyped]

from referee.board import Direction, Rect, Square, direction_between, euclidean_sq

__all__ = ["Adjacency", "EAGER_ALL_PAIRS_LIMIT", "Push", "MapGraph", "open_map"]

Adjacency = Literal["king", "rook"]

_KING_STEPS: tuple[tuple[int, int], ...] = tuple((d.dx, d.dy) for d in Direction)
_ROOK_STEPS: tuple[tuple[int, int], ...] = ((0, 1), (1, 0), (0, -1), (-1, 0))


@dataclass(frozen=True, slots=True)
class Push:
    """Where a push ends (R-KNOCK-1..3): ``hit_wall`` means it stayed and takes 1."""

    dest: Square
    hit_wall: bool


#: Maps with at most this many areas (10x10) get every route length computed
#: when their tables are built (8x8: 64 breadth-first searches, about 10 ms
#: once per process). Larger maps (up to 32x32 = 1,024 areas, where all pairs
#: take seconds in networkx) compute one source's row the first time it is
#: asked; either way a route length is then two dict lookups.
EAGER_ALL_PAIRS_LIMIT = 100


class _Tables:
    """Everything derived from one map shape, built once per process.

    A battle builds its own :class:`MapGraph`, and a batch resolves thousands
    of battles on the same map: the shape's tables (adjacency, route lengths,
    memoised steps) are shared by every ``MapGraph`` of that shape
    through :func:`_tables_for`. They are pure functions of the shape, so
    sharing them cannot change an outcome.
    """

    __slots__ = ("squares", "on_map", "neighbours", "graph", "dist", "steps", "restricted", "open")

    def __init__(self, bounds: Rect, kept: Rect, adjacency: Adjacency, blocked: frozenset[Square]) -> None:
        self.squares: tuple[Square, ...] = tuple(
            sq for sq in kept.squares() if bounds.contains(sq) and sq not in blocked
        )
        self.on_map = frozenset(self.squares)
        offsets = _KING_STEPS if adjacency == "king" else _ROOK_STEPS
        self.neighbours: dict[Square, tuple[Square, ...]] = {
            sq: tuple(sorted(n for dx, dy in offsets if (n := sq.offset(dx, dy)) in self.on_map))
            for sq in self.squares
        }
        self.graph = nx.Graph()
        self.graph.add_nodes_from(self.squares)
        self.graph.add_edges_from((sq, n) for sq, ns in self.neighbours.items() for n in ns)
        self.dist: dict[Square, dict[Square, int]] = {}
        #: An open king rectangle (nothing blocked inside what is kept): every
        #: route length is the Chebyshev distance and every next step is the
        #: one (sign dx, sign dy) -- by formula, no tables.
        self.open = adjacency == "king" and len(self.squares) == sum(1 for sq in kept.squares() if bounds.contains(sq))
        if len(self.squares) <= EAGER_ALL_PAIRS_LIMIT and not self.open:
            self.dist = {src: dict(row) for src, row in nx.all_pairs_shortest_path_length(self.graph)}
        self.steps: dict[tuple[Square, Square], tuple[Square, ...]] = {}
        self.restricted: dict[Rect, MapGraph] = {}

    def row(self, src: Square) -> dict[Square, int] | None:
        """Route lengths from ``src`` (None if ``src`` is not on the map)."""
        row = self.dist.get(src)
        if row is None and src in self.on_map:
            row = dict(nx.single_source_shortest_path_length(self.graph, src))
            self.dist[src] = row
        return row


@lru_cache(maxsize=128)
def _tables_for(bounds: Rect, kept: Rect, adjacency: Adjacency, blocked: frozenset[Square]) -> _Tables:
    return _Tables(bounds, kept, adjacency, blocked)


class MapGraph:
    """An immutable map: its areas, their adjacency and the derived geometry.

    Every method is a lookup in tables shared by all maps of the same shape
    (:class:`_Tables`), memoised on first use: the engine asks them thousands
    of times per battle. Every tuple of squares returned is in canonical
    order (R-RNG-1).

    Degenerate maps work like any other: on 1x1 every range is the one
    square, no step leads anywhere (``next_steps`` is empty) and every push
    hits the wall; a map narrowed to one square behaves the same.

    :param width: files, 1..32.
    :param height: ranks, 1..32.
    :param adjacency: ``"king"`` (8-way, TCGT) or ``"rook"`` (4-way, R-VAR-ORM).
    :param blocked: squares that are not areas of the map at all (each must
        lie inside ``width`` x ``height``).
    :param kept: when narrowed, the rectangle still on the map (R-NARROW-4);
        normally reached through :meth:`restricted_to`.
    :raises ValueError: for a size outside 1..32, an unknown adjacency, a
        blocked square off the map, or a kept rectangle outside it.
    """

    __slots__ = ("width", "height", "adjacency", "blocked", "bounds", "kept", "squares", "_t", "_on_map", "_open",
                 "_box")

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
        self.bounds = Rect.of_map(width, height)
        self.blocked = frozenset(blocked)
        off_map = sorted(sq for sq in self.blocked if not self.bounds.contains(sq))
        if off_map:
            raise ValueError(f"blocked squares {off_map} are not on the {width}x{height} map")
        if kept is not None and self.bounds.intersection(kept) != kept:
            raise ValueError(f"kept rectangle {kept!r} is not inside the {width}x{height} map")
        self.kept = kept if kept is not None else self.bounds
        self._t = _tables_for(self.bounds, self.kept, adjacency, self.blocked)
        self.squares: tuple[Square, ...] = self._t.squares
        self._on_map = self._t.on_map
        self._open = self._t.open
        #: The kept rectangle's corners (min file, min rank, max file, max
        #: rank): on an open map its areas are exactly the map's (see
        #: _Tables.open; kept lies inside the bounds), so "on the map" is four
        #: integer comparisons.
        k = self.kept
        self._box = (k.min_file, k.min_rank, k.max_file, k.max_rank)

    def __repr__(self) -> str:
        return f"MapGraph({self.width}x{self.height}, {self.adjacency}, kept={self.kept})"

    # ------------------------------------------------------------------ basics
    def contains(self, square: Square) -> bool:
        """True if ``square`` is an area of this map (not off it, blocked or removed)."""
        return square in self._on_map

    def neighbours(self, square: Square) -> tuple[Square, ...]:
        """Adjacent areas, canonical order (one legal move each, R-MOVE-1)."""
        return self._t.neighbours.get(square, ())

    def distance(self, a: Square, b: Square) -> int | None:
        """Route length in steps on this map; None if either is off it or unreachable.

        On an open king map this equals the Chebyshev distance; on
        blocked, narrowed or 4-way maps it is the walk around.
        """
        if self._open:  # Chebyshev on an open king rectangle (see _Tables.open), on-map tests by _box
            x0, y0, x1, y1 = self._box
            af, ar, bf, br = a.file, a.rank, b.file, b.rank
            if x0 <= af <= x1 and y0 <= ar <= y1 and x0 <= bf <= x1 and y0 <= br <= y1:
                dx = af - bf if af > bf else bf - af
                dy = ar - br if ar > br else br - ar
                return dx if dx > dy else dy
            return None
        row = self._t.dist.get(a)
        if row is None:
            row = self._t.row(a)
            if row is None:
                return None
        return row.get(b)

    # ------------------------------------------------------------------ movement
    def next_steps(self, src: Square, dst: Square) -> tuple[Square, ...]:
        """R-MOVE-5: the candidate next squares from ``src`` toward ``dst``.

        Among the neighbours that stay on a shortest route (graph distance),
        those ending nearest ``dst`` in straight-line distance. On an open
        king rectangle that is the single step (sign dx, sign dy) -- "diagonal
        approach first". More than one only when truly tied (blocked maps,
        4-way maps); canonical order, for the caller's RNG (R-RNG-1). Empty
        when ``src == dst``, when either is off the map, or when ``dst``
        cannot be reached. Whether to stop early (in range, engaged) is the
        caller's rule (R-MOVE-6/8).
        """
        if self._open:
            # On an open king rectangle the step (sign dx, sign dy) is the only
            # neighbour minimising each coordinate's remaining gap, so it is
            # on a shortest route and strictly nearest dst (a test compares
            # this with the tables on every pair of a narrowed map too).
            x0, y0, x1, y1 = self._box  # on the map: see distance
            sf, sr, df, dr = src.file, src.rank, dst.file, dst.rank
            if not (x0 <= sf <= x1 and y0 <= sr <= y1 and x0 <= df <= x1 and y0 <= dr <= y1):
                return ()
            dx, dy = df - sf, dr - sr
            if not dx and not dy:  # src == dst
                return ()
            return (src.offset((dx > 0) - (dx < 0), (dy > 0) - (dy < 0)),)
        key = (src, dst)
        hit = self._t.steps.get(key)
        if hit is not None:
            return hit
        total = self.distance(src, dst)
        if not total:
            result: tuple[Square, ...] = ()
        else:
            # Distances *to* dst: the graph is undirected, so read dst's row.
            to_dst = self._t.row(dst)
            assert to_dst is not None  # dst is reachable, hence on the map
            on_route = [n for n in self.neighbours(src) if to_dst.get(n) == total - 1]
            best = min(euclidean_sq(n, dst) for n in on_route)
            result = tuple(n for n in on_route if euclidean_sq(n, dst) == best)
        self._t.steps[key] = result
        return result

    # ------------------------------------------------------------------ knockback
    def knockback(self, attacker: Square, target: Square, direction: Direction | None = None) -> Push:
        """R-KNOCK-1..3: where a push from ``attacker`` leaves ``target``.

        The push is one area directly away from the attacker, (sign dx, sign
        dy) from attacker to target, whatever the distance between them. From
        the same area the caller draws ``direction`` (R-KNOCK-2, ``DIRECTIONS``
        order). A ``direction`` given for different squares overrides the
        geometry (an Aqua Form answer, say). A push onto anything not on this
        map -- past the edge, a blocked area, an area removed by narrowing --
        leaves the target in place against the wall (R-KNOCK-3); a diagonal
        push along an edge hits the wall too, it never slides.

        :raises ValueError: if the squares are equal and no direction is given.
        """
        if direction is None:
            direction = direction_between(attacker, target)
            if direction is None:
                raise ValueError("knockback from the same area needs a drawn direction (R-KNOCK-2)")
        dest = target.offset(direction.dx, direction.dy)
        if dest in self._on_map:
            return Push(dest, False)
        return Push(target, True)

    # ------------------------------------------------------------------ narrowing
    def restricted_to(self, rect: Rect) -> MapGraph:
        """R-NARROW-4: this map with every area outside ``rect`` removed.

        What is already removed stays removed (the result keeps the overlap
        of ``rect`` and this map's kept rectangle). Built once per stage and
        cached, so every battle reaching that stage shares it.

        :raises ValueError: when ``rect`` does not overlap what is left.
        """
        hit = self._t.restricted.get(rect)
        if hit is None:
            overlap = self.kept.intersection(rect)
            if overlap is None:
                raise ValueError(f"narrowing to {rect} would leave nothing of {self.kept}")
            hit = MapGraph(self.width, self.height, self.adjacency, self.blocked, kept=overlap)
            self._t.restricted[rect] = hit
        return hit

    def clamp(self, square: Square) -> Square:
        """R-NARROW-2/4: the kept area a removed square's occupant is pushed to.

        Coordinates clamped into the kept rectangle. Known limit: a blocked
        area inside the kept rectangle is not avoided, so on a variant map
        that both blocks areas and narrows, a push-in square could be blocked
        (no built-in ruleset does both; see docs/decisions.md).
        """
        return self.kept.clamp(square)


@lru_cache(maxsize=16)
def open_map(width: int = 8, height: int = 8, adjacency: Adjacency = "king") -> MapGraph:
    """A shared, cached map with no blocked area (the common case)."""
    return MapGraph(width, height, adjacency)
