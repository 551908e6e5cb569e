"""Battle setup (R-SETUP-1) and action order (R-TURN-1)."""

from __future__ import annotations

from referee.board import Square
from referee.engine import events as E
from referee.engine.core import Battle
from referee.engine.state import BLACK, Fighter


def draw_square(b: Battle, f: Fighter) -> Square:
    """R-SETUP-1 / R-RNG-1: file = 1 + randrange(width), row = 1 + randrange(
    height - 2) counted from the own edge (a Black row 1 is the top rank)."""
    spec = b.ruleset.map
    file = b.rng.randrange("setup", spec.width)
    row = b.rng.randrange("setup", spec.height - 2)
    rank = spec.height - 1 - row if f.team == BLACK else row
    return Square(file=file, rank=rank)


def roll_initiative(b: Battle, fighters: list[Fighter]) -> list[Fighter]:
    """R-TURN-1: ``dice`` dice read as d.dd; tied characters alone roll one
    more digit each until all differ.  Higher acts first."""
    init = b.ruleset.initiative
    sides = init.sides
    digits: dict[str, list[int]] = {}
    for f in fighters:
        digits[f.name] = [1 + b.rng.randrange("initiative", sides) for _ in range(init.dice)]
    while True:
        groups: dict[tuple[int, ...], list[Fighter]] = {}
        for f in fighters:
            groups.setdefault(tuple(digits[f.name]), []).append(f)
        tied = [f for f in fighters if len(groups[tuple(digits[f.name])]) > 1]
        if not tied:
            break
        for f in tied:
            digits[f.name].append(1 + b.rng.randrange("initiative", sides))
    for f in fighters:
        d = digits[f.name]
        value = f"{d[0]}." + "".join(str(x) for x in d[1:])
        b.emit(E.InitiativeRoll(turn=b.turn, actor=f.name, dice=tuple(d), value=value))
    return sorted(fighters, key=lambda f: (tuple(-x for x in digits[f.name]), f.index))
