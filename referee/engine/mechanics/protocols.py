"""The interface of each mechanic a ruleset names (R-VAR-1), and the bundle.

Every implementation is *stateless and shared*: one object serves every
battle of a batch (and forked workers), so whatever a mechanic remembers
during a battle lives in the battle's state, never in the object.  Each
method receives the battle being resolved (:class:`Resolution`) and emits its
own typed events; the engine calls them at named points, in the order of the
rules:

=============  ===========================================  =====================
slot           called                                       tcgt (``tcgt.py``)
=============  ===========================================  =====================
``range``      every range, reach, ``in range``, group      Chebyshev (R-RANGE-1)
``movement``   after the walk (R-TURN-5), keep away         one step, 8-way
``initiative`` battle start, or each turn                   3d6 decimal (R-TURN-1)
``action``     each living character's place in the order   the skill walk (R-TURN-2)
``hit``        per target, after obstructs, before defences always hits (R-SK-1a)
``damage``     per hit, before reductions; per heal         printed (R-SK-3)
``area``       once per use: primary and extras             extension (R-EXT-*)
``stall``      after each turn                              narrowing (R-NARROW-*)
``end``        after every change that can fell someone     a third left (R-GOAL-1)
=============  ===========================================  =====================

``Resolution`` is imported for type checking only: it holds the bundle, and
the bundle's methods receive it -- a context and its strategies name each
other, and only one of the two names may be a runtime import.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal, Protocol

from referee.board import Direction, Square
from referee.catalog import Skill
from referee.elements import Element
from referee.engine.mechanics.metric import RangeMetric
from referee.engine.state import BattleState, Fighter
from referee.engine.uses import Choice, Use
from referee.mechanicspec import Adjacency

if TYPE_CHECKING:
    from referee.engine.core import Resolution

__all__ = [
    "Outcome", "Check", "HIT", "StayReason", "Movement", "Initiative", "ActionShape", "HitCheck",
    "DamageRule", "AreaTargeting", "StallBreaker", "EndCheck", "Mechanics",
]


class Outcome(enum.Enum):
    """What a hit check decided for one target."""

    HIT = "hit"
    MISS = "miss"


@dataclass(frozen=True, slots=True)
class Check:
    """A hit check's result: the outcome and by how much (``margin``: for
    damage rules that read it, e.g. variant-d20.md's margin damage)."""

    outcome: Outcome
    margin: int = 0


#: The check of a hit that always lands (no draw, no event).
HIT = Check(Outcome.HIT)


#: Why a character cannot move at all (R-MOVE-1, R-MOVE-4, R-ST-SINK): the
#: ``stayed`` event's ``reason`` as it is written.  A ``Literal`` rather than an
#: enum: it is asked for every mover every action, and an enum's ``.value`` is
#: a descriptor call on that path, while mypy checks a Literal just as well.
StayReason = Literal["sunk", "engaged", "bound"]


