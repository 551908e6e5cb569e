"""Battle setup: drawn starting squares (R-SETUP-1).  The action order is the
``initiative`` mechanic's (``engine/mechanics``)."""

from __future__ import annotations

from referee.board import Square
from referee.engine.core import Resolution
from referee.engine.state import BLACK, Fighter


def draw_square(b: Resolution, f: Fighter, closed: frozenset[Square] = frozenset()) -> Square:
    """R-SETUP-1 / R-RNG-1: file = 1 + randrange(width), row = 1 + randrange(
    height - 2) counted from the own edge (a Black row 1 is the top rank).

    Both coordinates are drawn again while the square is one of ``closed``,
    the battle file's blocked and object areas (R-SOUL-TERR-1: "a setup draw
    landing on one is discarded"), or one the movement may not stop on
    (R-ORM-MOVE-2's setup: blocked or full; tcgt: never).  One loop for both
    keeps the draws where they always were: a pair is kept only when it
    passes both, and a failed pair costs exactly two draws either way."""
    spec = b.ruleset.map
    may_stop = b.mechanics.movement.may_stop
    while True:
        file = b.rng.randrange("setup", spec.width)
        row = b.rng.randrange("setup", spec.height - 2)
        rank = spec.height - 1 - row if f.team == BLACK else row
        square = Square(file=file, rank=rank)
        if square not in closed and may_stop(b.state, f, square):
            return square
