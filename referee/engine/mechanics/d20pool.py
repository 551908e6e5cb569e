"""The d20 pool system's mechanics (variant-d20.md), as the ``d20pool``
ruleset names them: turn order by area number (R-D20-ORDER-*), one support
and one action a turn (R-D20-TURN-*), the shift (R-D20-MOVE-1), keep-highest
checks against 感応力 with a defence check and margin damage (R-D20-HIT-*),
and the wipeout checked at round end with the winners' KO members back on
their feet (R-D20-END-*).

The numbers come from the typed specs (``referee.mechanicspec``); the
arithmetic is ``referee.engine.d20pool_checks``.  Every object here is
stateless: what a character's turn remembers (its attack check, its
criticals) lives on ``Fighter.mechanic_state`` as a :class:`D20Fighter`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from referee.elements import Element
from referee.engine import events as E
from referee.engine.action import (
    Judged, Passed, WalkPolicy, begin_action, entry_barred, maintenance, walk, walk_order, write_walk_start,
)
from referee.engine.clauses import NEAREST, CheckBoost, CheckDrop, Condition, Preference, Ride, SelfRecover
from referee.engine.conditions import CondContext
from referee.engine.core import Resolution
from referee.engine.d20pool_checks import (
    D20PoolParams, PoolCheck, boost_amount, dropped_dice, is_hit, margin, next_in_fixed_order, ring_number,
    roll_pool, select_next,
)
from referee.engine.mechanics.protocols import HIT, Check, Outcome, StayReason
from referee.engine.mechanics.tcgt import NoArmour, NoInnateSkills, PrintedCounters, QuietHitHooks, StepMovement
from referee.engine.movement import Decision, decide_step, move_step, pick_move, reach, take_step
from referee.engine.panels import plan_payment
from referee.engine.state import BLACK, WHITE, BattleState, Fighter
from referee.engine.statuses import tick
from referee.engine.targeting import candidates, pick
from referee.engine.uses import Use
from referee.mechanicspec import Ability, D20PoolSpec

__all__ = ["D20Fighter", "ability_of", "AreaNumber", "SupportAndAction", "PointsMovement", "D20Pool",
           "MarginDamage", "Wipeout"]


@dataclass(slots=True)
class D20Fighter:
    """What the d20pool mechanics remember of one character in one battle."""

    #: The attack check of the use under way (R-D20-HIT-1), per use.
    attack: PoolCheck | None = None
    #: Criticals rolled (R-D20-CHECK-2: the tuning tally, reported at the end).
    tuning: int = 0
    #: Its rolls of R-D20-ORDER-3 this round (kept on the round's key table).
    keys: list[int] = field(default_factory=list)
    #: Its plan's d20pool clauses by kind (:func:`d20_clauses`), read from the
    #: plan at first use: every turn and every check asks for them.
    clauses: D20Clauses | None = None


@dataclass(frozen=True, slots=True)
class D20Clauses:
    """One plan's d20pool clauses (R-D20-PLAN-1), each kind in file order, so
    that "the first that holds" reads only its own kind."""

    #: ``drop N dice on KIND`` by check kind (attack, defence).
    drops: dict[str, tuple[CheckDrop, ...]]
    #: ``boost KIND by N`` by check kind.
    boosts: dict[str, tuple[CheckBoost, ...]]
    #: ``recover`` (R-D20-TURN-3 (1)).
    recovers: tuple[SelfRecover, ...]
    #: ``push`` and ``grapple`` (R-D20-TURN-2).
    rides: tuple[Ride, ...]


def d20_clauses(f: Fighter) -> D20Clauses:
    """``f``'s plan's d20pool clauses by kind, gathered once per battle (a
    plan does not change during a battle)."""
    memory = f.mechanic_state
    if isinstance(memory, D20Fighter):  # d20_of inlined: every turn and every check asks
        found = memory.clauses
        if found is not None:
            return found
    memory = d20_of(f)
    found = memory.clauses
    if found is None:
        clauses = f.plan.clauses
        drops: dict[str, tuple[CheckDrop, ...]] = {}
        boosts: dict[str, tuple[CheckBoost, ...]] = {}
        for c in clauses:
            if isinstance(c, CheckDrop):
                drops[c.check] = (*drops.get(c.check, ()), c)
            elif isinstance(c, CheckBoost):
                boosts[c.check] = (*boosts.get(c.check, ()), c)
        found = memory.clauses = D20Clauses(
            drops, boosts, tuple(c for c in clauses if isinstance(c, SelfRecover)),
            tuple(c for c in clauses if isinstance(c, Ride)))
    return found


def d20_of(f: Fighter) -> D20Fighter:
    """``f``'s d20pool memory, made on first use."""
    state = f.mechanic_state
    if not isinstance(state, D20Fighter):
        state = f.mechanic_state = D20Fighter()
    return state


