"""soulwired's action and movement (variant-soulwired.md): the
soul action (R-SOUL-ACT-1/2) with its stances (R-SOUL-STANCE-*), two moves
on movement points with terrain costs (R-SOUL-MOVE-*), objects attacked on
a plan order (R-SOUL-TERR-2) and armour (R-SOUL-DMG-1).

The movement is d20pool's ``points`` kind (``PointsMovement``) with the Soul
Wired parameters: the same kind, extended, so d20pool's shift is untouched.
*Which* way a step goes stays the engine's R-MOVE-6..8
(``engine/movement.move_step``); this module makes its distances least
total step cost and its steps affordable (R-SOUL-MOVE-3).
"""

from __future__ import annotations

import functools
import heapq
from dataclasses import dataclass

from referee.board import Square, euclidean_sq, square_name
from referee.catalog import Skill
from referee.elements import Element
from referee.engine import events as E
from referee.engine.action import WalkPolicy, begin_action, maintenance, walk
from referee.engine.clauses import AttackObject, StanceClause, UseOnly
from referee.engine.conditions import CondContext
from referee.engine.core import Resolution
from referee.engine.mechanics.d20pool import PointsMovement
from referee.engine.mechanics.protocols import StayReason
from referee.engine.mechanics.soulwired import D6Pool, SoulFighter, roll_pool, soul_of
from referee.engine.mechanics.tcgt import NoInnateSkills, PrintedDamage, StepMovement
from referee.engine.movement import pick_move, reach, step_by
from referee.engine.panels import mark_used
from referee.engine.state import BattleState, Fighter
from referee.engine.statuses import tick
from referee.mapgraph import MapGraph

__all__ = ["TerrainPoints", "SoulAction", "ArmourDamage", "least_costs"]

#: One move's result: (stepped, why it stayed, the deciding clause's line).
Decision = tuple[bool, str, int | None]


# ------------------------------------------------------------------ movement


@functools.lru_cache(maxsize=64)
def _indexed(graph: MapGraph) -> tuple[tuple[Square, ...], dict[Square, int], tuple[tuple[int, ...], ...]]:
    """The map's areas by index and each one's neighbours' indices (the
    searches below run on small ints, not on squares)."""
    squares = graph.squares
    index = {sq: i for i, sq in enumerate(squares)}
    return squares, index, tuple(tuple(index[n] for n in graph.neighbours(sq)) for sq in squares)


@functools.lru_cache(maxsize=256)
def _costs_table(graph: MapGraph, barriers: frozenset[Square], barrier_cost: int,
                 may_enter_barriers: bool) -> tuple[tuple[int, ...], tuple[bool, ...]]:
    """Each area's entry cost and whether it is closed (a barrier to one that
    never evades), by index: the same for every search on one map and
    barrier set, so built once, not per search."""
    squares, index, _ = _indexed(graph)
    step = [1] * len(squares)
    closed = [False] * len(squares)
    for b in barriers:
        i = index.get(b)
        if i is not None:
            step[i] = barrier_cost
            closed[i] = not may_enter_barriers
    return tuple(step), tuple(closed)


def _search(graph: MapGraph, barriers: frozenset[Square], barrier_cost: int, may_enter_barriers: bool,
            stops: frozenset[Square], start: Square, reverse: bool) -> dict[Square, int]:
    """Least total step cost from ``start`` (``reverse``: to ``start``) over
    the map: entering an area costs 1, ``barrier_cost`` for a barrier (never
    entered by one that does not evade); a route never continues from an
    area of ``stops`` but its first (forward) or last (reverse) one."""
    squares, index, neighbours = _indexed(graph)
    origin = index.get(start)
    if origin is None:
        return {}
    step, closed = _costs_table(graph, barriers, barrier_cost, may_enter_barriers)
    stop = {i for i in (index.get(sqr) for sqr in stops) if i is not None}
    stop.discard(origin)
    best: list[int | None] = [None] * len(squares)
    best[origin] = 0
    if not barriers:
        _breadth_first(neighbours, stop, origin, best)
        return {squares[i]: c for i, c in enumerate(best) if c is not None}
    heap = [(0, origin)]
    pop, push = heapq.heappop, heapq.heappush
    while heap:
        cost, i = pop(heap)
        if cost != best[i] or i in stop:
            continue
        if reverse:
            if closed[i]:
                continue  # nothing enters a closed area, so nothing leaves it backwards
            total = cost + step[i]  # j enters i
            for j in neighbours[i]:
                if closed[j]:
                    continue
                known = best[j]
                if known is None or total < known:
                    best[j] = total
                    push(heap, (total, j))
        else:
            for j in neighbours[i]:
                if closed[j]:
                    continue
                total = cost + step[j]
                known = best[j]
                if known is None or total < known:
                    best[j] = total
                    push(heap, (total, j))
    return {squares[i]: c for i, c in enumerate(best) if c is not None}


