"""Battle setup: drawn starting squares (R-SETUP-1).  The action order is the
``initiative`` mechanic's (``engine/mechanics``)."""

from __future__ import annotations

from referee.board import Square
from referee.engine.core import Resolution
from referee.engine.state import BLACK, Fighter


def draw_square(b: Resolution, f: Fighter) -> Square:
    """R-SETUP-1 / R-RNG-1: file = 1 + randrange(width), row = 1 + randrange(
    height - 2) counted from the own edge (a Black row 1 is the top rank)."""
    spec = b.ruleset.map
    while True:
        file = b.rng.randrange("setup", spec.width)
        row = b.rng.randrange("setup", spec.height - 2)
        rank = spec.height - 1 - row if f.team == BLACK else row
        square = Square(file=file, rank=rank)
        # R-ORM-MOVE-2's setup: redrawn while blocked or full (tcgt: never)
        if b.mechanics.movement.may_stop(b.state, f, square):
            return square