def ability_of(f: Fighter, ability: Ability) -> int:
    """The value of one of ``f``'s three abilities (R-CHAR-1)."""
    return f.abilities.get(ability, 0)  # a test double's sheet may carry body alone


# ------------------------------------------------------------------ initiative


@dataclass(frozen=True, slots=True)
class AreaNumber:
    """R-D20-ORDER-1..4: each turn goes to the unacted standing character on
    the highest-numbered area (rings, R-D20-ORDER-2), ties by 1D20 keys; a
    battle file's ``order`` gives it to the earliest unacted standing one.
    Positions are read at each selection."""

    tie_die: int = 20

    @property
    def each_turn(self) -> bool:
        return True  # nothing is drawn at setup: the order is made turn by turn

    def order(self, ctx: Resolution, fighters: Sequence[Fighter]) -> list[Fighter]:
        """Roster order: the real order is decided at each selection (play_turn)."""
        return list(fighters)

    def play_turn(self, ctx: Resolution, fixed: bool) -> None:
        """One round: until no standing character is unacted, select the next
        (R-D20-ORDER-1, or -4 with a battle file's ``order``), report the
        selection and give it its turn.  The keys of R-D20-ORDER-3 last the
        round; areas are numbered on the ruleset's map (narrowing does not
        renumber, R-D20-ORDER-2)."""
        state = ctx.state
        width, height = ctx.ruleset.map.width, ctx.ruleset.map.height
        keys: dict[str, list[int]] = {}
        fixed_order = [f.name for f in state.order] if fixed else []

        def number(name: str) -> int:
            return ring_number(state.by_name[name].square, width, height)

        def roll(name: str) -> int:
            face = ctx.rng.die("initiative", self.tie_die)
            ctx.emit(E.TurnRoll(turn=ctx.turn, actor=name, number=number(name), roll=face, key=(*keys[name], face),
                                rule="R-D20-ORDER-3"))
            return face

        while True:
            unacted = [f.name for f in state.fighters if not f.down and not f.acted]
            if fixed:
                first = next_in_fixed_order(fixed_order, dict.fromkeys(unacted, True))
                ranked = [] if first is None else [first]
                rule = "R-D20-ORDER-4"
            else:
                ranked = select_next([(name, number(name)) for name in unacted], keys, roll)
                rule = "R-D20-ORDER-1"
            if not ranked:
                return
            chosen = state.by_name[ranked[0]]
            chosen.acted = True  # acted from its selection on (R-D20-ORDER-1)
            ctx.emit(E.TurnSelected(turn=ctx.turn, actor=chosen.name, square=chosen.square,
                                    number=number(chosen.name), contenders=tuple(ranked), rule=rule))
            ctx.mechanics.action.act(ctx, chosen)


# ------------------------------------------------------------------ movement


@dataclass(frozen=True, slots=True)
class PointsMovement(StepMovement):
    """R-D20-MOVE-1: tcgt's 8-way steps and routes; engagement never stops a
    shift, so this mechanic never reports a character stuck -- the support
    (R-D20-TURN-3) checks Bind and sinking before a shift starts."""

    base: int = 1
    per_reflex: int = 3

    def points(self, f: Fighter) -> int:
        """移動力 = base + floor(reflex / per_reflex) (R-D20-VAL-1)."""
        return self.base + ability_of(f, "reflex") // self.per_reflex

    def stuck(self, state: BattleState, mover: Fighter) -> StayReason | None:
        return None