def _breadth_first(neighbours: tuple[tuple[int, ...], ...], stop: set[int], origin: int,
                   best: list[int | None]) -> None:
    """Every step costing 1 (no barrier on the map): least total cost is
    the step count, found breadth first -- the same numbers as the heap
    search (least costs are unique), without the heap.  The map's adjacency is symmetric, so one pass serves both
    directions."""
    frontier = [origin]
    cost = 0
    while frontier:
        cost += 1
        nxt = []
        for i in frontier:
            if i in stop:
                continue
            for j in neighbours[i]:
                if best[j] is None:
                    best[j] = cost
                    nxt.append(j)
        frontier = nxt


@functools.lru_cache(maxsize=4096)
def least_costs(graph: MapGraph, barriers: frozenset[Square], barrier_cost: int, may_enter_barriers: bool,
                stops: frozenset[Square], src: Square) -> dict[Square, int]:
    """R-SOUL-MOVE-2/3: the least total step cost from ``src`` to every area
    with a route: a step costs 1, ``barrier_cost`` into a barrier (never for
    a character that does not evade); a route may end in, but never pass
    through, an area of ``stops`` (one holding an enemy, clarification).
    Cached on immutable facts: the same position is asked many times."""
    return _search(graph, barriers, barrier_cost, may_enter_barriers, stops, src, False)


@functools.lru_cache(maxsize=4096)
def costs_to(graph: MapGraph, barriers: frozenset[Square], barrier_cost: int, may_enter_barriers: bool,
             stops: frozenset[Square], dst: Square) -> dict[Square, int]:
    """The least total step cost from every area to ``dst`` under the same
    rules (one search answers R-MOVE-5's "first steps of least-cost routes"
    for every neighbour at once)."""
    return _search(graph, barriers, barrier_cost, may_enter_barriers, stops, dst, True)


#: The last ``enemy_squares`` answer: (its squares in roster order, their set).
_LAST_STOPS: tuple[tuple[Square, ...], frozenset[Square]] = ((), frozenset())


def enemy_squares(state: BattleState, mover: Fighter) -> frozenset[Square]:
    """The areas holding a standing enemy of ``mover`` (R-SOUL-MOVE-3's
    stops).  Why the one-entry memo: one decision
    asks this once per enemy (R-MOVE-6's distances), and building the set
    hashes every square; comparing the roster-order squares with the last
    answer's is an identity check per square while nobody has moved.  The
    answer depends only on those squares, so the memo cannot change it."""
    global _LAST_STOPS
    team = mover.team
    squares = tuple([g.square for g in state.fighters if not g.down and g.team != team])
    last = _LAST_STOPS
    if squares == last[0]:
        return last[1]
    stops = frozenset(squares)
    _LAST_STOPS = (squares, stops)
    return stops


