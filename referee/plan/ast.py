"""The plan language's abstract syntax: frozen dataclasses, one per construct.

A plan (interfaces.md "Plan file") is an ordered list of *clauses* that change
the default behaviour fixed by the rules and the sheet's skill list. The parser
(:mod:`referee.plan.parser`) builds these nodes; the semantic pass
(:mod:`referee.plan.check`) resolves names; the engine compiles them
(``referee.engine.astcompile``). Nothing here knows about battles.

Conventions every node follows:

* ``line`` and ``column`` are 1-based positions of the node's first character in
  the file it came from (0 when the node was built by hand). They are
  keyword-only and **do not take part in equality or hashing**: two nodes are
  equal when they *mean* the same, wherever they were written. (The engine uses
  a clause's index in :attr:`Plan.clauses` -- file order -- as its identity for
  clause Bind, R-ST-BIND, and ``line`` for messages.)
* Every clause has a ``condition`` (``None`` = "always"); the clause applies only
  while it holds. Conditions are evaluated by the engine in the context of R-PLAN-5
  (see each condition node).
* Skills are :class:`SkillRef` (the text as written, plus the catalogue id once
  the semantic pass has resolved it); characters are :class:`CharacterRef` (the
  name as written, matched against sheet names).
* Vocabulary values are plain strings from the ``Literal`` types below, so the AST
  serialises naturally (``dataclasses.asdict``) and reads well in test failures.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar, Literal, TypeAlias, Union

from referee.mechanicspec import SOUL_CONDITIONS, SOUL_EVASION, SOUL_INCOMING, SOUL_OBJECT, SOUL_PREFERENCE, SOUL_STANCE
from referee.mechanicspec import ORM_FOLLOW_UP

__all__ = [
    # vocabulary
    "Op", "Subject", "Quantity", "Side", "CountScope", "RankKey", "Order", "OPS",
    # leaves
    "Node", "SkillRef", "CharacterRef", "SquareRef",
    # conditions
    "Compare", "Count", "TurnCompare", "Engaged", "Bound", "Readies",
    "ActingFirst", "ActingSecond", "And", "Or", "Not", "Condition",
    # targets / destinations
    "RankBy", "AllyWith", "AllAllies", "AllEnemies", "NearestEnemy", "NearestAlly",
    "TargetPref", "TargetFilter", "Destination",
    # clauses
    "Clause", "UseFirst", "UseOnlyWhen", "NeverUse", "TargetPreference", "NeverTarget",
    "OnlyTarget", "Extend", "FriendlyFire", "CounterAllies", "HealEvenWhenUnhurt", "Stack",
    "Maintain", "Release", "MoveToward", "MoveTo", "HoldPosition", "KeepAway",
    "MOVEMENT_CLAUSES", "SKILL_CLAUSES",
    # root
    "Plan",
    # d20pool (variant-d20.md)
    "CheckKind", "Ko", "Grappled", "DropDice", "Boost", "Recover", "Push", "Grapple",
    "FEATURE_DROP", "FEATURE_BOOST", "FEATURE_RECOVER", "FEATURE_PUSH", "FEATURE_GRAPPLE", "FEATURE_KO",
    "FEATURE_GRAPPLED", "D20_CLAUSES",
]

#: Comparison operators, canonical spelling (``≥``, ``=``, ``≠`` ... are read as these).
Op = Literal["<", "<=", "==", "!=", ">=", ">"]
OPS: tuple[Op, ...] = ("<", "<=", "==", "!=", ">=", ">")
#: Whose numbers a condition reads. ``self``: the character whose plan it is;
#: ``target``: the candidate target the skill is considering (R-PLAN-5);
#: ``ally``: *some* member of the character's army, itself included -- within
#: the skill's range in a condition on using a skill, anywhere otherwise.
Subject = Literal["self", "target", "ally"]
#: ``hp`` current HP; ``hp_lost`` max HP - current HP; ``max_hp`` (R-CHAR-2).
Quantity = Literal["hp", "hp_lost", "max_hp"]
#: Which army a count reads.
Side = Literal["enemies", "allies"]
#: ``in_range``: within the skill's range (distance 1 when no skill is
#: concerned); ``alive``: anywhere on the field, not down.
CountScope = Literal["in_range", "alive"]
#: Target orders of R-PLAN-4 (``nearest`` is the rules' default).
RankKey = Literal["nearest", "farthest", "lowest-hp", "highest-hp", "most-hp-lost", "least-hp-lost"]
#: ``max`` for ``extend X max`` (R-EXT-7).
Order = Literal["max"]


@dataclass(frozen=True, slots=True)
class Node:
    """Base of every AST node: where it was written (not part of equality).

    ``needs``: the ruleset feature a variant's clause or condition belongs to
    (``referee.mechanicspec.MechanicsSpec.features``); ``None`` for the base
    language.  ``referee.plan.gate`` refuses a node whose feature the
    ruleset's mechanics do not give (``clause-not-in-ruleset``)."""

    needs: ClassVar[str | None] = None

    line: int = field(default=0, compare=False, kw_only=True)
    column: int = field(default=0, compare=False, kw_only=True)