class Movement(Protocol):
    """Steps and routes (R-MOVE-1..8).  *Which* clause moves a character and
    toward what is the engine's (``engine/movement.py``); *where* a step may
    go is this mechanic's, so ``keep away``, R-MOVE-6 and R-MOVE-8 all step
    the same way."""

    @property
    def adjacency(self) -> Adjacency:
        """The map's step shape, read once when the battle's map is built."""
        ...

    def stuck(self, state: BattleState, mover: Fighter) -> StayReason | None:
        """Why ``mover`` cannot move at all this action, or None."""
        ...

    def legal_steps(self, state: BattleState, mover: Fighter) -> tuple[Square, ...]:
        """Every area one step may reach, canonical order (staying excluded)."""
        ...

    def toward(self, state: BattleState, mover: Fighter, dst: Square) -> tuple[Square, ...]:
        """R-MOVE-5: the candidate next steps toward ``dst``; empty when there
        or unreachable; several only when tied, in the order the caller's
        draw reads them (R-RNG-1's square order; R-ORM-MOVE-1: N, E, S, W)."""
        ...

    def route_length(self, state: BattleState, mover: Fighter, src: Square, dst: Square) -> int | None:
        """Steps from ``src`` to ``dst`` on ``mover``'s map (the current map;
        without its enemies' areas where enemies block, R-ORM-MOVE-1); None if
        unreachable."""
        ...

    @property
    def approach_needs_a_route(self) -> bool:
        """Whether R-MOVE-6's approach ends ``no_route`` without a draw when
        no enemy has a route at all (R-SOUL-MOVE-3); tcgt: False (the tied
        enemies are drawn among first, then the step finds no route)."""
        ...

    def push_direction(self, ctx: Resolution, attacker: Square, target: Square) -> Direction:
        """The direction a knockback from ``attacker`` pushes ``target``
        (R-KNOCK-1/2, R-ORM-KNOCK-1); draws on ``knockback`` when the rule
        leaves a choice."""
        ...

    def may_stop(self, state: BattleState, mover: Fighter, square: Square) -> bool:
        """Whether ``mover`` may end a move or a push on ``square``
        (R-ORM-MOVE-2: not in a full area of its side); tcgt: always."""
        ...


class Initiative(Protocol):
    """The action order (R-TURN-1)."""

    @property
    def each_turn(self) -> bool:
        """Whether the order is drawn at every turn's start (else once, at setup)."""
        ...

    def order(self, ctx: Resolution, fighters: Sequence[Fighter]) -> list[Fighter]:
        """``fighters`` (roster order) in acting order; emits its roll events."""
        ...

    def play_turn(self, ctx: Resolution, fixed: bool) -> None:
        """Give every character its action(s) of one turn (a round), in this
        mechanic's order; ``fixed``: the battle file's ``order`` is in
        ``ctx.state.order``.  tcgt: the order (redrawn if ``each_turn``), each
        living character in it acting once (R-TURN-1)."""
        ...


class ActionShape(Protocol):
    """One character's action (R-TURN-2..5, R-ST-1)."""

    def act(self, ctx: Resolution, fighter: Fighter) -> None:
        """Resolve the whole action.  :raises BattleOver: via the end check."""
        ...

    def innate_skills(self) -> tuple[Skill, ...]:
        """Skills every character has after its sheet's entries (R-ORM-ACT-5's
        normal attack); tcgt: none."""
        ...


class HitCheck(Protocol):
    """Whether one target's share of an attack lands (R-SK-1a, R-TURN-3)."""

    def check(self, ctx: Resolution, use: Use, target: Fighter) -> Check:
        """Called per target after obstructs, before defences; emits any roll."""
        ...

    def start_action(self, ctx: Resolution, fighter: Fighter) -> None:
        """Called once at the start of ``fighter``'s action, after its pattern
        and panels (a per-action resource such as R-SOUL-HIT-2's evasion
        dice); tcgt: nothing."""
        ...

    def declare(self, ctx: Resolution, use: Use) -> Check:
        """Called once per use on enemies, its targets chosen and its cost
        paid, before any target is resolved: the use's one attack check
        (R-SOUL-HIT-1; R-D20-HIT-1, whose targets then test it one by one).
        A miss skips every target.  tcgt: a hit, no draw."""
        ...

    def counter_check(self, ctx: Resolution, owner: Fighter, skill: Skill, attacker: Fighter,
                      element: Element) -> Check:
        """Called per counter hit in range, before the attacker's defences:
        whether it lands (R-ORM-CHK-4's own opposed check).  tcgt: a hit, no
        draw (R-SK-1a)."""
        ...

    # --- wiz: the aim module (R-WIZ-AIM-1) ---
    def aiming(self, ctx: Resolution, fighter: Fighter) -> int | None:
        """Called at the start of ``fighter``'s walk: the plan line of a clause
        that spends this action's walk and movement instead (R-WIZ-AIM-1's
        ``take aim at``, which emits ``aimed``), or None to walk as usual.
        tcgt: None."""
        ...

    def relocated(self, ctx: Resolution, fighter: Fighter, cause: str) -> None:
        """Called after ``fighter``'s square changed: ``moved`` (its own
        step) or ``pushed`` (knockback, narrowing).  R-WIZ-AIM-1: aim ends.
        tcgt: nothing."""
        ...