def shift_blocker(state: BattleState, f: Fighter) -> str | None:
    """R-D20-MOVE-1: what keeps ``f`` from shifting: a grapple
    (R-D20-PUSH-2), Bind (R-MOVE-4) or a sunk area (R-ST-SINK); being engaged
    does not."""
    if f.grapple > 0:
        return "grappled"
    if state.is_sunk(f.square):
        return "sunk"
    if f.bind > 0:
        return "bound"
    return None


class _NoDraws:
    """An ``Rng`` for judging a decision without drawing (R-D20-TURN-2/3's
    "judged without draws"): every tie takes its first candidate.  ``drew``:
    whether the decision met a draw the battle's RNG would have made (a
    choice among two or more, a die of two or more faces, any chance):
    without one, the judged decision is the one the battle's RNG makes."""

    #: No draw met yet: a class default, so a new judge runs no ``__init__``
    #: (one is made for every trial the shortcut of :func:`judge_step` leaves).
    drew = False

    def chance(self, stream: str, p: Fraction | float) -> bool:
        self.drew = True
        return False

    def randrange(self, stream: str, n: int) -> int:
        if n > 1:
            self.drew = True
        return 0

    def die(self, stream: str, faces: int) -> int:
        if faces > 1:
            self.drew = True
        return 1

    def dice(self, stream: str, faces: int, count: int) -> tuple[int, ...]:
        if faces > 1 and count > 0:
            self.drew = True
        return (1,) * count


def judge_step(ctx: Resolution, f: Fighter, attacked: bool) -> tuple[bool, Decision | None]:
    """R-D20-TURN-3 (2): whether the movement decision (R-MOVE-5..8) would
    take a step now, judged without draws and without a trace: the
    decision alone (:func:`decide_step`, which moves no one and writes
    nothing) with a non-drawing RNG, every tie taking its first candidate.
    Second: that decision when judging it met no draw -- then it is what the
    battle's RNG decides on this same state, and the shift's first step
    takes it rather than deciding again (None: decide again).  Without a
    movement clause, an attacker (R-MOVE-3) or a character with an enemy
    within reach (R-MOVE-6) stays, which needs no decision at all (the
    most common trial: no action could be taken, and an enemy is near)."""
    if not f.plan.moves:  # the automatic approach (R-MOVE-3/6): no clause to pick
        if attacked:
            return False, None  # R-MOVE-3: an attacker does not approach
        st = ctx.state
        if st.occupancy.within(f.square, reach(f), f.team, enemies=True):
            # R-MOVE-6: an enemy within reach -- the approach stays, and every
            # test decide_step asks before this one (stuck, no enemy) stays too
            return False, None
    rng, judge = ctx.rng, _NoDraws()
    ctx.rng = judge
    try:
        decision = decide_step(ctx, f, pick_move(ctx, f), attacked)
    finally:
        ctx.rng = rng
    return bool(decision[0]), None if judge.drew else decision


# ------------------------------------------------------------------ the turn


#: The walk policies of ``uses`` uses and no judge's findings, by ``uses``.
_PLAIN_POLICIES: dict[int, WalkPolicy] = {}


def plain_policy(uses: int) -> WalkPolicy:
    """The walk of ``uses`` uses that asks every entry (R-D20-TURN-1/2, after
    a support that changed something), one immutable policy per count: a
    frozen dataclass's construction stores each of its eight fields through
    ``object.__setattr__``, and the support-first turn that shifted or
    recovered would build one each time."""
    policy = _PLAIN_POLICIES.get(uses)
    if policy is None:
        policy = _PLAIN_POLICIES[uses] = WalkPolicy(max_uses=uses)
    return policy