# --------------------------------------------------------------------------- leaves


@dataclass(frozen=True, slots=True)
class SkillRef(Node):
    """A skill named in a plan: ``text`` as written (id, English name, Japanese
    name or reading: ``爆撃``, ``イラプション``, ``eruption``, ``Eruption``) and
    ``id``, the catalogue id, filled by the semantic pass
    (:func:`referee.plan.resolve_plan`); ``None`` before it or when unknown."""

    text: str
    id: str | None = None


@dataclass(frozen=True, slots=True)
class CharacterRef(Node):
    """A character named in a plan, as written (``Kagura``, ``"Red Fox"``);
    matched exactly against the names on the battle's sheets (R-CHAR-3)."""

    name: str


@dataclass(frozen=True, slots=True)
class SquareRef(Node):
    """A square written chess-style (``d4``); ``referee.board.parse_square``
    turns it into a ``Square``. Whether it is on the map is the ruleset's
    business (checked with a battle)."""

    name: str


# ----------------------------------------------------------------------- conditions


@dataclass(frozen=True, slots=True)
class Compare(Node):
    """``[self|target|ally] hp|hp lost|max hp OP N``.

    ``hp <= 4`` is the character's own HP; ``target hp <= 4`` holds for a
    candidate target with at most 4 HP (and then filters the candidates,
    R-PLAN-5); ``ally hp lost >= 5`` holds if some ally (self included) has lost
    5 or more -- within the skill's range in a condition on using a skill.
    """

    subject: Subject
    quantity: Quantity
    op: Op
    value: int


@dataclass(frozen=True, slots=True)
class Count(Node):
    """``enemies|allies in range|alive OP N``: how many living characters of a
    side. ``in range``: within the skill's range, or distance 1 when no skill is
    concerned (movement, flags); ``alive``: anywhere. Allies include the
    character itself."""

    side: Side
    scope: CountScope
    op: Op
    value: int


@dataclass(frozen=True, slots=True)
class TurnCompare(Node):
    """``turn OP N``: the number of the turn in progress (1 = first turn)."""

    op: Op
    value: int


@dataclass(frozen=True, slots=True)
class Engaged(Node):
    """``[self|target|ally] engaged``: an enemy shares the subject's area, or
    the area is sunk (R-MOVE-1, R-ST-SINK)."""

    subject: Subject = "self"


@dataclass(frozen=True, slots=True)
class Bound(Node):
    """``[self|target|ally] bound``: Bind on the character (R-ST-BIND: the
    plan's ``bound`` means Bind on the character, not on a skill or clause)."""

    subject: Subject = "self"


