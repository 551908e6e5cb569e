"""The d20 pool system's arithmetic (variant-d20.md), free of the battle loop.

Why a module of its own: every number of the d20pool battle -- the derived
values (R-D20-VAL-1), a keep-highest check with drops, boosts, fumble and
critical (R-D20-CHECK-1..4), hit and margin (R-D20-HIT-1..2), the ring number
of an area (R-D20-ORDER-2) and the tie keys of the turn order
(R-D20-ORDER-1, -3, -4) -- is decided here, from parameters that are ruleset
data (:class:`D20PoolParams`), and drawn only through the ``Rng`` the caller
passes (stream ``checks`` for checks, ``initiative`` for the tie dice,
R-D20-RNG-1).  The mechanics that plug these into the engine (and emit the
events) call these functions; nothing here formats prose or emits events.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import NamedTuple

from referee.board import Square
from referee.engine.rng import Rng

__all__ = [
    "D20PoolParams", "D20Values", "derived_values", "attack_ability", "dropped_dice", "boost_amount",
    "PoolCheck", "roll_pool", "is_hit", "margin", "ring_number", "rank_contenders", "select_next",
    "next_in_fixed_order",
]


@dataclass(frozen=True, slots=True)
class D20PoolParams:
    """The ruleset's numbers (variant-d20.md "Ruleset data"); defaults are the
    built-in ``d20pool``'s."""

    sides: int = 20
    drop_bonus: int = 2
    critical_bonus: int = 0
    sensitivity_base: int = 8
    hp_per_body: int = 4
    move_base: int = 1
    move_per_reflex: int = 3


@dataclass(frozen=True, slots=True)
class D20Values:
    """R-D20-VAL-1: a character's derived values."""

    hp: int  # 耐久力
    defence_dice: int  # 防御力
    sensitivity: int  # 感応力, the target value to hit it
    expression: int  # 表現力: self-recover amount and boost cap
    move_points: int  # 移動力


def derived_values(body: int, reflex: int, intellect: int, params: D20PoolParams = D20PoolParams()) -> D20Values:
    """R-D20-VAL-1 [decision]: 耐久力 = 4 x body, 防御力 = body, 感応力 = 8 +
    reflex, 表現力 = intellect, 移動力 = 1 + floor(reflex / 3)."""
    return D20Values(
        hp=params.hp_per_body * body,
        defence_dice=body,
        sensitivity=params.sensitivity_base + reflex,
        expression=intellect,
        move_points=params.move_base + reflex // params.move_per_reflex,
    )


def attack_ability(body: int, reflex: int, intellect: int, *, sword: bool, skill_range: int) -> int:
    """R-D20-VAL-1: attack dice are body for a sword at range 0, reflex for a
    sword at range 1 or more, intellect for any other element."""
    if not sword:
        return intellect
    return body if skill_range == 0 else reflex


def dropped_dice(pool: int, requested: int) -> int:
    """R-D20-CHECK-3: k = min(N, n - 1), never below 0 (one die is always kept)."""
    return max(0, min(requested, pool - 1))


def boost_amount(requested: int, expression: int, hp: int) -> int:
    """R-D20-CHECK-4: b = min(N, 表現力, HP - 1); b <= 0 is no boost (a
    voluntary loss never takes 耐久力 to 0)."""
    return max(0, min(requested, expression, hp - 1))


class PoolCheck(NamedTuple):
    """One keep-highest check, every fact the ``d20_check`` event carries
    (immutable)."""

    pool: int  # dice before drops (the ability)
    dropped: int
    dice: tuple[int, ...]  # every face, in draw order
    highest: int
    printed: int
    drop_modifier: int
    boost: int
    critical_modifier: int
    achievement: int
    critical: bool
    fumble: bool


#: ``tuple.__new__``: a check is built as its tuple directly (every check of
#: a d20pool battle, R-D20-CHECK-1..3).
_tuple_new = tuple.__new__


