"""The engine's compiled view of a plan: what each kind of clause asks for.

The plan AST (``referee.plan.ast``) is the players' language; this module is
the engine's vocabulary.  ``referee.engine.astcompile`` turns an AST into a
:class:`PlanRules` once per battle, with every condition compiled into a
:data:`Condition` closure, so that the hot path never walks syntax trees.
Tests may also build :class:`PlanRules` directly.
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from referee.board import Square

if TYPE_CHECKING:
    from referee.engine.conditions import CondContext

#: A compiled plan condition (R-PAT-2, R-PLAN-5): true/false in a context.
Condition = Callable[["CondContext"], bool]


def always(_: "CondContext") -> bool:
    """The condition of a clause written without ``when``."""
    return True


class PreferenceKind(enum.Enum):
    """How a target preference orders candidates (R-PLAN-4); the value is
    what the ``targets_chosen`` event records."""

    NEAREST = "nearest"
    LOWEST_HP = "lowest_hp"
    HIGHEST_HP = "highest_hp"
    MOST_HP_LOST = "most_hp_lost"
    LEAST_HP_LOST = "least_hp_lost"
    NAMED = "named"
    FARTHEST = "farthest"
    ALLY_WITH = "ally_with"
    #: soulwired (R-SOUL-PLAN-4): fewest evasion dice left (``key``).
    FEWEST_EVASION_DICE = "fewest_evasion_dice"


@dataclass(frozen=True, slots=True)
class Preference:
    """A target preference (R-PLAN-4): ``NAMED`` puts ``name`` first,
    ``ALLY_WITH`` the candidates for which ``match`` holds (``match`` reads
    the candidate as ``ctx.target``); the others rank by HP or distance."""

    kind: PreferenceKind = PreferenceKind.NEAREST
    name: str | None = None
    match: "Condition | None" = None
    #: soulwired: a number per candidate, fewest first (``FEWEST_EVASION_DICE``).
    key: "Callable[[Any], int] | None" = None

    def describe(self) -> str:
        return f"named {self.name}" if self.kind is PreferenceKind.NAMED else self.kind.value


NEAREST = Preference()


@dataclass(frozen=True, slots=True)
class Clause:
    """Base: the clause's 1-based ``line`` (its identity for clause Bind) and
    its condition."""

    line: int
    when: Condition = always
    conditional: bool = False


@dataclass(frozen=True, slots=True)
class SkillUseClause(Clause):
    """Base of the clauses about using skill X (R-PLAN-5): ``targets_condition``
    when C speaks of ``target`` (it then filters X's candidates)."""

    skill: str = ""
    targets_condition: bool = False


@dataclass(frozen=True, slots=True)
class UseFirst(SkillUseClause):
    """``use X first [when C]`` (R-PLAN-5)."""


@dataclass(frozen=True, slots=True)
class UseOnly(SkillUseClause):
    """``use X only when C``: X is tried/fires only while C holds."""


@dataclass(frozen=True, slots=True)
class NeverUse(SkillUseClause):
    """``never use X when C``."""


@dataclass(frozen=True, slots=True)
class TargetPref(Clause):
    """``target P`` (``skill`` None) or ``with X target P``."""

    preference: Preference = NEAREST
    skill: str | None = None


@dataclass(frozen=True, slots=True)
class TargetRestrict(Clause):
    """``never target NAME`` (``exclude``) or ``only target ...``.

    ``test(ctx)`` says whether ``ctx.target`` is allowed / excluded;
    ``skill`` None = every skill.  ``admits_allies``: an ``only target``
    clause naming allies (``allies``, ``ally with ...``, an ally's name) lets
    a skill that targets enemies take allies too (R-EXT-9 "unless a clause
    names allies").
    """

    exclude: bool = True
    test: Condition = always
    skill: str | None = None
    admits_allies: bool = False


@dataclass(frozen=True, slots=True)
class Extend(Clause):
    """``extend X [by N | max]`` (R-EXT-7); ``count`` None = max."""

    skill: str = ""
    count: int | None = 1


class PlanFlag(enum.Enum):
    """The standing orders a plan may switch on (R-PLAN-2, R-EXT-9, R-PLAN-1);
    the value is the clause as written."""

    FRIENDLY_FIRE = "friendly fire"
    COUNTER_ALLIES = "counter allies"
    HEAL_UNHURT = "heal even when unhurt"


@dataclass(frozen=True, slots=True)
class Flag(Clause):
    """``friendly fire`` | ``counter allies`` | ``heal even when unhurt``."""

    flag: PlanFlag = PlanFlag.FRIENDLY_FIRE


@dataclass(frozen=True, slots=True)
class Stack(Clause):
    """``stack X [when C]`` (R-SK-1a)."""

    skill: str = ""


@dataclass(frozen=True, slots=True)
class Maintain(Clause):
    """``maintain X when C`` (R-TURN-4): kept while C holds."""

    skill: str = ""


@dataclass(frozen=True, slots=True)
class Release(Clause):
    """``release X when C`` (R-TURN-4)."""

    skill: str = ""


class MoveGoal(enum.Enum):
    """Whom ``move toward`` heads for (R-MOVE-8)."""

    NEAREST_ENEMY = "nearest_enemy"
    NEAREST_ALLY = "nearest_ally"
    NAMED = "named"
    ALLY_MATCHING = "ally_matching"


@dataclass(frozen=True, slots=True)
class MoveToward(Clause):
    """``move toward WHO [then use S]`` (R-MOVE-8): ``NAMED`` heads for
    ``name``, ``ALLY_MATCHING`` for the nearest ally ``match`` holds of
    (``match`` tests ``ctx.target``)."""

    who: MoveGoal = MoveGoal.NEAREST_ENEMY
    name: str | None = None
    match: Condition = always
    then_use: str | None = None


@dataclass(frozen=True, slots=True)
class MoveTo(Clause):
    """``move to SQ`` (also ``move toward SQ [then use S]``)."""

    square: Square | None = None
    then_use: str | None = None


@dataclass(frozen=True, slots=True)
class Hold(Clause):
    """``hold position``."""


@dataclass(frozen=True, slots=True)
class KeepAway(Clause):
    """``keep away from enemies``."""


MOVE_CLAUSES = (MoveToward, MoveTo, Hold, KeepAway)


# --- soulwired, issue 12 (variant-soulwired.md R-SOUL-PLAN-1..3) ---


@dataclass(frozen=True, slots=True)
class StanceClause(Clause):
    """``focus`` | ``maneuver`` | ``no stance`` ``[when C]`` (R-SOUL-PLAN-1);
    ``stance`` is ``focus``, ``maneuver`` or ``none``."""

    stance: str = "none"


@dataclass(frozen=True, slots=True)
class EvadeClause(Clause):
    """``evade with N`` | ``evade with all`` (``dice`` None) | ``never
    evade`` (``dice`` 0) ``[when C]`` (R-SOUL-PLAN-2); C reads the attacker
    as ``target`` and the use being evaded as ``incoming``."""

    dice: int | None = 0


@dataclass(frozen=True, slots=True)
class AttackObject(Clause):
    """``attack object at SQ [when C]`` (R-SOUL-PLAN-3, R-SOUL-TERR-2)."""

    square: Square | None = None


@dataclass(frozen=True, slots=True)
class PlanRules:
    """Every clause of one plan, in file order, plus per-kind indexes."""

    clauses: tuple[Clause, ...] = ()
    use_first: tuple[UseFirst, ...] = field(init=False, default=())
    gates: tuple[UseOnly | NeverUse, ...] = field(init=False, default=())
    target_prefs: tuple[TargetPref, ...] = field(init=False, default=())
    restricts: tuple[TargetRestrict, ...] = field(init=False, default=())
    extends: tuple[Extend, ...] = field(init=False, default=())
    flags: tuple[Flag, ...] = field(init=False, default=())
    stacks: tuple[Stack, ...] = field(init=False, default=())
    keeps: tuple[Maintain | Release, ...] = field(init=False, default=())
    moves: tuple[Clause, ...] = field(init=False, default=())
    # --- soulwired, issue 12 (R-SOUL-PLAN-1..3) ---
    stances: tuple[StanceClause, ...] = field(init=False, default=())
    evasions: tuple[EvadeClause, ...] = field(init=False, default=())
    object_attacks: tuple[AttackObject, ...] = field(init=False, default=())

    def __post_init__(self) -> None:
        def pick(*kinds: type) -> tuple[Any, ...]:
            return tuple(c for c in self.clauses if isinstance(c, kinds))

        object.__setattr__(self, "use_first", pick(UseFirst))
        object.__setattr__(self, "gates", pick(UseOnly, NeverUse))
        object.__setattr__(self, "target_prefs", pick(TargetPref))
        object.__setattr__(self, "restricts", pick(TargetRestrict))
        object.__setattr__(self, "extends", pick(Extend))
        object.__setattr__(self, "flags", pick(Flag))
        object.__setattr__(self, "stacks", pick(Stack))
        object.__setattr__(self, "keeps", pick(Maintain, Release))
        object.__setattr__(self, "moves", pick(*MOVE_CLAUSES))
        object.__setattr__(self, "stances", pick(StanceClause))
        object.__setattr__(self, "evasions", pick(EvadeClause))
        object.__setattr__(self, "object_attacks", pick(AttackObject))


EMPTY_PLAN = PlanRules()


# --------------------------------------------------------------------------- d20pool
# variant-d20.md R-D20-PLAN-1: the clauses of the d20pool mechanics, read by
# them from ``PlanRules.clauses`` (file order; the first that holds wins).


@dataclass(frozen=True, slots=True)
class CheckDrop(Clause):
    """``drop N dice on attack|defence`` (R-D20-CHECK-3); ``check`` names the
    kind of check (push and grapple checks are attack checks for drops)."""

    check: str = "attack"
    count: int = 1


@dataclass(frozen=True, slots=True)
class CheckBoost(Clause):
    """``boost attack|defence by N`` (R-D20-CHECK-4)."""

    check: str = "attack"
    amount: int = 1


@dataclass(frozen=True, slots=True)
class SelfRecover(Clause):
    """``recover`` (R-D20-TURN-3 (1))."""


@dataclass(frozen=True, slots=True)
class Ride(Clause):
    """``push [target P]`` (``grapple`` False, R-D20-PUSH-1) or ``grapple
    [target P]`` (R-D20-PUSH-2); ``preference`` None: the plan's ``target``
    clause, else nearest; ``targets_condition``: C speaks of ``target`` (it
    holds if some candidate satisfies it, then filters them, R-PLAN-5)."""

    grapple: bool = False
    preference: Preference | None = None
    targets_condition: bool = False
# --- orm (variant-orm.md) ---


@dataclass(frozen=True, slots=True)
class NeverFollowUp(Clause):
    """``never follow up [when C]`` (R-ORM-PLAN-1, R-ORM-SUP-2)."""


# --- wiz: the aim module (variant-wiz.md R-WIZ-AIM-1) ---


@dataclass(frozen=True, slots=True)
class TakeAim(Clause):
    """``take aim at NAME [when C]`` (R-WIZ-AIM-1), read by the percentile hit
    mechanic with ``aim`` on from ``PlanRules.clauses`` (file order)."""

    name: str = ""