@dataclass(frozen=True, slots=True)
class Readies(Node):
    """``[self|target|ally] readies SKILL`` or ``... readies CLASS`` (R-PAN-4):
    the subject holds that skill (or some skill of that R-SK-2 class) readied --
    its cost payable from its unused panels, or maintained. Exactly one of
    ``skill`` and ``skill_class`` is set; ``skill_class`` is the English class
    name (``counter``, ``defence`` ...; 反撃 is read as ``counter``)."""

    subject: Subject = "target"
    skill: SkillRef | None = None
    skill_class: str | None = None


@dataclass(frozen=True, slots=True)
class ActingFirst(Node):
    """``acting first``: no living enemy has acted yet this turn (R-TURN-1)."""


@dataclass(frozen=True, slots=True)
class ActingSecond(Node):
    """``acting second``: some living enemy has already acted this turn (the
    complement of :class:`ActingFirst`, spelt out for plans that read better)."""


@dataclass(frozen=True, slots=True)
class And(Node):
    """``C and C [and C ...]``: every part holds (two or more parts)."""

    parts: tuple["Condition", ...]


@dataclass(frozen=True, slots=True)
class Or(Node):
    """``C or C [or C ...]``: some part holds (two or more parts)."""

    parts: tuple["Condition", ...]


@dataclass(frozen=True, slots=True)
class Not(Node):
    """``not C``."""

    operand: "Condition"


# --- soulwired conditions (variant-soulwired.md R-SOUL-PLAN-2/4) ---


@dataclass(frozen=True, slots=True)
class EvasionDiceLeft(Node):
    """``[target] evasion dice OP N``: the subject's evasion dice left
    (R-SOUL-HIT-2); ``target``: a candidate's."""

    needs: ClassVar[str | None] = SOUL_CONDITIONS
    subject: Subject
    op: Op
    value: int


@dataclass(frozen=True, slots=True)
class Attacked(Node):
    """``attacked``: the character has attacked in this action (R-MOVE-3's
    sense; a failed check or an object counts)."""

    needs: ClassVar[str | None] = SOUL_CONDITIONS


@dataclass(frozen=True, slots=True)
class HardModeOn(Node):
    """``hard mode``: the hard-mode level is 1 or more (R-SOUL-HARD-2)."""

    needs: ClassVar[str | None] = SOUL_CONDITIONS


@dataclass(frozen=True, slots=True)
class UltraHard(Node):
    """``ultra hard``: the hard-mode level is 2 (R-SOUL-HARD-2)."""

    needs: ClassVar[str | None] = SOUL_CONDITIONS


@dataclass(frozen=True, slots=True)
class IncomingDamage(Node):
    """``incoming damage OP N``: in an evasion clause, the printed damage of
    the use being evaded (R-SOUL-PLAN-2)."""

    needs: ClassVar[str | None] = SOUL_INCOMING
    op: Op
    value: int


@dataclass(frozen=True, slots=True)
class IncomingMelee(Node):
    """``incoming melee``: in an evasion clause, the use being evaded is
    melee (range 0, R-SOUL-CHECK-3)."""

    needs: ClassVar[str | None] = SOUL_INCOMING


Condition: TypeAlias = Union[
    Compare, Count, TurnCompare, Engaged, Bound, Readies, ActingFirst, ActingSecond, And, Or, Not,
    "Frozen",  # wiz (variant-wiz.md R-WIZ-PLAN-1)
    EvasionDiceLeft, Attacked, HardModeOn, UltraHard, IncomingDamage, IncomingMelee,
    "Ko", "Grappled",
]
#: The soulwired conditions (variant-soulwired.md).
SOUL_CONDITION_TYPES: tuple[type[Node], ...] = (EvasionDiceLeft, Attacked, HardModeOn, UltraHard, IncomingDamage,
                                                IncomingMelee)


# -------------------------------------------------------- targets and destinations


