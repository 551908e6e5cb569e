"""Building blocks of the ``orm`` ruleset (variant-orm.md), as mechanics.

This version builds two of them:

* :class:`Manhattan`, the ``range: {kind: manhattan}`` metric (R-ORM-MAP-1):
  ORM measures every straight distance in 4-way steps, so a ruleset naming it
  changes every range, reach, ``in range`` and extension group at once (the
  engine only ever asks ``BattleState.metric``);
* :func:`roll_nd6_check`, ORM's nD6 + value check (R-ORM-ABIL-1,
  R-ORM-CHK-1): the dice count set by the ability (能力レベル), the value, the
  critical (two or more sixes, +bonus) and the fumble (every face a 1).  It is
  the roll the ``hit: opposed_nd6`` mechanic is to make for each action and
  reaction; that mechanic itself (its events and reports) is not built yet.

Both are stateless and carry their numbers as data from the ruleset (the
dice table, the critical rule), never as constants of the code.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from referee.board import Square
from referee.engine.rng import Rng

__all__ = ["Manhattan", "CriticalRule", "Nd6Check", "dice_for_ability", "roll_nd6_check"]


class Manhattan:
    """R-ORM-MAP-1: distance |dx| + |dy|; range 1 is the own area and the 4
    next to it (「上下左右Sqのみ」), one area is distance 0
    (「同一Sqのキャラクターの距離は0sq」)."""

    __slots__ = ()

    def distance(self, a: Square, b: Square) -> int:
        return abs(a.file - b.file) + abs(a.rank - b.rank)

    def in_range(self, a: Square, b: Square, r: int) -> bool:
        return abs(a.file - b.file) + abs(a.rank - b.rank) <= r


@dataclass(frozen=True, slots=True)
class CriticalRule:
    """R-ORM-CHK-1's critical: ``sixes`` or more faces showing 6 add ``bonus``."""

    sixes: int = 2
    bonus: int = 10


@dataclass(frozen=True, slots=True)
class Nd6Check:
    """One rolled check: every face in order, the ability and support added,
    whether it was critical or a fumble, and its value (R-ORM-CHK-1)."""

    ability_value: int
    dice: tuple[int, ...]
    support: int
    critical: bool
    fumble: bool
    value: int


def dice_for_ability(ability: int, dice_by_ability: Sequence[int]) -> int:
    """R-ORM-ABIL-1: ability x rolls ``dice_by_ability[x-1]`` dice, the last
    entry for any x beyond the table (ORM's 能力レベル).  An ability below 1
    rolls the first entry: TCGT abilities start at 1, so this only guards."""
    if not dice_by_ability:
        raise ValueError("dice_by_ability needs at least one entry")
    index = min(max(ability, 1), len(dice_by_ability)) - 1
    return dice_by_ability[index]


def roll_nd6_check(rng: Rng, ability: int, dice_by_ability: Sequence[int], *,
                   support: int = 0, critical: CriticalRule = CriticalRule(), stream: str = "checks") -> Nd6Check:
    """R-ORM-CHK-1: roll the ability's dice on ``stream`` (R-ORM-RNG-1: the
    ``checks`` stream, one draw per die, in order), then value = faces + x +
    support, + the critical bonus when enough faces show 6.  A fumble (every
    face a 1) is reported, and fails whatever its value: the caller decides
    the opposed outcome (R-ORM-CHK-3)."""
    count = dice_for_ability(ability, dice_by_ability)
    faces = tuple(rng.die(stream, 6) for _ in range(count))
    is_critical = sum(1 for face in faces if face == 6) >= critical.sixes
    is_fumble = all(face == 1 for face in faces)
    value = sum(faces) + ability + support + (critical.bonus if is_critical else 0)
    return Nd6Check(ability, faces, support, is_critical, is_fumble, value)