@dataclass(frozen=True, slots=True)
class SupportAndAction(NoInnateSkills):
    """R-D20-TURN-1..3: pattern and panels; the action first if it can be
    taken now, the support after it, else the support first; maintenance;
    statuses tick."""

    uses: int = 1
    recover: Ability = "intellect"

    def act(self, ctx: Resolution, f: Fighter) -> None:
        begin_action(ctx, f)
        # R-D20-TURN-2: a push or grapple first (most plans have no such clause)
        ride = ride_now(ctx, f)
        if ride is not None:
            ride_action(ctx, f, *ride)
            if not f.down:
                self.support(ctx, f, True, first=False)  # a push or grapple counts as attacking
        elif (judged := judge_walk(ctx, f, prepared := walk_order(ctx, f)))[1] is not None:
            # the walk takes the judge's findings on this same state rather than asking again
            policy = WalkPolicy(max_uses=1, judged=judged) if self.uses == 1 else WalkPolicy(max_uses=self.uses)
            attacked = walk(ctx, f, policy, prepared=prepared)
            if not f.down:
                self.support(ctx, f, attacked, first=False)
        else:
            passes = judged[0]
            changed = self.support(ctx, f, False, first=True)
            if changed:
                # R-D20-TURN-1/2: the action after the support is the whole
                # action again -- a push or grapple clause the support made
                # possible (a shift into reach) first, else the walk
                if not f.down:
                    ride = ride_now(ctx, f)
                    if ride is not None:
                        ride_action(ctx, f, *ride)
                    else:
                        walk(ctx, f, plain_policy(self.uses))
            else:  # the support changed nothing: the walk would pass every entry as judged
                write_passes(ctx, f, prepared, passes)
        if f.maintained and not f.down:  # maintenance returns at once with nothing maintained
            maintenance(ctx, f)
        f.acted = True
        if not f.down:
            tick(ctx, f)
            if f.grapple > 0:  # R-D20-PUSH-2: "until its next turn ends"
                f.grapple -= 1
                if f.grapple == 0:
                    ctx.emit(E.StatusExpired(turn=ctx.turn, target=f.name, status="grapple", object="character",
                                             index=None, pattern=None, rule="R-D20-PUSH-2"))
        ctx.emit(E.ActionEnd(turn=ctx.turn, actor=f.name))

    def support(self, ctx: Resolution, f: Fighter, attacked: bool, *, first: bool) -> bool:
        """R-D20-TURN-3: (1) a ``recover`` clause holds and f is hurt:
        self-recover; (2) shift when a step is wanted and possible; (3)
        self-recover when hurt; (4) nothing.  Returns whether it did
        something (a shift or a recovery)."""
        recovers = d20_clauses(f).recovers if f.hp < f.max_hp else ()
        if recovers:
            cctx = CondContext(ctx.state, f)
            chosen = next((c for c in recovers if f.clause_active(c.line) and c.when(cctx)), None)
            if chosen is not None:
                support_event(ctx, f, "recover", first, chosen.line, None)
                ctx.gain_hp(f, ability_of(f, self.recover), f.name, "", cause="recover")
                return True
        wants, decided = judge_step(ctx, f, attacked)
        blocker = shift_blocker(ctx.state, f) if wants else None
        if wants and blocker is None:
            support_event(ctx, f, "shift", first, None, None)
            self.shift(ctx, f, attacked, decided)
            return True
        if f.hp < f.max_hp:
            support_event(ctx, f, "recover", first, None, blocker)
            ctx.gain_hp(f, ability_of(f, self.recover), f.name, "", cause="recover")
            return True
        support_event(ctx, f, "none", first, None, blocker)
        return False

    def shift(self, ctx: Resolution, f: Fighter, attacked: bool, decided: Decision | None = None) -> None:
        """R-D20-MOVE-1: up to 移動力 steps, each decided afresh; ends when the
        decision is to stay or the points are spent.  ``decided``: the first
        step's decision, made on this same state with no draw met
        (:func:`judge_step`)."""
        movement = ctx.mechanics.movement
        points = movement.points(f) if isinstance(movement, PointsMovement) else 1
        steps, reason, line = 0, "no_points", None
        while steps < points:
            if decided is not None:
                stayed = take_step(ctx, f, decided, report_stay=False)
                decided = None
            else:
                stayed = move_step(ctx, f, attacked, report_stay=False)
            if stayed is not None:
                reason = stayed
                break
            steps += 1
            last = ctx.events[-1]  # the line of the last step, for move_end
            line = last.line if isinstance(last, E.Moved) else line
        ctx.emit(E.MoveEnd(turn=ctx.turn, actor=f.name, phase="shift", steps=steps, points_left=points - steps,
                           reason=reason, line=line, rule="R-D20-MOVE-1"))