@dataclass(frozen=True, slots=True)
class RankBy(Node):
    """``target nearest|farthest|lowest hp|highest hp|most hp lost|least hp lost``:
    order the candidates by this key (R-PLAN-4); ties: nearest, then R-RNG-1."""

    key: RankKey


@dataclass(frozen=True, slots=True)
class AllyWith(Node):
    """``ally with TEST``: an ally (the character itself included) for which
    ``test`` holds. Inside ``test`` the subject ``target`` is that ally: ``ally
    with hp lost >= 5`` is written without a subject and parsed as
    ``Compare("target", "hp_lost", ">=", 5)``. As a target preference the
    matching allies come first; as a movement destination the nearest matching
    ally other than the mover (R-MOVE-8)."""

    test: "Condition"


@dataclass(frozen=True, slots=True)
class AllAllies(Node):
    """``allies`` in ``only target allies``: any ally, the character included."""


@dataclass(frozen=True, slots=True)
class AllEnemies(Node):
    """``enemies`` in ``only target enemies``."""


@dataclass(frozen=True, slots=True)
class NearestEnemy(Node):
    """``nearest enemy`` as a destination (R-MOVE-8; several: R-RNG-1)."""


@dataclass(frozen=True, slots=True)
class NearestAlly(Node):
    """``nearest ally`` as a destination: the nearest living ally other than
    the mover."""


@dataclass(frozen=True, slots=True)
class FewestEvasionDice(Node):
    """``target fewest evasion dice`` (R-SOUL-PLAN-4): the candidates with
    the fewest evasion dice left first; ties: nearest, then R-RNG-1."""

    needs: ClassVar[str | None] = SOUL_PREFERENCE


#: What a ``target`` clause prefers (R-PLAN-4).
TargetPref: TypeAlias = Union[RankBy, CharacterRef, AllyWith, FewestEvasionDice]
#: What ``only target`` admits.
TargetFilter: TypeAlias = Union[CharacterRef, AllyWith, AllAllies, AllEnemies]
#: Where ``move toward`` heads (R-MOVE-8).
Destination: TypeAlias = Union[NearestEnemy, NearestAlly, CharacterRef, AllyWith, SquareRef]


# -------------------------------------------------------------------------- clauses


@dataclass(frozen=True, slots=True)
class Clause(Node):
    """Base of the clauses. Subclasses all have a ``condition`` field
    (``None`` = always)."""


@dataclass(frozen=True, slots=True)
class UseFirst(Clause):
    """``use SKILL first [when C]`` (R-PLAN-5): when the skill-list walk starts
    and C holds, SKILL moves above every entry not moved by an earlier clause."""

    skill: SkillRef
    condition: Condition | None = None


@dataclass(frozen=True, slots=True)
class UseOnlyWhen(Clause):
    """``use SKILL only when C`` (R-PLAN-5): SKILL is tried, and fires as a
    passive, only while C holds."""

    skill: SkillRef
    condition: Condition


@dataclass(frozen=True, slots=True)
class NeverUse(Clause):
    """``never use SKILL [when C]`` (R-PLAN-5): SKILL is not tried, nor fires
    as a passive, while C holds (always, without ``when``)."""

    skill: SkillRef
    condition: Condition | None = None


@dataclass(frozen=True, slots=True)
class TargetPreference(Clause):
    """``[with SKILL] target PREF [when C]`` (R-PLAN-4, R-PLAN-5): order the
    candidate targets of SKILL (of every skill without its own ``with`` clause
    when ``skill`` is None) by ``preference``; ``with X target P`` beats
    ``target P`` for X."""

    preference: TargetPref
    skill: SkillRef | None = None
    condition: Condition | None = None


@dataclass(frozen=True, slots=True)
class NeverTarget(Clause):
    """``[with SKILL] never target NAME [when C]`` (R-PLAN-4): the character is
    removed from the candidates (of SKILL only, or of every skill)."""

    character: CharacterRef
    skill: SkillRef | None = None
    condition: Condition | None = None


