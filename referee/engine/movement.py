"""Movement (R-MOVE-1..8): planned clauses first, else the automatic approach."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from referee.board import Square, square_name
from referee.engine import events as E
from referee.engine.conditions import CondContext, targets_where
from referee.engine.core import Resolution
from referee.engine.panels import could_pay_fresh
from referee.engine.rng import choose
from referee.catalog import Skill
from referee.engine.clauses import Clause, Hold, KeepAway, MoveGoal, MoveTo, MoveToward, NeverUse
from referee.plan.innate import innate_skill
from referee.engine.state import Fighter


@dataclass(slots=True)
class MovePick:
    """What R-MOVE-7 picked at a move's start: the deciding clause (None:
    the automatic approach, R-MOVE-3/6) and its goal.  ``goal`` is a
    ``move toward`` clause's character, drawn when picked; R-MOVE-6 fills in
    the enemy it draws on its first step.  ORM's move (R-ORM-ACT-3) keeps one
    pick for all its steps, and draws a ``move toward`` goal only on its
    first step: until then ``goal`` is None and ``goals`` are the equally
    near characters it is drawn from.  tcgt picks again before its one step."""

    clause: Clause | None
    goal: Fighter | None = None
    goals: Sequence[Fighter] = ()


def pick_move(b: Resolution, f: Fighter, *, draw_goal: bool = True) -> MovePick:
    """R-MOVE-7: the first active move clause whose condition holds (a
    ``move toward`` that names no one does not apply, R-MOVE-8), its goal
    drawn on ``ties``; else the automatic approach.  ``draw_goal=False``
    (R-ORM-ACT-3): the goal is left to the first step (:func:`decide_step`),
    so a move whose stop test holds at its start draws nothing."""
    moves = f.plan.moves
    if not moves:
        return MovePick(None)  # no move clause: the automatic approach (R-MOVE-3/6)
    ctx = CondContext(b.state, f)
    for c in moves:
        if not f.clause_active(c.line) or not c.when(ctx):
            continue
        if isinstance(c, MoveToward):
            goals = _toward_targets(b, f, c)
            if not goals:
                continue  # R-MOVE-8: names no one -> does not apply
            if not draw_goal:
                return MovePick(c, None, goals)
            return MovePick(c, choose(b.rng, "ties", goals))
        return MovePick(c)
    return MovePick(None)


def move_step(b: Resolution, f: Fighter, attacked: bool, *, report_stay: bool = True) -> str | None:
    """R-TURN-5: R-MOVE-7 (first applying clause) else R-MOVE-3.

    Returns why ``f`` stayed, or None when it stepped.  ``report_stay=False``
    (a d20pool shift, R-D20-MOVE-1, which reports its end once) emits no
    ``stayed``.  The step is the move's last, so it never ends where the
    mover may not stop (R-ORM-MOVE-2)."""
    return step_by(b, f, pick_move(b, f), attacked, report_stay=report_stay)


#: What the movement decision (R-MOVE-3..8) decided for one step, before the
#: draw among tied areas: ``(areas, what, toward, line, rule)``.  ``areas``
#: empty: the character stays and ``what`` says why; else it steps to one of
#: ``areas`` (drawn on ``ties``, canonical order), ``what`` being the step's
#: mode and ``toward`` whom or where.  ``line``/``rule``: the deciding
#: clause's line and the rule, as the ``moved`` or ``stayed`` event names them.
Decision = tuple[tuple[Square, ...], str, str, int | None, str]


def step_by(b: Resolution, f: Fighter, pick: MovePick, attacked: bool, *, report_stay: bool = True,
            last: bool = True) -> str | None:
    """One step decided by ``pick`` (:func:`decide_step`), then taken: the
    area drawn on ``ties`` among the decided ones, or the stay reported.
    ``last=False`` (one step of ORM's move, R-ORM-ACT-3) may enter an area
    where the mover may not stop; the move gives such steps back itself.
    Returns why ``f`` stayed, or None when it stepped."""
    return take_step(b, f, decide_step(b, f, pick, attacked, last), report_stay)


def take_step(b: Resolution, f: Fighter, decision: Decision, report_stay: bool = True) -> str | None:
    """Carry out ``decision`` (:func:`decide_step`, made on this same state):
    the area drawn on ``ties`` among the decided ones and the step taken,
    or the stay reported (``report_stay``).  Returns why ``f`` stayed, or
    None when it stepped."""
    areas, what, toward, line, rule = decision
    if not areas:
        return _stay(b, f, what, line, rule, report_stay)
    _move(b, f, choose(b.rng, "ties", areas), what, toward, line, rule)
    return None


def decide_step(b: Resolution, f: Fighter, pick: MovePick, attacked: bool, last: bool = True) -> Decision:
    """The decision of one step by ``pick``: the picked rule's stop test from
    where ``f`` stands, then the areas its step may go to (R-MOVE-5, or
    R-MOVE-8's for ``keep away``).  Moves no one and writes no event; its
    only draw is R-MOVE-6's goal among tied enemies (on ``ties``, filled
    into ``pick.goal``), so d20pool's support (R-D20-TURN-3 (2)) asks it,
    with a non-drawing RNG, whether a step would be taken, and
    :func:`step_by` takes the step it decides (the same draws in the same
    order as deciding and stepping in one go)."""
    st = b.state
    clause = pick.clause
    goal = pick.goal
    line = clause.line if clause is not None else None
    # R-MOVE-1/4 first: a character that cannot move is reported as engaged,
    # sunk or bound even when its plan says hold position, so the report gives
    # the reason that actually kept it in place (docs/decisions.md).
    stuck = b.mechanics.movement.stuck(st, f)
    if stuck is not None:
        return (), stuck, "", line, "R-MOVE-4" if stuck == "bound" else "R-MOVE-1"
    if clause is not None:  # (the automatic approach, the most common, tests no clause kind)
        if isinstance(clause, Hold):
            return (), "hold", "", line, "R-MOVE-7"
        if isinstance(clause, MoveToward):
            if goal is None:
                # R-ORM-ACT-3: the goal is drawn only when the move steps: a
                # stop for one of the equally near goals draws none
                for g in pick.goals:
                    stop = _stop_toward(b, f, g.square, clause.then_use, line)
                    if stop is not None:
                        return stop
                goal = pick.goal = choose(b.rng, "ties", pick.goals)
            else:
                stop = _stop_toward(b, f, goal.square, clause.then_use, line)
                if stop is not None:
                    return stop
            return _step_toward(b, f, goal.square, "clause", goal.name, line, "R-MOVE-8", last)
        if isinstance(clause, MoveTo):
            assert clause.square is not None
            dest = clause.square
            if not st.graph.contains(dest) and b.state.kept is not None:
                dest = b.state.kept.clamp(dest)  # R-NARROW-4
            stop = _stop_toward(b, f, dest, clause.then_use, line)
            if stop is not None:
                return stop
            return _step_toward(b, f, dest, "clause", square_name(dest), line, "R-MOVE-8", last)
        if isinstance(clause, KeepAway):
            return _keep_away(b, f, line)
    # R-MOVE-3 / R-MOVE-6: automatic
    if attacked:
        return (), "attacked", "", None, "R-MOVE-3"
    enemies = st.enemies_of(f)
    if not enemies:
        return (), "no_enemy", "", None, "R-MOVE-6"
    team = f.team
    if st.occupancy.within(f.square, reach(f), team, enemies=True):
        return (), "in_reach", "", None, "R-MOVE-6"
    if goal is not None:  # R-ORM-ACT-3: the goal fixed at the move's start
        return _step_toward(b, f, goal.square, "auto", goal.name, None, "R-MOVE-6", last)
    tied, nearest = nearest_enemies(b, f, enemies)
    if nearest >= _NO_ROUTE and b.mechanics.movement.approach_needs_a_route:
        return (), "no_route", "", None, "R-MOVE-6"
    if len(tied) > 1:  # R-MOVE-6: the nearest enemy in the area holding most of ``f``'s enemies
        crowd = [sum(1 for g in st.occupancy.at(e.square) if g.team != team) for e in tied]
        most = max(crowd)
        tied = [e for e, n in zip(tied, crowd) if n == most]
    goal_f = choose(b.rng, "ties", tied)
    pick.goal = goal_f
    return _step_toward(b, f, goal_f.square, "auto", goal_f.name, None, "R-MOVE-6", last)


def _stop_toward(b: Resolution, f: Fighter, dest: Square, then_use: str | None, line: int | None) -> Decision | None:
    """R-MOVE-8's stop test toward ``dest``: there already (``arrived``), or
    within the ``then use`` skill's range of it (``in_reach``); None: step."""
    if dest == f.square:
        return (), "arrived", "", line, "R-MOVE-8"
    if then_use is not None and b.state.metric.in_range(f.square, dest, b.ruleset.catalog.get(then_use).range):
        return (), "in_reach", "", line, "R-MOVE-8"
    return None


def reach(f: Fighter) -> int:
    """R-MOVE-6: the longest range among entries used actively on enemies
    (attack, or obstruct without passive; not heals, passives or maintained
    skills), not bound, payable with every non-maintained panel unused."""
    best = 0
    for i, s in enumerate(f.skills):
        if s.range <= best:
            continue  # cannot lengthen the reach: its other tests need not be asked
        if s.targets_allies or s.is_passive or s.is_maintain:
            continue
        if not (s.is_attack or s.is_obstruct) or f.entry_bound(i):
            continue
        if not s.cost and _never_innate(f, s):
            continue
        if could_pay_fresh(f, s.cost):
            best = max(best, s.range)
    return best


def _never_innate(f: Fighter, s: Skill) -> bool:
    """R-ORM-MOVE-3: an innate skill (the normal attack, R-ORM-ACT-5) leaves
    the reach under an active ``never use`` of it with no condition.  Only
    innate skills are asked (no catalogue skill is free), so tcgt's reach,
    which counts a skill its plan never uses, is unchanged."""
    return innate_skill(s.id) is not None and any(
        isinstance(g, NeverUse) and not g.conditional and g.skill == s.id and f.clause_active(g.line)
        for g in f.plan.gates)


def _toward_targets(b: Resolution, f: Fighter, c: MoveToward) -> Sequence[Fighter]:
    """R-MOVE-8: the characters a ``move toward`` clause may go toward, the
    equally nearest, roster order (the goal is drawn among them on
    ``ties``); empty: the clause names no one and does not apply."""
    st = b.state
    if c.who is MoveGoal.NAMED:
        t = st.by_name.get(c.name or "")
        seen = t is not None and (not t.down or (st.revivable and t.team == f.team))
        return [t] if t is not None and seen and t is not f else []
    # R-D20-KO-2: where a KO can be healed, `move toward` an ally sees a KO
    # ally at its return area.
    if c.who is MoveGoal.NEAREST_ENEMY:
        enemies = st.enemies_of(f)
        return nearest_enemies(b, f, enemies)[0] if enemies else []
    if st.revivable:
        pool = [a for a in st.fighters if a.team == f.team and a is not f]
    else:
        pool = [a for a in st.allies_of(f) if a is not f]
    if c.who is MoveGoal.ALLY_MATCHING:
        pool = targets_where(c.match, st, f, None, pool)
    if not pool:
        return []
    d = {p.name: _dist(b, f, f.square, p.square) for p in pool}
    near = min(d.values())
    return [p for p in pool if d[p.name] == near]


def nearest_enemies(b: Resolution, f: Fighter, enemies: list[Fighter],
                    here: Square | None = None) -> tuple[list[Fighter], int]:
    """R-MOVE-6/8: the living enemies at the least route length from ``f``
    (roster order) and that length (``_NO_ROUTE`` when none has a route:
    then every enemy).  ``enemies``: every living enemy, roster order.
    ``here``: measure from that area instead of ``f``'s (R-MOVE-8's keep
    away weighs each area ``f`` could step to)."""
    start = f.square if here is None else here
    dist = [_dist(b, f, start, e.square) for e in enemies]
    nearest = min(dist)
    return [e for e, d in zip(enemies, dist) if d == nearest], nearest


def _dist(b: Resolution, mover: Fighter, a: Square, z: Square) -> int:
    """Route length for ``mover`` by the movement mechanic (R-MOVE-5/6); unreachable sorts last."""
    d = b.mechanics.movement.route_length(b.state, mover, a, z)
    return d if d is not None else _NO_ROUTE


#: The distance an unreachable area sorts at (after every real route).
_NO_ROUTE = 10_000


def _step_toward(b: Resolution, f: Fighter, dest: Square, mode: str, toward: str, line: int | None, rule: str,
                 last: bool = True) -> Decision:
    """R-MOVE-5's step toward ``dest`` (its areas; one is drawn on ``ties``
    when it is taken).  A ``last`` step goes only to the areas where ``f``
    may stop (R-ORM-MOVE-2; tcgt: every one, so nothing changes); none
    left: ``f`` stays, ``full``."""
    movement = b.mechanics.movement
    steps = movement.toward(b.state, f, dest)
    if not steps:
        return (), "no_route", "", line, rule
    if last:
        steps = tuple(s for s in steps if movement.may_stop(b.state, f, s))
        if not steps:
            return (), "full", "", line, "R-ORM-MOVE-2"
    return steps, mode, toward, line, rule


def _move(b: Resolution, f: Fighter, to: Square, mode: str, toward: str, line: int | None, rule: str) -> None:
    start = f.square
    b.state.move(f, to)
    b.emit(E.Moved(turn=b.turn, actor=f.name, from_square=start, to_square=to, mode=mode,
                   toward=toward, line=line, rule=rule))
    b.mechanics.hit.relocated(b, f, "moved")  # R-WIZ-AIM-1: aim ends when it moves


def _stay(b: Resolution, f: Fighter, reason: str, line: int | None, rule: str, report: bool = True) -> str:
    if report:
        b.emit(E.Stayed(turn=b.turn, actor=f.name, square=f.square, reason=reason, line=line, rule=rule))
    return reason


def _keep_away(b: Resolution, f: Fighter, line: int | None) -> Decision:
    """R-MOVE-8 ``keep away from enemies``: farthest from the nearest enemy,
    then fewest enemies at that distance, staying wins ties, then R-RNG-1.

    Distance is route distance on the map graph, as everywhere else in
    movement (R-MOVE-5/6); on an open rectangle it equals Chebyshev distance.
    The steps considered are the movement mechanic's legal steps, the same
    every other move takes (on a 4-way map, never a diagonal)."""
    st = b.state
    enemies = st.enemies_of(f)
    if not enemies:
        return (), "keep_away", "", line, "R-MOVE-8"
    movement = b.mechanics.movement
    # R-ORM-MOVE-2: only areas where it may stop are weighed (tcgt: every one)
    options = [f.square, *(s for s in movement.legal_steps(st, f) if movement.may_stop(st, f, s))]

    def key(s: Square) -> tuple[int, int]:
        """Farther from the nearest enemy first, then fewer enemies at that
        distance: the enemies at the least distance from ``s`` and how many."""
        tied, m = nearest_enemies(b, f, enemies, s)
        return (-m, len(tied))

    keys = {s: key(s) for s in options}
    best = min(keys.values())
    if keys[f.square] == best:
        return (), "keep_away", "", line, "R-MOVE-8"
    return tuple(s for s in options if keys[s] == best), "clause", "away", line, "R-MOVE-8"
