"""Kind name -> implementation, per slot, and the bundle a ruleset names.

The loader (``referee.mechanicspec``) knows the *names* and parameters of the
kinds; this module knows which object runs each built one.  A new mechanic is
one class (``protocols.py`` says what it must offer) and one line at the end
of this file; ``tests/engine/test_mechanics.py`` fails when a kind the loader
accepts has no implementation here.  A test double registers with
:meth:`Registry.register` and leaves with :meth:`Registry.unregister`.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Generic, TypeVar

from referee.engine.mechanics.metric import Chebyshev, RangeMetric
from referee.engine.mechanics.orm import Manhattan, step_movement
from referee.engine.mechanics.protocols import (
    ActionShape, AreaTargeting, DamageRule, EndCheck, HitCheck, Initiative, Mechanics, Movement, StallBreaker,
)
from referee.engine.mechanics.tcgt import (
    AlwaysHits, ArmyReduced, DecimalDice, Extension, Narrowing, NoStall, PrintedDamage, SkillWalk,
)
from referee.mechanicspec import (
    ArmyReducedSpec, DecimalDiceSpec, MechanicSpec, MechanicsSpec, NarrowingSpec, StepsSpec,
)

__all__ = ["Registry", "REGISTRIES", "build_mechanics"]

T = TypeVar("T")
S = TypeVar("S", bound=MechanicSpec)


class Registry(Generic[T]):
    """The implementations of one slot, by kind name."""

    def __init__(self, slot: str) -> None:
        self.slot = slot
        self._factories: dict[str, Callable[[MechanicSpec], T]] = {}

    def register(self, kind: str, factory: Callable[[MechanicSpec], T]) -> None:
        """``factory(spec)`` builds the implementation from the typed spec.

        :raises ValueError: when ``kind`` is taken.
        """
        if kind in self._factories:
            raise ValueError(f"{self.slot} kind {kind!r} already has an implementation")
        self._factories[kind] = factory
        build_mechanics.cache_clear()

    def unregister(self, kind: str) -> None:
        self._factories.pop(kind, None)
        build_mechanics.cache_clear()

    def kinds(self) -> tuple[str, ...]:
        return tuple(sorted(self._factories))

    def build(self, spec: MechanicSpec) -> T:
        """:raises LookupError: for a kind with no implementation (the loader
        refuses such rulesets, so this is a programming error)."""
        factory = self._factories.get(spec.kind)
        if factory is None:
            raise LookupError(f"no implementation of {self.slot} kind {spec.kind!r}")
        return factory(spec)


def typed(cls: type[S], spec: MechanicSpec) -> S:
    """``spec`` as the spec class its kind's builder makes (a factory's guard)."""
    if not isinstance(spec, cls):
        raise TypeError(f"{spec.kind!r} expects a {cls.__name__}, not a {type(spec).__name__}")
    return spec


RANGE: Registry[RangeMetric] = Registry("range")
MOVEMENT: Registry[Movement] = Registry("movement")
INITIATIVE: Registry[Initiative] = Registry("initiative")
ACTION: Registry[ActionShape] = Registry("action")
HIT: Registry[HitCheck] = Registry("hit")
DAMAGE: Registry[DamageRule] = Registry("damage")
AREA: Registry[AreaTargeting] = Registry("area")
STALL: Registry[StallBreaker] = Registry("stall")
END: Registry[EndCheck] = Registry("end")

#: slot -> its registry, in ``referee.mechanicspec.SLOTS`` order.
REGISTRIES: dict[str, Registry[object]] = {
    r.slot: r for r in (RANGE, MOVEMENT, INITIATIVE, ACTION, HIT, DAMAGE, AREA, STALL, END)  # type: ignore[misc]
}


@functools.lru_cache(maxsize=64)
def build_mechanics(spec: MechanicsSpec) -> Mechanics:
    """The implementations ``spec`` names; built once per distinct block and
    shared by every battle (they hold no per-battle state)."""
    return Mechanics(
        range=RANGE.build(spec.range), movement=MOVEMENT.build(spec.movement),
        initiative=INITIATIVE.build(spec.initiative), action=ACTION.build(spec.action),
        hit=HIT.build(spec.hit), damage=DAMAGE.build(spec.damage), area=AREA.build(spec.area),
        stall=STALL.build(spec.stall), end=END.build(spec.end),
    )


# --------------------------------------------------------------------------- tcgt
RANGE.register("chebyshev", lambda spec: Chebyshev())
MOVEMENT.register("steps", lambda spec: step_movement(typed(StepsSpec, spec)))
INITIATIVE.register("decimal_dice", lambda spec: DecimalDice(
    typed(DecimalDiceSpec, spec).dice, typed(DecimalDiceSpec, spec).sides, typed(DecimalDiceSpec, spec).reroll))
ACTION.register("skill_walk", lambda spec: SkillWalk())
HIT.register("always", lambda spec: AlwaysHits())
DAMAGE.register("printed", lambda spec: PrintedDamage())
AREA.register("extension", lambda spec: Extension())
STALL.register("narrowing", lambda spec: Narrowing(typed(NarrowingSpec, spec).schedule))
STALL.register("none", lambda spec: NoStall())
END.register("army_reduced", lambda spec: ArmyReduced(typed(ArmyReducedSpec, spec).goal))


# --------------------------------------------------------------------------- soulwired (variant-soulwired.md)
from referee.engine.mechanics.soulwired import AbilityInitiative  # noqa: E402
from referee.mechanicspec import AbilityInitiativeSpec  # noqa: E402

INITIATIVE.register("ability", lambda spec: AbilityInitiative(
    typed(AbilityInitiativeSpec, spec).ability, typed(AbilityInitiativeSpec, spec).tie_die))
from referee.engine.mechanics.soulwired import HEAD_COUNT_GOAL, D6Pool, HardMode  # noqa: E402
from referee.mechanicspec import D6PoolSpec, HardModeSpec  # noqa: E402

HIT.register("d6_pool", lambda spec: D6Pool(typed(D6PoolSpec, spec)))
STALL.register("hard_mode", lambda spec: HardMode(typed(HardModeSpec, spec)))
END.register("head_count", lambda spec: ArmyReduced(HEAD_COUNT_GOAL))

# --------------------------------------------------------------------------- d20pool (variant-d20.md)
from referee.engine.mechanics import d20pool as _d20  # noqa: E402  (the block stays in one piece for the merge)
from referee.mechanicspec import AreaNumberSpec, D20PoolSpec, PointsSpec, SupportAndActionSpec, WipeoutSpec  # noqa: E402

INITIATIVE.register("area_number", lambda spec: _d20.AreaNumber(typed(AreaNumberSpec, spec).tie_die))
ACTION.register("support_and_action", lambda spec: _d20.SupportAndAction(
    typed(SupportAndActionSpec, spec).uses, typed(SupportAndActionSpec, spec).recover))
MOVEMENT.register("points", lambda spec: _d20.PointsMovement(
    "king", typed(PointsSpec, spec).base, typed(PointsSpec, spec).per_reflex))
HIT.register("d20_pool", lambda spec: _d20.D20Pool(typed(D20PoolSpec, spec)))
DAMAGE.register("margin", lambda spec: _d20.MarginDamage())
END.register("wipeout", lambda spec: _d20.Wipeout(typed(WipeoutSpec, spec).winners_ko_to))

# --- orm (variant-orm.md) ---
RANGE.register("manhattan", lambda spec: Manhattan())

# --------------------------------------------------------------------------- wiz (variant-wiz.md)
from referee.engine.mechanics.wiz import InValue, Percentile  # noqa: E402
from referee.mechanicspec import InValueSpec, PercentileSpec  # noqa: E402

INITIATIVE.register("in_value", lambda spec: InValue(DecimalDice(
    typed(InValueSpec, spec).dice, typed(InValueSpec, spec).sides, typed(InValueSpec, spec).reroll)))
HIT.register("percentile", lambda spec: Percentile(typed(PercentileSpec, spec)))

# --------------------------------------------------------------------------- orm (variant-orm.md): the ruleset's own kinds
from referee.engine.mechanics import orm_checks as _orm_checks, orm_turn as _orm_turn  # noqa: E402
from referee.mechanicspec import OpposedNd6Spec, PowerPlusDiceSpec, SimpleMainSpec, ValuePlusDiceSpec  # noqa: E402

INITIATIVE.register("value_plus_dice", lambda spec: _orm_turn.ValuePlusDice(typed(ValuePlusDiceSpec, spec)))
ACTION.register("simple_main", lambda spec: _orm_turn.SimpleMain(typed(SimpleMainSpec, spec)))
HIT.register("opposed_nd6", lambda spec: _orm_checks.OpposedNd6(typed(OpposedNd6Spec, spec)))
DAMAGE.register("power_plus_dice", lambda spec: _orm_checks.PowerPlusDice(typed(PowerPlusDiceSpec, spec)))
from referee.engine.mechanics.wiz import OneMainUse, RolledGroups  # noqa: E402
from referee.mechanicspec import OneMainUseSpec, RolledGroupsSpec  # noqa: E402

ACTION.register("one_main_use", lambda spec: OneMainUse(typed(OneMainUseSpec, spec).cast_delay))
AREA.register("rolled_groups", lambda spec: RolledGroups(
    typed(RolledGroupsSpec, spec).extra_group_penalty, typed(RolledGroupsSpec, spec).exclusion_cost))
# --------------------------------------------------------------------------- soulwired, issue 12
# The soul action, and two kinds extended by parameters: ``points`` with terrain
# costs (d20pool's shift unchanged: it builds the same object as before) and
# ``printed`` with armour (tcgt's unchanged).
from referee.engine.mechanics import soul_action as _soul  # noqa: E402
from referee.mechanicspec import ArmourSpec, SoulActionSpec, SoulPointsSpec  # noqa: E402


def _points_movement(spec: MechanicSpec) -> Movement:
    if isinstance(spec, SoulPointsSpec):
        return _soul.TerrainPoints("king", spec.base, spec.per_reflex, spec.barrier_cost, spec.barrier_start_points,
                                   spec.minimum_move, spec.engaging_ends_move)
    points = typed(PointsSpec, spec)
    return _d20.PointsMovement("king", points.base, points.per_reflex)


def _printed_damage(spec: MechanicSpec) -> DamageRule:
    if isinstance(spec, ArmourSpec):
        return _soul.ArmourDamage(spec.armoured)
    return PrintedDamage()


MOVEMENT.unregister("points")
MOVEMENT.register("points", _points_movement)
DAMAGE.unregister("printed")
DAMAGE.register("printed", _printed_damage)
ACTION.register("soul", lambda spec: _soul.SoulAction(typed(SoulActionSpec, spec).offensive_uses))