@dataclass(frozen=True, slots=True)
class OnlyTarget(Clause):
    """``[with SKILL] only target NAME|allies|enemies|ally with T [when C]``
    (R-PLAN-4): only matching candidates remain. ``only target allies`` names
    allies in the sense of R-EXT-9 (an unextended use may then take an ally)."""

    who: TargetFilter
    skill: SkillRef | None = None
    condition: Condition | None = None


@dataclass(frozen=True, slots=True)
class Extend(Clause):
    """``extend SKILL [by N | max] [when C]`` (R-EXT-7): take up to ``count``
    extra targets (1 when written without ``by``), or as many as the group and
    the panels allow (``"max"``); default is no extension."""

    skill: SkillRef
    count: int | Order = 1
    condition: Condition | None = None


@dataclass(frozen=True, slots=True)
class FriendlyFire(Clause):
    """``friendly fire [when C]`` (R-EXT-9): an ally may be the primary target
    of an extended use, when that hits strictly more enemies. Default: never."""

    condition: Condition | None = None


@dataclass(frozen=True, slots=True)
class CounterAllies(Clause):
    """``counter allies [when C]`` (R-PLAN-2 override): obstruct passives and
    counters also answer allies' skills."""

    condition: Condition | None = None


@dataclass(frozen=True, slots=True)
class HealEvenWhenUnhurt(Clause):
    """``heal even when unhurt [when C]`` (R-PLAN-1 override): Rest and Restore
    may target characters who have lost no HP."""

    condition: Condition | None = None


@dataclass(frozen=True, slots=True)
class Stack(Clause):
    """``stack SKILL [when C]`` (R-SK-1a): every usable entry of a passive
    listed several times fires on one hit, not only the first."""

    skill: SkillRef
    condition: Condition | None = None


@dataclass(frozen=True, slots=True)
class Maintain(Clause):
    """``maintain SKILL [when C]`` (R-TURN-4, R-PLAN-3): the maintain skill is
    started only while C holds and, once maintained, kept while C holds and
    released at the maintenance step otherwise."""

    skill: SkillRef
    condition: Condition | None = None


@dataclass(frozen=True, slots=True)
class Release(Clause):
    """``release SKILL [when C]`` (R-TURN-4): the maintained SKILL is released
    at the maintenance step when C holds (always, without ``when``)."""

    skill: SkillRef
    condition: Condition | None = None


@dataclass(frozen=True, slots=True)
class MoveToward(Clause):
    """``move toward DEST [then use SKILL] [when C]`` (R-MOVE-7, R-MOVE-8):
    step by R-MOVE-5 toward the destination unless it shares the area; with
    ``then use S`` unless it is already within S's range (the seed's "move
    toward the ally with HP loss >= 5 and use Rest on them"; the use itself
    comes from the skill list next action). A destination naming a downed or
    absent character, or matching no one but the mover, does not apply."""

    destination: Destination
    then_use: SkillRef | None = None
    condition: Condition | None = None


@dataclass(frozen=True, slots=True)
class MoveTo(Clause):
    """``move to SQUARE [when C]`` (R-MOVE-8): step toward the square, stop on it."""

    square: SquareRef
    condition: Condition | None = None


@dataclass(frozen=True, slots=True)
class HoldPosition(Clause):
    """``hold position [when C]`` (R-MOVE-7): do not move this action."""

    condition: Condition | None = None


@dataclass(frozen=True, slots=True)
class KeepAway(Clause):
    """``keep away from enemies [when C]`` (R-MOVE-8): of staying and the legal
    steps, take the one farthest from the nearest enemy."""

    condition: Condition | None = None


# --- soulwired clauses (variant-soulwired.md R-SOUL-PLAN-1..3) ---

#: ``focus``, ``maneuver`` or ``none`` (``no stance``).
StanceKind = Literal["focus", "maneuver", "none"]


