"""Building blocks of the ``orm`` ruleset (variant-orm.md), as mechanics.

This version builds three of them:

* :class:`Manhattan`, the ``range: {kind: manhattan}`` metric (R-ORM-MAP-1):
  ORM measures every straight distance in 4-way steps, so a ruleset naming it
  changes every range, reach, ``in range`` and extension group at once (the
  engine only ever asks ``BattleState.metric``);
* :class:`BlockingSteps`, ``movement: {kind: steps, enemies_block: true,
  engagement_lock: false}`` (R-ORM-MOVE-1): routes around enemies, no
  engagement lock (capacity and ORM's knockback are not built yet);
* :func:`roll_nd6_check`, ORM's nD6 + value check (R-ORM-ABIL-1,
  R-ORM-CHK-1): the dice count set by the ability (能力レベル), the value, the
  critical (two or more sixes, +bonus) and the fumble (every face a 1).  It is
  the roll the ``hit: opposed_nd6`` mechanic is to make for each action and
  reaction; that mechanic itself (its events and reports) is not built yet.

Both are stateless and carry their numbers as data from the ruleset (the
dice table, the critical rule), never as constants of the code.
"""

from __future__ import annotations

import functools
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from referee.board import DIRECTIONS, Direction, Square, euclidean_sq
from referee.engine.core import Resolution
from referee.engine.mechanics.protocols import Movement, StayReason
from referee.engine.mechanics.tcgt import StepMovement
from referee.engine.rng import Rng, choose
from referee.engine.state import BattleState, Fighter
from referee.mapgraph import MapGraph
from referee.mechanicspec import Adjacency, BlockingStepsSpec, StepsSpec

__all__ = ["Manhattan", "BlockingSteps", "step_movement", "CriticalRule", "Nd6Check", "dice_for_ability",
           "roll_nd6_check"]


class Manhattan:
    """R-ORM-MAP-1: distance |dx| + |dy|; range 1 is the own area and the 4
    next to it (「上下左右Sqのみ」), one area is distance 0
    (「同一Sqのキャラクターの距離は0sq」)."""

    __slots__ = ()

    def distance(self, a: Square, b: Square) -> int:
        return abs(a.file - b.file) + abs(a.rank - b.rank)

    def in_range(self, a: Square, b: Square, r: int) -> bool:
        return abs(a.file - b.file) + abs(a.rank - b.rank) <= r


#: tcgt's step rules, asked for the reasons a mover cannot move at all and
#: for tcgt's knockback.
_TCGT_STEPS = StepMovement()
#: R-ORM-KNOCK-1's listing order of the four axis directions.
_ROOK_DIRECTIONS = (Direction.N, Direction.E, Direction.S, Direction.W)