@dataclass(frozen=True, slots=True)
class TerrainPoints(PointsMovement):
    """R-SOUL-MOVE-1..3: points = base + floor(reflex / per_reflex); a step
    costs 1, or ``barrier_cost`` into a barrier; routes and "nearest" are
    least total cost; a step must be affordable, except the minimum move."""

    barrier_cost: int = 3
    barrier_start_points: int = 1
    minimum_move: bool = True
    engaging_ends_move: bool = True

    @property
    def approach_needs_a_route(self) -> bool:
        """R-SOUL-MOVE-3: "if no candidate has one, the move ends no_route,
        without a draw"."""
        return True

    def points(self, f: Fighter, state: BattleState | None = None) -> int:
        """R-SOUL-MOVE-1: the formula, or ``barrier_start_points`` for one
        that never evades starting its action in a barrier."""
        if state is not None and f.evasion_type == "none" and f.square in state.barriers:
            return self.barrier_start_points
        return PointsMovement.points(self, f)

    def stuck(self, state: BattleState, mover: Fighter) -> StayReason | None:
        """R-SOUL-MOVE-3: R-MOVE-1 and R-MOVE-4 (entering an enemy's area
        engages it) when ``engaging_ends_move``."""
        return StepMovement.stuck(self, state, mover) if self.engaging_ends_move else None

    def cost(self, state: BattleState, to: Square) -> int:
        return self.barrier_cost if to in state.barriers else 1

    def enterable(self, state: BattleState, mover: Fighter) -> tuple[Square, ...]:
        """Neighbours a step may enter at all (R-SOUL-MOVE-2)."""
        steps = state.graph.neighbours(mover.square)
        if mover.evasion_type == "none" and state.barriers:
            return tuple(s for s in steps if s not in state.barriers)
        return steps

    def affordable(self, state: BattleState, mover: Fighter, to: Square) -> bool:
        state_ = mover.mechanic_state
        if not isinstance(state_, SoulFighter):
            return True  # outside a soul action (a shift, a test): no budget
        if self.cost(state, to) <= state_.points_left:
            return True
        return self.minimum_move and not state_.stepped

    def any_affordable(self, state: BattleState, mover: Fighter, steps: tuple[Square, ...]) -> bool:
        """Whether one of ``steps`` is affordable: ``legal_steps``'s
        emptiness without building it (asked at every step decision; the
        minimum move or points for a barrier answer without a scan)."""
        soul = mover.mechanic_state
        if not isinstance(soul, SoulFighter) or (self.minimum_move and not soul.stepped):
            return bool(steps)
        left = soul.points_left
        if left >= self.barrier_cost and left >= 1:
            return bool(steps)
        return any(self.cost(state, s) <= left for s in steps)

    def legal_steps(self, state: BattleState, mover: Fighter) -> tuple[Square, ...]:
        return tuple(s for s in self.enterable(state, mover) if self.affordable(state, mover, s))

    def costs(self, state: BattleState, mover: Fighter, src: Square) -> dict[Square, int]:
        stops = enemy_squares(state, mover)
        return least_costs(state.graph, state.barriers, self.barrier_cost, mover.evasion_type != "none",
                           stops, src)

    def route_length(self, state: BattleState, mover: Fighter, src: Square, dst: Square) -> int | None:
        return self.costs(state, mover, src).get(dst)

    def toward(self, state: BattleState, mover: Fighter, dst: Square) -> tuple[Square, ...]:
        """R-SOUL-MOVE-3 reading R-MOVE-5: the first steps of least-cost
        routes, the affordable ones, then nearest ``dst`` in straight line."""
        here = mover.square
        total = self.route_length(state, mover, here, dst)
        if not total:
            return ()
        stops = enemy_squares(state, mover)
        to_dst = costs_to(state.graph, state.barriers, self.barrier_cost, mover.evasion_type != "none", stops, dst)
        firsts = [n for n in self.enterable(state, mover)
                  if (rest := to_dst.get(n)) is not None and self.cost(state, n) + rest == total
                  and (n == dst or n not in stops)]
        ok = [n for n in firsts if self.affordable(state, mover, n)]
        soul = mover.mechanic_state
        if isinstance(soul, SoulFighter):
            soul.unaffordable = bool(firsts) and not ok
        if not ok:
            return ()
        best = min(euclidean_sq(n, dst) for n in ok)
        return tuple(n for n in ok if euclidean_sq(n, dst) == best)


# ------------------------------------------------------------------ moves


