"""Range metrics (R-RANGE-1): the one distance every range, reach, ``in
range`` condition and extension group is read in.

The engine never computes a distance for a range itself; it asks the battle's
metric (``BattleState.metric``), so a ruleset naming another metric
(``range: {kind: manhattan}``, variant-orm.md) changes every one of those
places at once.  Route lengths for movement are the ``movement`` mechanic's.
"""

from __future__ import annotations

from typing import Protocol

from referee.board import Square

__all__ = ["RangeMetric", "Chebyshev"]


class RangeMetric(Protocol):
    """A distance between two areas, and ``within r`` in that distance.

    A metric never reaches beyond the Chebyshev box: ``in_range(a, b, r)``
    implies the file and rank gaps are both at most ``r`` (range scans read
    only that box of the occupancy index, ``BattleState.near``, issue 18;
    tests/engine/test_state_index.py checks every registered metric)."""

    def distance(self, a: Square, b: Square) -> int:
        """Distance from ``a`` to ``b`` (0 for the same area)."""
        ...

    def in_range(self, a: Square, b: Square, r: int) -> bool:
        """Whether ``b`` is within ``r`` of ``a`` (R-RANGE-1)."""
        ...

    @property
    def box_is_range(self) -> bool:
        """The promise that ``in_range(a, b, r)`` holds exactly when the file
        and rank gaps are both at most ``r``: then what the occupancy index
        returns for that box (``BattleState.near``) needs no ``in_range``
        call per character (issue 18).  Since ``in_range(a, b, r)`` is
        ``distance(a, b) <= r``, the promise also makes ``distance`` the
        Chebyshev distance, and the keys of a use's candidates compute it
        inline (``targeting.distances``; tests/engine/test_use_costs.py
        holds every registered metric to it).  tcgt (Chebyshev): True."""
        ...


class Chebyshev:
    """tcgt (R-RANGE-1): range 0 is the own area, 1 the 3x3 block around it, 2
    the 5x5 block -- the larger of the file and rank differences."""

    __slots__ = ()

    # Written without abs()/max() calls: these run for every candidate of
    # every use (the hottest loop of the walk).
    def distance(self, a: Square, b: Square) -> int:
        dx = a.file - b.file
        dy = a.rank - b.rank
        if dx < 0:
            dx = -dx
        if dy < 0:
            dy = -dy
        return dx if dx > dy else dy

    def in_range(self, a: Square, b: Square, r: int) -> bool:
        return -r <= a.file - b.file <= r and -r <= a.rank - b.rank <= r

    @property
    def box_is_range(self) -> bool:
        """Chebyshev's range r *is* the (2r+1) x (2r+1) box."""
        return True