@dataclass(frozen=True, slots=True)
class StanceOrder(Clause):
    """``focus`` | ``maneuver`` (``manoeuvre``) | ``no stance`` ``[when C]``
    (R-SOUL-PLAN-1): the first whose condition holds decides the action's
    stance (R-SOUL-STANCE-3)."""

    needs: ClassVar[str | None] = SOUL_STANCE
    stance: StanceKind
    condition: Condition | None = None


@dataclass(frozen=True, slots=True)
class Evade(Clause):
    """``evade with N`` | ``evade with all`` (``dice`` "all") | ``never
    evade`` (``dice`` 0) ``[when C]`` (R-SOUL-PLAN-2): how many evasion dice
    to commit (R-SOUL-HIT-4); in C ``target`` is the attacker."""

    needs: ClassVar[str | None] = SOUL_EVASION
    dice: int | Literal["all"]
    never: bool = False
    condition: Condition | None = None


@dataclass(frozen=True, slots=True)
class AttackObjectAt(Clause):
    """``attack object at SQ [when C]`` (R-SOUL-PLAN-3, R-SOUL-TERR-2)."""

    needs: ClassVar[str | None] = SOUL_OBJECT
    square: SquareRef
    condition: Condition | None = None


#: Clauses decided at the movement step (R-MOVE-7), first applicable wins.
MOVEMENT_CLAUSES: tuple[type[Clause], ...] = (MoveToward, MoveTo, HoldPosition, KeepAway)
#: Clauses whose ``skill`` field must name a skill (always set).
SKILL_CLAUSES: tuple[type[Clause], ...] = (UseFirst, UseOnlyWhen, NeverUse, Extend, Stack, Maintain, Release)


@dataclass(frozen=True, slots=True)
class Plan(Node):
    """A whole plan: its clauses in file order (R-PLAN-5: read top-down, an
    earlier clause wins a conflict) and the file it came from (for messages)."""

    clauses: tuple[Clause, ...] = ()
    file: str = field(default="<string>", compare=False)


# --------------------------------------------------------------------------- wiz (variant-wiz.md R-WIZ-PLAN-1)
# The feature names are ``referee.mechanicspec``'s WIZ_* constants (the gate
# compares them); written out here so the AST does not import the loader.


@dataclass(frozen=True, slots=True)
class Frozen(Node):
    """``[self|target|ally] frozen``: Freeze on the character (R-ST-FREEZE)."""

    needs: ClassVar[str | None] = "the `frozen` condition (wiz)"
    subject: Subject = "self"


@dataclass(frozen=True, slots=True)
class EnemyWith(Node):
    """``enemy with TEST`` in ``spare``: an enemy for which ``test`` holds
    (``target`` inside it is that enemy, as in :class:`AllyWith`)."""

    needs: ClassVar[str | None] = "`enemy with` (wiz)"
    test: Condition


@dataclass(frozen=True, slots=True)
class Spare(Clause):
    """``spare WHO [when C]`` (R-WIZ-PLAN-1, R-WIZ-AREA-4): WHO is spared in
    area uses (left out at a change level), and for single-target uses the
    same as ``never target WHO``.  WHO: a name, ``allies``, ``ally with T``
    or ``enemy with T``."""

    needs: ClassVar[str | None] = "the `spare` clause (wiz)"
    who: Union[CharacterRef, AllAllies, AllyWith, EnemyWith]
    condition: Condition | None = None


@dataclass(frozen=True, slots=True)
class TakeAim(Clause):
    """``take aim at NAME [when C]`` (R-WIZ-AIM-1): only with the aim module."""

    needs: ClassVar[str | None] = "the `take aim at` clause (wiz, with aim on)"
    character: CharacterRef
    condition: Condition | None = None


# ------------------------------------------------------------------ d20pool
# variant-d20.md R-D20-PLAN-1..2.  Each node names its feature (``needs``);
# the d20pool mechanics list the same names (``referee.mechanicspec``), and
# ``referee.plan.gate`` refuses them under any other ruleset (R-D20-PLAN-3).