def decide(ctx: Resolution, f: Fighter, attacked: bool) -> Decision:
    """One step of a move (R-SOUL-MOVE-3): the move ends if ``f`` cannot
    move, if no legal step is affordable (``no_points``; ``no_route`` with
    no legal step at all), or if the R-MOVE-6..8 decision is to stay;
    else ``f`` steps (its ``moved`` event emitted, the cost paid)."""
    movement = ctx.mechanics.movement
    assert isinstance(movement, TerrainPoints)
    state, soul = ctx.state, soul_of(f)
    stuck = movement.stuck(state, f)
    if stuck is not None:
        return False, stuck, None
    steps = movement.enterable(state, f)
    if not steps:
        return False, "no_route", None
    if not movement.any_affordable(state, f, steps):
        return False, "no_points", None
    soul.unaffordable = False
    if attacked and not f.plan.moves:
        # R-MOVE-3: no move clause to pick (R-MOVE-7 draws nothing), and the
        # automatic approach never follows an attack: ``step_by``'s answer,
        # without asking it (the second move after most attacks).
        return False, "attacked", None
    # R-MOVE-7 then the step, as ``move_step`` does (the same draws), with
    # no ``stayed`` event: a move reports its end once, in ``move_end``.  The
    # deciding line is the pick's clause, the line ``step_by`` would have
    # written on ``stayed`` or ``moved`` (None for the automatic approach),
    # so nothing here reads a decision event back from ``ctx.events``.
    pick = pick_move(ctx, f)
    line = pick.clause.line if pick.clause is not None else None
    stayed = step_by(ctx, f, pick, attacked, report_stay=False)
    if stayed is not None:
        if stayed == "no_route" and soul.unaffordable:
            stayed = "no_points"
        return False, stayed, line
    pay_step(movement, state, f, f.square)
    return True, "", line


def pay_step(movement: TerrainPoints, state: BattleState, f: Fighter, to: Square) -> None:
    """R-SOUL-MOVE-2: the step's cost from the points left (the minimum move
    leaves 0)."""
    soul = soul_of(f)
    soul.points_left = max(0, soul.points_left - movement.cost(state, to))
    soul.stepped = True


def run_move(ctx: Resolution, f: Fighter, phase: str, points: int, attacked: bool,
             first: tuple[E.Moved, int | None] | None = None) -> None:
    """A move of R-SOUL-ACT-1 (3 or 6): ``move_phase``, the steps, ``move_end``.
    ``first``: a first step already decided (R-SOUL-STANCE-3), applied now."""
    soul = soul_of(f)
    soul.points_left = points
    ctx.emit(E.MovePhase(turn=ctx.state.turn, actor=f.name, phase=phase, points=points))
    steps, line, reason = 0, None, ""
    if first is not None:
        moved, line = first
        ctx.state.move(f, moved.to_square)
        ctx.emit(moved)
        movement = ctx.mechanics.movement
        assert isinstance(movement, TerrainPoints)
        pay_step(movement, ctx.state, f, moved.to_square)
        steps = 1
    while True:
        stepped, why, at = decide(ctx, f, attacked)
        if not stepped:
            reason, line = why, at if at is not None else line
            break
        steps, line = steps + 1, at
    ctx.emit(E.MoveEnd(turn=ctx.state.turn, actor=f.name, phase=phase, steps=steps,
                       points_left=soul.points_left, reason=reason, line=line, rule="R-SOUL-MOVE-3"))


def could_reach(movement: TerrainPoints, state: BattleState, f: Fighter, points: int) -> set[Square]:
    """R-SOUL-STANCE-3: its own area, every area within ``points`` of total
    step cost (never continuing from an enemy's area), and every legal
    neighbour (the minimum move)."""
    costs = movement.costs(state, f, f.square)
    out = {sq for sq, c in costs.items() if c <= points}
    out.update(movement.enterable(state, f))
    out.add(f.square)
    return out


# ------------------------------------------------------------------ the action


