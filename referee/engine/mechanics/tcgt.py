"""tcgt's own mechanics (rules.md sections A-B): the implementations
``referee/data/rulesets/tcgt.yaml`` names.

Each is a thin, stateless object over the rule's code, lifted unchanged from
where the battle loop used to call it directly, so tcgt battles draw and emit
exactly what they did before the seam existed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from referee.board import DIRECTIONS, Direction, Square, direction_between
from referee.catalog import Skill
from referee.elements import Element
from referee.engine import events as E
from referee.engine.action import act
from referee.engine.core import Resolution
from referee.engine.mechanics.protocols import HIT, Check, Initiative, StayReason
from referee.engine.narrowing import narrow_if_due
from referee.engine.rng import choose
from referee.engine.state import BattleState, Fighter
from referee.engine.targeting import choose_targets, preference_for, rank
from referee.engine.uses import Choice, Use
from referee.mechanicspec import Adjacency, Goal, NarrowingStage, Reroll

__all__ = ["StepMovement", "DecimalDice", "SkillWalk", "AlwaysHits", "PrintedDamage", "Extension",
           "Narrowing", "NoStall", "ArmyReduced"]


@dataclass(frozen=True, slots=True)
class StepMovement:
    """One area per action (R-MOVE-1), on the map's steps: 8-way (``king``,
    tcgt) or 4-way (``rook``).  Engaged, sunk or bound: no move (R-MOVE-1,
    R-ST-SINK, R-MOVE-4)."""

    adjacency: Adjacency = "king"

    @property
    def approach_needs_a_route(self) -> bool:
        return False

    def stuck(self, state: BattleState, mover: Fighter) -> StayReason | None:
        if state.is_sunk(mover.square):
            return "sunk"
        if state.is_engaged(mover):  # R-MOVE-1
            return "engaged"
        if mover.bind > 0:
            return "bound"
        return None

    def legal_steps(self, state: BattleState, mover: Fighter) -> tuple[Square, ...]:
        return state.graph.neighbours(mover.square)

    def toward(self, state: BattleState, mover: Fighter, dst: Square) -> tuple[Square, ...]:
        return state.graph.next_steps(mover.square, dst)

    def route_length(self, state: BattleState, mover: Fighter, src: Square, dst: Square) -> int | None:
        return state.graph.distance(src, dst)

    def push_direction(self, ctx: Resolution, attacker: Square, target: Square) -> Direction:
        """R-KNOCK-1: directly away, (sign dx, sign dy); R-KNOCK-2: from the
        same area a direction drawn on ``knockback`` among all 8."""
        away = direction_between(attacker, target)
        return away if away is not None else choose(ctx.rng, "knockback", DIRECTIONS)

    def may_stop(self, state: BattleState, mover: Fighter, square: Square) -> bool:
        return True


def play_in_order(initiative: Initiative, ctx: Resolution, fixed: bool) -> None:
    """R-TURN-1's turn: the order (redrawn first when the initiative rolls
    every turn and no battle-file ``order`` fixes it), then every living
    character acts in it; one down before its place is skipped.  Shared by
    every initiative whose turn is "everyone once, in order"."""
    state = ctx.state
    if initiative.each_turn and not fixed:
        state.order = initiative.order(ctx, state.living())
        ctx.emit(E.ActionOrder(turn=ctx.turn, order=tuple(f.name for f in state.order), fixed=False))
    act = ctx.mechanics.action.act
    for f in list(state.order):
        if not f.down:  # R-TURN-1: down before its place: skipped
            act(ctx, f)


@dataclass(frozen=True, slots=True)
class DecimalDice:
    """R-TURN-1: ``dice`` dice read as d.dd; tied characters alone roll one
    more digit each until all differ; higher acts first."""

    dice: int = 3
    sides: int = 6
    reroll: Reroll = "once_per_battle"

    @property
    def each_turn(self) -> bool:
        return self.reroll == "every_turn"

    def order(self, ctx: Resolution, fighters: Sequence[Fighter]) -> list[Fighter]:
        digits: dict[str, list[int]] = {}
        for f in fighters:
            digits[f.name] = [ctx.rng.die("initiative", self.sides) for _ in range(self.dice)]
        while True:
            groups: dict[tuple[int, ...], list[Fighter]] = {}
            for f in fighters:
                groups.setdefault(tuple(digits[f.name]), []).append(f)
            tied = [f for f in fighters if len(groups[tuple(digits[f.name])]) > 1]
            if not tied:
                break
            for f in tied:
                digits[f.name].append(ctx.rng.die("initiative", self.sides))
        for f in fighters:
            d = digits[f.name]
            value = f"{d[0]}." + "".join(str(x) for x in d[1:])
            ctx.emit(E.InitiativeRoll(turn=ctx.turn, actor=f.name, dice=tuple(d), value=value))
        return sorted(fighters, key=lambda f: (tuple(-x for x in digits[f.name]), f.index))

    def play_turn(self, ctx: Resolution, fixed: bool) -> None:
        play_in_order(self, ctx, fixed)


class NoInnateSkills:
    """The ``action`` protocol's default: no skill beyond the sheet's."""

    __slots__ = ()

    def innate_skills(self) -> tuple[Skill, ...]:
        return ()


@dataclass(frozen=True, slots=True)
class SkillWalk(NoInnateSkills):
    """R-TURN-2..5: pattern and panels, the skill walk, maintenance, one
    move, then the statuses tick (``engine/action.py``)."""

    def act(self, ctx: Resolution, fighter: Fighter) -> None:
        act(ctx, fighter)


class QuietHitHooks:
    """The per-action and per-use hooks of the ``hit`` protocol doing nothing
    and drawing nothing: no per-action resource (``start_action``), no check
    of the use as a whole (``declare`` rolls nothing and lets it go on).  A hit mechanic inherits them and overrides the ones its rules
    need, so each no-op is written once."""

    __slots__ = ()

    def start_action(self, ctx: Resolution, fighter: Fighter) -> None:
        return None

    def declare(self, ctx: Resolution, use: Use) -> Check:
        return HIT

    def counter_check(self, ctx: Resolution, owner: Fighter, skill: Skill, attacker: Fighter,
                      element: Element) -> Check:
        return HIT

    # --- wiz: the aim module (R-WIZ-AIM-1) ---
    def aiming(self, ctx: Resolution, fighter: Fighter) -> int | None:
        return None

    def relocated(self, ctx: Resolution, fighter: Fighter, cause: str) -> None:
        return None


@dataclass(frozen=True, slots=True)
class AlwaysHits(QuietHitHooks):
    """R-SK-1a: a use that is not cancelled hits; no draw, no event."""

    def check(self, ctx: Resolution, use: Use, target: Fighter) -> Check:
        return HIT


class NoArmour:
    """The ``damage`` protocol's default armour: none (R-SOUL-DMG-1 is the
    only armour there is); nothing emitted."""

    __slots__ = ()

    def armour(self, ctx: Resolution, target: Fighter, element: Element | None, skill: str) -> int:
        return 0


class PrintedCounters:
    """The ``damage`` protocol's default for counter hits: their own number,
    unchanged (R-TURN-3 (5))."""

    __slots__ = ()

    def counter_damage(self, ctx: Resolution, owner: Fighter, skill: Skill, victim: Fighter, amount: int,
                       element: Element, check: Check) -> int:
        return amount


@dataclass(frozen=True, slots=True)
class PrintedDamage(NoArmour, PrintedCounters):
    """R-SK-3: the catalogue's damage and heal numbers, as printed."""

    def damage(self, ctx: Resolution, use: Use, target: Fighter, check: Check) -> int:
        return use.skill.damage

    def heal(self, ctx: Resolution, use: Use, target: Fighter) -> int:
        return use.skill.heal