def roll_pool(rng: Rng, pool: int, *, dropped: int = 0, printed: int = 0, boost: int = 0,
              params: D20PoolParams = D20PoolParams(), stream: str = "checks") -> PoolCheck:
    """R-D20-CHECK-1..3: roll ``pool - dropped`` dice (at least one
    [decision: an ability of 0 still rolls one die, so a check always has a
    highest die]) on ``stream``, die by die; achievement = highest + printed +
    drop bonus x dropped + boost (+ ``critical_bonus`` on a critical); every
    die a 1 is a fumble, achievement 0 whatever the modifiers."""
    sides = params.sides
    dice = rng.dice(stream, sides, max(1, pool - dropped))  # die by die, in one call
    highest = max(dice)
    critical = sides in dice
    fumble = highest == 1  # every die a 1: faces are 1..sides, so the highest tells
    drop_modifier = params.drop_bonus * dropped
    critical_modifier = params.critical_bonus if critical else 0
    achievement = 0 if fumble else highest + printed + drop_modifier + boost + critical_modifier
    # the named tuple's own __new__ is a Python frame that builds this tuple
    return _tuple_new(PoolCheck, (pool, dropped, dice, highest, printed, drop_modifier, boost, critical_modifier,
                                  achievement, critical, fumble))


def is_hit(check: PoolCheck, sensitivity: int) -> bool:
    """R-D20-HIT-1: hit when the achievement reaches the target's 感応力
    (equal succeeds); a fumble hits no one."""
    return not check.fumble and check.achievement >= sensitivity


def margin(attack: PoolCheck, defence: PoolCheck) -> int:
    """R-D20-HIT-2: max(0, attack - defence), the damage before reductions."""
    return max(0, attack.achievement - defence.achievement)


def ring_number(square: Square, width: int, height: int) -> int:
    """R-D20-ORDER-2: 1 + the distance to the map's nearest edge (8x8: the
    edge 1, b2-g7's border 2, c3-f6's 3, d4-e5 4)."""
    f, r = square.file, square.rank
    return 1 + min(f, r, width - 1 - f, height - 1 - r)


def _tied(ordered: Sequence[str], keys: Mapping[str, list[int]]) -> set[str]:
    """The contenders whose key equals, or is a prefix of, another's;
    ``ordered``: the contenders sorted by key.  In sorted order a key's
    extensions and equals come right after it, so only the next key need be
    compared (O(n log n), not n squared).  Keys are lists, which order
    element by element, a prefix first, as tuples do."""
    tied: set[str] = set()
    here = ordered[0]
    key = keys[here]
    for after in ordered[1:]:
        next_key = keys[after]
        if next_key[:len(key)] == key:
            tied.add(here)
            if next_key == key:  # equal keys: both roll
                tied.add(after)
        here, key = after, next_key
    return tied


def rank_contenders(contenders: Sequence[str], keys: dict[str, list[int]],
                    roll: Callable[[str], int]) -> list[str]:
    """R-D20-ORDER-3: settle the contenders' tie keys and rank them, best first.

    ``contenders`` is in roster order; ``keys`` (name -> its rolls this round)
    is extended in place, as a key lasts for the round; ``roll(name)`` draws
    one tie die (and may record it).  While some contender's key equals, or is
    a prefix of, another's, each such contender rolls once, in roster order.
    One contender rolls nothing.
    """
    for name in contenders:
        keys.setdefault(name, [])
    if len(contenders) < 2:
        return list(contenders)
    while True:
        ordered = sorted(contenders, key=lambda name: keys[name])
        tied = _tied(ordered, keys)
        if not tied:
            # No key is a prefix of another (nor equal), so list order is
            # element-by-element order and the keys are distinct: best first
            # is the sorted order reversed.
            return ordered[::-1]
        for name in contenders:  # roster order
            if name in tied:
                keys[name].append(roll(name))


def select_next(unacted: Sequence[tuple[str, int]], keys: dict[str, list[int]],
                roll: Callable[[str], int]) -> list[str]:
    """R-D20-ORDER-1: among the unacted standing characters (roster order,
    each with its area's number, read now), the contenders on the highest
    number, ranked by :func:`rank_contenders`; the first takes the turn.
    Empty when no one is left (the round ends)."""
    top, contenders = -1, []
    for name, number in unacted:
        if number > top:
            top, contenders = number, [name]
        elif number == top:
            contenders.append(name)
    return rank_contenders(contenders, keys, roll)


def next_in_fixed_order(order: Sequence[str], unacted_standing: Mapping[str, bool]) -> str | None:
    """R-D20-ORDER-4: a battle file's ``order`` gives the next turn to its
    earliest unacted standing character (``unacted_standing[name]``), so a
    character revived before its place still acts."""
    return next((name for name in order if unacted_standing.get(name, False)), None)