@dataclass(frozen=True, slots=True)
class SoulAction(NoInnateSkills):
    """R-SOUL-ACT-1: (1) pattern, panels, evasion dice; (2) the stance and a
    manoeuvre's check; (3) the first move, skipped under focus; (4) the walk,
    at most ``offensive_uses`` offensive uses (R-SOUL-ACT-2); (5)
    maintenance; (6) the second move with the points left; (7) statuses."""

    offensive_uses: int = 1

    def act(self, ctx: Resolution, f: Fighter) -> None:
        begin_action(ctx, f)
        ctx.mechanics.hit.start_action(ctx, f)
        movement = ctx.mechanics.movement
        assert isinstance(movement, TerrainPoints), "the soul action moves by points (R-SOUL-MOVE-1)"
        soul = soul_of(f)
        soul.stance, soul.stepped, soul.attacked, soul.unaffordable = "none", False, False, False
        base = movement.points(f, ctx.state)
        soul.points_left = base
        first = self.stance(ctx, f, movement, base)
        bonus = self.maneuver(ctx, f) if soul.stance == "maneuver" else 0
        if soul.stance == "focus":
            soul.points_left = base  # R-SOUL-STANCE-1: the second move has them all
        elif not f.down:
            run_move(ctx, f, "first", base + bonus, False, first)
        attacked = False
        if not f.down:
            # R-SOUL-TERR-2 asks only with an ``attack object`` clause and an
            # object standing: otherwise ``attack_object`` declines every
            # entry, so the walk is given no hook to call.
            hook = attack_object if f.plan.object_attacks and ctx.state.objects else None
            attacked = walk(ctx, f, WalkPolicy(offensive_uses=self.offensive_uses, entry_hook=hook))
            soul.attacked = attacked
        if not f.down:
            maintenance(ctx, f)
        if not f.down:
            run_move(ctx, f, "second", soul.points_left, attacked)
        f.acted = True
        if not f.down:
            tick(ctx, f)
        ctx.emit(E.ActionEnd(turn=ctx.state.turn, actor=f.name))

    def stance(self, ctx: Resolution, f: Fighter, movement: TerrainPoints, base: int
               ) -> tuple[E.Moved, int | None] | None:
        """R-SOUL-STANCE-3: the first stance clause that holds; none: focus
        if the first move's first decision is not a step (that decision
        stands), else manoeuvre if no area it could reach has an enemy in
        its reach, else no stance.  Returns the first step decided here."""
        soul = soul_of(f)
        clause = stance_clause(ctx, f)
        if clause is not None:
            soul.stance = clause.stance
            ctx.emit(E.Stance(turn=ctx.state.turn, actor=f.name, stance=clause.stance, reason="clause", line=clause.line))
            return None
        events, square = ctx.events, f.square
        ctx.events = []
        try:
            stepped, _, line = decide(ctx, f, False)
            scratch = ctx.events
        finally:
            ctx.events = events
            if f.square != square:  # undo the step (most decisions stay: nothing to undo)
                ctx.state.move(f, square)
        soul.points_left, soul.stepped = base, False
        first: tuple[E.Moved, int | None] | None = None
        if not stepped:
            soul.stance = "focus"
        else:
            moved = scratch[-1]
            assert isinstance(moved, E.Moved)
            first = (moved, line)
            r = reach(f)
            enemies = ctx.state.enemies_of(f)
            metric = ctx.state.metric
            near = any(metric.in_range(sq, e.square, r) for sq in could_reach(movement, ctx.state, f, base)
                       for e in enemies)
            soul.stance = "none" if near else "maneuver"
        ctx.emit(E.Stance(turn=ctx.state.turn, actor=f.name, stance=soul.stance, reason="default"))
        return first

    def maneuver(self, ctx: Resolution, f: Fighter) -> int:
        """R-SOUL-STANCE-2: a reflex check at NORMAL; success: +1 movement
        point and +1 evasion die (none with ``evasion_type: none``).
        Returns the extra points."""
        hit = ctx.mechanics.hit
        assert isinstance(hit, D6Pool), "the soul action's stances read d6_pool's numbers"
        spec = hit.spec
        difficulty = hit.clamp(spec.normal)
        faces, successes = roll_pool(ctx, f.abilities.get(spec.maneuver_ability, 0), difficulty)
        ctx.emit(E.D6Check(turn=ctx.state.turn, actor=f.name, check="maneuver", skill=None, targets=(),
                           ability=spec.maneuver_ability, dice=faces, difficulty=difficulty, steps=(),
                           successes=successes, success=successes > 0, rule="R-SOUL-STANCE-2"))
        if successes == 0:
            return 0
        if f.evasion_type != "none" and spec.maneuver_evasion_dice:
            f.evasion_dice = hit.dice_left(f) + spec.maneuver_evasion_dice
            ctx.emit(E.EvasionDice(turn=ctx.state.turn, actor=f.name, dice=f.evasion_dice, cause="maneuver",
                                   rule="R-SOUL-STANCE-2"))
        return spec.maneuver_movement