def support_event(ctx: Resolution, f: Fighter, kind: str, first: bool, line: int | None, stuck: str | None) -> None:
    """R-D20-TURN-3's ``support`` event: which support ``f`` takes and why
    not a shift (``stuck``).  A decision event: its effect is the ``heal``
    or ``moved`` events that follow."""
    ctx.emit(E.Support(turn=ctx.turn, actor=f.name, kind=kind, first=first, line=line, stuck=stuck,
                       rule="R-D20-TURN-3"))


#: The walk's order, moving clauses' lines and target filters (``walk_order``).
Prepared = tuple[list[int], list[int], dict[str, list[tuple[Condition, bool]]]]

#: One entry the walk passes over: a ``skill_passed`` event's entry, reason,
#: line and rule (its detail, the cost of an unpayable entry, is written
#: only when the event is).
Pass = Passed


def judge_walk(ctx: Resolution, f: Fighter,
               prepared: Prepared | None = None) -> Judged | tuple[list[Pass], None, None, None]:
    """R-D20-TURN-1/2: whether the skill walk would use an entry now (a use
    with a target, a heal, a maintain start), judged without draws or
    events by the walk's own tests (R-PLAN-3..5) in the walk's order: the
    entries it would pass over, with the walk's reason, then the entry it
    would use, that entry's candidates and the panels paying it (None,
    None, None: it uses none).  Why the reasons and candidates: the walk that follows on this same state
    takes them (``WalkPolicy.judged``) rather than asking every entry again,
    and when the support changes nothing (R-D20-TURN-3 (4)), the walk's
    events are the passes, written by :func:`write_passes` (the walk of
    ``referee.engine.action`` with one use, no hooks:
    tests/engine/test_properties_d20pool.py holds them equal)."""
    order, _, filters = walk_order(ctx, f) if prepared is None else prepared
    passes: list[Pass] = []
    if f.down or f.hp <= 0 or f.active is None:
        return passes, None, None, None  # the walk stops before its first entry
    frozen = f.freeze > 0  # a frozen character has no action [decision]
    # entry_barred answers None without a test when nothing it reads is there
    # (as the walk asks it): not frozen, no bind, no gate, not a maintain
    barring = frozen or f.skill_binds or f.plan.gates
    skills = f.skills
    for entry in order:
        skill = skills[entry]
        if skill.is_passive:
            passes.append((entry, "passive", None, "R-SK-2"))
        elif (barring or skill.is_maintain) and (barred := entry_barred(ctx, f, entry, skill, frozen)) is not None:
            passes.append((entry, *barred))
        elif (base := plan_payment(f.active_panels(), skill.cost)) is None:  # R-PAN-3, as the walk pays
            passes.append((entry, "cost_unpayable", None, "R-PAN-3"))
        elif skill.is_maintain:
            return passes, entry, [], base  # a maintain start
        else:
            cands = candidates(ctx, f, skill, filters.get(skill.id, ()))
            if cands.pool:
                return passes, entry, cands.pool, base  # a use
            passes.append((entry, cands.reason, None, "R-PLAN-1" if cands.reason == "heal_guard" else "R-RANGE-2"))
    return passes, None, None, None


def action_available(ctx: Resolution, f: Fighter, prepared: Prepared | None = None) -> bool:
    """R-D20-TURN-1/2: whether the skill walk would use an entry now,
    judged without draws or events (:func:`judge_walk`)."""
    return judge_walk(ctx, f, prepared)[1] is not None


def write_passes(ctx: Resolution, f: Fighter, prepared: Prepared, passes: list[Pass]) -> None:
    """The events of a walk that uses nothing (R-PLAN-3): its order, then
    every entry passed over, as :func:`judge_walk` found them on this same
    state.  Decision events only: nothing the engine decides reads them."""
    order, lines, _ = prepared
    write_walk_start(ctx, f, order, lines, passes)


# ------------------------------------------------------------------ push and grapple


