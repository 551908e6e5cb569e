"""ORM's turn (variant-orm.md): 先制値 every turn (``initiative:
value_plus_dice``, R-ORM-INIT-*) and the action of a simple phase then one
main use (``action: simple_main``, R-ORM-ACT-*), with the innate normal
attack (R-ORM-ACT-5) and the follow-up between square-mates (R-ORM-SUP-2).

The skill walk, maintain starts, targeting and the step rules are the
engine's own (``engine/action.py``, ``engine/movement.py``); this module only
orders them into ORM's phases and counts the simple uses.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from referee.board import Square
from referee.catalog import Skill
from referee.elements import Element
from referee.engine import events as E
from referee.engine.action import (WalkPolicy, entry_barred, maintenance, select_pattern, skill_order, skill_passed,
                                    start_maintain, walk, walk_order)
from referee.engine.clauses import NeverFollowUp
from referee.engine.conditions import CondContext
from referee.engine.core import Resolution
from referee.engine.mechanics.orm_checks import NORMAL_ATTACK_ID, orm_of
from referee.engine.mechanics.protocols import Outcome
from referee.engine.mechanics.tcgt import play_in_order
from referee.engine.movement import pick_move, step_by
from referee.engine.panels import plan_payment
from referee.engine.planquery import gate_blocking
from referee.engine.responses import resolve_target
from referee.engine.state import Fighter
from referee.engine.statuses import tick
from referee.engine.targeting import restrict
from referee.engine.uses import Use
from referee.mechanicspec import NormalAttackSpec, SimpleMainSpec, ValuePlusDiceSpec

__all__ = ["ValuePlusDice", "SimpleMain", "normal_attack_skill"]


# ------------------------------------------------------------------ initiative


@dataclass(frozen=True, slots=True)
class ValuePlusDice:
    """R-ORM-INIT-1/2: every turn, 先制値 = 行動値 (the sum of ``value``'s
    abilities) + ``dice`` d``sides`` on ``initiative``, higher first; equal
    values go to the ``pcs`` side, then to the higher reflex, then a draw."""

    spec: ValuePlusDiceSpec

    @property
    def each_turn(self) -> bool:
        return True

    def order(self, ctx: Resolution, fighters: Sequence[Fighter]) -> list[Fighter]:
        score: dict[str, int] = {}
        for f in fighters:
            base = sum(f.abilities.get(a, 0) for a in self.spec.value)
            die = sum(ctx.rng.die("initiative", self.spec.sides) for _ in range(self.spec.dice))
            score[f.name] = base + die
            ctx.emit(E.InitiativeScore(turn=ctx.turn, actor=f.name, base=base, die=die, value=base + die))
        out: list[Fighter] = []
        for value in sorted(set(score.values()), reverse=True):
            tied = [f for f in fighters if score[f.name] == value]
            if len(tied) == 1:
                out += tied
                continue
            settled, draws = self._settle(ctx, tied)
            out += settled
            ctx.emit(E.InitiativeTie(turn=ctx.turn, value=value, tied=tuple(f.name for f in tied),
                                     order=tuple(f.name for f in settled), draws=tuple(draws)))
        return out

    def _settle(self, ctx: Resolution, tied: list[Fighter]) -> tuple[list[Fighter], list[int]]:
        """R-ORM-INIT-2: the ``pcs`` side first (「NPCとPCが同値の場合、PCが
        先制」), then higher reflex (「【反射基本値】の高い順」); each block
        still tied is drawn, a choice among its remaining members (roster
        order) picking the next to act, until one is left."""
        pcs = ctx.state.pcs

        def key(f: Fighter) -> tuple[int, int]:
            return (0 if pcs is not None and f.team == pcs else 1, -f.abilities.get("reflex", 0))

        settled: list[Fighter] = []
        draws: list[int] = []
        for k in sorted({key(f) for f in tied}):
            block = [f for f in tied if key(f) == k]
            while len(block) > 1:
                i = ctx.rng.randrange("initiative", len(block))
                draws.append(i)
                settled.append(block.pop(i))
            settled += block
        return settled, draws

    def play_turn(self, ctx: Resolution, fixed: bool) -> None:
        play_in_order(self, ctx, fixed)


# ------------------------------------------------------------------ the action


def normal_attack_skill(spec: NormalAttackSpec) -> Skill:
    """R-ORM-ACT-5: "The normal attack (`normal-attack`, 通常攻撃) is innate:
    no cost (level 0), attack, range 1, targets enemies, power 2, element
    sword, check body."  Its numbers are the ruleset's."""
    return Skill(id=NORMAL_ATTACK_ID, name_ja="通常攻撃", reading="つうじょうこうげき", name_en="Normal Attack",
                 cost=(), level=0, classes=("attack",), range=spec.range, targets="enemies",
                 element=Element(spec.element), damage=spec.power)