def stance_clause(ctx: Resolution, f: Fighter) -> StanceClause | None:
    """R-SOUL-STANCE-3: the first stance clause whose condition holds."""
    for c in f.plan.stances:
        if f.clause_active(c.line) and c.when(CondContext(ctx.state, f)):
            return c
    return None


# ------------------------------------------------------------------ objects


def attack_object(ctx: Resolution, f: Fighter, entry: int, skill: Skill, panels: tuple[int, ...]) -> bool:
    """R-SOUL-TERR-2: an attack entry with printed damage > 0, while the
    offensive use is free, hits the object of the first ``attack object at
    SQ`` clause that holds, whose object stands and is within range: the
    check is made, no evasion; success lowers strength by max(0, printed -
    armour if physical); at 0 the object is removed.  Returns whether the
    entry was used on an object.  A ``use X only when target …`` clause sees
    no candidate in an object, so it is false and holds X back from it (the
    entry then goes on as usual, R-PLAN-5); ``never use X when target …``
    does not apply."""
    if not skill.is_attack or skill.damage <= 0 or skill.targets_allies:
        return False
    if any(isinstance(g, UseOnly) and g.targets_condition and g.skill == skill.id and f.clause_active(g.line)
           for g in f.plan.gates):
        return False
    state = ctx.state
    clause: AttackObject | None = None
    for c in f.plan.object_attacks:
        sq = c.square
        if sq is None or sq not in state.objects or not f.clause_active(c.line):
            continue
        if not state.metric.in_range(f.square, sq, skill.range) or not c.when(CondContext(state, f, skill)):
            continue
        clause = c
        break
    if clause is None or clause.square is None:
        return False
    square = clause.square
    hit = ctx.mechanics.hit
    assert isinstance(hit, D6Pool)
    poisoned = mark_used(f, panels)
    target = f"object:{square_name(square)}"
    ctx.emit(E.SkillUsed(turn=ctx.state.turn, actor=f.name, skill=skill.id, entry=entry, targets=(target,),
                         panels=panels, square=f.square))
    for _ in range(poisoned):
        ctx.lose_hp(f, 1, "poison", actor=f.name, skill=skill.id, rule="R-ST-POISON")
    if not hit.attack_check(ctx, f, skill, (target,)):
        ctx.settle_downs("poison")
        return True
    strength, armour = state.objects[square]
    taken = armour if hit.is_physical(skill) else 0
    amount = max(0, skill.damage - taken)
    left = max(0, strength - amount)
    state.objects[square][0] = left
    ctx.emit(E.ObjectHit(turn=ctx.state.turn, actor=f.name, skill=skill.id, square=square, printed=skill.damage,
                         armour=taken, amount=amount, strength_after=left))
    if left == 0:
        del state.objects[square]
        graph = state.graph
        state.graph = MapGraph(graph.width, graph.height, graph.adjacency, graph.blocked - {square}, kept=graph.kept)
        ctx.emit(E.ObjectDestroyed(turn=ctx.state.turn, square=square, actor=f.name, skill=skill.id))
    ctx.settle_downs("poison")
    return True


# ------------------------------------------------------------------ armour


@dataclass(frozen=True, slots=True)
class ArmourDamage(PrintedDamage):
    """R-SOUL-DMG-1: printed damage; armour ``armoured`` (garb ``armoured``)
    against physical damage (``physical`` elements), counters included."""

    armoured: int = 1
    physical: tuple[str, ...] = ("sword",)

    def armour(self, ctx: Resolution, target: Fighter, element: Element | None, skill: str) -> int:
        if target.garb != "armoured" or self.armoured <= 0 or element is None or element.value not in self.physical:
            return 0
        ctx.emit(E.Armour(turn=ctx.state.turn, target=target.name, armour=self.armoured, skill=skill))
        return self.armoured
