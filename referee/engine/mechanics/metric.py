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
    implies the file and rank gaps are both at most ``r``, so a range scan
    reads only that box of the occupancy index (tests/engine/test_state_index.py
    checks every registered metric)."""

    def distance(self, a: Square, b: Square) -> int:
        """Distance from ``a`` to ``b`` (0 for the same area)."""
        ...

    def in_range(self, a: Square, b: Square, r: int) -> bool:
        """Whether ``b`` is within ``r`` of ``a`` (R-RANGE-1)."""
        ...


class Chebyshev:
    """tcgt (R-RANGE-1): range 0 is the own area, 1 the 3x3 block around it, 2
    the 5x5 block -- the larger of the file and rank differences."""

    __slots__ = ()

    def distance(self, a: Square, b: Square) -> int:
        return max(abs(a.file - b.file), abs(a.rank - b.rank))

    def in_range(self, a: Square, b: Square, r: int) -> bool:
        return self.distance(a, b) <= r