#: Which check a drop or boost clause concerns (push and grapple checks are
#: attack checks for drops, R-D20-PLAN-1).
CheckKind = Literal["attack", "defence"]

FEATURE_DROP = "the `drop N dice` clause (d20pool)"
FEATURE_BOOST = "the `boost` clause (d20pool)"
FEATURE_RECOVER = "the `recover` clause (d20pool)"
FEATURE_PUSH = "the `push` clause (d20pool)"
FEATURE_GRAPPLE = "the `grapple` clause (d20pool)"
FEATURE_KO = "the `ko` condition (d20pool)"
FEATURE_GRAPPLED = "the `grappled` condition (d20pool)"


@dataclass(frozen=True, slots=True)
class Ko(Node):
    """``[self|target|ally] [is] ko`` (R-D20-PLAN-2): the subject is KO
    (R-D20-KO-1); ``ally ko``: some KO ally, within the skill's range of its
    return area when on a skill."""

    needs: ClassVar[str | None] = FEATURE_KO

    subject: Subject = "self"


@dataclass(frozen=True, slots=True)
class Grappled(Node):
    """``[self|target|ally] [is] grappled`` (R-D20-PLAN-2): status ``grapple``
    on the subject (R-D20-PUSH-2)."""

    needs: ClassVar[str | None] = FEATURE_GRAPPLED

    subject: Subject = "self"


@dataclass(frozen=True, slots=True)
class DropDice(Clause):
    """``drop N dice on attack|defence [when C]`` (R-D20-CHECK-3): the first
    such clause of the check's kind whose condition holds leaves N dice out
    (keeping one) for +2 each.  In C ``target`` is the use's primary target
    (attack) or the attacker (defence)."""

    needs: ClassVar[str | None] = FEATURE_DROP

    check: CheckKind
    count: int
    condition: Condition | None = None


@dataclass(frozen=True, slots=True)
class Boost(Clause):
    """``boost attack|defence by N [when C]`` (R-D20-CHECK-4): lose up to N HP
    (at most 表現力, never to 0) for +that much."""

    needs: ClassVar[str | None] = FEATURE_BOOST

    check: CheckKind
    amount: int
    condition: Condition | None = None


@dataclass(frozen=True, slots=True)
class Recover(Clause):
    """``recover [when C]`` (R-D20-TURN-3 (1)): self-recover as the support
    even when a shift was possible.  ``target`` is the written ``target P``
    that ``referee check`` refuses (R-D20-PLAN-3); the engine ignores it."""

    needs: ClassVar[str | None] = FEATURE_RECOVER

    condition: Condition | None = None
    target: TargetPref | None = None


@dataclass(frozen=True, slots=True)
class Push(Clause):
    """``push [target P] [when C]`` (R-D20-PUSH-1): ride a standing enemy
    within distance 1 one area away."""

    needs: ClassVar[str | None] = FEATURE_PUSH

    preference: TargetPref | None = None
    condition: Condition | None = None


@dataclass(frozen=True, slots=True)
class Grapple(Clause):
    """``grapple [target P] [when C]`` (R-D20-PUSH-2): a standing enemy in the
    user's area cannot shift until the end of its next turn."""

    needs: ClassVar[str | None] = FEATURE_GRAPPLE

    preference: TargetPref | None = None
    condition: Condition | None = None


#: The d20pool clauses whose condition may speak of ``target``.
D20_CLAUSES: tuple[type[Clause], ...] = (DropDice, Boost, Push, Grapple)
# --- orm (variant-orm.md) ---


@dataclass(frozen=True, slots=True)
class NeverFollowUp(Clause):
    """``never follow up [when C]`` (R-ORM-PLAN-1, R-ORM-SUP-2): the character
    makes no follow-up while C (about itself) holds."""

    needs: ClassVar[str | None] = ORM_FOLLOW_UP
    condition: Condition | None = None