#: R-ORM-ACT-4's main phase: one use, maintain entries not its own, the
#: later entries passed as ``main_used`` once the use is spent.
MAIN_PHASE_WALK = WalkPolicy(max_uses=1, skip_maintain=True, spent="main_used")


@dataclass(frozen=True)
class SimpleMain:
    """R-ORM-ACT-1..5: the simple phase (a pattern switch, maintain starts,
    moves: ``simple_uses`` in all), then the main phase (the first entry
    used ends it, the normal attack last), any follow-up, maintenance, the
    statuses' tick."""

    spec: SimpleMainSpec

    def __post_init__(self) -> None:
        object.__setattr__(self, "_innate", (normal_attack_skill(self.spec.normal_attack),))

    def innate_skills(self) -> tuple[Skill, ...]:
        return self._innate  # type: ignore[attr-defined, no-any-return]

    def act(self, ctx: Resolution, f: Fighter) -> None:
        st = ctx.state
        ctx.emit(E.ActionStart(turn=ctx.turn, actor=f.name, square=f.square, hp=f.hp))
        f.acted = True  # R-ORM-ACT-1: acted from the start of its action
        for sink in [s for s in st.sinks if s.owner == f.name]:  # R-ST-SINK
            st.sinks.remove(sink)
            ctx.emit(E.SinkEnded(turn=ctx.turn, actor=f.name, square=sink.square, cause="owner_action"))
        ctx.mechanics.hit.start_action(ctx, f)
        self._simple_phase(ctx, f)
        if not f.down:
            self._main_phase(ctx, f)
        if not f.down:
            maintenance(ctx, f)
        if not f.down:
            tick(ctx, f)
        ctx.emit(E.ActionEnd(turn=ctx.turn, actor=f.name))

    # -- the simple phase ---------------------------------------------------------

    def _simple_phase(self, ctx: Resolution, f: Fighter) -> None:
        """R-ORM-ACT-2: a pattern switch, then maintain starts, then moves."""
        uses = self.spec.simple_uses
        ctx.emit(E.PhaseStart(turn=ctx.turn, actor=f.name, phase="simple", uses=uses))
        n = 0
        before = f.active
        select_pattern(ctx, f)
        if before is not None and f.active != before:  # 「シンプルフェイズで武器を切り替える」
            n += 1
            self._simple_use(ctx, f, n, "switch", None, f.square, f.square, 0)
        n = self._maintain_starts(ctx, f, n, uses)
        while n < uses and not f.down:
            start = f.square
            steps = self._move(ctx, f)
            if steps == 0:
                break
            n += 1
            self._simple_use(ctx, f, n, "move", None, start, f.square, steps)

    def _simple_use(self, ctx: Resolution, f: Fighter, n: int, kind: str, skill: str | None,
                    start: Square, end: Square, steps: int) -> None:
        ctx.emit(E.SimpleUse(turn=ctx.turn, actor=f.name, n=n, kind=kind, skill=skill, from_square=start,
                             to_square=end, steps=steps, rule="R-ORM-ACT-3" if kind == "move" else "R-ORM-ACT-2"))

    def _maintain_starts(self, ctx: Resolution, f: Fighter, n: int, uses: int) -> int:
        """R-ORM-ACT-2 (2): the maintain entries in the R-PLAN-5 order fixed
        now, with R-PLAN-3's skips, a use each; one left without a use waits."""
        order, lines, _ = walk_order(ctx, f)
        entries = [i for i in order if f.skills[i].is_maintain and not f.skills[i].is_passive]
        skill_order(ctx, f, entries, lines)
        for entry in entries:
            if f.down:
                break
            skill = f.skills[entry]
            reason, line, rule = self._maintain_pass(ctx, f, entry, skill)
            if reason is None and n >= uses:
                reason, rule = "no_use_left", "R-ORM-ACT-2"
            if reason is not None:
                skill_passed(ctx, f, entry, reason, line, rule)
                continue
            base = plan_payment(f.active_panels(), skill.cost)
            assert base is not None
            start_maintain(ctx, f, entry, skill, base)
            n += 1
            self._simple_use(ctx, f, n, "maintain", skill.id, f.square, f.square, 0)
        return n

    @staticmethod
    def _maintain_pass(ctx: Resolution, f: Fighter, entry: int, skill: Skill) -> tuple[str | None, int | None, str]:
        """Why a maintain entry is passed (R-PLAN-3's skips), or None."""
        barred = entry_barred(ctx, f, entry, skill, f.freeze > 0)
        if barred is not None:
            return barred
        if plan_payment(f.active_panels(), skill.cost) is None:
            return "cost_unpayable", None, "R-PAN-3"
        return None, None, ""

    def _move(self, ctx: Resolution, f: Fighter) -> int:
        """R-ORM-ACT-3: "At its start R-MOVE-7 picks ... the clause or R-MOVE-6
        ... that decides it, and fixes its goal (a tie drawn on `ties`).
        Before each step that rule's stop test is made from where the mover
        stands".  So the clause and goal are picked once (``pick_move``) and
        every step is the engine's step for that pick (``step_by``); a
        condition that flips mid-move changes nothing until the next move.
        The goal is fixed (and drawn) only when the first step is taken: a
        move whose stop test holds at its start draws nothing.
        It stops at a stop test or on entering an area holding an enemy, and
        ends on the last area of its path where the mover may stop (steps
        given back are not reported).
        Returns the steps kept; 0: ``stayed`` was emitted, the phase ends."""
        st = ctx.state
        movement = ctx.mechanics.movement
        points = self.spec.move_base + f.abilities.get("reflex", 0) // self.spec.move_per_reflex
        path = [f.square]
        mark = len(ctx.events)
        reason: str | None = None
        pick = pick_move(ctx, f, draw_goal=False)
        for _ in range(points):
            reason = step_by(ctx, f, pick, False, report_stay=False, last=False)
            if reason is not None:
                break
            path.append(f.square)
            if any(g.team != f.team for g in st.occupancy.at(f.square)):
                break
        moved = [e for e in ctx.events[mark:] if isinstance(e, E.Moved)]
        del ctx.events[mark:]
        keep = len(path) - 1
        while keep > 0 and not movement.may_stop(st, f, path[keep]):
            keep -= 1
        ctx.state.move(f, path[keep])
        ctx.events.extend(moved[:keep])
        if keep == 0:
            why = reason if reason is not None else "full"
            ctx.emit(E.Stayed(turn=ctx.turn, actor=f.name, square=f.square, reason=why, line=None,
                              rule="R-ORM-MOVE-2" if why == "full" else "R-ORM-ACT-3"))
        return keep

    # -- the main phase -------------------------------------------------------------

    def _main_phase(self, ctx: Resolution, f: Fighter) -> None:
        """R-ORM-ACT-4: the skill walk without maintain entries, the normal
        attack last; the first entry used ends it; then R-ORM-SUP-2."""
        ctx.emit(E.PhaseStart(turn=ctx.turn, actor=f.name, phase="main", uses=1))
        mark = len(ctx.events)
        walk(ctx, f, MAIN_PHASE_WALK)
        used = next((e for e in ctx.events[mark:] if isinstance(e, E.SkillUsed) and e.actor == f.name), None)
        if used is None or not self.spec.follow_up or not used.targets:
            return
        skill = f.skills[used.entry]
        if skill.is_attack or skill.is_obstruct:
            follow_up(ctx, f, ctx.state.by_name[used.targets[0]])