@dataclass(frozen=True, slots=True)
class BlockingSteps:
    """R-ORM-MOVE-1: "An area holding an enemy of the mover is never passed
    through (「通り過ぎることは出来ません…迂回するしか」), but it may end a
    route.  Every route and route distance ... is taken on the map without
    those areas, except the route's own end; the mover's own area is always
    on the map.  An enemy in the mover's area does not hold it; Bind and
    sinking still do."  The step chosen among those on a shortest route is
    the one nearest the goal in straight-line distance (Euclidean), ties
    drawn by the caller on ``ties`` among them in direction order (N, E, S,
    W), not R-MOVE-5's square order."""

    adjacency: Adjacency = "rook"
    enemies_block: bool = True
    engagement_lock: bool = False
    knockback: Literal["direct", "axis"] = "direct"
    #: R-ORM-MOVE-2: characters of one side an area holds (0: no limit).
    capacity_per_side: int = 0

    def may_stop(self, state: BattleState, mover: Fighter, square: Square) -> bool:
        """R-ORM-MOVE-2: "An area holds at most `capacity_per_side` (2)
        characters of one side; enemies do not count ... A mover may pass a
        full area of its side but not stop there."  Off the map: never."""
        if not state.graph.contains(square):
            return False
        if self.capacity_per_side <= 0:
            return True
        team = mover.team
        held = sum(1 for g in state.fighters
                   if g is not mover and not g.down and g.team == team and g.square == square)
        return held < self.capacity_per_side

    @property
    def approach_needs_a_route(self) -> bool:
        return False

    def stuck(self, state: BattleState, mover: Fighter) -> StayReason | None:
        """tcgt's reasons (sunk, engaged, bound), without ``engaged`` when
        there is no engagement lock."""
        if self.engagement_lock or state.is_sunk(mover.square):
            return _TCGT_STEPS.stuck(state, mover)
        return "bound" if mover.bind > 0 else None

    def legal_steps(self, state: BattleState, mover: Fighter) -> tuple[Square, ...]:
        # One step is a whole route: it may end in an enemy's area.
        return state.graph.neighbours(mover.square)

    def toward(self, state: BattleState, mover: Fighter, dst: Square) -> tuple[Square, ...]:
        src = mover.square
        to_dst = self._distances_to(state, mover, src, dst)
        total = to_dst.get(src)
        if not total:
            return ()
        on_route = [n for n in state.graph.neighbours(src) if to_dst.get(n) == total - 1]
        best = min(euclidean_sq(n, dst) for n in on_route)
        tied = {n for n in on_route if euclidean_sq(n, dst) == best}
        # R-ORM-MOVE-1: "candidates in direction order N, E, S, W" for the draw
        return tuple(n for n in (src.offset(d.dx, d.dy) for d in DIRECTIONS) if n in tied)

    def route_length(self, state: BattleState, mover: Fighter, src: Square, dst: Square) -> int | None:
        return self._distances_to(state, mover, src, dst).get(src)

    def push_direction(self, ctx: Resolution, attacker: Square, target: Square) -> Direction:
        """R-ORM-KNOCK-1 (``knockback: axis``): "along one axis away from the
        attacker: x when |dx| > |dy|, y when |dy| > |dx|.  When |dx| = |dy| != 0
        it draws a choice on `knockback` between those two directions (listed
        N, E, S, W); from the same area it draws among N, E, S, W."  tcgt's
        rule otherwise."""
        if self.knockback != "axis":
            return _TCGT_STEPS.push_direction(ctx, attacker, target)
        dx, dy = target.file - attacker.file, target.rank - attacker.rank
        along_x = Direction.E if dx > 0 else Direction.W
        along_y = Direction.N if dy > 0 else Direction.S
        if abs(dx) > abs(dy):
            return along_x
        if abs(dy) > abs(dx):
            return along_y
        options = _ROOK_DIRECTIONS if dx == 0 else tuple(d for d in _ROOK_DIRECTIONS if d in (along_x, along_y))
        return choose(ctx.rng, "knockback", options)

    def _distances_to(self, state: BattleState, mover: Fighter, src: Square, dst: Square) -> dict[Square, int]:
        """Route distance to ``dst`` from ``src`` and its neighbours on
        ``mover``'s map: areas holding a standing enemy are closed, except the
        route's two ends (``src`` and ``dst``) and the mover's own area.  The
        walk from ``dst`` over the map without ``src``'s exemption is shared
        (memoised, :func:`_walk_from`); ``src``, the route's start, is then
        one step more than its nearest open neighbour."""
        graph = state.graph
        if not (graph.contains(src) and graph.contains(dst)):
            return {}
        closed: frozenset[Square] = frozenset()
        if self.enemies_block:
            team = mover.team
            closed = frozenset(g.square for g in state.fighters if not g.down and g.team != team) - {dst, mover.square}
        dist = _walk_from(graph, dst, closed)
        if src in closed:
            near = [dist[n] for n in graph.neighbours(src) if n in dist]
            dist = {**dist, src: 1 + min(near)} if near else {k: v for k, v in dist.items() if k != src}
        return dist


@functools.lru_cache(maxsize=4096)
def _walk_from(graph: MapGraph, dst: Square, closed: frozenset[Square]) -> dict[Square, int]:
    """Steps to ``dst`` of every area reachable without entering ``closed``
    (a breadth-first walk; a pure function of its arguments, memoised because
    the movement rules ask the same walk for every enemy of every mover).
    Callers never mutate the returned dict."""
    dist = {dst: 0}
    queue = deque([dst])
    while queue:
        here = queue.popleft()
        step = dist[here] + 1
        for n in graph.neighbours(here):
            if n not in dist and n not in closed:
                dist[n] = step
                queue.append(n)
    return dist


def step_movement(spec: StepsSpec) -> Movement:
    """The ``steps`` kind: tcgt's :class:`StepMovement` unless the ruleset
    writes ORM's ``enemies_block`` / ``engagement_lock`` (R-ORM-MOVE-1)."""
    if isinstance(spec, BlockingStepsSpec) and (spec.enemies_block or not spec.engagement_lock
                                                or spec.knockback != "direct" or spec.capacity_per_side):
        return BlockingSteps(spec.adjacency, spec.enemies_block, spec.engagement_lock, spec.knockback,
                             spec.capacity_per_side)
    return StepMovement(spec.adjacency)


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