def ride_candidates(ctx: Resolution, f: Fighter, grapple: bool) -> list[Fighter]:
    """R-D20-PUSH-1/-2: the standing enemies within distance 1 (a push) or in
    ``f``'s area (a grapple), roster order, less the plan's ``never target``
    clauses written for no skill."""
    st = ctx.state
    reach = 0 if grapple else 1
    in_range = st.metric.in_range
    pool = [e for e in st.enemies_of(f) if in_range(f.square, e.square, reach)]
    for r in f.plan.restricts:
        if pool and r.exclude and r.skill is None and f.clause_active(r.line) and r.when(CondContext(st, f)):
            pool = [t for t in pool if not r.test(CondContext(st, f, None, t))]
    return pool


def ride_clause(ctx: Resolution, f: Fighter) -> tuple[Ride, list[Fighter]] | None:
    """R-D20-TURN-2: the first push or grapple clause (top-down) whose
    condition holds and that has a target, with its candidates (a condition
    speaking of ``target`` holds if some candidate satisfies it, then filters
    them, R-PLAN-5).  Judged without draws."""
    st = ctx.state
    for c in d20_clauses(f).rides:
        if not f.clause_active(c.line):
            continue
        if not c.targets_condition and not c.when(CondContext(st, f)):
            continue
        pool = ride_candidates(ctx, f, c.grapple)
        if c.targets_condition:
            pool = [t for t in pool if c.when(CondContext(st, f, None, t))]
        if pool:
            return c, pool
    return None


def ride_now(ctx: Resolution, f: Fighter) -> tuple[Ride, list[Fighter]] | None:
    """R-D20-TURN-2: the push or grapple the action would be now (None: the
    action is the skill walk's); a frozen character has none [decision]."""
    return ride_clause(ctx, f) if d20_clauses(f).rides and f.freeze <= 0 else None


def _general_preference(ctx: Resolution, f: Fighter) -> Preference:
    """R-D20-PUSH-1: without ``target P``, the plan's ``target`` clause
    written for no skill, else nearest."""
    cctx = CondContext(ctx.state, f)
    for c in f.plan.target_prefs:
        if c.skill is None and f.clause_active(c.line) and c.when(cctx):
            return c.preference
    return NEAREST


def ride_action(ctx: Resolution, f: Fighter, clause: Ride, pool: list[Fighter]) -> None:
    """R-D20-PUSH-1/-2: choose the target (ties on ``ties``), roll the check
    (the ``hit`` mechanic's push or grapple ability, ``on attack`` drops, no
    boost, no modifier) against its 感応力; a push rides it one area away, a
    grapple puts status ``grapple`` on it.  Neither a skill use nor a hit:
    no obstruct, defence or counter answers it."""
    pref = clause.preference or _general_preference(ctx, f)
    target = pick(ctx, f, pref, pool, 1)[0]
    hit = ctx.mechanics.hit
    if not isinstance(hit, D20Pool):
        return  # a ruleset with push clauses but another hit mechanic: the check has no numbers
    spec = hit.spec
    kind = "grapple" if clause.grapple else "push"
    ability: Ability = spec.grapple_ability if clause.grapple else spec.push_ability
    check = hit.roll_check(ctx, f, kind, ability, 0, None, target, (target.name,), "R-D20-PUSH-2" if clause.grapple
                           else "R-D20-PUSH-1", drop_kind="attack", boost=False)
    sensitivity = hit.sensitivity(target)
    success = is_hit(check, sensitivity)
    ctx.emit(E.HitTest(turn=ctx.turn, actor=f.name, target=target.name, achievement=check.achievement,
                       sensitivity=sensitivity, hit=success, rule="R-D20-PUSH-2" if clause.grapple else "R-D20-PUSH-1"))
    if not success:
        return
    if clause.grapple:
        target.grapple = max(target.grapple, spec.grapple_turns)
        ctx.emit(E.StatusApplied(turn=ctx.turn, target=target.name, status="grapple", object="character", index=None,
                                 pattern=None, duration=spec.grapple_turns, actor=f.name, skill="",
                                 rule="R-D20-PUSH-2"))
        return
    direction = ctx.mechanics.movement.push_direction(ctx, f.square, target.square)
    kb = ctx.state.graph.knockback(f.square, target.square, direction)
    start = target.square
    ctx.state.move(target, kb.dest)
    ctx.emit(E.Ridden(turn=ctx.turn, actor=f.name, target=target.name, from_square=start, to_square=kb.dest,
                      direction=direction.name, blocked=kb.hit_wall, rule="R-D20-PUSH-1"))