@dataclass(frozen=True, slots=True)
class Extension:
    """R-PLAN-4 and R-EXT-1..9: the preferred primary, and extras paid panel
    by panel from the group around it (``engine/targeting.py``)."""

    def choose(self, ctx: Resolution, user: Fighter, skill: Skill, pool: list[Fighter],
               base: tuple[int, ...]) -> Choice:
        return choose_targets(ctx, user, skill, pool, base)

    def announce(self, ctx: Resolution, user: Fighter, skill: Skill, pool: list[Fighter],
                 choice: Choice) -> None:
        announce_targets(ctx, user, skill, pool, choice)


def announce_targets(ctx: Resolution, user: Fighter, skill: Skill, pool: list[Fighter], choice: Choice) -> None:
    """R-PLAN-4 / R-EXT-7's ``targets_chosen``: the candidates in preference
    order and the targets taken; a decision event."""
    pref = preference_for(ctx, user, skill)
    ranked = rank(user, pref, pool, ctx.state, skill)
    ctx.emit(E.TargetsChosen(turn=ctx.turn, actor=user.name, skill=skill.id,
                             candidates=tuple([c.name for c in ranked]),
                             targets=tuple([t.name for t in choice.targets]),
                             preference=pref.describe(),
                             extend_requested=choice.requested, extended=choice.extended,
                             rule="R-EXT-7" if choice.extended else "R-PLAN-4"))


@dataclass(frozen=True, slots=True)
class Narrowing:
    """R-NARROW-1..4 after the scheduled turns (``engine/narrowing.py``)."""

    schedule: tuple[NarrowingStage, ...]

    def after_turn(self, ctx: Resolution) -> None:
        narrow_if_due(ctx, self.schedule)

    def start_turn(self, ctx: Resolution) -> None:
        return None


@dataclass(frozen=True, slots=True)
class NoStall:
    """No stall breaker: the turn limit (R-TURN-9) alone ends a long battle
    (``stall: {kind: none}``, as variant-orm.md names it)."""

    def after_turn(self, ctx: Resolution) -> None:
        return None

    def start_turn(self, ctx: Resolution) -> None:
        return None


@dataclass(frozen=True, slots=True)
class ArmyReduced:
    """R-GOAL-1: over the moment an army's standing members are at most
    floor(start x fraction)."""

    goal: Goal

    def reached(self, state: BattleState) -> bool:
        return any(state.standing(team) <= self.goal.threshold(start) for team, start in state.start_counts.items())

    def after_round(self, ctx: Resolution) -> None:
        return None

    def before_result(self, ctx: Resolution, winner: str) -> None:
        return None

    def revivable(self) -> bool:
        return False  # R-CHAR-2: down is final
