"""The ``mechanics:`` block of a ruleset (R-VAR-1): which implementation of each
core mechanic a ruleset runs, as validated, typed, frozen data.

A ruleset names one *kind* per *slot* (``range``, ``movement``, ``initiative``,
``action``, ``hit``, ``damage``, ``area``, ``stall``, ``end``) with that kind's
parameters, e.g. ``hit: {kind: always}`` or ``stall: {kind: narrowing,
schedule: [...]}``.  The slots and kind names follow the variant specs' YAML
(``../shared/spec/variant-*.md``), so a variant later only adds an
implementation, never a new way of writing its ruleset.

This module is the data side only: it knows every kind's name, its parameters
and whether this version builds it.  The engine side
(``referee.engine.mechanics``) maps each built kind to the object that runs it;
a test keeps the two tables in step.  Kept apart so that loading a ruleset never
imports the engine (the import arrows point one way: ruleset <- engine).

Why a table of *planned* kinds: a ruleset naming ``hit: {kind: opposed_nd6}``
(variant-orm.md) is refused with "not implemented yet in this version", and a
misspelt kind with a did-you-mean -- never a silent fall-back to tcgt's
behaviour (R-VAR-1: "an unknown mechanic is an error, never a silent default").
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, fields, replace
from typing import Literal, cast

from referee.board import InvalidSquareError, parse_rect
from referee.diagnostics import Diagnostic
from referee.elements import Element
from referee.yamlio import YamlDocument

__all__ = [
    "SLOTS", "Adjacency", "Reroll", "MechanicSpec", "PlainSpec", "StepsSpec", "DecimalDiceSpec",
    "NarrowingStage", "NarrowingSpec", "Goal", "ArmyReducedSpec", "MechanicsSpec", "KindInfo",
    "KINDS", "register_kind", "Ability", "AreaNumberSpec", "SupportAndActionSpec", "PointsSpec", "D20PoolSpec",
    "WipeoutSpec", "unregister_kind", "mechanics_diagnostics", "build_mechanics_spec",
]

#: The slots of R-VAR-1, in the order a report lists them.
SLOTS: tuple[str, ...] = ("range", "movement", "initiative", "action", "hit", "damage", "area", "stall", "end")

Adjacency = Literal["king", "rook"]
Reroll = Literal["once_per_battle", "every_turn"]


# ---------------------------------------------------------------------------
# Typed specs: one frozen class per parameter shape


@dataclass(frozen=True)
class MechanicSpec:
    """One slot's choice.  Subclasses add the kind's parameters as typed fields;
    a kind without parameters uses :class:`PlainSpec`."""

    kind: str

    def extra_features(self) -> frozenset[str]:
        """Plan, sheet or battle-file features this choice gives beyond its
        kind's (:attr:`KindInfo.features`): a kind whose optional module is
        switched on by a parameter (variant-wiz.md's ``aim``) names it here."""
        return frozenset()


@dataclass(frozen=True)
class PlainSpec(MechanicSpec):
    """A kind that takes no parameters (``range: {kind: chebyshev}``)."""


@dataclass(frozen=True)
class StepsSpec(MechanicSpec):
    """``movement: {kind: steps, adjacency: king|rook}`` (R-MOVE-1, R-MOVE-5):
    one area per step, 8-way (``king``, tcgt) or 4-way (``rook``)."""

    adjacency: Adjacency = "king"


@dataclass(frozen=True)
class DecimalDiceSpec(MechanicSpec):
    """R-TURN-1: ``dice`` dice of ``sides`` sides read as a decimal number;
    rolled once per battle or every turn."""

    dice: int = 3
    sides: int = 6
    reroll: Reroll = "once_per_battle"


@dataclass(frozen=True)
class NarrowingStage:
    """One narrowing (R-NARROW-1) after turn ``after_turn``.

    :param keep: the inclusive rectangle kept, written ``"b2-g7"``.
    :param keep_one_of: when true, one square of ``keep`` is drawn (R-RNG-1,
        ``ties`` stream) and only it is kept.
    """

    after_turn: int
    keep: str
    keep_one_of: bool = False


@dataclass(frozen=True)
class NarrowingSpec(MechanicSpec):
    """``stall: {kind: narrowing, schedule: [...]}`` (R-NARROW-1..4)."""

    schedule: tuple[NarrowingStage, ...] = ()


@dataclass(frozen=True)
class Goal:
    """R-GOAL-1: an army is beaten when standing <= floor(start x fraction)."""

    numerator: int
    denominator: int

    def threshold(self, starting_members: int) -> int:
        """Standing members at or below which the battle ends (3 -> 1, 6 -> 2, 2 -> 0)."""
        return (starting_members * self.numerator) // self.denominator


@dataclass(frozen=True)
class ArmyReducedSpec(MechanicSpec):
    """``end: {kind: army_reduced, fraction: [1, 3]}`` (R-GOAL-1; R-GOAL-2 and
    the R-TURN-9 head count decide a battle that runs out of turns)."""

    goal: Goal = Goal(1, 3)


@dataclass(frozen=True)
class MechanicsSpec:
    """The whole ``mechanics:`` block, one spec per slot of :data:`SLOTS`."""

    range: MechanicSpec
    movement: MechanicSpec
    initiative: MechanicSpec
    action: MechanicSpec
    hit: MechanicSpec
    damage: MechanicSpec
    area: MechanicSpec
    stall: MechanicSpec
    end: MechanicSpec

    def slots(self) -> tuple[tuple[str, MechanicSpec], ...]:
        """(slot, spec) in :data:`SLOTS` order (reports list them so)."""
        return tuple((f.name, cast(MechanicSpec, getattr(self, f.name))) for f in fields(self))

    def features(self) -> frozenset[str]:
        """Every plan clause, condition, sheet block or battle-file field these
        mechanics give (``clause-not-in-ruleset`` refuses the others: R-D20-PLAN-3,
        R-SOUL-PLAN-5, R-ORM-CHECK-1, R-WIZ-CHECK-1)."""
        out: set[str] = set()
        for slot, spec in self.slots():
            info = KINDS[slot].get(spec.kind)
            if info is not None:
                out |= info.features
            out |= spec.extra_features()
        return frozenset(out)

    def narrows_field(self) -> bool:
        """Whether a chosen kind shrinks the field (:attr:`KindInfo.narrows_field`)."""
        for slot, spec in self.slots():
            info = KINDS[slot].get(spec.kind)
            if info is not None and info.narrows_field:
                return True
        return False


@dataclass(frozen=True)
class Features:
    """What a ruleset's mechanics let plans, sheets and battle files write:
    ``names`` from :meth:`MechanicsSpec.features`, ``ruleset`` for messages."""

    ruleset: str
    names: frozenset[str]


def feature_providers(feature: str) -> list[str]:
    """``slot: kind`` of every registered kind that gives ``feature`` (sorted),
    for the hint of a refused clause."""
    return sorted(f"{info.slot}: {info.kind}" for slot in SLOTS for info in KINDS[slot].values()
                  if feature in info.features)


# ---------------------------------------------------------------------------
# The kind table

#: A parameter check: the value -> its problems, each (the path inside the
#: value, what was expected there); none when fine.
ParamCheck = Callable[[object], "list[tuple[tuple[int | str, ...], str]]"]
#: Builds the typed spec of a built kind from its (already checked) mapping.
SpecBuilder = Callable[[str, Mapping[str, object]], MechanicSpec]


@dataclass(frozen=True)
class KindInfo:
    """What the loader knows of one kind.

    :param params: the parameters the built kind takes, each with its check.
    :param required: parameters that must be written.
    :param build: makes the typed spec; ``None`` for a kind a variant spec
        names that this version does not build yet.
    :param planned_params: parameters a variant spec gives this kind that are
        not built yet (refused as "not implemented yet").
    :param source: where the kind is specified (rule IDs or a variant file).
    :param features: plan clauses/conditions, sheet blocks and battle-file
        fields this kind gives (refused under rulesets without it).
    :param narrows_field: this kind shrinks the field during the battle
        (R-NARROW-1..4), pushing whoever stands outside it inwards; what needs
        a fixed field asks this (:func:`terrain_fields`).
    """

    slot: str
    kind: str
    source: str
    params: Mapping[str, ParamCheck] = field(default_factory=dict)
    required: tuple[str, ...] = ()
    build: SpecBuilder | None = None
    planned_params: tuple[str, ...] = ()
    #: What this kind lets plans, sheets and battle files write (feature
    #: names such as ``"d20pool drop clause"``; see :meth:`MechanicsSpec.features`).
    features: frozenset[str] = frozenset()
    narrows_field: bool = False

    @property
    def built(self) -> bool:
        return self.build is not None


Problems = list[tuple[tuple[int | str, ...], str]]


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _int_in(low: int, high: int) -> ParamCheck:
    def check(value: object) -> Problems:
        ok = _is_int(value) and low <= cast(int, value) <= high
        return [] if ok else [((), f"a whole number from {low} to {high}")]
    return check


def _one_of(*words: str) -> ParamCheck:
    def check(value: object) -> Problems:
        return [] if value in words else [((), "one of " + ", ".join(words))]
    return check


def _fraction(value: object) -> Problems:
    expected: Problems = [((), "a fraction [numerator, denominator] below 1, such as [1, 3]")]
    if not (isinstance(value, list) and len(value) == 2 and all(_is_int(v) for v in value)):
        return expected
    num, den = value
    return [] if 0 <= num < den else expected


_STAGE = "{after_turn: N, keep: b2-g7} or {after_turn: N, keep_one_of: d4-e5}"


def _schedule(value: object) -> Problems:
    """Shape, stage by stage; what the rectangles mean (on the map, each
    inside the one before) is checked by the ruleset loader, which knows the
    map's size."""
    if not isinstance(value, list):
        return [((), f"a list of {_STAGE}")]
    problems: Problems = []
    for i, stage in enumerate(value):
        if not isinstance(stage, dict):
            problems.append(((i,), _STAGE))
            continue
        for key in sorted(set(stage) - {"after_turn", "keep", "keep_one_of"}):
            problems.append(((i, key), f"no field {key!r} here: {_STAGE}"))
        if ("keep" in stage) == ("keep_one_of" in stage):
            problems.append(((i,), "exactly one of keep and keep_one_of"))
        if not (_is_int(stage.get("after_turn")) and cast(int, stage.get("after_turn")) >= 1):
            problems.append(((i, "after_turn") if "after_turn" in stage else (i,), "after_turn: a turn number from 1"))
        for key in ("keep", "keep_one_of"):
            if key in stage:
                try:
                    parse_rect(str(stage[key]))
                except (InvalidSquareError, ValueError):
                    problems.append(((i, key), "a rectangle of squares such as b2-g7"))
    return problems


def _plain(kind: str, _: Mapping[str, object]) -> MechanicSpec:
    return PlainSpec(kind)


def _steps(kind: str, p: Mapping[str, object]) -> MechanicSpec:
    return StepsSpec(kind, cast(Adjacency, p.get("adjacency", "king")))


def _decimal_dice(kind: str, p: Mapping[str, object]) -> MechanicSpec:
    return DecimalDiceSpec(kind, cast(int, p["dice"]), cast(int, p["sides"]), cast(Reroll, p["reroll"]))


def _narrowing(kind: str, p: Mapping[str, object]) -> MechanicSpec:
    stages = cast(list[dict[str, object]], p["schedule"])
    return NarrowingSpec(kind, tuple(
        NarrowingStage(cast(int, s["after_turn"]), str(s.get("keep", s.get("keep_one_of"))), "keep_one_of" in s)
        for s in stages))


def _army_reduced(kind: str, p: Mapping[str, object]) -> MechanicSpec:
    num, den = cast(list[int], p["fraction"])
    return ArmyReducedSpec(kind, Goal(num, den))


_BUILT: tuple[KindInfo, ...] = (
    KindInfo("range", "chebyshev", "R-RANGE-1", build=_plain),
    KindInfo("movement", "steps", "R-MOVE-1..8", {"adjacency": _one_of("king", "rook")}, ("adjacency",),
             _steps, ("knockback", "capacity_per_side", "enemies_block", "engagement_lock")),
    KindInfo("initiative", "decimal_dice", "R-TURN-1",
             {"dice": _int_in(1, 9), "sides": _int_in(2, 9), "reroll": _one_of("once_per_battle", "every_turn")},
             ("dice", "sides", "reroll"), _decimal_dice),
    KindInfo("action", "skill_walk", "R-TURN-2..5", build=_plain),
    KindInfo("hit", "always", "R-SK-1a", build=_plain),
    KindInfo("damage", "printed", "R-SK-3", build=_plain, planned_params=("armour",)),
    KindInfo("area", "extension", "R-EXT-1..9", build=_plain),
    KindInfo("stall", "narrowing", "R-NARROW-1..4", {"schedule": _schedule}, ("schedule",), _narrowing,
             narrows_field=True),
    KindInfo("stall", "none", "variant-orm.md (no stall breaker)", build=_plain),
    KindInfo("end", "army_reduced", "R-GOAL-1/2", {"fraction": _fraction}, ("fraction",), _army_reduced),
)

#: Kinds the variant specs name that this version does not build yet.
_PLANNED: tuple[tuple[str, str, str], ...] = (
    ("range", "manhattan", "variant-orm.md"),
    ("initiative", "value_plus_dice", "variant-orm.md"),
    ("initiative", "in_value", "variant-wiz.md"),
    ("action", "simple_main", "variant-orm.md"),
    ("action", "soul", "variant-soulwired.md"),
    ("action", "one_main_use", "variant-wiz.md"),
    ("hit", "opposed_nd6", "variant-orm.md"),
    ("hit", "percentile", "variant-wiz.md"),
    ("damage", "power_plus_dice", "variant-orm.md"),
    ("area", "rolled_groups", "variant-wiz.md"),
)

# --- d20pool (variant-d20.md) ---
# The d20 pool system's kinds: every number of the spec's "Ruleset data" is a
# parameter here, so a house ruleset may change them and the code holds none.

Ability = Literal["body", "reflex", "intellect"]
_ABILITY = ("body", "reflex", "intellect")


@dataclass(frozen=True)
class AreaNumberSpec(MechanicSpec):
    """``initiative: {kind: area_number, numbering: rings, tie_die: 20}``
    (R-D20-ORDER-1..3): turns by the number of the area, ties by a die."""

    numbering: Literal["rings"] = "rings"
    tie_die: int = 20


@dataclass(frozen=True)
class SupportAndActionSpec(MechanicSpec):
    """``action: {kind: support_and_action, uses: 1, recover: intellect}``
    (R-D20-TURN-1..3): one support and one action; ``recover`` is the ability
    a self-recovery heals (表現力, R-D20-VAL-1)."""

    uses: int = 1
    recover: Ability = "intellect"


@dataclass(frozen=True)
class PointsSpec(MechanicSpec):
    """``movement: {kind: points, base: 1, per_reflex: 3, engaging_ends_move:
    false}`` (R-D20-MOVE-1): a shift of base + floor(reflex / per_reflex) steps."""

    base: int = 1
    per_reflex: int = 3
    engaging_ends_move: bool = False


@dataclass(frozen=True)
class D20PoolSpec(MechanicSpec):
    """``hit: {kind: d20_pool, ...}`` (R-D20-VAL-1, R-D20-CHECK-*, R-D20-HIT-*,
    R-D20-PUSH-*): the pool checks' numbers and which ability rolls what."""

    sides: int = 20
    drop_bonus: int = 2
    critical_bonus: int = 0
    attack_modifier: Literal["printed"] = "printed"
    defence_dice: Ability = "body"
    sensitivity_base: int = 8
    sensitivity_ability: Ability = "reflex"
    melee_physical: Ability = "body"
    ranged_physical: Ability = "reflex"
    spiritual: Ability = "intellect"
    boost_cap: Ability = "intellect"
    push_ability: Ability = "body"
    grapple_ability: Ability = "body"
    grapple_turns: int = 1


@dataclass(frozen=True)
class WipeoutSpec(MechanicSpec):
    """``end: {kind: wipeout, at: round_end, winners_ko_to: 1}`` (R-D20-END-1..2)."""

    at: Literal["round_end"] = "round_end"
    winners_ko_to: int = 1


def _is_bool(value: object) -> Problems:
    return [] if isinstance(value, bool) else [((), "true or false")]


def _mapping_of(checks: Mapping[str, ParamCheck]) -> ParamCheck:
    """A nested mapping whose every key is one of ``checks`` (all required)."""
    shape = "{" + ", ".join(f"{k}: ..." for k in checks) + "}"

    def check(value: object) -> Problems:
        if not isinstance(value, dict):
            return [((), f"a mapping {shape}")]
        problems: Problems = []
        for key in sorted(set(value) - set(checks), key=str):
            problems.append(((key,), f"no field {key!r} here: {shape}"))
        for key, inner in checks.items():
            if key not in value:
                problems.append(((), f"{key!r} in {shape}"))
                continue
            problems += [((key, *path), expected) for path, expected in inner(value[key])]
        return problems
    return check


_ABILITY_CHECK = _one_of(*_ABILITY)


def _area_number(kind: str, p: Mapping[str, object]) -> MechanicSpec:
    return AreaNumberSpec(kind, cast(Literal["rings"], p["numbering"]), cast(int, p["tie_die"]))


def _support_and_action(kind: str, p: Mapping[str, object]) -> MechanicSpec:
    return SupportAndActionSpec(kind, cast(int, p["uses"]), cast(Ability, p.get("recover", "intellect")))


def _points(kind: str, p: Mapping[str, object]) -> MechanicSpec:
    return PointsSpec(kind, cast(int, p["base"]), cast(int, p["per_reflex"]), cast(bool, p["engaging_ends_move"]))


def _d20_pool(kind: str, p: Mapping[str, object]) -> MechanicSpec:
    sens = cast(Mapping[str, object], p["sensitivity"])
    ability = cast(Mapping[str, Ability], p["ability"])
    push = cast(Mapping[str, Ability], p["push"])
    grapple = cast(Mapping[str, object], p["grapple"])
    return D20PoolSpec(
        kind, cast(int, p["sides"]), cast(int, p["drop_bonus"]), cast(int, p["critical_bonus"]),
        "printed", cast(Ability, p["defence_dice"]), cast(int, sens["base"]), cast(Ability, sens["ability"]),
        ability["melee_physical"], ability["ranged_physical"], ability["spiritual"],
        cast(Ability, p.get("boost_cap", "intellect")), push["ability"],
        cast(Ability, grapple["ability"]), cast(int, grapple["turns"]))


def _wipeout(kind: str, p: Mapping[str, object]) -> MechanicSpec:
    return WipeoutSpec(kind, "round_end", cast(int, p["winners_ko_to"]))


#: The plan words the d20pool kinds give (R-D20-PLAN-1..2); the same names
#: as ``referee.plan.ast``'s FEATURE_* (tests/test_plan_gate_d20.py checks it).
_D20_DROP = "the `drop N dice` clause (d20pool)"
_D20_BOOST = "the `boost` clause (d20pool)"
_D20_RECOVER = "the `recover` clause (d20pool)"
_D20_PUSH = "the `push` clause (d20pool)"
_D20_GRAPPLE = "the `grapple` clause (d20pool)"
_D20_KO = "the `ko` condition (d20pool)"
_D20_GRAPPLED = "the `grappled` condition (d20pool)"

_D20_KINDS: tuple[KindInfo, ...] = (
    KindInfo("initiative", "area_number", "R-D20-ORDER-1..3",
             {"numbering": _one_of("rings"), "tie_die": _int_in(2, 100)}, ("numbering", "tie_die"), _area_number),
    KindInfo("action", "support_and_action", "R-D20-TURN-1..3",
             {"uses": _int_in(1, 1), "recover": _ABILITY_CHECK}, ("uses",), _support_and_action,
             features=frozenset({_D20_RECOVER})),
    KindInfo("movement", "points", "R-D20-MOVE-1",
             {"base": _int_in(0, 20), "per_reflex": _int_in(1, 20), "engaging_ends_move": _is_bool},
             ("base", "per_reflex", "engaging_ends_move"), _points),
    KindInfo("hit", "d20_pool", "R-D20-CHECK-*, R-D20-HIT-*",
             {"sides": _int_in(2, 100), "drop_bonus": _int_in(0, 20), "critical_bonus": _int_in(0, 20),
              "attack_modifier": _one_of("printed"), "defence_dice": _ABILITY_CHECK,
              "sensitivity": _mapping_of({"base": _int_in(0, 100), "ability": _ABILITY_CHECK}),
              "ability": _mapping_of({"melee_physical": _ABILITY_CHECK, "ranged_physical": _ABILITY_CHECK,
                                      "spiritual": _ABILITY_CHECK}),
              "boost_cap": _ABILITY_CHECK,
              "push": _mapping_of({"ability": _ABILITY_CHECK}),
              "grapple": _mapping_of({"ability": _ABILITY_CHECK, "turns": _int_in(1, 9)})},
             ("sides", "drop_bonus", "critical_bonus", "attack_modifier", "defence_dice", "sensitivity",
              "ability", "push", "grapple"), _d20_pool,
             features=frozenset({_D20_DROP, _D20_BOOST, _D20_PUSH, _D20_GRAPPLE, _D20_GRAPPLED})),
    KindInfo("damage", "margin", "R-D20-HIT-2", build=_plain),
    KindInfo("end", "wipeout", "R-D20-END-1..2",
             {"at": _one_of("round_end"), "winners_ko_to": _int_in(1, 99)}, ("at", "winners_ko_to"), _wipeout,
             features=frozenset({_D20_KO})),
)
_BUILT = _BUILT + _D20_KINDS

#: slot -> kind -> what the loader knows of it.  Extended only through
#: :func:`register_kind` (a house implementation, or a test double).
KINDS: dict[str, dict[str, KindInfo]] = {slot: {} for slot in SLOTS}
for _info in _BUILT + tuple(KindInfo(s, k, src) for s, k, src in _PLANNED):
    KINDS[_info.slot][_info.kind] = _info


def register_kind(info: KindInfo) -> None:
    """Make a kind known to the loader (its engine side registers apart).

    :raises ValueError: for an unknown slot or a name already taken.
    """
    if info.slot not in KINDS:
        raise ValueError(f"unknown mechanics slot {info.slot!r}; slots: {', '.join(SLOTS)}")
    if info.kind in KINDS[info.slot]:
        raise ValueError(f"{info.slot} kind {info.kind!r} is already registered")
    KINDS[info.slot][info.kind] = info


def unregister_kind(slot: str, kind: str) -> None:
    """Forget a kind registered by :func:`register_kind` (tests clean up)."""
    KINDS[slot].pop(kind, None)


# ---------------------------------------------------------------------------
# Checking and building


def _did_you_mean(word: str, choices: Sequence[str]) -> str | None:
    close = difflib.get_close_matches(word, choices, n=1)
    return f"did you mean {close[0]!r}?" if close else None


def mechanics_diagnostics(doc: YamlDocument, path: tuple[str, ...] = ("mechanics",)) -> list[Diagnostic]:
    """Every problem of a schema-valid ``mechanics:`` block, each at its field:
    an unknown kind (did-you-mean), a kind not built yet, a parameter that
    means nothing for its kind, a missing or ill-typed parameter."""
    block = cast(Mapping[str, Mapping[str, object]], doc.data)
    for key in path:
        block = cast(Mapping[str, Mapping[str, object]], block[key])
    diags: list[Diagnostic] = []
    for slot in SLOTS:
        entry = block[slot]
        kind = str(entry["kind"])
        where = (*path, slot)
        info = KINDS[slot].get(kind)
        if info is None:
            elsewhere = [s for s in SLOTS if kind in KINDS[s]]
            hint = (f"{kind!r} is a kind of `{elsewhere[0]}`, not of `{slot}`" if elsewhere
                    else _did_you_mean(kind, sorted(KINDS[slot])))
            diags.append(doc.diagnostic((*where, "kind"), "unknown-mechanic",
                                        f"no {slot} mechanic named {kind!r}; {slot} kinds: {', '.join(sorted(KINDS[slot]))}",
                                        hint=hint))
            continue
        if not info.built:
            diags.append(doc.diagnostic((*where, "kind"), "mechanic-not-implemented",
                                        f"{slot} kind {kind!r} ({info.source}) is not implemented yet in this version",
                                        hint=f"built {slot} kinds: {', '.join(k for k, i in sorted(KINDS[slot].items()) if i.built)}"))
            continue
        for name, value in entry.items():
            if name == "kind":
                continue
            check = info.params.get(name)
            if check is None:
                if name in info.planned_params:
                    diags.append(doc.diagnostic((*where, name), "mechanic-not-implemented",
                                                f"parameter {name!r} of {slot} kind {kind!r} is not implemented yet in this version",
                                                at_key=True))
                else:
                    takes = ", ".join(info.params) if info.params else "no parameters"
                    diags.append(doc.diagnostic((*where, name), "unknown-parameter",
                                                f"{name!r} means nothing for {slot} kind {kind!r} (it takes {takes})",
                                                hint=_did_you_mean(name, list(info.params)), at_key=True))
                continue
            for inner, expected in check(value):
                diags.append(doc.diagnostic((*where, name, *inner), "invalid-value",
                                            f"{slot} {kind} {name}: expected {expected}"))
        for name in info.required:
            if name not in entry:
                diags.append(doc.diagnostic((*where, "kind"), "missing-field",
                                            f"{slot} kind {kind!r} needs {name!r}"))
    diags += _partner_diagnostics(doc, block, path)
    return diags


#: Kinds that run only beside certain others (slot, kind) -> what they need:
#: (slot, kind, a parameter that must be written or None).  soulwired's
#: action moves by points with terrain costs and reads d6_pool's numbers.
PARTNERS: dict[tuple[str, str], tuple[tuple[str, str, str | None], ...]] = {
    ("action", "soul"): (("movement", "points", "barrier_cost"), ("hit", "d6_pool", None)),
}


def _partner_diagnostics(doc: YamlDocument, block: Mapping[str, Mapping[str, object]],
                         path: tuple[str, ...]) -> list[Diagnostic]:
    diags: list[Diagnostic] = []
    for slot in SLOTS:
        kind = str(block[slot]["kind"])
        for other, other_kind, param in PARTNERS.get((slot, kind), ()):
            entry = block[other]
            if str(entry["kind"]) != other_kind or (param is not None and param not in entry):
                needs = f"{other}: {{kind: {other_kind}" + (f", {param}: ...}}" if param else "}")
                diags.append(doc.diagnostic((*path, slot, "kind"), "mechanic-needs-partner",
                                            f"{slot} kind {kind!r} runs only with {needs}"))
    return diags


def build_mechanics_spec(block: Mapping[str, Mapping[str, object]]) -> MechanicsSpec:
    """The typed block from data :func:`mechanics_diagnostics` accepted."""
    specs: dict[str, MechanicSpec] = {}
    for slot in SLOTS:
        entry = block[slot]
        kind = str(entry["kind"])
        build = KINDS[slot][kind].build
        assert build is not None, f"{slot} kind {kind!r} passed the checks but is not built"
        specs[slot] = build(kind, {k: v for k, v in entry.items() if k != "kind"})
    return MechanicsSpec(**specs)


# --- soulwired (variant-soulwired.md) ---


@dataclass(frozen=True)
class AbilityInitiativeSpec(MechanicSpec):
    """``initiative: {kind: ability, ability: reflex, tie_die: 100}``
    (R-SOUL-INIT-1): higher ability first; ties by one die of ``tie_die``
    faces per tied character, rolled once per battle."""

    ability: Ability = "reflex"
    tie_die: int = 100


def _ability_initiative(kind: str, p: Mapping[str, object]) -> MechanicSpec:
    return AbilityInitiativeSpec(kind, cast(Ability, p["ability"]), cast(int, p["tie_die"]))


register_kind(KindInfo("initiative", "ability", "R-SOUL-INIT-1",
                       {"ability": _ABILITY_CHECK, "tie_die": _int_in(2, 1000)},
                       ("ability", "tie_die"), _ability_initiative))


@dataclass(frozen=True)
class PoolAbilities:
    """R-SOUL-CHECK-3: which ability an attack check rolls."""

    melee_physical: Ability = "body"
    ranged_physical: Ability = "reflex"
    spiritual: Ability = "intellect"


@dataclass(frozen=True)
class D6PoolSpec(MechanicSpec):
    """``hit: {kind: d6_pool, ...}`` (R-SOUL-CHECK-*, R-SOUL-HIT-*): a pool of
    d6 against a difficulty face, then the targets' evasion dice."""

    normal: int = 4
    min: int = 2
    max: int = 6
    focus: int = -1
    maneuver: int = 1
    physical_elements: tuple[str, ...] = ("sword",)
    melee_max_range: int = 0
    ability: PoolAbilities = PoolAbilities()
    default_commit: int = 2
    #: R-SOUL-STANCE-2: the manoeuvre check's ability and what success gives.
    maneuver_ability: Ability = "reflex"
    maneuver_movement: int = 1
    maneuver_evasion_dice: int = 1
    #: R-SOUL-FILE-1: the evasion dice garb ``evasive`` adds (issue 12).
    evasive_dice: int = 1


@dataclass(frozen=True)
class HardModeSpec(MechanicSpec):
    """``stall: {kind: hard_mode, to_level_1: 2, to_level_2: 2, melee_only:
    true}`` (R-SOUL-HARD-1..3): stalled turns raise melee evasion difficulty."""

    to_level_1: int = 2
    to_level_2: int = 2
    melee_only: bool = True


_ELEMENTS = tuple(e.value for e in Element)


def _elements(value: object) -> Problems:
    ok = isinstance(value, list) and value and all(v in _ELEMENTS for v in value) and len(set(value)) == len(value)
    return [] if ok else [((), "a list of distinct elements among " + ", ".join(_ELEMENTS))]


def _only_true(value: object) -> Problems:
    return [] if value is True else [((), "true (only melee evasion is built)")]


_POOL_ABILITY = _mapping_of({k: _ABILITY_CHECK for k in ("melee_physical", "ranged_physical", "spiritual")})
_MANEUVER = _mapping_of({"ability": _ABILITY_CHECK, "movement": _int_in(0, 9), "evasion_dice": _int_in(0, 9)})
_EVASION = _mapping_of({"dice": _one_of("highest_ability"), "default_commit": _int_in(0, 99)})


def _d6_pool(kind: str, p: Mapping[str, object]) -> MechanicSpec:
    ability = cast(dict[str, Ability], p["ability"])
    evasion = cast(dict[str, object], p["evasion"])
    maneuver = cast(dict[str, object], p["maneuver_check"])
    return D6PoolSpec(kind, cast(int, p["normal"]), cast(int, p["min"]), cast(int, p["max"]),
                      cast(int, p["focus"]), cast(int, p["maneuver"]),
                      tuple(cast(list[str], p["physical_elements"])), cast(int, p["melee_max_range"]),
                      PoolAbilities(ability["melee_physical"], ability["ranged_physical"], ability["spiritual"]),
                      cast(int, evasion["default_commit"]), cast(Ability, maneuver["ability"]),
                      cast(int, maneuver["movement"]), cast(int, maneuver["evasion_dice"]))


def _hard_mode(kind: str, p: Mapping[str, object]) -> MechanicSpec:
    return HardModeSpec(kind, cast(int, p["to_level_1"]), cast(int, p["to_level_2"]), cast(bool, p["melee_only"]))


_D6_PARAMS: dict[str, ParamCheck] = {
    "normal": _int_in(2, 6), "min": _int_in(1, 6), "max": _int_in(1, 6), "focus": _int_in(-5, 5),
    "maneuver": _int_in(-5, 5), "physical_elements": _elements, "melee_max_range": _int_in(0, 9),
    "ability": _POOL_ABILITY, "maneuver_check": _MANEUVER, "evasion": _EVASION,
}
register_kind(KindInfo("hit", "d6_pool", "R-SOUL-CHECK-1..3, R-SOUL-HIT-1..6", _D6_PARAMS, tuple(_D6_PARAMS), _d6_pool))
register_kind(KindInfo("stall", "hard_mode", "R-SOUL-HARD-1..3",
                       {"to_level_1": _int_in(1, 99), "to_level_2": _int_in(1, 99), "melee_only": _only_true},
                       ("to_level_1", "to_level_2", "melee_only"), _hard_mode))
register_kind(KindInfo("end", "head_count", "R-GOAL-1/2 (variant-soulwired.md)", build=_plain))


# --- orm (variant-orm.md) ---
#: The orm kinds this version builds replace their "planned" entries above.
for _info in (KindInfo("range", "manhattan", "R-ORM-MAP-1", build=_plain),):
    KINDS[_info.slot][_info.kind] = _info


@dataclass(frozen=True)
class BlockingStepsSpec(StepsSpec):
    """``movement: {kind: steps, enemies_block: true, engagement_lock: false}``
    (R-ORM-MOVE-1): routes go around areas holding an enemy of the mover, and
    an enemy in the mover's area does not hold it.  A subclass, built only
    when one of the two is written, so tcgt's spec (and every report listing
    its parameters) is unchanged."""

    enemies_block: bool = False
    engagement_lock: bool = True
    knockback: Literal["direct", "axis"] = "direct"
    #: R-ORM-MOVE-2: characters of one side an area holds; 0: no limit.
    capacity_per_side: int = 0

    def extra_features(self) -> frozenset[str]:
        """R-ORM-BATTLE-1: blocked terrain goes with ORM's routes around obstacles."""
        return frozenset({ORM_TERRAIN}) if self.enemies_block else frozenset()


_ORM_STEP_PARAMS = ("enemies_block", "engagement_lock", "knockback", "capacity_per_side")


def _blocking_steps(kind: str, p: Mapping[str, object]) -> MechanicSpec:
    if not any(name in p for name in _ORM_STEP_PARAMS):
        return _steps(kind, p)
    return BlockingStepsSpec(kind, cast(Adjacency, p.get("adjacency", "king")),
                             bool(p.get("enemies_block", False)), bool(p.get("engagement_lock", True)),
                             cast(Literal["direct", "axis"], p.get("knockback", "direct")),
                             cast(int, p.get("capacity_per_side", 0)))


_tcgt_steps = KINDS["movement"]["steps"]
KINDS["movement"]["steps"] = KindInfo(
    "movement", "steps", _tcgt_steps.source + ", R-ORM-MOVE-1/2",
    {**_tcgt_steps.params, "enemies_block": _is_bool, "engagement_lock": _is_bool,
     "knockback": _one_of("direct", "axis"), "capacity_per_side": _int_in(1, 99)},
    _tcgt_steps.required, _blocking_steps)

#: Feature names (R-ORM-CHECK-1): what the orm kinds let files write.
ORM_FOLLOW_UP = "the `never follow up` clause (orm)"
ORM_NORMAL_ATTACK = "the `normal-attack` skill (orm)"
ORM_DEFENCE = "the sheet's `defence` block (orm)"
ORM_PCS = "the battle file's `pcs` field (orm)"
#: Blocked terrain (R-ORM-BATTLE-1, R-SOUL-FILE-2): ``terrain: {blocked: [...]}``.
ORM_TERRAIN = "the battle file's `terrain: {blocked: [...]}`"

OrmAbility = Literal["body", "reflex", "intellect"]


@dataclass(frozen=True)
class ValuePlusDiceSpec(MechanicSpec):
    """``initiative: {kind: value_plus_dice, value: [reflex, intellect], dice: 1,
    sides: 6, reroll: every_turn, ties: [pcs, reflex, draw]}`` (R-ORM-INIT-1/2)."""

    value: tuple[str, ...] = ("reflex", "intellect")
    dice: int = 1
    sides: int = 6
    ties: tuple[str, ...] = ("pcs", "reflex", "draw")


@dataclass(frozen=True)
class NormalAttackSpec:
    """R-ORM-ACT-5: the innate normal attack's numbers."""

    power: int = 2
    element: str = "sword"
    range: int = 1
    check: str = "body"


@dataclass(frozen=True)
class SimpleMainSpec(MechanicSpec):
    """``action: {kind: simple_main, ...}`` (R-ORM-ACT-*, R-ORM-SUP-2)."""

    simple_uses: int = 2
    move_base: int = 1
    move_per_reflex: int = 3
    normal_attack: NormalAttackSpec = NormalAttackSpec()
    follow_up: bool = True


@dataclass(frozen=True)
class OpposedNd6Spec(MechanicSpec):
    """``hit: {kind: opposed_nd6, ...}`` (R-ORM-ABIL-1, R-ORM-CHK-*, R-ORM-SUP-1)."""

    dice_by_ability: tuple[int, ...] = (2, 2, 3, 3, 3, 4, 4, 4, 5)
    critical_sixes: int = 2
    critical_bonus: int = 10
    support_bonus: int = 2


@dataclass(frozen=True)
class PowerPlusDiceSpec(MechanicSpec):
    """``damage: {kind: power_plus_dice, ...}`` (R-ORM-DMG-1/2, R-ORM-SHEET-1)."""

    dice: int = 2
    sides: int = 6
    critical_bonus: int = 10
    defence_points: int = 3
    heal_dice: int = 2


def _ability_list(value: object) -> Problems:
    ok = isinstance(value, list) and bool(value) and all(v in _ABILITY for v in value)
    return [] if ok else [((), "a list of abilities among body, reflex, intellect")]


def _orm_ties(value: object) -> Problems:
    return [] if value == ["pcs", "reflex", "draw"] else [((), "[pcs, reflex, draw] (R-ORM-INIT-2)")]


def _dice_table(value: object) -> Problems:
    ok = isinstance(value, list) and bool(value) and all(_is_int(v) and 1 <= cast(int, v) <= 20 for v in value)
    return [] if ok else [((), "a list of dice counts from 1 to 20, one per ability value")]


def _value_plus_dice(kind: str, p: Mapping[str, object]) -> MechanicSpec:
    return ValuePlusDiceSpec(kind, tuple(cast(list[str], p["value"])), cast(int, p["dice"]), cast(int, p["sides"]),
                             tuple(cast(list[str], p.get("ties", ["pcs", "reflex", "draw"]))))


def _simple_main(kind: str, p: Mapping[str, object]) -> MechanicSpec:
    points = cast(Mapping[str, int], p["move_points"])
    na = cast(Mapping[str, object], p["normal_attack"])
    return SimpleMainSpec(kind, cast(int, p["simple_uses"]), points["base"], points["per_reflex"],
                          NormalAttackSpec(cast(int, na["power"]), str(na["element"]), cast(int, na["range"]),
                                           str(na["check"])), bool(p.get("follow_up", True)))


def _opposed_nd6(kind: str, p: Mapping[str, object]) -> MechanicSpec:
    critical = cast(Mapping[str, int], p["critical"])
    return OpposedNd6Spec(kind, tuple(cast(list[int], p["dice_by_ability"])), critical["sixes"], critical["bonus"],
                          cast(int, p["support_bonus"]))


def _power_plus_dice(kind: str, p: Mapping[str, object]) -> MechanicSpec:
    return PowerPlusDiceSpec(kind, cast(int, p["dice"]), cast(int, p["sides"]), cast(int, p["critical_bonus"]),
                             cast(int, p["defence_points"]), cast(int, p["heal_dice"]))


_ORM_BUILT: tuple[KindInfo, ...] = (
    KindInfo("initiative", "value_plus_dice", "R-ORM-INIT-1/2",
             {"value": _ability_list, "dice": _int_in(1, 9), "sides": _int_in(2, 20),
              "reroll": _one_of("every_turn"), "ties": _orm_ties},
             ("value", "dice", "sides"), _value_plus_dice, features=frozenset({ORM_PCS})),
    KindInfo("action", "simple_main", "R-ORM-ACT-1..5, R-ORM-SUP-2",
             {"simple_uses": _int_in(1, 9),
              "move_points": _mapping_of({"base": _int_in(0, 20), "per_reflex": _int_in(1, 20)}),
              "normal_attack": _mapping_of({"power": _int_in(0, 99), "element": _one_of(*_ELEMENTS),
                                            "range": _int_in(0, 9), "check": _ABILITY_CHECK}),
              "follow_up": _is_bool},
             ("simple_uses", "move_points", "normal_attack"), _simple_main,
             features=frozenset({ORM_FOLLOW_UP, ORM_NORMAL_ATTACK})),
    KindInfo("hit", "opposed_nd6", "R-ORM-ABIL-1, R-ORM-CHK-1..4, R-ORM-SUP-1",
             {"dice_by_ability": _dice_table,
              "critical": _mapping_of({"sixes": _int_in(1, 20), "bonus": _int_in(0, 99)}),
              "fumble": _one_of("fails"), "ties": _one_of("reaction"), "support_bonus": _int_in(0, 99)},
             ("dice_by_ability", "critical", "support_bonus"), _opposed_nd6),
    KindInfo("damage", "power_plus_dice", "R-ORM-DMG-1..3, R-ORM-SHEET-1",
             {"dice": _int_in(0, 9), "sides": _int_in(2, 20), "critical_bonus": _int_in(0, 99),
              "defence": _one_of("element"), "defence_points": _int_in(0, 99), "heal_dice": _int_in(0, 9)},
             ("dice", "sides", "critical_bonus", "defence_points", "heal_dice"), _power_plus_dice,
             features=frozenset({ORM_DEFENCE})),
)
for _info in _ORM_BUILT:
    KINDS[_info.slot][_info.kind] = _info  # replaces the planned entry of the same name

# --- wiz (variant-wiz.md) ---------------------------------------------------
# Built so far: initiative `in_value` (R-WIZ-IN-*) and hit `percentile`
# (R-WIZ-HIT-*, R-WIZ-MELEE-*, R-WIZ-MIS-1).  `one_main_use` and
# `rolled_groups` stay planned.

WizSize = Literal["T", "S", "M", "L", "H"]


@dataclass(frozen=True)
class InValueSpec(MechanicSpec):
    """``initiative: {kind: in_value, tie: decimal_dice}`` (R-WIZ-IN-1/2):
    order by IN, ties broken by R-TURN-1's decimal dice (rolled as in tcgt)."""

    tie: str = "decimal_dice"
    dice: int = 3
    sides: int = 6
    reroll: Reroll = "once_per_battle"


@dataclass(frozen=True)
class PercentileSpec(MechanicSpec):
    """``hit: {kind: percentile, ...}`` (R-WIZ-HIT-1/2, MELEE-2, MIS-1): a
    d100 per target of a weapon use on enemies, hitting on a face <= p."""

    base: int = 70
    per_reflex: int = 5
    min: int = 5
    max: int = 95
    side: int = 10
    back: int = 20
    missile_base: int = 5
    missile_per_extra_opponent: int = 2
    sizes: tuple[str, ...] = ("T", "S", "M", "L", "H")


def _int_map(*keys: str, low: int = 0, high: int = 100) -> ParamCheck:
    """A mapping of exactly ``keys``, each a whole number in low..high."""
    def check(value: object) -> Problems:
        shape = "{" + ", ".join(f"{k}: N" for k in keys) + "}"
        if not isinstance(value, dict):
            return [((), shape)]
        problems: Problems = [((k,), f"no field {k!r} here: {shape}") for k in sorted(set(value) - set(keys))]
        for k in keys:
            if k not in value:
                problems.append(((), f"{shape} (missing {k})"))
            elif not (_is_int(value[k]) and low <= cast(int, value[k]) <= high):
                problems.append(((k,), f"a whole number from {low} to {high}"))
        return problems
    return check


def _sizes(value: object) -> Problems:
    ok = isinstance(value, list) and value == ["T", "S", "M", "L", "H"]
    return [] if ok else [((), "the size ranks [T, S, M, L, H] (R-WIZ-MIS-1)")]


def _in_value(kind: str, p: Mapping[str, object]) -> MechanicSpec:
    return InValueSpec(kind, str(p.get("tie", "decimal_dice")), cast(int, p.get("dice", 3)),
                       cast(int, p.get("sides", 6)), cast(Reroll, p.get("reroll", "once_per_battle")))


def _percentile(kind: str, p: Mapping[str, object]) -> MechanicSpec:
    """The percentile spec; with ``aim: true`` the aim module's subclass
    (:class:`AimPercentileSpec`, R-WIZ-AIM-1)."""
    facing = cast(Mapping[str, int], p.get("facing", {"side": 10, "back": 20}))
    missile = cast(Mapping[str, int], p.get("missile", {"base": 5, "per_extra_opponent": 2}))
    spec = PercentileSpec(kind, cast(int, p.get("base", 70)), cast(int, p.get("per_reflex", 5)),
                          cast(int, p.get("min", 5)), cast(int, p.get("max", 95)),
                          facing["side"], facing["back"], missile["base"], missile["per_extra_opponent"],
                          tuple(cast(list[str], p.get("sizes", ["T", "S", "M", "L", "H"]))))
    if p.get("aim") is True:
        return AimPercentileSpec(**{f.name: getattr(spec, f.name) for f in fields(spec)}, aim=True)
    return spec


_WIZ_BUILT: tuple[KindInfo, ...] = (
    KindInfo("initiative", "in_value", "R-WIZ-IN-1/2 (variant-wiz.md)",
             {"tie": _one_of("decimal_dice"), "dice": _int_in(1, 9), "sides": _int_in(2, 9),
              "reroll": _one_of("once_per_battle", "every_turn")}, (), _in_value),
    KindInfo("hit", "percentile", "R-WIZ-HIT-1/2, MELEE-1/2, MIS-1 (variant-wiz.md)",
             {"base": _int_in(0, 100), "per_reflex": _int_in(0, 100), "min": _int_in(0, 100),
              "max": _int_in(0, 100), "facing": _int_map("side", "back"),
              "missile": _int_map("base", "per_extra_opponent"), "sizes": _sizes, "aim": _is_bool},
             (), _percentile),
)
for _info in _WIZ_BUILT:
    KINDS[_info.slot][_info.kind] = _info  # replaces the planned entry of the same name


# --- wiz: the action and the area (variant-wiz.md R-WIZ-ACT-1, CAST-*, AREA-*) ---


@dataclass(frozen=True)
class OneMainUseSpec(MechanicSpec):
    """``action: {kind: one_main_use, cast_delay: true}`` (R-WIZ-ACT-1,
    R-WIZ-CAST-1..3): one main use a turn; spells resolve later by level."""

    cast_delay: bool = True


@dataclass(frozen=True)
class RolledGroupsSpec(MechanicSpec):
    """``area: {kind: rolled_groups, extra_group_penalty: 2, exclusion_cost: 1}``
    (R-WIZ-AREA-1..8): AdB targets taken from groups of neighbours."""

    extra_group_penalty: int = 2
    exclusion_cost: int = 1


def _one_main_use(kind: str, p: Mapping[str, object]) -> MechanicSpec:
    return OneMainUseSpec(kind, bool(p.get("cast_delay", True)))


def _rolled_groups(kind: str, p: Mapping[str, object]) -> MechanicSpec:
    return RolledGroupsSpec(kind, cast(int, p.get("extra_group_penalty", 2)), cast(int, p.get("exclusion_cost", 1)))


#: What the wiz kinds let sheets, battle files and plans write (R-WIZ-CHECK-1).
WIZ_BLOCK = "the `wiz:` sheet block (wiz)"
WIZ_SIZE = "a battle file's `size` (wiz)"
WIZ_SPARE = "the `spare` clause (wiz)"
WIZ_FROZEN = "the `frozen` condition (wiz)"
WIZ_ENEMY_WITH = "`enemy with` (wiz)"
WIZ_AIM = "the `take aim at` clause (wiz, with aim on)"
WIZ_TERRAIN = ORM_TERRAIN  # R-WIZ-BATTLE-1: the same `terrain: {blocked: [...]}` as orm's

for _info in (
    KindInfo("action", "one_main_use", "R-WIZ-ACT-1, R-WIZ-CAST-1..3 (variant-wiz.md)",
             {"cast_delay": _is_bool}, (), _one_main_use, features=frozenset({WIZ_BLOCK})),
    KindInfo("area", "rolled_groups", "R-WIZ-AREA-1..8 (variant-wiz.md)",
             {"extra_group_penalty": _int_in(0, 99), "exclusion_cost": _int_in(0, 99)}, (), _rolled_groups,
             features=frozenset({WIZ_BLOCK, WIZ_SPARE, WIZ_FROZEN, WIZ_ENEMY_WITH})),
):
    KINDS[_info.slot][_info.kind] = _info  # replaces the planned entry of the same name
# IN reads move and flexible, the hit roll wide_view, sense and the sizes.
KINDS["initiative"]["in_value"] = replace(KINDS["initiative"]["in_value"], features=frozenset({WIZ_BLOCK}))
KINDS["hit"]["percentile"] = replace(KINDS["hit"]["percentile"], features=frozenset({WIZ_BLOCK, WIZ_SIZE, WIZ_TERRAIN}))


@dataclass(frozen=True)
class WizBlockRules:
    """``sheet_blocks: {wiz: {...}}`` (R-WIZ-SHEET-1): the level budget per
    point of intellect, the highest level, the highest ``wide_view``."""

    points_per_intellect: int = 1
    max_level: int = 5
    max_wide_view: int = 2


def wiz_block_rules(data: Mapping[str, object] | None) -> WizBlockRules:
    """The ruleset's ``sheet_blocks.wiz`` numbers (defaults: the spec's)."""
    blocks = data.get("sheet_blocks") if isinstance(data, Mapping) else None
    raw = blocks.get("wiz") if isinstance(blocks, Mapping) else None
    if not isinstance(raw, Mapping):
        return WizBlockRules()
    return WizBlockRules(int(cast(int, raw.get("points_per_intellect", 1))), int(cast(int, raw.get("max_level", 5))),
                         int(cast(int, raw.get("max_wide_view", 2))))


#: Sheet blocks a feature lets sheets carry: feature -> the block's key.
SHEET_BLOCKS: dict[str, str] = {WIZ_BLOCK: "wiz"}


def sheet_blocks_of(spec: MechanicsSpec) -> tuple[str, ...]:
    """The sheet blocks whose levels these mechanics read (sorted keys)."""
    features = spec.features()
    return tuple(sorted(block for feature, block in SHEET_BLOCKS.items() if feature in features))
# --- soulwired, issue 12 (variant-soulwired.md): the soul action, points with
# terrain costs, armour.  Each extends a kind already built: the extra
# parameters build a subclass spec only when written, so d20pool's and
# tcgt's specs (and every report listing them) stay what they were.

#: Feature names (``referee.plan.gate``'s ``clause-not-in-ruleset`` messages).
SOUL_STANCE = "the stance clauses `focus`, `maneuver`, `no stance` (soulwired)"
SOUL_EVASION = "the evasion clauses `evade with`, `never evade` (soulwired)"
SOUL_OBJECT = "the `attack object at SQ` clause (soulwired)"
SOUL_CONDITIONS = "the conditions `evasion dice`, `attacked`, `hard mode`, `ultra hard` (soulwired)"
SOUL_INCOMING = "the conditions `incoming damage`, `incoming melee` (soulwired)"
SOUL_PREFERENCE = "the preference `fewest evasion dice` (soulwired)"
SOUL_SHEET = "the sheet block `soulwired:` (soulwired)"
#: The whole terrain block: barriers and objects besides blocked areas (R-SOUL-FILE-2).
SOUL_TERRAIN = "the battle file's terrain `barriers` and `objects` (soulwired)"
#: The battle file's ``terrain:`` fields, in the order messages list them.
TERRAIN_FIELDS: tuple[str, ...] = ("blocked", "barriers", "objects")


def terrain_fields(spec: MechanicsSpec) -> tuple[str, ...]:
    """The battle file's ``terrain:`` fields these mechanics take: all three
    with soulwired's whole block (R-SOUL-FILE-2), but none at all when a kind
    narrows the field ("a ruleset that extends it and turns narrowing back on
    rejects `terrain`": R-NARROW-2 knows no terrain); ``blocked`` alone with
    orm's or wiz's blocked terrain (R-ORM-BATTLE-1, R-WIZ-BATTLE-1); else none.
    The battle-file loader and ``replay``'s check of a report's inputs both
    ask this, so a report can carry only terrain its battle file could."""
    names = spec.features()
    if SOUL_TERRAIN in names:
        return () if spec.narrows_field() else TERRAIN_FIELDS
    return ("blocked",) if ORM_TERRAIN in names else ()
Garb = Literal["evasive", "armoured"]


@dataclass(frozen=True)
class SoulActionSpec(MechanicSpec):
    """``action: {kind: soul, offensive_uses: 1}`` (R-SOUL-ACT-1/2,
    R-SOUL-STANCE-*): stance, first move, the walk with at most
    ``offensive_uses`` offensive uses, maintenance, second move."""

    offensive_uses: int = 1


@dataclass(frozen=True)
class SoulPointsSpec(PointsSpec):
    """``movement: {kind: points, ..., barrier_cost: 3, barrier_start_points:
    1, minimum_move: true}`` (R-SOUL-MOVE-1/2): steps cost 1, or
    ``barrier_cost`` into a barrier area; a character that never evades and
    starts in a barrier has ``barrier_start_points``; the minimum move lets a
    first unaffordable step be taken.  Gives the battle file's ``terrain:``."""

    barrier_cost: int = 3
    barrier_start_points: int = 1
    minimum_move: bool = True

    def extra_features(self) -> frozenset[str]:
        return frozenset({ORM_TERRAIN, SOUL_TERRAIN})


@dataclass(frozen=True)
class ArmourSpec(MechanicSpec):
    """``damage: {kind: printed, armour: physical, armoured: 1}``
    (R-SOUL-DMG-1): printed damage, less ``armoured`` against physical damage
    for a character with garb ``armoured``."""

    armour: Literal["physical"] = "physical"
    armoured: int = 1


_SOUL_POINT_PARAMS = ("barrier_cost", "barrier_start_points", "minimum_move")


def _soul_points(kind: str, p: Mapping[str, object]) -> MechanicSpec:
    if not any(name in p for name in _SOUL_POINT_PARAMS):
        return _points(kind, p)
    return SoulPointsSpec(kind, cast(int, p["base"]), cast(int, p["per_reflex"]), cast(bool, p["engaging_ends_move"]),
                          cast(int, p.get("barrier_cost", 3)), cast(int, p.get("barrier_start_points", 1)),
                          cast(bool, p.get("minimum_move", True)))


def _armour(kind: str, p: Mapping[str, object]) -> MechanicSpec:
    if "armour" not in p:
        return _plain(kind, p)
    return ArmourSpec(kind, "physical", cast(int, p.get("armoured", 1)))


def _soul_action(kind: str, p: Mapping[str, object]) -> MechanicSpec:
    return SoulActionSpec(kind, cast(int, p["offensive_uses"]))


def _soul_evasion(value: object) -> Problems:
    """hit d6_pool's ``evasion``: dice and default_commit, and optionally
    ``evasive`` (the dice garb ``evasive`` adds, R-SOUL-FILE-1)."""
    shape = "{dice: highest_ability, default_commit: N, evasive: N}"
    if not isinstance(value, dict):
        return [((), f"a mapping {shape}")]
    problems: Problems = [((k,), f"no field {k!r} here: {shape}")
                          for k in sorted(set(value) - {"dice", "default_commit", "evasive"}, key=str)]
    problems += _EVASION({k: v for k, v in value.items() if k != "evasive"})
    if "evasive" in value:
        problems += [(("evasive", *path), e) for path, e in _int_in(0, 9)(value["evasive"])]
    return problems


def _d6_pool_soul(kind: str, p: Mapping[str, object]) -> MechanicSpec:
    spec = cast(D6PoolSpec, _d6_pool(kind, p))
    evasion = cast(dict[str, object], p["evasion"])
    return D6PoolSpec(**{**{f.name: getattr(spec, f.name) for f in fields(spec)},
                         "evasive_dice": cast(int, evasion.get("evasive", 1))})


_points_info = KINDS["movement"]["points"]
KINDS["movement"]["points"] = KindInfo(
    "movement", "points", _points_info.source + ", R-SOUL-MOVE-1/2",
    {**_points_info.params, "barrier_cost": _int_in(1, 9), "barrier_start_points": _int_in(0, 9),
     "minimum_move": _is_bool}, _points_info.required, _soul_points)
_printed_info = KINDS["damage"]["printed"]
KINDS["damage"]["printed"] = KindInfo(
    "damage", "printed", _printed_info.source + ", R-SOUL-DMG-1",
    {"armour": _one_of("physical"), "armoured": _int_in(0, 9)}, (), _armour)
KINDS["action"]["soul"] = KindInfo(
    "action", "soul", "R-SOUL-ACT-1/2, R-SOUL-STANCE-1..3", {"offensive_uses": _int_in(1, 9)},
    ("offensive_uses",), _soul_action,
    features=frozenset({SOUL_STANCE, SOUL_OBJECT, SOUL_CONDITIONS}))
_d6_info = KINDS["hit"]["d6_pool"]
KINDS["hit"]["d6_pool"] = KindInfo(
    "hit", "d6_pool", _d6_info.source, {**_d6_info.params, "evasion": _soul_evasion}, _d6_info.required,
    _d6_pool_soul, features=frozenset({SOUL_EVASION, SOUL_INCOMING, SOUL_PREFERENCE, SOUL_SHEET}))


# --- wiz: the aim module (variant-wiz.md R-WIZ-AIM-1) ---


@dataclass(frozen=True)
class AimPercentileSpec(PercentileSpec):
    """``hit: {kind: percentile, ..., aim: true}`` (R-WIZ-AIM-1): the percentile
    hit roll with the aim module on.  A subclass, built only when ``aim`` is
    true, so the built-in ``wiz`` spec (``aim: false``) and every report listing
    its parameters stay as they are."""

    aim: bool = True

    def extra_features(self) -> frozenset[str]:
        """R-WIZ-PLAN-1: ``take aim at`` is a plan word only with ``aim`` on;
        R-WIZ-CHECK-1 refuses it with ``aim`` off."""
        return frozenset({WIZ_AIM})