# ------------------------------------------------------------------ checks


#: A missed hit test's check (immutable, so one for every miss, as ``HIT`` is
#: for every hit without a margin).
MISS = Check(Outcome.MISS)

#: The hit checks by margin (immutable, so one per margin, made at first
#: use): a damaging hit's check was a frozen dataclass built per target
#: (two ``object.__setattr__``) and an enum member read through the enum
#: class's ``__getattr__`` hook (R-D20-HIT-2).
_MARGIN_HITS: dict[int, Check] = {}

#: ``Element.SWORD``, read once (R-D20-VAL-1's attack ability asks it per
#: use; an enum class's attribute goes through its ``__getattr__`` hook).
_SWORD = Element.SWORD


@dataclass(frozen=True, slots=True)
class D20Pool(QuietHitHooks):
    """R-D20-HIT-1..3 with R-D20-CHECK-1..4: one attack check per use on
    enemies, a hit test per target against its 感応力, a defence check for a
    hit by a damaging skill; the margin goes to the ``damage`` mechanic."""

    spec: D20PoolSpec
    #: The check arithmetic's numbers, taken from ``spec`` once when the
    #: mechanic is built (not on every roll).
    params: D20PoolParams = field(init=False)

    def __post_init__(self) -> None:
        s = self.spec
        object.__setattr__(self, "params", D20PoolParams(sides=s.sides, drop_bonus=s.drop_bonus,
                                                         critical_bonus=s.critical_bonus,
                                                         sensitivity_base=s.sensitivity_base))

    def sensitivity(self, f: Fighter) -> int:
        """感応力 = base + reflex (R-D20-VAL-1)."""
        spec = self.spec
        return spec.sensitivity_base + f.abilities.get(spec.sensitivity_ability, 0)  # ability_of, inline

    def attack_ability(self, use: Use) -> Ability:
        """R-D20-VAL-1: body for sword at range 0, reflex for sword at range 1+,
        intellect for any other element."""
        skill = use.skill
        if skill.element is not _SWORD:
            return self.spec.spiritual
        return self.spec.melee_physical if skill.range == 0 else self.spec.ranged_physical

    def roll_check(self, ctx: Resolution, roller: Fighter, kind: str, ability: Ability, printed: int,
                   skill: str | None, other: Fighter | None, targets: tuple[str, ...], rule: str, *,
                   drop_kind: str, boost: bool = True) -> PoolCheck:
        """One check of ``roller``: its first drop clause of ``drop_kind``
        and (``boost``) its first boost clause whose conditions hold -- read
        with ``other`` as ``target`` and HP before the boost --, the boost
        paid (one ``damage`` event, cause ``boost``), then the dice
        (R-D20-CHECK-1..4)."""
        pool = roller.abilities.get(ability, 0)  # ability_of, inline: every check reads it
        clauses = d20_clauses(roller)
        drops = clauses.drops.get(drop_kind, ())
        lifts = clauses.boosts.get(drop_kind, ()) if boost else ()
        dropped = boosted = 0
        if drops or lifts:  # the first of each kind that holds (R-D20-CHECK-3/4)
            cctx = CondContext(ctx.state, roller, None, other)
            drop = next((c for c in drops if roller.clause_active(c.line) and c.when(cctx)), None)
            lift = next((c for c in lifts if roller.clause_active(c.line) and c.when(cctx)), None)
            dropped = 0 if drop is None else dropped_dice(pool, drop.count)
            boosted = 0 if lift is None else boost_amount(lift.amount, ability_of(roller, self.spec.boost_cap),
                                                          roller.hp)
            if boosted > 0:
                ctx.lose_hp(roller, boosted, "boost", actor=roller.name, skill=skill, rule="R-D20-CHECK-4")
        check = roll_pool(ctx.rng, pool, dropped=dropped, printed=printed, boost=boosted, params=self.params)
        if check.critical:
            d20_of(roller).tuning += 1
        ctx.emit(E.D20Check(
            turn=ctx.turn, actor=roller.name, check=kind, skill=skill, targets=targets, ability=ability,
            pool=check.pool, dropped=check.dropped, dice=check.dice, highest=check.highest,
            modifiers={"printed": printed, "drop": check.drop_modifier, "boost": boosted,
                       "critical": check.critical_modifier},
            achievement=check.achievement, critical=check.critical, fumble=check.fumble, rule=rule))
        return check

    def declare(self, ctx: Resolution, use: Use) -> Check:
        """R-D20-HIT-1: the use's one attack check, after its cost is paid
        (a user KO'd while paying still rolls it, R-D20-HIT-3); the use goes
        on whatever it rolled: each target tests it in :meth:`check`."""
        d20_of(use.user).attack = self.roll_check(
            ctx, use.user, "attack", self.attack_ability(use), use.skill.damage, use.skill.id,
            use.targets[0] if use.targets else None, tuple([t.name for t in use.targets]), "R-D20-HIT-1",
            drop_kind="attack")
        return HIT

    def check(self, ctx: Resolution, use: Use, target: Fighter) -> Check:
        user = use.user
        attack = d20_of(user).attack
        assert attack is not None, "declare rolls the attack check before any target"
        sensitivity = self.sensitivity(target)
        hit = is_hit(attack, sensitivity)
        ctx.emit(E.HitTest(turn=ctx.turn, actor=user.name, target=target.name, achievement=attack.achievement,
                           sensitivity=sensitivity, hit=hit, rule="R-D20-HIT-1"))
        if not hit:
            return MISS
        if use.skill.damage <= 0:
            return HIT  # R-D20-HIT-3: Pressurize calls no defence check
        defence = self.roll_check(ctx, target, "defence", self.spec.defence_dice, 0, use.skill.id, user,
                                  (user.name,), "R-D20-HIT-2", drop_kind="defence")
        amount = margin(attack, defence)
        ctx.emit(E.Margin(turn=ctx.turn, actor=user.name, target=target.name, attack=attack.achievement,
                          defence=defence.achievement, margin=amount, rule="R-D20-HIT-2"))
        hit_check = _MARGIN_HITS.get(amount)
        if hit_check is None:
            hit_check = _MARGIN_HITS[amount] = Check(Outcome.HIT, amount)
        return hit_check