class DamageRule(Protocol):
    """How much a hit deals before reductions, and how much a heal restores."""

    def damage(self, ctx: Resolution, use: Use, target: Fighter, check: Check) -> int:
        ...

    def counter_damage(self, ctx: Resolution, owner: Fighter, skill: Skill, victim: Fighter, amount: int,
                       element: Element, check: Check) -> int:
        """A counter hit's damage before the victim's reductions, from the
        counter's own ``amount`` (R-ORM-CHK-4: ORM's power + dice).  tcgt:
        ``amount``."""
        ...

    def heal(self, ctx: Resolution, use: Use, target: Fighter) -> int:
        ...

    def armour(self, ctx: Resolution, target: Fighter, element: Element | None, skill: str) -> int:
        """Called per hit (a use's or a counter's) after R-TURN-3 step 2's
        defences: what the target's armour takes off besides (R-SOUL-DMG-1),
        its event emitted; tcgt: 0, nothing emitted."""
        ...


class AreaTargeting(Protocol):
    """The targets of one use: the primary, then any extras (R-PLAN-4, R-EXT-*)."""

    def choose(self, ctx: Resolution, user: Fighter, skill: Skill, pool: list[Fighter],
               base: tuple[int, ...]) -> Choice:
        """From candidates ``pool`` (roster order) with the base cost paid by
        panels ``base``; draws ties on ``ties``."""
        ...

    def announce(self, ctx: Resolution, user: Fighter, skill: Skill, pool: list[Fighter],
                 choice: Choice) -> None:
        """Report the choice just made, before ``skill_used``.  tcgt: one
        ``targets_chosen`` (R-PLAN-4, R-EXT-7); wiz's area uses report their
        roll, groups and selection in :meth:`choose` instead (R-WIZ-EV-1)."""
        ...


class StallBreaker(Protocol):
    """What keeps a battle from stalling (R-NARROW-*)."""

    def after_turn(self, ctx: Resolution) -> None:
        """Called once after each turn's last action."""
        ...

    def start_turn(self, ctx: Resolution) -> None:
        """Called right after each turn's ``turn_start`` (R-SOUL-HARD-2
        announces a level there); tcgt: nothing."""
        ...


class EndCheck(Protocol):
    """When the battle ends before the turn limit (R-GOAL-1)."""

    def reached(self, state: BattleState) -> bool:
        ...

    def after_round(self, ctx: Resolution) -> None:
        """Called after each turn's stall breaker (R-D20-END-1 checks only
        here).  tcgt: nothing (R-GOAL-1 is asked after every use).
        :raises BattleOver: when it ends the battle."""
        ...

    def before_result(self, ctx: Resolution, winner: str) -> None:
        """Called once the winner is known, before the result is recorded
        (R-D20-END-2 stands the winners' KO members up).  tcgt: nothing."""
        ...

    def revivable(self) -> bool:
        """Whether a down character can be healed back up (R-D20-KO-1/2: a KO
        keeps a return area, loses its statuses, and an ally's heal may take
        it).  tcgt: False (R-CHAR-2: down is final)."""
        ...


@dataclass(frozen=True)
class Mechanics:
    """One implementation per slot of ``referee.mechanicspec.SLOTS``, built
    once per ruleset by ``registry.build_mechanics`` and shared."""

    range: RangeMetric
    movement: Movement
    initiative: Initiative
    action: ActionShape
    hit: HitCheck
    damage: DamageRule
    area: AreaTargeting
    stall: StallBreaker
    end: EndCheck