def refuses_follow_up(ctx: Resolution, f: Fighter) -> bool:
    """R-ORM-PLAN-1: an active ``never follow up [when C]`` whose C holds."""
    cond = CondContext(ctx.state, f)
    return any(isinstance(c, NeverFollowUp) and f.clause_active(c.line) and c.when(cond) for c in f.plan.clauses)


def follow_up(ctx: Resolution, user: Fighter, target: Fighter) -> None:
    """R-ORM-SUP-2: the first ally in roster order in ``user``'s area, not
    acted, not frozen, with ``target`` standing within its normal attack's
    range and its plan not excluding that attack, makes one normal attack on
    it (whether the use hit, missed or fumbled)."""
    st = ctx.state
    if target.down:
        return
    for ally in st.fighters:
        if ally is user or ally.team != user.team or ally.down or ally.acted or ally.freeze > 0:
            continue
        if ally.square != user.square:
            continue
        entry = len(ally.skills) - 1
        attack = ally.skills[entry]
        if attack.id != NORMAL_ATTACK_ID or not st.metric.in_range(ally.square, target.square, attack.range):
            continue
        if gate_blocking(st, ally, attack, target) is not None or refuses_follow_up(ctx, ally):
            continue
        if not restrict(ctx, ally, attack, [target]):
            continue  # `never target` naming it (or `only target` leaving it out)
        ctx.emit(E.FollowUp(turn=ctx.turn, actor=ally.name, supporting=user.name, target=target.name))
        memory = orm_of(ally)
        memory.cause = "follow_up"
        try:
            use = Use(ally, attack, entry, (target,))
            if ctx.mechanics.hit.declare(ctx, use).outcome is not Outcome.MISS:
                resolve_target(ctx, use, target)
                ctx.settle_downs("hit")
        finally:
            memory.cause = "skill"
        ctx.check_end()
        return