@dataclass(frozen=True, slots=True)
class MarginDamage(NoArmour, PrintedCounters):
    """R-D20-HIT-2: a hit by a damaging skill deals the margin before
    reductions; heals restore their printed amount."""

    def damage(self, ctx: Resolution, use: Use, target: Fighter, check: Check) -> int:
        return check.margin if use.skill.damage > 0 else 0

    def heal(self, ctx: Resolution, use: Use, target: Fighter) -> int:
        return use.skill.heal


# ------------------------------------------------------------------ the end


@dataclass(frozen=True, slots=True)
class Wipeout:
    """R-D20-END-1..2: the end is checked only at the end of a round: an army
    with no standing member loses (both: a draw); the winners' KO members go
    from HP 0 to ``winners_ko_to``."""

    winners_ko_to: int = 1

    def reached(self, state: BattleState) -> bool:
        return False  # never in the middle of a round (R-D20-END-1)

    def revivable(self) -> bool:
        return True  # R-D20-KO-2: a KO can be healed

    def after_round(self, ctx: Resolution) -> None:
        state = ctx.state
        if state.standing(WHITE) == 0 or state.standing(BLACK) == 0:
            ctx.finish("wipeout", "R-D20-END-1")

    def before_result(self, ctx: Resolution, winner: str) -> None:
        for f in ctx.state.fighters:
            if f.team == winner and f.down:
                ctx.state.set_down(f, False)
                f.hp = min(self.winners_ko_to, f.max_hp)
                ctx.emit(E.Revived(turn=ctx.turn, target=f.name, square=f.square, hp=f.hp, cause="victory",
                                   rule="R-D20-END-2"))
